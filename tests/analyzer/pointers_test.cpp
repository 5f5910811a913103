// The pointer walk (analyzer/pointers.h) on SPIR-V assembly: access chains,
// copies, element steps, selects, phis and function parameters.
#include <gtest/gtest.h>

#include "analyzer/pointers.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

// Workgroup arrays %a and %b of 64 uints, %grid of 4 such arrays, and a
// function %pick(ptr) that stores through its parameter. `body` is main's.
std::unique_ptr<Module> module_with(const std::string& body) {
  return module_from_assembly(R"(OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
OpName %a "a"
OpName %b "b"
OpName %grid "grid"
%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%uint_64 = OpConstant %uint 64
%true = OpConstantTrue %bool
%row = OpTypeArray %uint %uint_64
%rows = OpTypeArray %row %uint_4
%ptr_row = OpTypePointer Workgroup %row
%ptr_rows = OpTypePointer Workgroup %rows
%ptr_uint = OpTypePointer Workgroup %uint
%fn_ptr = OpTypeFunction %void %ptr_uint
%a = OpVariable %ptr_row Workgroup
%b = OpVariable %ptr_row Workgroup
%grid = OpVariable %ptr_rows Workgroup
%pick = OpFunction %void None %fn_ptr
%param = OpFunctionParameter %ptr_uint
%pick_entry = OpLabel
OpStore %param %uint_1
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
)" + body + R"(
OpReturn
OpFunctionEnd
)");
}

uint32_t id_of(const Module& module, const std::string& name) {
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.result_id() && module.name(global.result_id()) == name) return global.result_id();
  }
  ADD_FAILURE() << "no " << name;
  return 0;
}

// The result of the last instruction of main's first block that has one.
uint32_t last_result(const Module& module) {
  const auto& instructions = module.functions().back().blocks.front().instructions;
  for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
    if (it->result_id()) return it->result_id();
  }
  return 0;
}

TEST(Pointers, NestedChainsAndCopiesFlattenTheirIndices) {
  auto module = module_with(R"(%r = OpAccessChain %ptr_row %grid %uint_2
%c = OpCopyObject %ptr_row %r
%e = OpAccessChain %ptr_uint %c %uint_1)");
  ASSERT_TRUE(module);
  auto path = pointer_path(*module, last_result(*module));
  ASSERT_TRUE(path);
  EXPECT_EQ(path->variable->result_id(), id_of(*module, "grid"));
  ASSERT_EQ(path->indices.size(), 2u);
  EXPECT_EQ(module->constant_value(path->indices[0]), 2u);
  EXPECT_EQ(module->constant_value(path->indices[1]), 1u);
  EXPECT_FALSE(path->element_step);
  EXPECT_FALSE(path->chosen);
  EXPECT_EQ(pointer_variable(*module, last_result(*module))->result_id(), id_of(*module, "grid"));
}

TEST(Pointers, ElementStepsAreMarked) {
  auto zero = module_with(R"(%e = OpAccessChain %ptr_uint %a %uint_4
%s = OpPtrAccessChain %ptr_uint %e %uint_0)");
  ASSERT_TRUE(zero);
  auto path = pointer_path(*zero, last_result(*zero));
  ASSERT_TRUE(path);
  EXPECT_FALSE(path->element_step);  // an element of 0 goes nowhere
  ASSERT_EQ(path->indices.size(), 1u);

  auto step = module_with(R"(%e = OpAccessChain %ptr_uint %a %uint_4
%s = OpPtrAccessChain %ptr_uint %e %uint_1)");
  ASSERT_TRUE(step);
  path = pointer_path(*step, last_result(*step));
  ASSERT_TRUE(path);
  EXPECT_TRUE(path->element_step);
  EXPECT_EQ(path->variable->result_id(), id_of(*step, "a"));
}

TEST(Pointers, ASelectIsTwoPathsAndNoSinglePath) {
  auto module = module_with(R"(%ea = OpAccessChain %ptr_uint %a %uint_1
%eb = OpAccessChain %ptr_uint %b %uint_2
%s = OpSelect %ptr_uint %true %ea %eb)");
  ASSERT_TRUE(module);
  uint32_t pointer = last_result(*module);
  EXPECT_FALSE(pointer_path(*module, pointer));
  EXPECT_EQ(pointer_variable(*module, pointer), nullptr);
  auto paths = pointer_paths(*module, pointer);
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0].variable->result_id(), id_of(*module, "a"));
  EXPECT_EQ(paths[1].variable->result_id(), id_of(*module, "b"));
  EXPECT_TRUE(paths[0].chosen);
  EXPECT_TRUE(paths[1].chosen);
}

TEST(Pointers, PhisInALoopEndAndRepeatsAreOnePath) {
  // %p is %a's element 0 on entry, and itself around the loop: one place.
  auto module = module_with(R"(%e = OpAccessChain %ptr_uint %a %uint_0
OpBranch %loop
%loop = OpLabel
%p = OpPhi %ptr_uint %e %entry %p %continue
OpLoopMerge %exit %continue None
OpBranchConditional %true %body %exit
%body = OpLabel
OpStore %p %uint_1
OpBranch %continue
%continue = OpLabel
OpBranch %loop
%exit = OpLabel)");
  ASSERT_TRUE(module);
  const ir::Function& main = module->functions().back();
  const ir::Instruction& store = main.blocks[2].instructions.front();
  ASSERT_EQ(store.opcode(), spv::Op::OpStore);
  auto paths = pointer_paths(*module, store.word(0));
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0].variable->result_id(), id_of(*module, "a"));
  EXPECT_TRUE(paths[0].chosen);
}

TEST(Pointers, AParameterLeadsToTheArgumentOfEachCall) {
  auto module = module_with(R"(%ea = OpAccessChain %ptr_uint %a %uint_1
%eb = OpAccessChain %ptr_uint %b %uint_2
%c1 = OpFunctionCall %void %pick %ea
%c2 = OpFunctionCall %void %pick %eb)");
  ASSERT_TRUE(module);
  const ir::Instruction& store = module->functions().front().blocks.front().instructions.front();
  ASSERT_EQ(store.opcode(), spv::Op::OpStore);
  EXPECT_FALSE(pointer_path(*module, store.word(0)));  // a parameter is no single place
  auto paths = pointer_paths(*module, store.word(0));
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0].variable->result_id(), id_of(*module, "a"));
  EXPECT_EQ(paths[1].variable->result_id(), id_of(*module, "b"));
  EXPECT_EQ(module->constant_value(paths[1].indices.at(0)), 2u);
}

TEST(Pointers, ValuesThatAreNoPointersLeadNowhere) {
  auto module = module_with("%x = OpIAdd %uint %uint_1 %uint_2");
  ASSERT_TRUE(module);
  EXPECT_FALSE(pointer_path(*module, last_result(*module)));
  EXPECT_TRUE(pointer_paths(*module, last_result(*module)).empty());
  EXPECT_FALSE(pointer_path(*module, 0xFFFFFu));
}

}  // namespace
}  // namespace klint::testing
