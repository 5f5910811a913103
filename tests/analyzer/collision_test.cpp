// The collision finder (analyzer/collision.h) on SPIR-V assembly: whether two
// invocations of a workgroup of 64 touch one word through an access, and
// which two.
#include <gtest/gtest.h>

#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "tests/analyzer/assembly.h"

namespace klint::testing {
namespace {

using namespace assembly;

// Two invocations that run main's first store, to one word; with `loop`
// (the loop's header block), iterations of that loop may differ between them.
std::optional<Collision> store_collides(const Module& module, std::optional<uint32_t> loop = std::nullopt,
                                       UnknownGuards unknown = UnknownGuards::MayHold) {
  const ir::Function& main = main_of(module);
  auto accesses = module.accesses(main).of(nth(module, spv::Op::OpStore));
  EXPECT_EQ(accesses.size(), 1u);
  if (accesses.empty()) return std::nullopt;
  std::vector<const Loop*> independent;
  for (const Loop& candidate : module.loops(main)) {
    if (loop && candidate.header == *loop) independent.push_back(&candidate);
  }
  return module.collisions(main).find(accesses[0], accesses[0], independent, {}, {}, unknown);
}

// tile[index] = 1, after `prelude` computes %index.
std::unique_ptr<Module> store_at(const std::string& prelude) {
  return kernel(prelude + R"(
%t = OpAccessChain %ptr_shared %tile %index
OpStore %t %uint_1)");
}

// if (condition) tile[0] = 1;
std::unique_ptr<Module> guarded(const std::string& condition) {
  return kernel("%condition = " + condition + "\n" +
                selection("%condition", "done", "store", "%t = OpAccessChain %ptr_shared %tile %uint_0\nOpStore %t %uint_1"));
}

TEST(Collision, TwoInvocationsWriteOneWordAtHalfTheirId) {
  auto module = store_at("%index = OpUDiv %uint %x %uint_2");
  ASSERT_TRUE(module);
  auto collision = store_collides(*module);
  ASSERT_TRUE(collision);
  EXPECT_NE(collision->first.local_index, collision->second.local_index);
  EXPECT_EQ(collision->first.local_index / 2, collision->second.local_index / 2);
  EXPECT_EQ(collision->first.local_id[0], collision->first.local_index);
  EXPECT_EQ(collision->first.offset, collision->second.offset);
  EXPECT_EQ(collision->first.offset, 4 * (collision->first.local_index / 2));
}

// Whether two invocations write one word through tile[index] = 1.
bool index_collides(const std::string& prelude) {
  auto module = store_at(prelude);
  return module && store_collides(*module);
}

TEST(Collision, EachInvocationItsOwnWordIsDisjoint) {
  EXPECT_FALSE(index_collides("%index = OpCopyObject %uint %x"));
  EXPECT_FALSE(index_collides("%index = OpISub %uint %uint_63 %x"));
}

TEST(Collision, OneWordForAllCollidesUnlessOneInvocationWrites) {
  EXPECT_TRUE(index_collides("%index = OpCopyObject %uint %uint_0"));
  // if (x == 0) tile[0] = 1;
  auto first = guarded("OpIEqual %bool %x %uint_0");
  ASSERT_TRUE(first);
  EXPECT_FALSE(store_collides(*first));
  // if (x < 2): two writers again.
  auto two = guarded("OpULessThan %bool %x %uint_2");
  ASSERT_TRUE(two);
  auto collision = store_collides(*two);
  ASSERT_TRUE(collision);
  EXPECT_LT(collision->first.local_index, 2u);
  EXPECT_LT(collision->second.local_index, 2u);
}

TEST(Collision, AnIndexKlintCannotEvaluateGivesNoAnswer) {
  // tile[data[x]]: each invocation's own unknown: silence, never a guess.
  EXPECT_FALSE(index_collides("%d = OpAccessChain %ptr_elem %data %uint_0 %x\n%index = OpLoad %uint %d"));
  // tile[data[0]]: one unknown word, the same for all: they collide, wherever it is.
  EXPECT_TRUE(index_collides("%d = OpAccessChain %ptr_elem %data %uint_0 %uint_0\n%index = OpLoad %uint %d"));
  // A step over elements: no offset at all.
  auto stepped = kernel(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %x
%next = OpPtrAccessChain %ptr_elem %d %uint_1
OpStore %next %uint_1)");
  ASSERT_TRUE(stepped);
  EXPECT_FALSE(store_collides(*stepped));
}

TEST(Collision, IterationsThatMayDifferMeetAcrossInvocations) {
  // for (i < 4) tile[x + i] = 1: in one iteration each invocation has its
  // own word; invocation x + 1 in iteration i meets x in iteration i + 1.
  auto module = kernel(counted_loop(R"(%index = OpIAdd %uint %x %i
%t = OpAccessChain %ptr_shared %tile %index
OpStore %t %uint_1)",
                                    "%uint_0", "%uint_4"));
  ASSERT_TRUE(module);
  EXPECT_FALSE(store_collides(*module));
  auto collision = store_collides(*module, block(*module, "header"));
  ASSERT_TRUE(collision);
  ASSERT_EQ(collision->first.loop_values.size(), 1u);
  ASSERT_EQ(collision->second.loop_values.size(), 1u);
  EXPECT_EQ(collision->first.local_index + collision->first.loop_values[0].second,
            collision->second.local_index + collision->second.loop_values[0].second);
  EXPECT_EQ(collision->first.offset, collision->second.offset);
}

TEST(Collision, GuardsOnBitFieldsAndShiftsOfTheIdEvaluate) {
  // if (bitfieldExtract(x, 0, 4) == 0 && (x >> 4) == 0): invocation 0 alone.
  auto module = kernel(R"(%low = OpBitFieldUExtract %uint %x %uint_0 %uint_4
%high = OpShiftRightLogical %uint %x %uint_4
%low_zero = OpIEqual %bool %low %uint_0
%high_zero = OpIEqual %bool %high %uint_0
%condition = OpLogicalAnd %bool %low_zero %high_zero
)" + selection("%condition", "done", "store", "%t = OpAccessChain %ptr_shared %tile %uint_0\nOpStore %t %uint_1"));
  ASSERT_TRUE(module);
  EXPECT_FALSE(store_collides(*module));
  // bitfieldInsert(x, 0, 0, 4) == 0: x below 16, sixteen writers.
  auto sixteen = kernel(R"(%cleared = OpBitFieldInsert %uint %x %uint_0 %uint_0 %uint_4
%condition = OpIEqual %bool %cleared %uint_0
)" + selection("%condition", "done", "store", "%t = OpAccessChain %ptr_shared %tile %uint_0\nOpStore %t %uint_1"));
  ASSERT_TRUE(sixteen);
  auto collision = store_collides(*sixteen);
  ASSERT_TRUE(collision);
  EXPECT_LT(collision->first.local_index, 16u);
  EXPECT_LT(collision->second.local_index, 16u);
}

TEST(Collision, TheElseArmOfOneInvocationAdmitsTheOthers) {
  // if (x != 0) tile[0] = 1: every invocation but the first.
  auto module = guarded("OpINotEqual %bool %x %uint_0");
  ASSERT_TRUE(module);
  auto collision = store_collides(*module);
  ASSERT_TRUE(collision);
  EXPECT_NE(collision->first.local_index, 0u);
  EXPECT_NE(collision->second.local_index, 0u);
  // if (!(x < 63)): invocation 63 alone.
  auto last = kernel(R"(%below = OpULessThan %bool %x %uint_63
%condition = OpLogicalNot %bool %below
)" + selection("%condition", "done", "store", "%t = OpAccessChain %ptr_shared %tile %uint_0\nOpStore %t %uint_1"));
  ASSERT_TRUE(last);
  EXPECT_FALSE(store_collides(*last));
}

TEST(Collision, AUniformValueKlintCannotSeeIsTriedAtAFewValues) {
  // if (x < n): all 64 write when n is 64, and the collision says so.
  auto below = guarded("OpULessThan %bool %x %n");
  ASSERT_TRUE(below);
  auto collision = store_collides(*below, std::nullopt, UnknownGuards::HoldForOne);
  ASSERT_TRUE(collision);
  ASSERT_EQ(collision->chosen.size(), 1u);
  EXPECT_EQ(collision->chosen[0].first.kind, Symbol::Kind::Value);
  EXPECT_GE(collision->chosen[0].second, 2);
  // if (x == n): one writer, whatever n is.
  auto equal = guarded("OpIEqual %bool %x %n");
  ASSERT_TRUE(equal);
  EXPECT_FALSE(store_collides(*equal, std::nullopt, UnknownGuards::HoldForOne));
  // Unless any invocation may take the unknown guard (whether a barrier may
  // have something to order).
  EXPECT_TRUE(store_collides(*equal, std::nullopt, UnknownGuards::MayHold));
}

TEST(Collision, AGuardThatDiffersBetweenInvocationsIsNotTakenToHoldForTwo) {
  // if (data[x] == 7) tile[0] = 1: klint cannot show two invocations pass.
  auto module = kernel(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %x
%v = OpLoad %uint %d
%condition = OpIEqual %bool %v %uint_4
)" + selection("%condition", "done", "store", "%t = OpAccessChain %ptr_shared %tile %uint_0\nOpStore %t %uint_1"));
  ASSERT_TRUE(module);
  EXPECT_FALSE(store_collides(*module, std::nullopt, UnknownGuards::HoldForOne));
  auto collision = store_collides(*module, std::nullopt, UnknownGuards::MayHold);
  ASSERT_TRUE(collision);
  ASSERT_EQ(collision->first.assumed.size(), 1u);
  EXPECT_EQ(collision->first.assumed[0].holds, true);
}

}  // namespace
}  // namespace klint::testing
