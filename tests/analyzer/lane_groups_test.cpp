// LaneGroups, probed through barriers: for each OpControlBarrier in main, in
// order, whether a branch that decides whether it runs may split an aligned
// group of lanes.
#include <gtest/gtest.h>

#include "analyzer/lane_groups.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

std::vector<bool> splits(const std::string& body, uint32_t group,
                         const std::string& workgroup = "local_size_x = 256") {
  std::string source = "#version 450\n#extension GL_KHR_shader_subgroup_basic : require\n"
                       "#extension GL_KHR_shader_subgroup_clustered : require\n"
                       "layout(" + workgroup + ") in;\n"
                       "layout(binding = 0) buffer Data { float data[]; };\n"
                       "layout(push_constant) uniform P { uint n; };\n"
                       "void main() {\n" + body + "\n}\n";
  auto module = module_from_glsl(source);
  std::vector<bool> out;
  if (!module) return out;
  for (const ir::Function& function : module->functions()) {
    LaneGroups groups(*module, function, group);
    for (uint32_t b = 0; b < function.blocks.size(); ++b) {
      for (const ir::Instruction& i : function.blocks[b].instructions) {
        if (i.opcode() == spv::Op::OpControlBarrier) out.push_back(groups.splitting_branch(b) != nullptr);
      }
    }
  }
  return out;
}

TEST(LaneGroups, RangesEndingAtMultiplesOfTheGroupKeepItWhole) {
  EXPECT_EQ(splits(R"(
    uint idx = gl_LocalInvocationIndex;
    if (idx < 64u) barrier();
    if (idx < 66u) barrier();
    if (idx <= 63u) barrier();
    if (idx > 67u) barrier();
    if (idx > 66u) barrier();
    if (gl_SubgroupInvocationID >= 8u) barrier();)",
                   4),
            (std::vector<bool>{false, true, false, false, true, false}));
}

TEST(LaneGroups, DivisionShiftAndMaskDropTheLaneBits) {
  EXPECT_EQ(splits(R"(
    uint g = gl_GlobalInvocationID.x;
    if (g / 8u >= n) barrier();
    if ((g >> 3) % 5u == n) barrier();
    if ((g & ~7u) < n) barrier();
    if (g / 2u >= n) barrier();
    if ((g & 7u) < 4u) barrier();
    if ((g & 7u) < 5u) barrier();
    if (g % 2u == 0u) barrier();)",
                   8),
            (std::vector<bool>{false, false, false, true, true, true, true}));
  // A quad sees `g & 7 < 4` as whole quads.
  EXPECT_EQ(splits("if ((gl_GlobalInvocationID.x & 7u) < 4u) barrier();", 4), (std::vector<bool>{false}));
}

TEST(LaneGroups, BlockIndexesAndEarlyReturns) {
  // The block index of lane / 8, offset by a multiple of the workgroup's
  // blocks, then divided again: whole clusters of 8 return together.
  EXPECT_EQ(splits(R"(
    uint block = gl_WorkGroupID.x * n + gl_SubgroupInvocationID / 8u;
    if (block / 4u >= n) return;
    barrier();)",
                   8),
            (std::vector<bool>{false}));
  EXPECT_EQ(splits(R"(
    if (gl_GlobalInvocationID.x >= n) return;
    barrier();)",
                   4),
            (std::vector<bool>{true}));
}

TEST(LaneGroups, RowsHoldWholeGroupsOnlyWhenTheirWidthIsAMultiple) {
  EXPECT_EQ(splits("if (gl_LocalInvocationID.y < 2u) barrier(); if (gl_LocalInvocationID.x < 4u) barrier();", 4,
                   "local_size_x = 8, local_size_y = 8"),
            (std::vector<bool>{false, false}));
  EXPECT_EQ(splits("if (gl_LocalInvocationID.y < 2u) barrier();", 4, "local_size_x = 6, local_size_y = 8"),
            (std::vector<bool>{true}));
}

TEST(LaneGroups, ClusteredResultsAgreeWithinTheirCluster) {
  EXPECT_EQ(splits(R"(
    float v = data[gl_GlobalInvocationID.x];
    if (subgroupClusteredMax(v, 8u) > 1.0) barrier();
    if (subgroupClusteredMax(v, 2u) > 1.0) barrier();)",
                   4),
            (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace klint::testing
