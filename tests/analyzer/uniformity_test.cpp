// Uniformity, probed through barriers: for each OpControlBarrier in main, in
// order, whether it sits in control flow that differs between invocations.
#include <gtest/gtest.h>

#include "analyzer/uniformity.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

struct Probe {
  bool divergent;
  std::optional<spv::BuiltIn> source;
  uint64_t split = 0;  // where the condition splits the invocation indexes (Kind::IndexSplit)
};

// At subgroup scope when `max_subgroup_size` is set (0 is a valid size: unknown).
std::vector<Probe> probe(const std::string& body, const std::string& declarations = "",
                         std::optional<uint32_t> max_subgroup_size = std::nullopt,
                         const std::string& workgroup = "local_size_x = 64") {
  std::string source = "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                       "#extension GL_KHR_shader_subgroup_ballot : require\n"
                       "#extension GL_KHR_shader_subgroup_vote : require\n"
                       "#extension GL_KHR_shader_subgroup_shuffle : require\n"
                       "layout(" + workgroup + ") in;\n"
                       "layout(binding = 0) buffer Data { uint data[]; };\n"
                       "layout(push_constant) uniform P { uint n; };\n"
                       "shared uint tile[64];\n" +
                       declarations + "void main() {\n" + body + "\n}\n";
  auto module = module_from_glsl(source);
  std::vector<Probe> out;
  if (!module) return out;
  for (const ir::Function& function : module->functions()) {
    const Uniformity& uniformity = max_subgroup_size ? module->subgroup_uniformity(function, *max_subgroup_size)
                                                     : module->uniformity(function);
    for (uint32_t b = 0; b < function.blocks.size(); ++b) {
      for (const ir::Instruction& i : function.blocks[b].instructions) {
        if (i.opcode() != spv::Op::OpControlBarrier) continue;
        const ir::Instruction* branch = uniformity.divergent_branch(b);
        Probe p{branch != nullptr, branch ? uniformity.source_builtin(branch->word(0)) : std::nullopt};
        const Divergence* condition = branch ? uniformity.value(branch->word(0)) : nullptr;
        if (condition && condition->kind == Divergence::Kind::IndexSplit) p.split = condition->split;
        out.push_back(p);
      }
    }
  }
  return out;
}

std::vector<bool> divergent(const std::vector<Probe>& probes) {
  std::vector<bool> out;
  for (const Probe& p : probes) out.push_back(p.divergent);
  return out;
}

TEST(Uniformity, LocalIdIsDivergentWorkgroupIdIsNot) {
  auto probes = probe(R"(
    if (gl_LocalInvocationID.x < 4) barrier();
    if (gl_WorkGroupID.x < 4) barrier();
    if (gl_GlobalInvocationID.x == 0) barrier();
    if (gl_NumWorkGroups.x > n) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, false, true, false}));
  ASSERT_EQ(probes.size(), 4u);
  EXPECT_EQ(probes[0].source, spv::BuiltIn::LocalInvocationId);
  EXPECT_EQ(probes[2].source, spv::BuiltIn::GlobalInvocationId);
}

TEST(Uniformity, DivergenceFlowsThroughArithmetic) {
  auto probes = probe(R"(
    uint a = gl_LocalInvocationIndex * 3u + n;
    uint b = n * 2u + 1u;
    if ((a & 7u) == 1u) barrier();
    if (b > 9u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, false}));
  EXPECT_EQ(probes[0].source, spv::BuiltIn::LocalInvocationIndex);
}

TEST(Uniformity, SubgroupFunctionsOfUniformValuesAreUniform) {
  auto probes = probe(R"(
    if (gl_LocalInvocationID.x == 0u) tile[0] = data[0];
    barrier();
    uvec4 ballot = uvec4(tile[0]);
    if (subgroupBallotBitCount(ballot) > 8u) barrier();
    if (subgroupMax(tile[0]) > 8u) barrier();
    if (subgroupAll(tile[0] == 3u)) barrier();
    if (subgroupAdd(tile[0]) > 8u) barrier();
    if (subgroupBallotExclusiveBitCount(ballot) > 8u) barrier();
    if (subgroupMax(gl_LocalInvocationID.x) > 8u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, false, false, false, true, true, true}));
}

