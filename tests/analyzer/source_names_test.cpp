// How messages name SSA values (analyzer/source_names.h's value_name): as the
// source does where it can, in words where it cannot, by id only where the
// module has no source to point at.
#include <gtest/gtest.h>

#include "analyzer/source_names.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

// The name of each phi of each loop header of main, in module order, "|"
// between loops.
std::string loop_phis(const Module& module) {
  std::string out;
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks) {
      const ir::Instruction* merge = block.merge();
      if (!merge || merge->opcode() != spv::Op::OpLoopMerge) continue;
      if (!out.empty()) out += "|";
      std::string names;
      for (const ir::Instruction& phi : block.instructions) {
        if (phi.opcode() == spv::Op::OpPhi) names += (names.empty() ? "" : ",") + value_name(module, phi.result_id());
      }
      out += names;
    }
  }
  return out;
}

std::unique_ptr<Module> kernel(const std::string& body) {
  return module_from_glsl("#version 450\nlayout(local_size_x = 64) in;\n"
                          "layout(binding = 0) buffer Data { uint data[]; };\n"
                          "layout(push_constant) uniform P { uint n; };\n"
                          "shared uint counts[4];\n"
                          "void main() {\n" + body + "\n}\n");
}

TEST(ValueName, LoopCountersGoByTheNameTheirForGives) {
  auto module = kernel("for (uint k = 0u; k < n; ++k) data[k] = 0u;");
  ASSERT_TRUE(module);
  EXPECT_EQ(loop_phis(*module), "k");
  module = kernel("uint j;\nfor (j = 2u; j < n; j += 2u) data[j] = 0u;");
  ASSERT_TRUE(module);
  EXPECT_EQ(loop_phis(*module), "j");
}

// Two values the loop carries: neither takes the `for`'s name, which could
// be either's.
TEST(ValueName, ACounterBesideAnotherInductionIsDescribed) {
  auto module = kernel("uint m = 0u;\nfor (uint k = 0u; k < n; ++k) {\n  data[k] = m;\n  m += 3u;\n}");
  ASSERT_TRUE(module);
  EXPECT_EQ(loop_phis(*module), "a value the loop at line 8 carries,a value the loop at line 8 carries");
}

TEST(ValueName, AWhileLoopsCounterIsDescribed) {
  auto module = kernel("uint k = 0u;\nwhile (k < n) {\n  data[k] = 0u;\n  k++;\n}");
  ASSERT_TRUE(module);
  EXPECT_EQ(loop_phis(*module), "the loop counter at line 8");
}

// Loads: a block's member, a variable's element at constant indices, else words.
TEST(ValueName, LoadsGoByWhatTheyRead) {
  auto module = kernel("uint a = n;\nuint b = counts[2];\nuint c = counts[gl_LocalInvocationID.x & 3u];\n"
                       "data[0] = a + b + c;");
  ASSERT_TRUE(module);
  std::vector<std::string> names;
  module->ir().for_each_instruction([&](const ir::Instruction& i) {
    if (i.opcode() == spv::Op::OpLoad && module->block_of(i)) {
      names.push_back(value_name(*module, i.result_id()));
    }
  });
  EXPECT_EQ(names,
            (std::vector<std::string>{"n", "counts[2]", "gl_LocalInvocationID.x", "the value loaded at line 9"}));
}

// Without source lines there is nothing but the id to show.
TEST(ValueName, AModuleWithoutLinesShowsTheId) {
  auto module = module_from_assembly(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%sum = OpIAdd %uint %one %one
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(module);
  const ir::Instruction* sum = nullptr;
  module->ir().for_each_instruction([&](const ir::Instruction& i) {
    if (i.opcode() == spv::Op::OpIAdd) sum = &i;
  });
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(value_name(*module, sum->result_id()), "%" + std::to_string(sum->result_id()));
}

}  // namespace
}  // namespace klint::testing
