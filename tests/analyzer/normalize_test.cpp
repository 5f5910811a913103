#include "analyzer/normalize.h"

#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include "analyzer/frontend.h"
#include "tests/analyzer/spirv_words.h"

namespace klint {
namespace {

using testing::kOpControlBarrier;
using testing::kOpVariable;

constexpr uint32_t kOpFunction = 54;
constexpr uint32_t kOpFunctionCall = 57;
constexpr uint32_t kWorkgroupStorage = 4;

std::vector<uint32_t> compile_glsl(const std::string& path, const std::string& text) {
  SourceCache sources;
  CompiledShader shader = compile(path, text, Language::Glsl, CompileOptions{}, sources);
  EXPECT_TRUE(shader.ok);
  for (const Diagnostic& d : shader.diagnostics) ADD_FAILURE() << d.message;
  return shader.spirv;
}

size_t workgroup_variables(const std::vector<uint32_t>& words) {
  size_t count = 0;
  for (const auto& i : testing::raw_instructions(words)) {
    count += i.opcode == kOpVariable && i.operands.size() >= 3 && i.operands[2] == kWorkgroupStorage;
  }
  return count;
}

constexpr const char* kHelperShader = R"(#version 450
layout(local_size_x = 64) in;
shared uint tile[64];
shared float never_used[128];
layout(set = 0, binding = 0) buffer Data { uint values[]; };

void sync_tile(uint i) {
    tile[i] = values[i];
    barrier();
}

void main() {
    uint i = gl_LocalInvocationID.x;
    sync_tile(i);
    values[i] = tile[63u - i];
}
)";

TEST(Normalize, InlinedBarrierKeepsHelperLine) {
  std::vector<uint32_t> spirv = compile_glsl("helper.comp", kHelperShader);
  ASSERT_EQ(testing::count_opcode(spirv, kOpFunction), 2u);
  std::string error;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error);
  ASSERT_TRUE(normalized.has_value()) << error;
  EXPECT_EQ(testing::count_opcode(*normalized, kOpFunction), 1u);
  EXPECT_EQ(testing::count_opcode(*normalized, kOpFunctionCall), 0u);
  auto barriers = testing::lines_of(*normalized, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u) << testing::disassemble(*normalized);
  EXPECT_EQ(barriers[0].file, "helper.comp");
  EXPECT_EQ(barriers[0].line, 9u);
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  EXPECT_TRUE(tools.Validate(*normalized));
}

TEST(Normalize, KeepsUnusedSharedVariable) {
  std::vector<uint32_t> spirv = compile_glsl("helper.comp", kHelperShader);
  ASSERT_EQ(workgroup_variables(spirv), 2u);
  std::string error;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error);
  ASSERT_TRUE(normalized.has_value()) << error;
  EXPECT_EQ(workgroup_variables(*normalized), 2u) << testing::disassemble(*normalized);
}

TEST(Normalize, PropagatesConstantsAndRemovesDeadBranches) {
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
void main() {
    const bool debug = false;
    uint scale = 2u;
    if (debug) {
        barrier();
    }
    values[gl_LocalInvocationID.x] *= scale;
}
)";
  std::vector<uint32_t> spirv = compile_glsl("dead.comp", source);
  ASSERT_EQ(testing::count_opcode(spirv, kOpControlBarrier), 1u);
  std::string error;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error);
  ASSERT_TRUE(normalized.has_value()) << error;
  EXPECT_EQ(testing::count_opcode(*normalized, kOpControlBarrier), 0u) << testing::disassemble(*normalized);
}

TEST(Normalize, InlinesHelpersThatReturnEarly) {
  // The inliner takes no function with an early return in SPIR-V 1.6; merge-return
  // runs first then, as for every HLSL entry point (glslang wraps it in a call).
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
uint clamped(uint i) {
    if (i >= values.length()) return 0u;
    return values[i];
}
void main() {
    values[gl_LocalInvocationID.x] = clamped(gl_LocalInvocationID.x + 1u);
}
)";
  std::vector<uint32_t> spirv = compile_glsl("early.comp", source);
  ASSERT_EQ(testing::count_opcode(spirv, kOpFunctionCall), 1u);
  std::string error;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error);
  ASSERT_TRUE(normalized.has_value()) << error;
  EXPECT_EQ(testing::count_opcode(*normalized, kOpFunctionCall), 0u) << testing::disassemble(*normalized);
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  EXPECT_TRUE(tools.Validate(*normalized));
}

TEST(Normalize, KeepsEarlyReturnsWhenEverythingInlines) {
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
void main() {
    if (gl_LocalInvocationID.x >= 10u) return;
    values[gl_LocalInvocationID.x] = 1u;
}
)";
  constexpr uint32_t kOpReturn = 253;
  std::vector<uint32_t> spirv = compile_glsl("return.comp", source);
  ASSERT_EQ(testing::count_opcode(spirv, kOpReturn), 2u);
  std::string error;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error);
  ASSERT_TRUE(normalized.has_value()) << error;
  EXPECT_EQ(testing::count_opcode(*normalized, kOpReturn), 2u) << testing::disassemble(*normalized);
}

TEST(Normalize, LeavesCallsThatWouldInlineBeyondItsBudget) {
  // A helper that returns early, called 60 times by one called 60 times by
  // main: inlined, some 3600 copies of its body, past 100,000 instructions.
  std::string source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
uint leaf(uint i) {
    if (i >= values.length()) return 0u;
    uint v = values[i];
    v = v * 3u + values[i + 1u];
    v = v * 5u + values[i + 2u];
    v = v * 7u + values[i + 3u];
    v = v * 11u + values[i + 4u];
    return v ^ (v >> 3u);
}
uint middle(uint i) {
    uint sum = 0u;
)";
  for (int k = 0; k < 60; ++k) source += "    sum += leaf(i + " + std::to_string(k) + "u);\n";
  source += "    return sum;\n}\nvoid main() {\n    uint sum = 0u;\n";
  for (int k = 0; k < 60; ++k) source += "    sum += middle(gl_LocalInvocationID.x * " + std::to_string(k) + "u);\n";
  source += "    values[gl_LocalInvocationID.x] = sum;\n}\n";
  std::vector<uint32_t> spirv = compile_glsl("wide.comp", source);
  std::string error, left_undone;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error, &left_undone);
  ASSERT_TRUE(normalized.has_value()) << error;
  EXPECT_NE(left_undone.find("more than the 100000 klint inlines"), std::string::npos) << left_undone;
  // middle() has no early return and went into main; the calls of leaf() stay.
  EXPECT_EQ(testing::count_opcode(*normalized, kOpFunctionCall), 3600u);
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  EXPECT_TRUE(tools.Validate(*normalized));
}

TEST(Normalize, InvalidModuleFailsWithMessage) {
  std::vector<uint32_t> spirv = compile_glsl("helper.comp", kHelperShader);
  spirv.resize(spirv.size() - 3);  // cut into the last instructions
  std::string error;
  auto normalized = normalize(spirv, SPV_ENV_VULKAN_1_3, &error);
  EXPECT_FALSE(normalized.has_value());
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace klint