TEST(Uniformity, PhiJoiningADivergentBranchIsDivergent) {
  auto probes = probe(R"(
    uint v = 0u;
    if (gl_LocalInvocationID.x < 4u) v = 1u;
    barrier();
    if (v == 1u) barrier();
    uint w = 0u;
    if (n < 4u) w = 1u;
    if (w == 1u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(probes[1].source, spv::BuiltIn::LocalInvocationId);
}

TEST(Uniformity, LoopsInsideADivergentBranchDoNotLeakDivergence) {
  // The inner loop's header is reached from one side of the branch only, and
  // the phi for `s` at the branch's merge takes the same value either way.
  auto probes = probe(R"(
    for (uint s = 32u; s > 0u; s >>= 1) {
      if (gl_LocalInvocationID.x < s) {
        for (uint j = 0u; j < 2u; ++j) tile[j] += tile[j + s];
      }
      barrier();
    })");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false}));
}

TEST(Uniformity, BoundsWithTheSameDivergentOffsetGiveAUniformTripCount) {
  // From tid + a to tid + b: every invocation runs (b - a) / step iterations.
  auto probes = probe(R"(
    uint tid = gl_LocalInvocationID.x;
    uint start = gl_WorkGroupID.x * n + tid;
    uint end = (gl_WorkGroupID.x + 1u) * n + tid;
    for (uint t = start; t < end; t += 64u) barrier();
    if (end - start > 4u) barrier();
    for (uint t = start; t < n; t += 64u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, false, true}));
}

TEST(Uniformity, OffsetsChosenByADivergentBranchDoNotCancel) {
  auto probes = probe(R"(
    uint tid = gl_LocalInvocationID.x;
    uint v = tid;
    if (tid < 3u) v = tid + 1u;
    if (v < tid + 1u) barrier();
    uint i = tid;
    for (; i < tid + n; ++i) {
      if (data[i] == 0u) break;
    }
    if (i < tid + 2u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, true}));
}

TEST(Uniformity, EarlyReturnMakesTheRestDivergent) {
  auto probes = probe(R"(
    barrier();
    if (gl_LocalInvocationID.x >= n) return;
    barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, true}));
}

TEST(Uniformity, UniformEarlyReturnKeepsTheRestUniform) {
  auto probes = probe(R"(
    if (gl_WorkGroupID.x >= n) return;
    barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false}));
}

TEST(Uniformity, LoopWithDivergentTripCount) {
  auto probes = probe(R"(
    for (uint i = gl_LocalInvocationID.x; i < n; i += 64u) barrier();
    for (uint i = 0u; i < n; ++i) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, false}));
}

TEST(Uniformity, ValuesLeavingALoopThroughADivergentExitAreDivergent) {
  auto probes = probe(R"(
    uint i = 0u;
    for (; i < n; ++i) {
      if (data[i] == gl_LocalInvocationID.x) break;
    }
    barrier();
    if (i == 3u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, true}));
}

TEST(Uniformity, AtomicAndSubgroupResultsAreDivergent) {
  auto probes = probe(R"(
    uint ticket = atomicAdd(data[0], 1u);
    if (ticket == 0u) barrier();
    uint total = subgroupAdd(data[1]);
    if (total > 5u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, true}));
}

TEST(Uniformity, LoadsAtUniformAddressesAreUniform) {
  auto probes = probe(R"(
    if (gl_LocalInvocationID.x == 0u) tile[0] = data[0];
    barrier();
    if (tile[0] != 0u) barrier();
    if (data[n] > 2u) barrier();
    if (tile[gl_LocalInvocationID.x] != 0u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, false, false, true}));
}

