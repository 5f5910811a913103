// Symbolic values, accesses and their guards, barrier intervals and
// collisions, each probed on small kernels.
#include <gtest/gtest.h>

#include "analyzer/accesses.h"
#include "analyzer/barrier_intervals.h"
#include "analyzer/collision.h"
#include "analyzer/symbolic.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

std::unique_ptr<Module> kernel(const std::string& layout, const std::string& body,
                               const std::string& declarations = "") {
  return module_from_glsl("#version 450\n" + layout +
                          "\nlayout(binding = 0) buffer Data { uint data[]; };\n"
                          "layout(push_constant) uniform P { uint n; };\n"
                          "shared uint tile[256];\n" +
                          declarations + "void main() {\n" + body + "\n}\n");
}

const ir::Function& entry(const Module& module) { return *module.entry_points().front().function; }

// The offsets of the shared-memory accesses, in order, as text.
std::vector<std::string> shared_offsets(const Module& module) {
  const ir::Function& function = entry(module);
  const SymbolicValues& values = module.symbolic(function);
  std::vector<std::string> out;
  for (const MemoryAccess& access : module.accesses(function).all()) {
    if (access.storage != spv::StorageClass::Workgroup) continue;
    out.push_back(access.offset ? values.describe(*access.offset) : "?");
  }
  return out;
}

TEST(Symbolic, InvocationIdsSplitIntoLocalIds) {
  auto module = kernel("layout(local_size_x = 16, local_size_y = 4) in;",
                       "tile[gl_LocalInvocationIndex] = 1u;\n"
                       "tile[gl_GlobalInvocationID.x % 16u] = 2u;\n"
                       "tile[gl_LocalInvocationID.x * 16u + 3u] = 3u;");
  ASSERT_TRUE(module);
  EXPECT_EQ(shared_offsets(*module),
            (std::vector<std::string>{"gl_LocalInvocationID.y * 64 + gl_LocalInvocationID.x * 4",
                                      "gl_LocalInvocationID.x * 4", "gl_LocalInvocationID.x * 64 + 12"}));
}

TEST(Symbolic, DivisionSplitsOffKnownRemainders) {
  auto module = kernel("layout(local_size_x = 32) in;",
                       "uint packed = gl_WorkGroupID.x * 32u + gl_LocalInvocationID.x;\n"
                       "tile[packed / 32u] = 1u;\n"
                       "tile[packed & 31u] = 2u;\n"
                       "tile[(gl_LocalInvocationID.x << 3) | 5u] = 3u;");
  ASSERT_TRUE(module);
  EXPECT_EQ(shared_offsets(*module), (std::vector<std::string>{"gl_WorkGroupID.x * 4", "gl_LocalInvocationID.x * 4",
                                                               "gl_LocalInvocationID.x * 32 + 20"}));
}

TEST(Symbolic, SwizzlesOfInvocationIdsKeepTheirComponents) {
  auto module = kernel("layout(local_size_x = 16, local_size_y = 4) in;",
                       "uvec2 id = gl_LocalInvocationID.yx;\n"
                       "tile[id.x * 16u + id.y] = 1u;");
  ASSERT_TRUE(module);
  EXPECT_EQ(shared_offsets(*module),
            (std::vector<std::string>{"gl_LocalInvocationID.y * 64 + gl_LocalInvocationID.x * 4"}));
}

TEST(Symbolic, OpaqueValuesEvaluateAtAnInvocation) {
  auto module = kernel("layout(local_size_x = 64) in;", "tile[gl_LocalInvocationID.x ^ 1u] = 1u;");
  ASSERT_TRUE(module);
  const ir::Function& function = entry(*module);
  const SymbolicValues& values = module->symbolic(function);
  const MemoryAccess& access = module->accesses(function).all().front();
  ASSERT_TRUE(access.offset);
  Assignment at_six{{Symbol{Symbol::Kind::LocalId, 0}, 6}};
  EXPECT_EQ(values.evaluate(*access.offset, at_six), 7 * 4);
  EXPECT_EQ(values.evaluate(*access.offset, {}), std::nullopt);
}

