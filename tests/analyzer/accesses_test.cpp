// Accesses (analyzer/accesses.h) on SPIR-V assembly, as a generator other
// than glslang would write them: what each instruction touches, through which
// pointer, at which offset, and under which conditions it runs.
#include <gtest/gtest.h>

#include "analyzer/accesses.h"
#include "tests/analyzer/assembly.h"

namespace klint::testing {
namespace {

using namespace assembly;
using Strings = std::vector<std::string>;

Strings all_of(const Module& module) { return summaries(module, module.accesses(main_of(module)).all()); }

TEST(Accesses, KindsStoragesAndByteOffsets) {
  auto module = kernel(R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %uint_1
%x1 = OpIAdd %uint %x %uint_1
%t1 = OpAccessChain %ptr_shared %tile %x1
%v = OpLoad %uint %t1
%d = OpAccessChain %ptr_elem %data %uint_0 %x
%old = OpAtomicIAdd %uint %d %dev %uint_0 %v)");
  ASSERT_TRUE(module);
  const auto& all = module->accesses(main_of(*module)).all();
  EXPECT_EQ(all_of(*module), (Strings{"write tile at gl_LocalInvocationID.x * 4, 4 bytes",
                                      "read tile at gl_LocalInvocationID.x * 4 + 4, 4 bytes",
                                      "atomic data at gl_LocalInvocationID.x * 4, 4 bytes"}));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].storage, spv::StorageClass::Workgroup);
  EXPECT_EQ(all[2].storage, spv::StorageClass::StorageBuffer);
  // The pointer is the instruction's operand, the variable the root it leads to.
  EXPECT_EQ(all[0].pointer, id(*module, "t"));
  EXPECT_EQ(all[0].variable, id(*module, "tile"));
  EXPECT_EQ(all[2].pointer, id(*module, "d"));
  EXPECT_EQ(all[1].block, 0u);
  EXPECT_EQ(main_of(*module).blocks[0].instructions[all[1].position].opcode(), spv::Op::OpLoad);
}

TEST(Accesses, EveryAtomicIsAnAtomicAccessOfItsPointer) {
  auto module = kernel(R"(%t = OpAccessChain %ptr_shared %tile %x
%a = OpAtomicLoad %uint %t %wg %uint_0
OpAtomicStore %t %wg %uint_0 %uint_1
%b = OpAtomicExchange %uint %t %wg %uint_0 %uint_2
%c = OpAtomicCompareExchange %uint %t %wg %uint_0 %uint_0 %uint_4 %uint_2
%d = OpAtomicIIncrement %uint %t %wg %uint_0
%e = OpAtomicUMax %uint %t %wg %uint_0 %uint_16)");
  ASSERT_TRUE(module);
  EXPECT_EQ(all_of(*module), Strings(6, "atomic tile at gl_LocalInvocationID.x * 4, 4 bytes"));
}

TEST(Accesses, OfAnInstructionIsWhatItTouches) {
  auto module = kernel(R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %uint_1)");
  ASSERT_TRUE(module);
  const Accesses& accesses = module->accesses(main_of(*module));
  EXPECT_EQ(summaries(*module, accesses.of(nth(*module, spv::Op::OpStore))),
            Strings{"write tile at gl_LocalInvocationID.x * 4, 4 bytes"});
  // Loads of a built-in and of a push constant, and an access chain, touch
  // nothing klint tracks.
  EXPECT_TRUE(accesses.of(nth(*module, spv::Op::OpLoad, 0)).empty());
  EXPECT_TRUE(accesses.of(nth(*module, spv::Op::OpLoad, 1)).empty());
  EXPECT_TRUE(accesses.of(nth(*module, spv::Op::OpAccessChain, 1)).empty());
}

TEST(Accesses, ACopyWritesItsTargetAndReadsItsSource) {
  auto module = kernel(R"(%src = OpAccessChain %ptr_elem %data %uint_0 %x
%dst = OpAccessChain %ptr_shared %tile %x
OpCopyMemory %dst %src
OpCopyMemory %other %tile)");
  ASSERT_TRUE(module);
  const Accesses& accesses = module->accesses(main_of(*module));
  EXPECT_EQ(summaries(*module, accesses.of(nth(*module, spv::Op::OpCopyMemory, 0))),
            (Strings{"write tile at gl_LocalInvocationID.x * 4, 4 bytes", "read data at gl_LocalInvocationID.x * 4, 4 bytes"}));
  // A whole array at once.
  EXPECT_EQ(summaries(*module, accesses.of(nth(*module, spv::Op::OpCopyMemory, 1))),
            (Strings{"write other at 0, 256 bytes", "read tile at 0, 256 bytes"}));
}