TEST(Uniformity, LoadsOfBufferMemoryTheShaderWritesAreDivergent) {
  // Another invocation may write between the loads of two: the flag and the
  // counter an atomic updates, and the array elements a store may reach. The
  // member beside them that nothing writes, and a read-only buffer, stay
  // uniform.
  const std::string body = R"(
    if (failed != 0u) barrier();
    if (next > 4u) barrier();
    if (words[n] > 2u) barrier();
    if (cursor > 2u) barrier();
    if (stopped != 0u) barrier();
    uint at = atomicAdd(next, 1u);
    words[at] = 1u;
    if (at > 100u) atomicMax(failed, 1u);)";
  const std::string declarations =
      "layout(binding = 1) buffer Pool { uint next; uint failed; uint cursor; uint words[]; };\n"
      "layout(binding = 2) readonly buffer Status { uint stopped; };\n";
  EXPECT_EQ(divergent(probe(body, declarations)), (std::vector<bool>{true, true, true, false, false}));
  // Lanes that run a load together read it at once.
  EXPECT_EQ(divergent(probe(body, declarations, 128u)), (std::vector<bool>{false, false, false, false, false}));
}

TEST(Uniformity, WhereOneSubgroupIsTheWorkgroupSubgroupResultsAreUniform) {
  auto probes = probe(R"(
    uint v = data[gl_LocalInvocationID.x];
    if (gl_SubgroupSize == 64u) {
      if (subgroupAll(v > 3u)) barrier();
    }
    if (gl_SubgroupSize == 32u) {
      if (subgroupAll(v > 3u)) barrier();
    }
    if (gl_NumSubgroups == 1u && n > 2u) {
      if (subgroupBroadcastFirst(v) + subgroupAdd(v) > 2u) barrier();
    }
    if (!(gl_SubgroupSize >= gl_WorkGroupSize.x)) {
      if (subgroupMax(v) > 2u) barrier();
    }
    if (subgroupAll(v > 3u)) barrier();
    uint w = gl_SubgroupSize >= 64u ? subgroupBroadcast(v, 1u) : tile[0];
    if (w > 2u) barrier();
    uint x = gl_SubgroupSize >= 64u ? subgroupBroadcast(v, 1u) : v;
    if (x > 2u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, true, false, true, true, false, true}));
}

TEST(Uniformity, ComparisonsDecidedByPublishedVotesAreUniform) {
  // Each subgroup publishes whether any of its values is 16 or more; every
  // invocation folds its own value with all the slots.
  auto probes = probe(R"(
    uint v = data[gl_LocalInvocationID.x];
    bool big = subgroupAny(v >= 16u);
    if (subgroupElect()) slots[gl_SubgroupID] = big ? 16u : 0u;
    barrier();
    uint m = v;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, slots[s]);
    if (m < 16u) barrier();   // every v < 16, or some slot is 16
    if (m >= 16u) barrier();
    if (v < 16u) barrier();   // the own value alone
    if (m < 8u) barrier();    // not what the votes said
    uint k = v;
    for (uint s = 0u; s < 1u; ++s) k = max(k, slots[s]);
    if (k < 16u) barrier();)",  // one slot, not every subgroup's
                      "shared uint slots[64];\n");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, false, false, true, true, true}));
}

TEST(Uniformity, PrivateMemoryWrittenWithDivergentValuesIsDivergent) {
  auto probes = probe(R"(
    uint scratch[8];
    for (uint k = 0u; k < 8u; ++k) scratch[k] = k + n;
    scratch[data[2] % 8u] = gl_LocalInvocationID.x;
    if (scratch[data[3] % 8u] == 1u) barrier();
    uint other[8];
    for (uint k = 0u; k < 8u; ++k) other[k] = k + n;
    if (other[data[4] % 8u] == 1u) barrier();)");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, false}));
}

