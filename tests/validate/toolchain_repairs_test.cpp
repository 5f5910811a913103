// What klint stands in for what the toolchain gets wrong: instructions the
// linked SPIRV-Tools does not know, and glslang's same-width conversions.
// The modules are assembled, then given opcodes no SPIR-V version has.
#include "validate/toolchain_repairs.h"

#include <gtest/gtest.h>

#include "analyzer/frontend.h"
#include "tests/analyzer/spirv_words.h"
#include "validate/spirv_val.h"

namespace klint {
namespace {

using testing::raw_instructions;

std::vector<uint32_t> assemble(const std::string& text) {
  SourceCache sources;
  CompiledShader shader = compile("test.spvasm", text, Language::SpirvAssembly, CompileOptions{}, sources);
  EXPECT_TRUE(shader.ok);
  for (const Diagnostic& d : shader.diagnostics) ADD_FAILURE() << d.message;
  return shader.spirv;
}

// Replaces the opcode (not the word count) of every instruction of `from`.
void renumber(std::vector<uint32_t>& words, uint32_t from, uint32_t to) {
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xFFFFu) == from) words[at] = (words[at] & 0xFFFF0000u) | to;
  }
}

// Replaces the operand of the first `OpCapability from`.
void recapability(std::vector<uint32_t>& words, uint32_t from, uint32_t to) {
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xFFFFu) == 17u && words[at + 1] == from) {
      words[at + 1] = to;
      return;
    }
  }
}

constexpr uint32_t kOpFMul = 133, kOpUndef = 1, kOpNop = 0, kOpTypeFloat = 22, kOpFConvert = 115;
constexpr uint32_t kUnknown = 9998, kUnknownCapability = 9999;

// %p = OpFMul stands for an instruction of a newer extension; OpNop for one
// without a result. Capability Int8 (39) stands for a capability.
constexpr const char* kKernel = R"(OpCapability Shader
OpCapability Int8
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%two = OpConstant %float 2
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpFMul %float %two %two
%q = OpFAdd %float %p %two
OpNop
OpReturn
OpFunctionEnd
)";

TEST(ToolchainRepairs, AModuleSpirvToolsKnowsIsLeftAlone) {
  std::vector<uint32_t> words = assemble(kKernel);
  EXPECT_FALSE(stand_in_unknown_instructions(words));
  EXPECT_FALSE(copy_same_width_conversions(words));
}

TEST(ToolchainRepairs, AnUnknownInstructionBecomesAnUnknownValueAndAnUnknownCapabilityIsDropped) {
  std::vector<uint32_t> words = assemble(kKernel);
  renumber(words, kOpFMul, kUnknown);
  renumber(words, kOpNop, kUnknown + 1);
  recapability(words, 39, kUnknownCapability);
  ASSERT_FALSE(validate_spirv(words, SPV_ENV_VULKAN_1_3).empty());

  std::optional<RepairedWords> repaired = stand_in_unknown_instructions(words);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(repaired->what, "capability 9999, opcode 9998 (1 instruction) and opcode 9999 (1 instruction)");
  EXPECT_TRUE(repaired->unknown_results);
  EXPECT_EQ(repaired->changed, (std::vector<size_t>{2, 12, 14}));
  EXPECT_TRUE(validate_spirv(repaired->words, SPV_ENV_VULKAN_1_3).empty());
  size_t undefs = 0, capabilities = 0;
  for (const auto& instruction : raw_instructions(repaired->words)) {
    undefs += instruction.opcode == kOpUndef;
    capabilities += instruction.opcode == 17u;
    EXPECT_NE(instruction.opcode, kOpNop);  // the one without a result is gone
  }
  EXPECT_EQ(undefs, 1u);
  EXPECT_EQ(capabilities, 1u);  // Shader
}

TEST(ToolchainRepairs, AnUnknownCapabilityAloneIsDroppedWithoutUnknownResults) {
  std::vector<uint32_t> words = assemble(kKernel);
  recapability(words, 39, kUnknownCapability);
  std::optional<RepairedWords> repaired = stand_in_unknown_instructions(words);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(repaired->what, "capability 9999");
  EXPECT_FALSE(repaired->unknown_results);
}

// Outside functions an unknown instruction may be a type everything uses.
TEST(ToolchainRepairs, AnUnknownDeclarationIsNotStoodIn) {
  std::vector<uint32_t> words = assemble(kKernel);
  renumber(words, kOpTypeFloat, kUnknown);
  EXPECT_FALSE(stand_in_unknown_instructions(words));
}

TEST(ToolchainRepairs, TruncatedWordsAreNotStoodIn) {
  std::vector<uint32_t> words = assemble(kKernel);
  renumber(words, kOpFMul, kUnknown);
  words[5] &= 0xFFFFu;  // the first instruction's word count: 0
  EXPECT_FALSE(stand_in_unknown_instructions(words));
  EXPECT_FALSE(copy_same_width_conversions(std::vector<uint32_t>{1, 2, 3}));
}

constexpr const char* kConversions = R"(OpCapability Shader
OpCapability Float16
OpCapability Int16
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%short = OpTypeInt 16 1
%ushort = OpTypeInt 16 0
%v2half = OpTypeVector %half 2
%one = OpConstant %half 1
%v = OpConstantComposite %v2half %one %one
%s = OpConstant %short 1
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpFConvert %float %one
%b = OpFConvert %half %one
%c = OpFConvert %v2half %v
%d = OpSConvert %short %s
%e = OpUConvert %ushort %s
OpReturn
OpFunctionEnd
)";

TEST(ToolchainRepairs, SameWidthConversionsBecomeTheCopiesTheyMean) {
  std::vector<uint32_t> words = assemble(kConversions);
  ASSERT_FALSE(validate_spirv(words, SPV_ENV_VULKAN_1_3).empty());

  std::optional<RepairedWords> repaired = copy_same_width_conversions(words);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(repaired->what,
            "OpFConvert between 16-bit types, OpSConvert between 16-bit types and OpUConvert between 16-bit types");
  EXPECT_EQ(repaired->changed.size(), 4u);
  for (const ValidationMessage& m : validate_spirv(repaired->words, SPV_ENV_VULKAN_1_3)) ADD_FAILURE() << m.message;
  size_t copies = 0, bitcasts = 0, widening = 0;
  for (const auto& instruction : raw_instructions(repaired->words)) {
    copies += instruction.opcode == 83u;     // OpCopyObject
    bitcasts += instruction.opcode == 124u;  // OpBitcast: short to ushort
    widening += instruction.opcode == kOpFConvert;
  }
  EXPECT_EQ(copies, 3u);
  EXPECT_EQ(bitcasts, 1u);
  EXPECT_EQ(widening, 1u);  // %a, half to float, is a real conversion
}

}  // namespace
}  // namespace klint