TEST(Symbolic, BitFieldsShiftsAndMasksEvaluateAtAnInvocation) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "uint t = gl_LocalInvocationID.x;\n"
                       "tile[bitfieldExtract(t, 2, 3)] = 1u;\n"
                       "tile[bitfieldInsert(t, 5u, 4, 2)] = 2u;\n"
                       "tile[uint(int(t << 26) >> 28) & 255u] = 3u;\n"
                       "tile[~t & 63u] = 4u;\n"
                       "tile[uint(bitCount(t)) + (bitfieldReverse(t) >> 26)] = 5u;\n"
                       "uvec2 v = uvec2(t, t * 3u) ^ uvec2(1u, 2u);\n"
                       "tile[v.y & 255u] = 6u;\n"
                       "tile[all(equal(uvec2(t & 1u, t >> 5), uvec2(1u, 1u))) ? 7u : 8u] = 7u;");
  ASSERT_TRUE(module);
  const ir::Function& function = entry(*module);
  const SymbolicValues& values = module->symbolic(function);
  std::vector<std::optional<int64_t>> at_45;
  Assignment assignment{{Symbol{Symbol::Kind::LocalId, 0}, 45}};  // 0b101101
  for (const MemoryAccess& access : module->accesses(function).all()) {
    if (access.storage != spv::StorageClass::Workgroup) continue;
    ASSERT_TRUE(access.offset);
    auto bytes = values.evaluate(*access.offset, assignment);
    at_45.push_back(bytes ? std::optional<int64_t>(*bytes / 4) : std::nullopt);
  }
  // 45 >> 2 & 7; 45 with bits 4..5 = 0b01; (45 << 26 as int) >> 28 is
  // -5, & 255; ~45 & 63; 4 + (reverse(45) >> 26); 135 ^ 2; 45 is odd and >= 32.
  EXPECT_EQ(at_45, (std::vector<std::optional<int64_t>>{3, 29, 251, 18, 4 + 45, 133, 7}));
}

TEST(Symbolic, LoopsWithConstantBoundsEnumerateTheirInductionVariables) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "for (uint s = 32u; s > 0u; s >>= 1) tile[s] = 1u;\n"
                       "for (uint d = 1u; d < 64u; d <<= 1) tile[d] = 3u;\n"
                       "for (uint i = 0u; i < n; ++i) tile[i] = 2u;");
  ASSERT_TRUE(module);
  const ir::Function& function = entry(*module);
  CollisionFinder finder(*module, function);
  std::vector<std::vector<int64_t>> sequences;
  std::vector<bool> enumerable;
  for (const MemoryAccess& access : module->accesses(function).all()) {
    if (access.storage != spv::StorageClass::Workgroup) continue;
    Symbol symbol = access.offset->symbols().front();
    ASSERT_EQ(symbol.kind, Symbol::Kind::Induction);
    const auto* values = finder.iteration_values(symbol.id);
    enumerable.push_back(values != nullptr);
    if (values) sequences.push_back(*values);
  }
  EXPECT_EQ(enumerable, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(sequences, (std::vector<std::vector<int64_t>>{{32, 16, 8, 4, 2, 1}, {1, 2, 4, 8, 16, 32}}));
}

TEST(Accesses, GuardsComeFromBranchesShortCircuitsAndEarlyReturns) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "uint t = gl_LocalInvocationID.x;\n"
                       "if (t >= n) return;\n"
                       "if (t < 16u && t + 16u < n) tile[t] = 1u;");
  ASSERT_TRUE(module);
  const ir::Function& function = entry(*module);
  const Accesses& accesses = module->accesses(function);
  const SymbolicValues& values = module->symbolic(function);
  std::vector<std::string> guards;
  for (const MemoryAccess& access : accesses.all()) {
    if (access.storage != spv::StorageClass::Workgroup) continue;
    for (const Constraint& c : accesses.guards(access.block)) guards.push_back(values.describe(c.expression));
  }
  // Both loads of n are one value; name it for the comparison.
  for (std::string& guard : guards) {
    if (auto at = guard.find('%'); at != std::string::npos) guard.replace(at, guard.find(' ', at) - at, "n");
  }
  std::sort(guards.begin(), guards.end());
  // t < n, t < 16 and t + 16 < n, each as `expression >= 0`.
  EXPECT_EQ(guards, (std::vector<std::string>{"-gl_LocalInvocationID.x + 15", "n - gl_LocalInvocationID.x - 1",
                                              "n - gl_LocalInvocationID.x - 17"}));
}