TEST(Uniformity, ConditionsNestedInADivergentRegionAreDivergent) {
  auto probes = probe(R"(
    if (gl_LocalInvocationID.x < 32u) {
      if (n > 3u) barrier();
    })");
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true}));
}

TEST(Uniformity, ChainEndsAtTheBuiltInLoad) {
  auto module = module_from_glsl(R"(#version 450
layout(local_size_x = 64) in;
void main() {
  uint t = gl_LocalInvocationID.x * 2u;
  if (t > 7u) barrier();
}
)");
  ASSERT_TRUE(module);
  const ir::Function& main = module->functions().front();
  const Uniformity& uniformity = module->uniformity(main);
  const ir::Instruction* branch = nullptr;
  for (uint32_t b = 0; b < main.blocks.size() && !branch; ++b) branch = uniformity.divergent_branch(b);
  ASSERT_NE(branch, nullptr);
  auto chain = uniformity.chain(branch->word(0));
  ASSERT_FALSE(chain.empty());
  EXPECT_EQ(chain.back()->opcode(), spv::Op::OpLoad);
  const Divergence* source = uniformity.value(chain.back()->result_id());
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->kind, Divergence::Kind::BuiltIn);
  EXPECT_EQ(module->location(*chain.back()).line, 4u);
}

// Subgroup scope: a barrier here is only a probe of the block's uniformity.
constexpr uint32_t kWidest = 128;

TEST(SubgroupUniformity, SubgroupIdIsUniformInItsSubgroupOnly) {
  std::string body = R"(
    if (gl_SubgroupID == 0u) barrier();
    if (gl_SubgroupInvocationID == 0u) barrier();
    if (gl_LocalInvocationID.x == 3u) barrier();
    if (gl_NumSubgroups > n && gl_SubgroupSize == 32u) barrier();
    if (gl_WorkGroupID.x < 4u) barrier();)";
  EXPECT_EQ(divergent(probe(body, "", kWidest)), (std::vector<bool>{false, true, true, false, false}));
  EXPECT_EQ(divergent(probe(body)), (std::vector<bool>{true, true, true, false, false}));
  EXPECT_EQ(probe(body, "", kWidest)[1].source, spv::BuiltIn::SubgroupLocalInvocationId);
}

TEST(SubgroupUniformity, ReductionsBroadcastsVotesAndBallotsAgreeAcrossTheSubgroup) {
  std::string body = R"(
    uint tid = gl_LocalInvocationID.x;
    if (subgroupAdd(data[tid]) > 3u) barrier();
    if (subgroupBroadcastFirst(tid) == 0u) barrier();
    if (subgroupBroadcast(tid, 3u) == 0u) barrier();
    if (subgroupAll(tid < 3u)) barrier();
    if (subgroupBallotBitCount(subgroupBallot(tid < 5u)) > 2u) barrier();
    if (subgroupShuffle(tid, n) == 1u) barrier();
    if (subgroupShuffle(n, tid) == 1u) barrier();
    if (subgroupMax(n) == 1u) barrier();)";
  EXPECT_EQ(divergent(probe(body, "", kWidest)), (std::vector<bool>(8, false)));
  // Across a workgroup, only those whose operands agree there too.
  EXPECT_EQ(divergent(probe(body)), (std::vector<bool>{true, true, true, true, true, true, false, false}));
}

TEST(SubgroupUniformity, ScansElectionsAndShufflesDifferBetweenLanes) {
  auto probes = probe(R"(
    uint tid = gl_LocalInvocationID.x;
    if (subgroupInclusiveAdd(1u) > 3u) barrier();
    if (subgroupExclusiveMax(n) == 0u) barrier();
    if (subgroupElect()) barrier();
    if (subgroupShuffleXor(tid, 1u) == 0u) barrier();
    if (subgroupShuffle(tid, gl_SubgroupInvocationID ^ 1u) == 0u) barrier();
    if (subgroupBallotExclusiveBitCount(subgroupBallot(true)) == 0u) barrier();
    if (subgroupShuffleXor(n, 1u) == 0u) barrier();)",
                      "", kWidest);
  EXPECT_EQ(divergent(probes), (std::vector<bool>{true, true, true, true, true, true, false}));
}

