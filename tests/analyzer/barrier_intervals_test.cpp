// Barrier intervals (analyzer/barrier_intervals.h) on SPIR-V assembly: which
// accesses share an interval, across barriers of each kind, around a loop's
// back edge, and which pairs of accesses may run at once.
#include <gtest/gtest.h>

#include "analyzer/barrier_intervals.h"
#include "tests/analyzer/assembly.h"

namespace klint::testing {
namespace {

using namespace assembly;
using Strings = std::vector<std::string>;

// main's barriers (control and memory), in block order.
std::vector<const ir::Instruction*> barriers(const Module& module) {
  std::vector<const ir::Instruction*> out;
  for (const ir::Block& b : main_of(module).blocks) {
    for (const ir::Instruction& instruction : b.instructions) {
      if (instruction.opcode() == spv::Op::OpControlBarrier || instruction.opcode() == spv::Op::OpMemoryBarrier) {
        out.push_back(&instruction);
      }
    }
  }
  return out;
}

// Each interval as "start: accesses -> ends": the start is "begin" or the
// barrier "b<k>" (k-th of main), an access its index in Accesses::all() with
// a ' when the path to it came around a loop's back edge, and "exit" where
// the interval runs to the end of the invocation.
Strings intervals(const Module& module) {
  auto all = barriers(module);
  auto barrier_name = [&](const ir::Instruction* barrier) {
    return "b" + std::to_string(std::find(all.begin(), all.end(), barrier) - all.begin());
  };
  Strings out;
  for (const BarrierInterval& interval : module.barrier_intervals(main_of(module)).intervals()) {
    std::string text = interval.start ? barrier_name(interval.start) : "begin";
    text += ":";
    for (const IntervalAccess& access : interval.accesses) {
      text += " " + std::to_string(access.access) + (access.crossed.empty() ? "" : "'");
    }
    text += " ->";
    for (const ir::Instruction* end : interval.ends) text += " " + barrier_name(end);
    if (interval.reaches_exit) text += " exit";
    out.push_back(text);
  }
  return out;
}

// The pairs of workgroup accesses that may run at once, as "a-b" ("a>b"
// when b follows a), sorted.
Strings concurrent(const Module& module) {
  const auto* pairs = module.barrier_intervals(main_of(module)).concurrent_pairs(spv::StorageClass::Workgroup);
  if (!pairs) return {"over budget"};
  Strings out;
  for (const ConcurrentPair& pair : *pairs) {
    out.push_back(std::to_string(pair.a) + (pair.ordered ? ">" : "-") + std::to_string(pair.b));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// tile[x] = 1; <barrier>; data[x] = tile[63 - x];
std::string around(const std::string& barrier) {
  return R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %uint_1
)" + barrier + R"(
%y = OpISub %uint %uint_63 %x
%ty = OpAccessChain %ptr_shared %tile %y
%v = OpLoad %uint %ty
%d = OpAccessChain %ptr_elem %data %uint_0 %x
OpStore %d %v)";
}

TEST(BarrierIntervals, AWorkgroupBarrierEndsTheInterval) {
  auto module = kernel(around("OpControlBarrier %wg %wg %shared"));
  ASSERT_TRUE(module);
  EXPECT_EQ(intervals(*module), (Strings{"begin: 0 -> b0", "b0: 1 2 -> exit"}));
  // Each access only with itself, in other invocations.
  EXPECT_EQ(concurrent(*module), (Strings{"0-0", "1-1"}));
}

TEST(BarrierIntervals, AMemoryBarrierOfWorkgroupMemoryEndsItToo) {
  // memoryBarrierShared() orders without waiting: insufficient-barrier's
  // finding, not the race rules'.
  auto module = kernel(around("OpMemoryBarrier %wg %shared"));
  ASSERT_TRUE(module);
  EXPECT_EQ(intervals(*module), (Strings{"begin: 0 -> b0", "b0: 1 2 -> exit"}));
}

TEST(BarrierIntervals, BarriersThatNeitherWaitForNorOrderTheWorkgroupDoNot) {
  for (const char* barrier : {"OpMemoryBarrier %dev %buffers", "OpControlBarrier %sg %sg %shared"}) {
    auto module = kernel(around(barrier));
    ASSERT_TRUE(module) << barrier;
    EXPECT_EQ(intervals(*module), Strings{"begin: 0 1 2 -> exit"}) << barrier;
    EXPECT_EQ(concurrent(*module), (Strings{"0-0", "0>1", "1-1"})) << barrier;
  }
}

TEST(BarrierIntervals, ABarrierOfASpecializationConstantScopeMayWaitSoItEndsTheInterval) {
  auto module = kernel(around("OpControlBarrier %spec_scope %wg %shared"));
  ASSERT_TRUE(module);
  EXPECT_EQ(intervals(*module), (Strings{"begin: 0 -> b0", "b0: 1 2 -> exit"}));
  EXPECT_EQ(concurrent(*module), (Strings{"0-0", "1-1"}));
}

TEST(BarrierIntervals, APathAroundTheBarrierKeepsTheIntervalOpen) {
  // tile[x] = 1; if (n > 4) barrier(); v = tile[63 - x];
  auto module = kernel(around("%big = OpUGreaterThan %bool %n %uint_4\n" +
                              selection("%big", "after", "sync", "OpControlBarrier %wg %wg %shared")));
  ASSERT_TRUE(module);
  EXPECT_EQ(intervals(*module), (Strings{"begin: 0 1 2 -> b0 exit", "b0: 1 2 -> exit"}));
  EXPECT_EQ(concurrent(*module), (Strings{"0-0", "0>1", "1-1"}));
}

TEST(BarrierIntervals, InALoopTheIntervalAfterTheBarrierComesAroundTheBackEdge) {
  // for (i < n) { tile[x] = i; barrier(); data[i] = tile[63 - x]; } tile[x] = 2;
  auto module = kernel(counted_loop(R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %i
OpControlBarrier %wg %wg %shared
%y = OpISub %uint %uint_63 %x
%ty = OpAccessChain %ptr_shared %tile %y
%v = OpLoad %uint %ty
%d = OpAccessChain %ptr_elem %data %uint_0 %i
OpStore %d %v)") + R"(%tx = OpAccessChain %ptr_shared %tile %x
OpStore %tx %uint_2)");
  ASSERT_TRUE(module);
  // Accesses: 0 the store, 1 the load, 2 the data store, 3 the store after the loop.
  EXPECT_EQ(intervals(*module), (Strings{"begin: 0 3 -> b0 exit", "b0: 1 2 0' 3' -> b0 exit"}));
  // The load meets the next iteration's store, and the store after the loop.
  EXPECT_EQ(concurrent(*module), (Strings{"0-0", "1-1", "1>0", "1>3", "3-3"}));
  const BarrierIntervals& intervals = module->barrier_intervals(main_of(*module));
  ASSERT_EQ(intervals.loops().size(), 1u);
  EXPECT_TRUE(intervals.separates_iterations(intervals.loops()[0]));
}

TEST(BarrierIntervals, ALoopWithoutABarrierLetsIterationsMeet) {
  // for (i < n) { tile[i] = x; }
  auto module = kernel(counted_loop(R"(%t = OpAccessChain %ptr_shared %tile %i
OpStore %t %x)"));
  ASSERT_TRUE(module);
  const BarrierIntervals& analysis = module->barrier_intervals(main_of(*module));
  ASSERT_EQ(analysis.loops().size(), 1u);
  EXPECT_FALSE(analysis.separates_iterations(analysis.loops()[0]));
  EXPECT_EQ(intervals(*module), Strings{"begin: 0 -> exit"});
  // Two invocations may run the store in different iterations.
  const auto* pairs = analysis.concurrent_pairs(spv::StorageClass::Workgroup);
  ASSERT_NE(pairs, nullptr);
  ASSERT_EQ(pairs->size(), 1u);
  ASSERT_EQ(pairs->front().independent.size(), 1u);
  EXPECT_EQ(pairs->front().independent[0]->header, block(*module, "header"));
}

TEST(BarrierIntervals, ABarrierOnEveryIterationButTheFirstOrdersThePreviousIteration) {
  // for (i < n) { if (i > 0) barrier(); tile[x] = i; barrier(); data[i] = tile[63 - x]; }
  auto module = kernel(counted_loop("%not_first = OpUGreaterThan %bool %i %uint_0\n" +
                                    selection("%not_first", "top", "sync", "OpControlBarrier %wg %wg %shared") +
                                    R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %i
OpControlBarrier %wg %wg %shared
%y = OpISub %uint %uint_63 %x
%ty = OpAccessChain %ptr_shared %tile %y
%v = OpLoad %uint %ty
%d = OpAccessChain %ptr_elem %data %uint_0 %i
OpStore %d %v)"));
  ASSERT_TRUE(module);
  // Accesses: 0 the store, 1 the load, 2 the data store. Coming around the
  // back edge, the path takes the barrier at the top: the load no longer
  // meets the next iteration's store.
  EXPECT_EQ(intervals(*module), (Strings{"begin: 0 -> b1 exit", "b0: 0 -> b1", "b1: 1 2 -> b0 exit"}));
  EXPECT_EQ(concurrent(*module), (Strings{"0-0", "1-1"}));
}

TEST(BarrierIntervals, WithoutTheTestTheTopBarrierMayBeSkippedOnAnyIteration) {
  // The same loop with `if (n > 4) barrier();` at the top: a path may skip it.
  auto module = kernel(counted_loop("%big = OpUGreaterThan %bool %n %uint_4\n" +
                                    selection("%big", "top", "sync", "OpControlBarrier %wg %wg %shared") +
                                    R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %i
OpControlBarrier %wg %wg %shared
%y = OpISub %uint %uint_63 %x
%ty = OpAccessChain %ptr_shared %tile %y
%v = OpLoad %uint %ty)"));
  ASSERT_TRUE(module);
  EXPECT_EQ(concurrent(*module), (Strings{"0-0", "1-1", "1>0"}));
}

// for (i < n) { if (<skip>) { tile[x] = i; barrier(); v = tile[63 - x]; barrier(); } }
std::unique_ptr<Module> skipped_body(const std::string& skip) {
  return kernel(counted_loop(skip + "\n" + selection("%go", "after", "work", R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %i
OpControlBarrier %wg %wg %shared
%y = OpISub %uint %uint_63 %x
%ty = OpAccessChain %ptr_shared %tile %y
%v = OpLoad %uint %ty
OpControlBarrier %wg %wg %shared)")));
}

TEST(BarrierIntervals, AUniformSkipKeepsTheInvocationsInStep) {
  // if (i < n / 2): every invocation skips the same iterations.
  auto module = skipped_body("%half = OpUDiv %uint %n %uint_2\n%go = OpULessThan %bool %i %half");
  ASSERT_TRUE(module);
  const BarrierIntervals& analysis = module->barrier_intervals(main_of(*module));
  ASSERT_EQ(analysis.loops().size(), 1u);
  EXPECT_FALSE(analysis.separates_iterations(analysis.loops()[0]));
  EXPECT_TRUE(analysis.keeps_iterations_in_step(analysis.loops()[0]));
  // Two invocations running one access are in one iteration.
  const auto* pairs = analysis.concurrent_pairs(spv::StorageClass::Workgroup);
  ASSERT_NE(pairs, nullptr);
  for (const ConcurrentPair& pair : *pairs) EXPECT_TRUE(pair.independent.empty()) << pair.a << " " << pair.b;
}

TEST(BarrierIntervals, ADivergentSkipLetsSomeInvocationsRunIterationsAhead) {
  // if (x < 32): the upper half skips the barriers the lower half waits at.
  auto module = skipped_body("%go = OpULessThan %bool %x %uint_32");
  ASSERT_TRUE(module);
  const BarrierIntervals& analysis = module->barrier_intervals(main_of(*module));
  ASSERT_EQ(analysis.loops().size(), 1u);
  EXPECT_FALSE(analysis.keeps_iterations_in_step(analysis.loops()[0]));
  const auto* pairs = analysis.concurrent_pairs(spv::StorageClass::Workgroup);
  ASSERT_NE(pairs, nullptr);
  ASSERT_FALSE(pairs->empty());
  for (const ConcurrentPair& pair : *pairs) EXPECT_EQ(pair.independent.size(), 1u) << pair.a << " " << pair.b;
}

}  // namespace
}  // namespace klint::testing
