// SPIR-V to MSL, HLSL and GLSL through SPIRV-Cross, and run_translate's errors.
#include <gtest/gtest.h>

#include <sstream>

#include "analyzer/frontend.h"
#include "driver/reflect_command.h"
#include "reflect/translate.h"
#include "tests/support/scratch.h"

namespace klint::reflect {
namespace {

const std::string kInputs = KLINT_SOURCE_DIR "/tests/reflect/inputs/";

constexpr const char* kReduce = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
shared float partial[64];
void main() {
  uint i = gl_LocalInvocationID.x;
  partial[i] = subgroupAdd(data[gl_GlobalInvocationID.x]);
  barrier();
  if (i == 0) data[gl_WorkGroupID.x] = partial[0] + partial[32];
}
)";

std::vector<uint32_t> compile_glsl(const std::string& source) {
  SourceCache sources;
  CompiledShader compiled = compile("test.comp", source, Language::Glsl, CompileOptions{}, sources);
  for (const Diagnostic& d : compiled.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  return compiled.spirv;
}

std::string translated(TranslateTo to) {
  std::string error;
  std::optional<std::string> source = translate(compile_glsl(kReduce), to, &error);
  EXPECT_TRUE(source) << error;
  return source.value_or("");
}

TEST(Translate, MslUsesThreadgroupMemoryAndSimdReductions) {
  std::string msl = translated(TranslateTo::Msl);
  EXPECT_NE(msl.find("kernel void"), std::string::npos) << msl;
  EXPECT_NE(msl.find("threadgroup float partial[64]"), std::string::npos) << msl;
  EXPECT_NE(msl.find("simd_sum("), std::string::npos) << msl;
  EXPECT_NE(msl.find("threadgroup_barrier(mem_flags::mem_threadgroup)"), std::string::npos) << msl;
}

TEST(Translate, HlslUsesGroupsharedAndWaveIntrinsics) {
  std::string hlsl = translated(TranslateTo::Hlsl);
  EXPECT_NE(hlsl.find("groupshared float partial[64]"), std::string::npos) << hlsl;
  EXPECT_NE(hlsl.find("[numthreads(64, 1, 1)]"), std::string::npos) << hlsl;
  EXPECT_NE(hlsl.find("WaveActiveSum("), std::string::npos) << hlsl;
  EXPECT_NE(hlsl.find("GroupMemoryBarrierWithGroupSync()"), std::string::npos) << hlsl;
}

TEST(Translate, GlslKeepsVulkanSemantics) {
  std::string glsl = translated(TranslateTo::Glsl);
  EXPECT_EQ(glsl.rfind("#version 450\n", 0), 0u) << glsl;
  EXPECT_NE(glsl.find("shared float partial[64]"), std::string::npos) << glsl;
  EXPECT_NE(glsl.find("layout(set = 0, binding = 0, std430)"), std::string::npos) << glsl;
  EXPECT_NE(glsl.find("subgroupAdd("), std::string::npos) << glsl;
}

TEST(Translate, WhatSpirvCrossCannotExpressIsAnError) {
  // SPIRV-Cross's HLSL writes byte-address buffers 32 bits at a time.
  std::string error;
  auto source = translate(compile_glsl(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Bytes { uint8_t bytes[]; };
void main() { bytes[gl_GlobalInvocationID.x] = uint8_t(7); }
)"),
                          TranslateTo::Hlsl, &error);
  EXPECT_FALSE(source);
  EXPECT_NE(error.find("RWByteAddressBuffer"), std::string::npos) << error;
  EXPECT_FALSE(translate({1, 2, 3}, TranslateTo::Msl, &error));
}

class TranslateCommand : public testing::ScratchDirTest {
 protected:
  int translate_file(const std::string& path, TranslateTo to) {
    out_.str("");
    err_.str("");
    return run_translate(path, CompileOptions{}, to, out_, err_);
  }

  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(TranslateCommand, PrintsTheSource) {
  EXPECT_EQ(translate_file(write("reduce.comp", kReduce), TranslateTo::Msl), 0) << err_.str();
  EXPECT_NE(out_.str().find("kernel void"), std::string::npos);
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(translate_file(kInputs + "scale.spvasm", TranslateTo::Hlsl), 0) << err_.str();
  EXPECT_NE(out_.str().find("groupshared float stage[32]"), std::string::npos) << out_.str();
}

TEST_F(TranslateCommand, TranslationFailureIsOneLine) {
  std::string path = write("bytes.comp", R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Bytes { uint8_t bytes[]; };
void main() { bytes[gl_GlobalInvocationID.x] = uint8_t(7); }
)");
  EXPECT_EQ(translate_file(path, TranslateTo::Hlsl), 1);
  const std::string err = err_.str();
  EXPECT_EQ(err.rfind(path + ": error: cannot translate to HLSL: ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1);
  EXPECT_EQ(out_.str(), "");
}

TEST_F(TranslateCommand, CompileErrorAndNonComputeExitOne) {
  std::string bad = write("bad.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { oops(); }\n");
  EXPECT_EQ(translate_file(bad, TranslateTo::Glsl), 1);
  EXPECT_EQ(err_.str().rfind(bad + ":3: error: ", 0), 0u) << err_.str();
  EXPECT_EQ(translate_file(kInputs + "vertex.spvasm", TranslateTo::Msl), 1);
  EXPECT_EQ(err_.str(), kInputs + "vertex.spvasm: error: not a compute shader (vertex stage): klint translates "
                                  "compute kernels only\n");
}

TEST_F(TranslateCommand, UnreadableInputExitsTwo) {
  EXPECT_EQ(translate_file(path("missing.comp").string(), TranslateTo::Msl), 2);
  EXPECT_NE(err_.str().find("missing.comp"), std::string::npos);
  EXPECT_EQ(translate_file(path().string(), TranslateTo::Msl), 2);  // a directory, not one file
}

}  // namespace
}  // namespace klint::reflect