TEST(SubgroupUniformity, IndexRangesOfWholeSubgroupsAreUniform) {
  std::string body = R"(
    if (gl_LocalInvocationIndex < 128u) barrier();
    if (gl_LocalInvocationIndex >= 256u) barrier();
    if (gl_LocalInvocationIndex <= 127u) barrier();
    if (255u < gl_LocalInvocationIndex) barrier();
    if (gl_LocalInvocationID.x < 32u) barrier();
    if (int(gl_LocalInvocationID.x) > 31) barrier();
    if (gl_LocalInvocationIndex == 0u) barrier();
    if (gl_LocalInvocationIndex < n) barrier();)";
  // 512 wide, so that every bound splits the workgroup: at 64, the size alone
  // decides the first four (Uniformity.ComparisonsTheWorkgroupSizeDecides).
  auto probe = [](const std::string& body, const std::string& declarations = "",
                  std::optional<uint32_t> max_subgroup_size = std::nullopt) {
    return klint::testing::probe(body, declarations, max_subgroup_size, "local_size_x = 512");
  };
  auto widest_128 = probe(body, "", 128);
  EXPECT_EQ(divergent(widest_128), (std::vector<bool>{false, false, false, false, true, true, true, true}));
  ASSERT_EQ(widest_128.size(), 8u);
  EXPECT_EQ(widest_128[4].split, 32u);
  EXPECT_EQ(widest_128[5].split, 32u);
  EXPECT_EQ(widest_128[4].source, spv::BuiltIn::LocalInvocationId);
  EXPECT_EQ(widest_128[6].split, 0u);  // picks one invocation: no range
  auto widest_32 = probe(body, "", 32);
  EXPECT_EQ(divergent(widest_32), (std::vector<bool>{false, false, false, false, false, false, true, true}));
  // An unknown width trusts no split, and a workgroup no index range.
  EXPECT_EQ(divergent(probe(body, "", 0)), (std::vector<bool>(8, true)));
  EXPECT_EQ(divergent(probe(body)), (std::vector<bool>(8, true)));
}

TEST(SubgroupUniformity, ComponentsOfInvocationIdsAlignOnlyWithWholeRows) {
  // Rows of 16 on 32-wide subgroups: a subgroup holds two rows, so x < 8 is
  // true in half of it, whatever the bound; the index still aligns. x < 32
  // holds for every x of a row of 16: the size decides it.
  std::string body = R"(
    if (gl_LocalInvocationID.x < 32u) barrier();
    if (gl_GlobalInvocationID.x < 64u) barrier();
    if (gl_LocalInvocationIndex < 32u) barrier();
    if (gl_LocalInvocationID.y < 1u) barrier();
    if (gl_LocalInvocationID.x < 8u) barrier();)";
  EXPECT_EQ(divergent(probe(body, "", 32, "local_size_x = 16, local_size_y = 4")),
            (std::vector<bool>{false, true, false, true, true}));
  EXPECT_EQ(divergent(probe(body, "", 32, "local_size_x = 64, local_size_y = 2")),
            (std::vector<bool>{false, false, false, true, true}));
  // One row that is not a multiple of the subgroup: local x is the index,
  // global x is not (the next workgroup starts mid-subgroup).
  // Along y, of size 1, the local id is 0 in every invocation.
  EXPECT_EQ(divergent(probe(body, "", 32, "local_size_x = 48")),
            (std::vector<bool>{false, true, false, false, true}));
}

