// Disjointness: proofs that two accesses keep each invocation to elements no
// other invocation touches, and the cases where the proof must fail.
#include <gtest/gtest.h>

#include "analyzer/accesses.h"
#include "analyzer/disjointness.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

std::unique_ptr<Module> kernel(const std::string& layout, const std::string& body) {
  return module_from_glsl("#version 450\n" + layout +
                          "\nlayout(binding = 0) buffer Data { uint data[]; };\n"
                          "layout(push_constant) uniform P { uint n; };\n"
                          "shared uint tile[256];\n"
                          "void main() {\n" + body + "\n}\n");
}

// Whether the first and the last shared-memory access are proven disjoint.
bool first_and_last_disjoint(const Module& module) {
  const ir::Function& function = *module.entry_points().front().function;
  std::vector<const MemoryAccess*> shared;
  for (const MemoryAccess& access : module.accesses(function).all()) {
    if (access.storage == spv::StorageClass::Workgroup) shared.push_back(&access);
  }
  EXPECT_GE(shared.size(), 2u);
  if (shared.size() < 2) return false;
  return Disjointness(module, function).proven(*shared.front(), *shared.back());
}

TEST(Disjointness, OwnSlotsAreDisjoint) {
  auto module = kernel("layout(local_size_x = 16, local_size_y = 4) in;",
                       "uint i = gl_LocalInvocationID.y * 16 + gl_LocalInvocationID.x;"
                       "tile[i] = 1u; barrier(); data[gl_GlobalInvocationID.x] = tile[i];");
  ASSERT_TRUE(module);
  EXPECT_TRUE(first_and_last_disjoint(*module));
}

TEST(Disjointness, LoopsOverOwnSlotsAreDisjoint) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "for (uint k = 0; k < 4; ++k) tile[k * 64 + gl_LocalInvocationID.x] = k;"
                       "barrier();"
                       "uint s = 0; for (uint j = 0; j < 4; ++j) s += tile[gl_LocalInvocationID.x + j * 64];"
                       "data[gl_GlobalInvocationID.x] = s;");
  ASSERT_TRUE(module);
  EXPECT_TRUE(first_and_last_disjoint(*module));
}

TEST(Disjointness, ANeighboursSlotIsNot) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "tile[gl_LocalInvocationID.x] = 1u; barrier();"
                       "data[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];");
  ASSERT_TRUE(module);
  EXPECT_FALSE(first_and_last_disjoint(*module));
}

TEST(Disjointness, GuardsExcludeInvocations) {
  // Only the first 32 write; the others read slots no one wrote.
  auto module = kernel("layout(local_size_x = 64) in;",
                       "if (gl_LocalInvocationID.x < 32) tile[gl_LocalInvocationID.x + 32] = 1u; barrier();"
                       "if (gl_LocalInvocationID.x >= 32) data[gl_GlobalInvocationID.x] = tile[gl_LocalInvocationID.x + 64];");
  ASSERT_TRUE(module);
  EXPECT_TRUE(first_and_last_disjoint(*module));
}

TEST(Disjointness, UnknownIndicesFailTheProof) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "tile[gl_LocalInvocationID.x] = 1u; barrier();"
                       "data[gl_GlobalInvocationID.x] = tile[data[gl_LocalInvocationID.x] & 63u];");
  ASSERT_TRUE(module);
  EXPECT_FALSE(first_and_last_disjoint(*module));
}

TEST(Disjointness, SubgroupIdsFailTheProof) {
  auto module = module_from_glsl(
      "#version 450\n#extension GL_KHR_shader_subgroup_basic : enable\n"
      "layout(local_size_x = 64) in;\nlayout(binding = 0) buffer Data { uint data[]; };\n"
      "shared uint tile[64];\n"
      "void main() { tile[gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID] = 1u; barrier();"
      " data[gl_GlobalInvocationID.x] = tile[gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID]; }\n");
  ASSERT_TRUE(module);
  EXPECT_FALSE(first_and_last_disjoint(*module));
}

TEST(Disjointness, SpecializationConstantsFailTheProof) {
  // At the default size tile[tid + 64] is no one's; at 128 it is another invocation's.
  auto module = kernel("layout(local_size_x_id = 0) in;\nlayout(constant_id = 0) const uint WG = 64;",
                       "tile[gl_LocalInvocationID.x] = 1u; barrier();"
                       "data[gl_GlobalInvocationID.x] = tile[gl_LocalInvocationID.x + 64];");
  ASSERT_TRUE(module);
  EXPECT_FALSE(first_and_last_disjoint(*module));
}

}  // namespace
}  // namespace klint::testing
