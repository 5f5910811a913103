// Structured loops (analyzer/loops.h, Module::loops) on SPIR-V assembly:
// which blocks each loop holds, its header, merge block, continue target and
// back edge, nesting, and which values stay the same on every iteration.
#include <gtest/gtest.h>

#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "tests/analyzer/assembly.h"

namespace klint::testing {
namespace {

using namespace assembly;
using Names = std::vector<std::string>;

// The names of the blocks a loop holds, in block order.
Names blocks(const Module& module, const Loop& loop) {
  Names in;
  for (uint32_t b = 0; b < loop.body.size(); ++b) {
    if (loop.body[b]) in.push_back(module.name(main_of(module).blocks[b].id()));
  }
  return in;
}

// The blocks that branch back to the loop's header from inside it.
Names back_edges(const Module& module, const Loop& loop) {
  const ir::Function& main = main_of(module);
  Names from;
  for (uint32_t latch : module.cfg(main).predecessors(loop.header)) {
    if (loop.body[latch]) from.push_back(module.name(main.blocks[latch].id()));
  }
  return from;
}

bool invariant(const Module& module, const Loop& loop, const std::string& value) {
  return is_loop_invariant(module, module.cfg(main_of(module)), loop, id(module, value));
}

TEST(Loops, AHeaderItsMergeItsContinueTargetAndOneBackEdge) {
  auto module = kernel(counted_loop(R"(%t = OpAccessChain %ptr_shared %tile %i
OpStore %t %uint_1)"));
  ASSERT_TRUE(module);
  const auto& loops = module->loops(main_of(*module));
  ASSERT_EQ(loops.size(), 1u);
  const Loop& loop = loops[0];
  EXPECT_EQ(loop.header, block(*module, "header"));
  ASSERT_EQ(loop.merge->opcode(), spv::Op::OpLoopMerge);
  EXPECT_EQ(module->name(loop.merge->word(0)), "merge");
  EXPECT_EQ(module->name(loop.merge->word(1)), "continue");
  EXPECT_EQ(blocks(*module, loop), (Names{"header", "test", "body", "continue"}));
  EXPECT_EQ(loop.size, 4u);
  EXPECT_EQ(back_edges(*module, loop), Names{"continue"});
  const ir::Instruction& store = nth(*module, spv::Op::OpStore);
  EXPECT_TRUE(in_loop(*module, module->cfg(main_of(*module)), loop, store));
}

TEST(Loops, ASingleBlockLoopIsItsOwnContinueTarget) {
  auto module = kernel(R"(OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %i1 %header
%i1 = OpIAdd %uint %i %uint_1
%more = OpULessThan %bool %i1 %n
OpLoopMerge %merge %header None
OpBranchConditional %more %header %merge
%merge = OpLabel)");
  ASSERT_TRUE(module);
  const auto& loops = module->loops(main_of(*module));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(module->name(loops[0].merge->word(1)), "header");
  EXPECT_EQ(blocks(*module, loops[0]), Names{"header"});
  EXPECT_EQ(back_edges(*module, loops[0]), Names{"header"});
}

TEST(Loops, ABreakLeavesTheBodyAndAContinueStaysInIt) {
  // for (i) { if (data[i] == 0) break; if (i == 4) continue; tile[i] = 1; }
  auto module = kernel(counted_loop(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %i
%v = OpLoad %uint %d
%zero = OpIEqual %bool %v %uint_0
OpSelectionMerge %go None
OpBranchConditional %zero %merge %go
%go = OpLabel
%four = OpIEqual %bool %i %uint_4
OpSelectionMerge %store None
OpBranchConditional %four %continue %store
%store = OpLabel
%t = OpAccessChain %ptr_shared %tile %i
OpStore %t %uint_1)"));
  ASSERT_TRUE(module);
  const auto& loops = module->loops(main_of(*module));
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(blocks(*module, loops[0]), (Names{"header", "test", "body", "go", "store", "continue"}));
  EXPECT_EQ(back_edges(*module, loops[0]), Names{"continue"});
  // A break decides whether the loop runs on; a continue only skips to the
  // continue target, whose back edge runs either way.
  const Cfg& cfg = module->cfg(main_of(*module));
  EXPECT_TRUE(is_loop_branch(main_of(*module), cfg, block(*module, "body")));
  EXPECT_FALSE(is_loop_branch(main_of(*module), cfg, block(*module, "go")));
  EXPECT_FALSE(is_loop_branch(main_of(*module), cfg, block(*module, "store")));
}

TEST(Loops, NestedLoopsInnermostFirstWithTheirBodies) {
  // for (i) { for (j < 16) { } }
  auto module = kernel(counted_loop(R"(OpBranch %inner
%inner = OpLabel
%j = OpPhi %uint %uint_0 %body %j1 %inner_continue
OpLoopMerge %inner_merge %inner_continue None
OpBranch %inner_body
%inner_body = OpLabel
%jmore = OpULessThan %bool %j %uint_16
OpBranchConditional %jmore %inner_continue %inner_merge
%inner_continue = OpLabel
%j1 = OpIAdd %uint %j %uint_1
OpBranch %inner
%inner_merge = OpLabel)"));
  ASSERT_TRUE(module);
  const ir::Function& function = main_of(*module);
  const auto& loops = module->loops(function);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0].header, block(*module, "inner"));  // the inner loop first
  EXPECT_EQ(blocks(*module, loops[0]), (Names{"inner", "inner_body", "inner_continue"}));
  EXPECT_EQ(loops[1].header, block(*module, "header"));
  EXPECT_EQ(blocks(*module, loops[1]),
            (Names{"header", "test", "body", "inner", "inner_body", "inner_continue", "inner_merge", "continue"}));
  EXPECT_EQ(back_edges(*module, loops[0]), Names{"inner_continue"});
  EXPECT_EQ(back_edges(*module, loops[1]), Names{"continue"});
  const Cfg& cfg = module->cfg(function);
  EXPECT_TRUE(is_loop_branch(function, cfg, block(*module, "inner_body")));   // leaves the inner loop
  EXPECT_TRUE(is_loop_branch(function, cfg, block(*module, "entry")));        // enters the outer loop
  EXPECT_FALSE(is_loop_branch(function, cfg, block(*module, "inner_merge")));  // on to the outer continue block
  // The induction variables: i from 0 by 1 up to n, j from 0 by 1 up to 16.
  const SymbolicValues& values = module->symbolic(function);
  for (const auto& [phi, header] : {std::pair{"i", "header"}, std::pair{"j", "inner"}}) {
    const Induction* induction = values.induction(id(*module, phi));
    ASSERT_NE(induction, nullptr) << phi;
    EXPECT_EQ(induction->header, block(*module, header));
    EXPECT_EQ(module->constant_value(induction->initial), 0u);
    EXPECT_EQ(induction->step, Induction::Step::Add);
    EXPECT_EQ(module->constant_value(induction->step_value), 1u);
  }
  // The bound of j is a constant: the collision finder can enumerate it.
  ASSERT_NE(module->collisions(function).iteration_values(id(*module, "j")), nullptr);
  EXPECT_EQ(module->collisions(function).iteration_values(id(*module, "j"))->size(), 16u);
  EXPECT_EQ(module->collisions(function).iteration_values(id(*module, "i")), nullptr);
}

TEST(Loops, InvariantValuesAreTheSameOnEveryIteration) {
  auto module = kernel(counted_loop(R"(%twice = OpIMul %uint %n %uint_2
%np2 = OpAccessChain %ptr_pc_uint %pc %uint_0
%n2 = OpLoad %uint %np2
%id2 = OpLoad %v3uint %lid
%low = OpULessThan %bool %x %n2
%pick = OpSelect %uint %low %twice %uint_4
%d0 = OpAccessChain %ptr_elem %data %uint_0 %uint_0
%d = OpLoad %uint %d0
%t0 = OpAccessChain %ptr_shared %tile %uint_0
%s = OpLoad %uint %t0
%di = OpAccessChain %ptr_elem %data %uint_0 %i
%i2 = OpIAdd %uint %i %uint_2
%odd = OpBitwiseAnd %uint %i %uint_1
%b = OpIEqual %bool %odd %uint_0
)" + selection("%b", "join", "", "", "skip", "") +
                                    "%phi = OpPhi %uint %n %body %uint_4 %skip"));
  ASSERT_TRUE(module);
  const Loop& loop = module->loops(main_of(*module)).front();
  // Defined before the loop, constants and globals.
  for (const char* outside : {"n", "x", "uint_2", "tile"}) EXPECT_TRUE(invariant(*module, loop, outside)) << outside;
  // Pure arithmetic of invariants, and loads of memory no invocation writes.
  for (const char* pure : {"twice", "n2", "id2", "low", "pick", "t0", "d0"}) {
    EXPECT_TRUE(invariant(*module, loop, pure)) << pure;
  }
  // The induction variable and what derives from it; loads of memory that
  // invocations may write between iterations, even at an invariant address.
  for (const char* variant : {"i", "i1", "i2", "odd", "b", "di", "d", "s"}) {
    EXPECT_FALSE(invariant(*module, loop, variant)) << variant;
  }
  // A phi inside the loop, chosen by a branch on i.
  EXPECT_FALSE(invariant(*module, loop, "phi"));
}

// The value of the comparison `%c` on the iterations named for the loop.
std::optional<bool> decided(const Module& module, LoopIterations::Iteration iteration) {
  LoopIterations iterations(module, main_of(module));
  return iterations.decide(id(module, "c"), [&](uint32_t) { return iteration; });
}

TEST(LoopIterations, ATestOfTheInductionVariableIsKnownOnTheFirstIterationAndTheLaterOnes) {
  using Iteration = LoopIterations::Iteration;
  struct Case {
    std::string test;
    std::optional<bool> first, later;
  };
  const Case cases[] = {
      {"OpUGreaterThan %bool %i %uint_0", false, true},      // if (i > 0)
      {"OpINotEqual %bool %i %uint_0", false, true},         // if (i != 0)
      {"OpIEqual %bool %uint_0 %i", true, false},            // if (0 == i)
      {"OpUGreaterThanEqual %bool %i %uint_1", false, true},  // if (i >= 1)
      {"OpULessThan %bool %i %uint_4", true, std::nullopt},  // the exit test: fails some time later
      {"OpUGreaterThan %bool %i %uint_1", false, std::nullopt},
      {"OpUGreaterThan %bool %i %n", std::nullopt, std::nullopt},  // a bound klint cannot read
  };
  for (const Case& c : cases) {
    auto module = kernel(counted_loop("%c = " + c.test));
    ASSERT_TRUE(module) << c.test;
    EXPECT_EQ(decided(*module, Iteration::First), c.first) << c.test;
    EXPECT_EQ(decided(*module, Iteration::Later), c.later) << c.test;
    EXPECT_EQ(decided(*module, Iteration::Unknown), std::nullopt) << c.test;
  }
}

TEST(LoopIterations, AStartThatIsNotAConstantCancelsOut) {
  // for (i = n; ...; ++i) { if (i != n) ... }
  auto module = kernel(counted_loop("%c = OpINotEqual %bool %i %n", "%n", "%uint_64"));
  ASSERT_TRUE(module);
  EXPECT_EQ(decided(*module, LoopIterations::Iteration::First), false);
  EXPECT_EQ(decided(*module, LoopIterations::Iteration::Later), true);
}

TEST(LoopIterations, ALoopCountingDownIsNotTakenToStayAboveItsStart) {
  // for (i = 64; i < n; i += 0xFFFFFFFF) { if (i > 0) ... }: i falls, and an
  // unsigned value that falls may reach 0.
  auto module =
      kernel(counted_loop("%c = OpUGreaterThan %bool %i %uint_0", "%uint_64", "%n", "OpIAdd %uint %i %uint_max"));
  ASSERT_TRUE(module);
  EXPECT_EQ(decided(*module, LoopIterations::Iteration::First), true);
  EXPECT_EQ(decided(*module, LoopIterations::Iteration::Later), std::nullopt);
}

TEST(LoopIterations, OnlyLoopsWithABranchOnTheirIterationAreTracked) {
  // for (i < n) { if (i > 0) barrier(); }
  auto tracked = kernel(counted_loop("%c = OpUGreaterThan %bool %i %uint_0\n" +
                                     selection("%c", "after", "sync", "OpControlBarrier %wg %wg %shared")));
  ASSERT_TRUE(tracked);
  LoopIterations iterations(*tracked, main_of(*tracked));
  EXPECT_TRUE(iterations.tracks_any());
  uint32_t header = block(*tracked, "header"), body = block(*tracked, "body"), sync = block(*tracked, "sync");
  uint32_t entry = block(*tracked, "entry"), latch = block(*tracked, "continue");
  LoopIterations::State first = iterations.follow(0, entry, header);
  LoopIterations::State later = iterations.follow(first, latch, header);
  EXPECT_EQ(iterations.iteration(first, header), LoopIterations::Iteration::First);
  EXPECT_EQ(iterations.iteration(later, header), LoopIterations::Iteration::Later);
  EXPECT_EQ(iterations.decided_successor(body, later), sync);
  EXPECT_EQ(iterations.decided_successor(body, first), block(*tracked, "after"));
  EXPECT_EQ(iterations.decided_successor(body, 0), std::nullopt);
  // The barrier runs on later iterations only; leaving the loop forgets.
  EXPECT_FALSE(iterations.runs_in(header, LoopIterations::Iteration::First, sync));
  EXPECT_TRUE(iterations.runs_in(header, LoopIterations::Iteration::Later, sync));
  EXPECT_EQ(iterations.iteration(iterations.follow(later, block(*tracked, "test"), block(*tracked, "merge")), header),
            LoopIterations::Iteration::Unknown);

  auto untracked = kernel(counted_loop("%c = OpULessThan %bool %x %uint_32\n" +
                                       selection("%c", "after", "sync", "OpControlBarrier %wg %wg %shared")));
  ASSERT_TRUE(untracked);
  EXPECT_FALSE(LoopIterations(*untracked, main_of(*untracked)).tracks_any());
}

}  // namespace
}  // namespace klint::testing