// At workgroup scope, a comparison of local ids against constants that comes
// out the same for every id the workgroup has is uniform: 64 wide, x < 64
// always holds, x >= 64 and 2x + 1 == 0 never do, x + 64 > 63 always does.
// A bound inside the range, a push constant, a specialization constant (the
// host may set it to anything), a global id (the workgroup id is in it) and a
// size the host may specialize are not decided.
TEST(Uniformity, ComparisonsTheWorkgroupSizeDecides) {
  std::string body = R"(
    if (gl_LocalInvocationID.x < 64u) barrier();
    if (int(gl_LocalInvocationID.x) >= 64) barrier();
    if (2u * gl_LocalInvocationID.x + 1u == 0u) barrier();
    if (gl_LocalInvocationID.x + 64u > 63u) barrier();
    if (gl_LocalInvocationIndex != 64u) barrier();
    if (gl_LocalInvocationID.x < 63u) barrier();
    if (gl_LocalInvocationID.x < n) barrier();
    if (gl_LocalInvocationID.x < LIMIT) barrier();
    if (gl_GlobalInvocationID.x < 64u) barrier();)";
  const std::string limit = "layout(constant_id = 1) const uint LIMIT = 64;\n";
  EXPECT_EQ(divergent(probe(body, limit)),
            (std::vector<bool>{false, false, false, false, false, true, true, true, true}));
  EXPECT_EQ(divergent(probe(body, limit + "layout(constant_id = 0) const uint W = 64;\n", std::nullopt,
                            "local_size_x_id = 0")),
            (std::vector<bool>(9, true)));
}

TEST(Uniformity, ArithmeticThatLeavesOnlyTheWorkgroupIsUniform) {
  // 8x8x1: the global id's z is the workgroup's, and xy / 8 (or >> 3) its
  // tile; dividing by 4 leaves part of the local id, and so does y alone.
  std::string body = R"(
    if (gl_GlobalInvocationID.z == n) barrier();
    uvec2 tile = gl_GlobalInvocationID.xy / 8u;
    if (tile.x == n) barrier();
    if ((gl_GlobalInvocationID.y >> 3) == n) barrier();
    if (gl_GlobalInvocationID.x / 4u == n) barrier();
    if (gl_GlobalInvocationID.y == n) barrier();
    if (gl_LocalInvocationID.z == 0u) barrier();)";
  EXPECT_EQ(divergent(probe(body, "", std::nullopt, "local_size_x = 8, local_size_y = 8")),
            (std::vector<bool>{false, false, false, true, true, false}));
}

TEST(Uniformity, ASizeFromASpecializationConstantIsNotTrusted) {
  // local_size_z is 1 by default, but the host may choose more.
  std::string body = R"(
    if (gl_GlobalInvocationID.z == n) barrier();
    if (gl_LocalInvocationID.z == 0u) barrier();)";
  EXPECT_EQ(divergent(probe(body, "layout(constant_id = 0) const uint DEPTH = 1;", std::nullopt,
                            "local_size_x = 8, local_size_z_id = 0")),
            (std::vector<bool>{true, true}));
}

TEST(SubgroupUniformity, TheFirstSubgroupCombinesThePartialSums) {
  auto probes = probe(R"(
    if (gl_SubgroupID == 0u) {
      uint v = gl_SubgroupInvocationID < gl_NumSubgroups ? tile[gl_SubgroupInvocationID] : 0u;
      v = subgroupAdd(v);
      barrier();
      for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) barrier();
      barrier();
      if (v > 3u) barrier();
    })",
                      "", kWidest);
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(probes[1].source, spv::BuiltIn::SubgroupLocalInvocationId);
}

TEST(SubgroupUniformity, EarlyReturnOnALaneValueMakesTheRestDivergent) {
  auto probes = probe(R"(
    if (gl_SubgroupID >= n) return;
    barrier();
    if (gl_LocalInvocationID.x >= n) return;
    barrier();)",
                      "", kWidest);
  EXPECT_EQ(divergent(probes), (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace klint::testing
