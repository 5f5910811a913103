#include "validate/spirv_val.h"

#include <gtest/gtest.h>

#include "analyzer/frontend.h"
#include "tests/analyzer/spirv_words.h"

namespace klint {
namespace {

std::vector<uint32_t> assemble(const std::string& text) {
  SourceCache sources;
  CompiledShader shader = compile("test.spvasm", text, Language::SpirvAssembly, CompileOptions{}, sources);
  EXPECT_TRUE(shader.ok);
  for (const Diagnostic& d : shader.diagnostics) ADD_FAILURE() << d.message;
  return shader.spirv;
}

// Instruction 17 (1-based, module order) adds a float to an int; the OpLine
// and OpNop before it count too.
constexpr const char* kBadAdd = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "bad.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%int_1 = OpConstant %int 1
%float_1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %file 1 1
OpNop
OpLine %file 2 1
%sum = OpIAdd %int %int_1 %float_1
OpReturn
OpFunctionEnd
)";

TEST(Validate, ValidModuleHasNoMessages) {
  SourceCache sources;
  CompiledShader shader =
      compile("ok.comp", "#version 450\nlayout(local_size_x = 8) in;\nvoid main() { barrier(); }\n",
              Language::Glsl, CompileOptions{}, sources);
  ASSERT_TRUE(shader.ok);
  EXPECT_TRUE(validate_spirv(shader.spirv, SPV_ENV_VULKAN_1_3).empty());
}

TEST(Validate, IndexIsInstructionOrdinal) {
  std::vector<uint32_t> spirv = assemble(kBadAdd);
  auto instructions = testing::raw_instructions(spirv);
  ASSERT_EQ(instructions.size(), 19u);
  ASSERT_EQ(instructions[16].opcode, 128u);  // OpIAdd, ordinal 17
  auto messages = validate_spirv(spirv, SPV_ENV_VULKAN_1_3);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].instruction, 17u);
  EXPECT_TRUE(messages[0].is_error);
  EXPECT_NE(messages[0].message.find("OpIAdd"), std::string::npos) << messages[0].message;
}

TEST(Validate, KeepsVuid) {
  // Vulkan requires a workgroup size for GLCompute entry points.
  std::string text = kBadAdd;
  size_t mode = text.find("OpExecutionMode");
  text.erase(mode, text.find('\n', mode) + 1 - mode);
  text.replace(text.find("%sum = OpIAdd %int %int_1 %float_1"), 34, "%sum = OpIAdd %int %int_1 %int_1");
  auto messages = validate_spirv(assemble(text), SPV_ENV_VULKAN_1_3);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].instruction, 3u);  // OpEntryPoint
  EXPECT_TRUE(
      messages[0].message.starts_with("[VUID-StandaloneSpirv-LocalSize-06426] In the Vulkan environment"))
      << messages[0].message;
  EXPECT_TRUE(validate_spirv(assemble(text), SPV_ENV_UNIVERSAL_1_6).empty());
}

TEST(Validate, EnvironmentMatters) {
  SourceCache sources;
  CompileOptions options;
  options.target_env = TargetEnv::Vulkan1_3;
  CompiledShader shader = compile("v13.comp", "#version 450\nlayout(local_size_x = 8) in;\nvoid main() {}\n",
                                  Language::Glsl, options, sources);
  ASSERT_TRUE(shader.ok);
  auto messages = validate_spirv(shader.spirv, SPV_ENV_VULKAN_1_0);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].instruction, 0u);  // about the header, no instruction
  EXPECT_EQ(
      messages[0].message,
      "Invalid SPIR-V binary version 1.6 for target environment SPIR-V 1.0 (under Vulkan 1.0 semantics).");
}

// The validator writes the instruction it blames on a line of its own, and
// names ids by number where the module has no OpName for them: the reason
// stays one line, the instruction is its own part, and ids read as the
// assembly spells them.
TEST(Validate, MessageSplitsIntoReasonAndInstructionWithTheUsersNames) {
  std::string text = kBadAdd;
  auto messages = validate_spirv(assemble(text), SPV_ENV_VULKAN_1_3, BlockLayout::Default, IdNames::Numbers);
  ASSERT_EQ(messages.size(), 1u);
  ASSERT_NE(messages[0].message.find('\n'), std::string::npos) << messages[0].message;
  const ValidatorText plain = split_message(messages[0].message);
  EXPECT_EQ(plain.reason.find('\n'), std::string::npos) << plain.reason;
  EXPECT_FALSE(plain.reason.ends_with('.')) << plain.reason;
  EXPECT_EQ(plain.instruction.find('\n'), std::string::npos) << plain.instruction;
  EXPECT_NE(plain.instruction.find("OpIAdd"), std::string::npos) << plain.instruction;

  ValidatorText named = split_message("OpStore Pointer <id> '9[%9]'s type does not match Object <id> '10[%10]'s type.\n"
                                      "  OpStore %9 %10 %100\n",
                                      {{9, "%counter"}, {10, "%bad"}});
  EXPECT_EQ(named.reason, "OpStore Pointer <id> '%counter's type does not match Object <id> '%bad's type");
  EXPECT_EQ(named.instruction, "OpStore %counter %bad %100");
}

// The assembler gives the module the version its header comment states
// (`; Version: 1.0`, as spirv-dis and glslc -S write it), not the version of
// the environment klint lints for.
TEST(Validate, AssemblyKeepsTheVersionItsHeaderStates) {
  std::vector<uint32_t> spirv = assemble(std::string("; SPIR-V\n; Version: 1.0\n") + kBadAdd);
  ASSERT_GT(spirv.size(), 1u);
  EXPECT_EQ(spirv[1], 0x10000u);
  spirv = assemble(std::string("; SPIR-V\n; Version: 1.3\n") + kBadAdd);
  ASSERT_GT(spirv.size(), 1u);
  EXPECT_EQ(spirv[1], 0x10300u);
  spirv = assemble(kBadAdd);  // no header: the default environment's, Vulkan 1.3's SPIR-V 1.6
  ASSERT_GT(spirv.size(), 1u);
  EXPECT_EQ(spirv[1], 0x10600u);
  EXPECT_EQ(target_env_for_spirv(0x10000), TargetEnv::Vulkan1_0);
  EXPECT_EQ(target_env_for_spirv(0x10300), TargetEnv::Vulkan1_1);
  EXPECT_EQ(target_env_for_spirv(0x10500), TargetEnv::Vulkan1_2);
  EXPECT_EQ(target_env_for_spirv(0x10600), TargetEnv::Vulkan1_3);
}

}  // namespace
}  // namespace klint