TEST(Accesses, ASizedCopyTouchesTheBytesItsSizeSays) {
  // OpCopyMemorySized needs the Addresses capability, which Vulkan lacks; a
  // module of another environment may still carry it.
  auto module = kernel(R"(%dst = OpAccessChain %ptr_shared %tile %x
OpCopyMemorySized %dst %other %uint_16)",
                       "", "OpCopyMemorySized needs Addresses");
  ASSERT_TRUE(module);
  EXPECT_EQ(all_of(*module), (Strings{"write tile at gl_LocalInvocationID.x * 4, 16 bytes", "read other at 0, 16 bytes"}));
}

TEST(Accesses, AStepOverElementsLeavesTheOffsetUnknown) {
  auto module = kernel(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %x
%next = OpPtrAccessChain %ptr_elem %d %uint_1
OpStore %next %uint_1)");
  ASSERT_TRUE(module);
  EXPECT_EQ(all_of(*module), Strings{"write data at unknown, 0 bytes"});
}

TEST(Accesses, APointerChosenAtAPhiIsOneAccessPerVariable) {
  auto module = kernel("%low = OpULessThan %bool %x %uint_32\n" +
                       selection("%low", "join", "left", "%pl = OpAccessChain %ptr_shared %tile %x", "right",
                                 "%pr = OpAccessChain %ptr_shared %other %x\n"
                                 "%pt = OpAccessChain %ptr_shared %tile %uint_0") +
                       R"(%p = OpPhi %ptr_shared %pl %left %pr %right
%q = OpPhi %ptr_shared %pl %left %pt %right
OpStore %p %uint_1
OpStore %q %uint_2)");
  ASSERT_TRUE(module);
  const Accesses& accesses = module->accesses(main_of(*module));
  EXPECT_EQ(summaries(*module, accesses.of(nth(*module, spv::Op::OpStore, 0))),
            (Strings{"write tile at unknown, 0 bytes", "write other at unknown, 0 bytes"}));
  // Two places in one variable: one access, still at an unknown offset.
  EXPECT_EQ(summaries(*module, accesses.of(nth(*module, spv::Op::OpStore, 1))), Strings{"write tile at unknown, 0 bytes"});
}

TEST(Accesses, AnIndexLoadedFromMemoryIsASymbolOfItsOwn) {
  auto module = kernel(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %x
%i = OpLoad %uint %d
%t = OpAccessChain %ptr_shared %tile %i
OpStore %t %uint_1)");
  ASSERT_TRUE(module);
  EXPECT_EQ(all_of(*module), (Strings{"read data at gl_LocalInvocationID.x * 4, 4 bytes", "write tile at i * 4, 4 bytes"}));
}

TEST(Accesses, GuardsAreTheConditionsOfTheDominatingEdges) {
  // if (x < 16) { if (x < n) tile[x] = 1; } else tile[0] = 2;
  auto module = kernel("%small = OpULessThan %bool %x %uint_16\n" +
                       selection("%small", "done", "then",
                                 "%in = OpULessThan %bool %x %n\n" +
                                     selection("%in", "inner", "store",
                                               "%t = OpAccessChain %ptr_shared %tile %x\nOpStore %t %uint_1"),
                                 "else", "%t0 = OpAccessChain %ptr_shared %tile %uint_0\nOpStore %t0 %uint_2"));
  ASSERT_TRUE(module);
  // x < 16 and x < n, as `expression >= 0`; the else arm: x >= 16.
  EXPECT_EQ(guards(*module, block(*module, "store")),
            (Strings{"-gl_LocalInvocationID.x + 15 >= 0", "n - gl_LocalInvocationID.x - 1 >= 0"}));
  EXPECT_EQ(guards(*module, block(*module, "else")), Strings{"gl_LocalInvocationID.x - 16 >= 0"});
  // Where the arms meet, neither holds.
  EXPECT_EQ(guards(*module, block(*module, "inner")), Strings{"-gl_LocalInvocationID.x + 15 >= 0"});
  EXPECT_TRUE(guards(*module, block(*module, "done")).empty());
}