// The pairs of shared accesses that may run concurrently, as "a-b" by order.
std::vector<std::string> concurrent(const Module& module) {
  const ir::Function& function = entry(module);
  BarrierIntervals intervals(module, function);
  std::vector<std::string> out;
  auto shared = [](const MemoryAccess& a) { return a.storage == spv::StorageClass::Workgroup; };
  for (const ConcurrentPair& pair : intervals.concurrent_pairs(shared)) {
    out.push_back(std::to_string(std::min(pair.a, pair.b)) + "-" + std::to_string(std::max(pair.a, pair.b)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(BarrierIntervals, BarriersSeparateAndBackEdgesJoin) {
  // write 0, barrier, read 1: only each with itself.
  auto separated = kernel("layout(local_size_x = 64) in;",
                          "tile[gl_LocalInvocationID.x] = 1u; barrier(); data[0] = tile[0];");
  ASSERT_TRUE(separated);
  EXPECT_EQ(concurrent(*separated), (std::vector<std::string>{"0-0", "1-1"}));
  // In a loop with one barrier, the read at the end meets the next write.
  auto looped = kernel("layout(local_size_x = 64) in;",
                       "for (uint i = 0u; i < n; ++i) { tile[gl_LocalInvocationID.x] = i; barrier();"
                       " data[i] = tile[0]; }");
  ASSERT_TRUE(looped);
  EXPECT_EQ(concurrent(*looped), (std::vector<std::string>{"0-0", "0-1", "1-1"}));
}

TEST(BarrierIntervals, DensePairsPastTheBudgetAreNotMadeAndTheModuleSaysSo) {
  // 600 accesses (two reads and a write a line) with no barrier between:
  // some 180,000 pairs, past max(kMinPairBudget, kPairsPerAccess * 600).
  std::string body = "uint t = gl_LocalInvocationID.x;\n";
  for (int k = 0; k < 200; ++k) body += "tile[t] += tile[(t + " + std::to_string(k + 1) + "u) & 255u];\n";
  auto dense = kernel("layout(local_size_x = 64) in;", body);
  const BarrierIntervals& intervals = dense->barrier_intervals(entry(*dense));
  EXPECT_EQ(intervals.concurrent_pairs(spv::StorageClass::Workgroup), nullptr);
  ASSERT_EQ(dense->budget_notes().size(), 1u);
  EXPECT_NE(dense->budget_notes()[0].find("more than 100000 pairs of its 600 accesses to workgroup memory in main"),
            std::string::npos)
      << dense->budget_notes()[0];
  // Under the budget, the same pairs as without one, and no note.
  auto sparse = kernel("layout(local_size_x = 64) in;", "uint t = gl_LocalInvocationID.x;\ntile[t] += tile[t + 1u];");
  const BarrierIntervals& few = sparse->barrier_intervals(entry(*sparse));
  ASSERT_NE(few.concurrent_pairs(spv::StorageClass::Workgroup), nullptr);
  EXPECT_EQ(few.concurrent_pairs(spv::StorageClass::Workgroup)->size(), concurrent(*sparse).size());
  EXPECT_TRUE(sparse->budget_notes().empty());
}

TEST(BarrierIntervals, AFlagSetInTheLoopIsKnownOnTheWayAround) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "bool again = false;\n"
                       "for (uint i = 0u; i < n; ++i) {\n"
                       "  if (again) barrier();\n"
                       "  again = true;\n"
                       "  tile[gl_LocalInvocationID.x] = i; barrier(); data[i] = tile[63u - gl_LocalInvocationID.x];\n"
                       "}");
  ASSERT_TRUE(module);
  EXPECT_EQ(concurrent(*module), (std::vector<std::string>{"0-0", "1-1"}));
}

TEST(Collision, NamesTwoInvocationsThatTouchOneElement) {
  auto module = kernel("layout(local_size_x = 64) in;",
                       "tile[gl_LocalInvocationID.x] = 1u; data[0] = tile[gl_LocalInvocationID.x + 1u];");
  ASSERT_TRUE(module);
  const ir::Function& function = entry(*module);
  CollisionFinder finder(*module, function);
  const auto& all = module->accesses(function).all();
  std::vector<const MemoryAccess*> shared;
  for (const MemoryAccess& access : all) {
    if (access.storage == spv::StorageClass::Workgroup) shared.push_back(&access);
  }
  ASSERT_EQ(shared.size(), 2u);
  auto collision = finder.find(*shared[0], *shared[1], {});
  ASSERT_TRUE(collision);
  EXPECT_EQ(collision->first.local_index, collision->second.local_index + 1);
  EXPECT_EQ(collision->first.offset, collision->second.offset);
  // An invocation's own slot never collides with another's.
  EXPECT_FALSE(finder.find(*shared[0], *shared[0], {}));
}

}  // namespace
}  // namespace klint::testing