TEST(Accesses, AStoreUnderTheFirstInvocationIsGuardedByAnEquality) {
  // if (x == 0) tile[0] = 1; else if (x == 4) tile[0] = 2;  (the latter as x != 4 failing)
  auto module = kernel("%t0 = OpAccessChain %ptr_shared %tile %uint_0\n%first = OpIEqual %bool %x %uint_0\n" +
                       selection("%first", "done", "store", "OpStore %t0 %uint_1", "else",
                                 "%not4 = OpINotEqual %bool %x %uint_4\n" +
                                     selection("%not4", "inner", "", "", "four", "OpStore %t0 %uint_2")));
  ASSERT_TRUE(module);
  EXPECT_EQ(guards(*module, block(*module, "store")), Strings{"gl_LocalInvocationID.x == 0"});
  // x != 0 is no polynomial constraint: the condition itself, evaluated
  // whole; x != 4 failing is x == 4.
  EXPECT_EQ(guards(*module, block(*module, "else")), Strings{"first fails"});
  EXPECT_EQ(guards(*module, block(*module, "four")), (Strings{"first fails", "gl_LocalInvocationID.x - 4 == 0"}));
}

TEST(Accesses, InALoopTheLoopTestGuardsTheBodyAndNotTheExit) {
  // for (i = 0; i < n; ++i) tile[i] = 1; tile[x] = 2;
  auto module = kernel(counted_loop(R"(%t = OpAccessChain %ptr_shared %tile %i
OpStore %t %uint_1)") + R"(%tx = OpAccessChain %ptr_shared %tile %x
OpStore %tx %uint_2)");
  ASSERT_TRUE(module);
  EXPECT_EQ(all_of(*module), (Strings{"write tile at i * 4, 4 bytes", "write tile at gl_LocalInvocationID.x * 4, 4 bytes"}));
  EXPECT_EQ(guards(*module, block(*module, "body")), Strings{"n - i - 1 >= 0"});
  EXPECT_EQ(guards(*module, block(*module, "continue")), Strings{"n - i - 1 >= 0"});
  // Leaving the loop tests i at a value past its iterations: no guard.
  EXPECT_TRUE(guards(*module, block(*module, "merge")).empty());
}

TEST(Accesses, AConditionNoPolynomialStatesGuardsWhole) {
  // if ((data[x] != 0) != (x < 32)) tile[x] = 1; else tile[x] = 2;
  // if (data[x] != 0) {} else tile[0] = 3;
  auto module = kernel(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %x
%v = OpLoad %uint %d
%set = OpINotEqual %bool %v %uint_0
%low = OpULessThan %bool %x %uint_32
%either = OpLogicalNotEqual %bool %set %low
%t = OpAccessChain %ptr_shared %tile %x
)" + selection("%either", "done", "then", "OpStore %t %uint_1", "else", "OpStore %t %uint_2") +
                       selection("%set", "end", "", "", "unset", "OpStore %t %uint_2"));
  ASSERT_TRUE(module);
  EXPECT_EQ(guards(*module, block(*module, "then")), Strings{"either holds"});
  EXPECT_EQ(guards(*module, block(*module, "else")), Strings{"either fails"});
  // A comparison of a loaded value is a guard on that value's symbol.
  EXPECT_EQ(guards(*module, block(*module, "unset")), Strings{"v == 0"});
}

TEST(Accesses, AllOfAComparisonOfVectorsIsOneConstraintPerComponent) {
  // if (all(equal(id.xz, uvec2(0, 0)))) tile[0] = 1;  if (any(lessThan(id.xz, uvec2(2, 2)))) tile[1] = 1;
  auto module = kernel(R"(%xz = OpVectorShuffle %v2uint %id %id 0 2
%equal = OpIEqual %v2bool %xz %zero
%origin = OpAll %bool %equal
%less = OpULessThan %v2bool %xz %two
%near = OpAny %bool %less
%t0 = OpAccessChain %ptr_shared %tile %uint_0
%t1 = OpAccessChain %ptr_shared %tile %uint_1
)" + selection("%origin", "done", "first", "OpStore %t0 %uint_1") +
                           selection("%near", "end", "second", "OpStore %t1 %uint_1"),
                       R"(%v2uint = OpTypeVector %uint 2
%v2bool = OpTypeVector %bool 2
%zero = OpConstantComposite %v2uint %uint_0 %uint_0
%two = OpConstantComposite %v2uint %uint_2 %uint_2
)");
  ASSERT_TRUE(module);
  // z is 0 in a workgroup of 64 x 1 x 1: its constraint says 0 == 0.
  EXPECT_EQ(guards(*module, block(*module, "first")), (Strings{"0 == 0", "gl_LocalInvocationID.x == 0"}));
  // A disjunction is no conjunction of constraints: evaluated whole.
  EXPECT_EQ(guards(*module, block(*module, "second")), Strings{"near holds"});
}

}  // namespace
}  // namespace klint::testing
