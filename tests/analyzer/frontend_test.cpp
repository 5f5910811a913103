#include "analyzer/frontend.h"

#include <fmt/core.h>
#include <glslang/Public/ShaderLang.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <spirv-tools/libspirv.hpp>
#include <thread>

#include "tests/analyzer/spirv_words.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using testing::kOpControlBarrier;
using testing::lines_of;

const std::string kInputs = std::string(KLINT_SOURCE_DIR) + "/tests/analyzer/inputs";

std::string read_input(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class FrontendTest : public testing::ScratchDirTest {
 protected:
  CompiledShader compile_file(const std::string& path, const CompileOptions& options = {}) {
    auto language = language_for_path(path, options.force_compute);
    EXPECT_TRUE(language.has_value()) << path;
    return compile(path, read_input(path), language.value_or(Language::Glsl), options, sources_);
  }

  CompiledShader compile_text(const std::string& path, const std::string& text, Language language,
                              const CompileOptions& options = {}) {
    return compile(path, text, language, options, sources_);
  }

  SourceCache sources_;
};

std::string messages(const CompiledShader& shader) {
  std::string text;
  for (const Diagnostic& d : shader.diagnostics) {
    text += d.location.file + ":" + std::to_string(d.location.line) + ": " + d.message + "\n";
  }
  return text;
}

std::string bytes_of(const std::vector<uint32_t>& words, bool big_endian = false) {
  std::string bytes;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) bytes += static_cast<char>(w >> (8 * (big_endian ? 3 - b : b)));
  }
  return bytes;
}

constexpr const char* kBarrierShader = R"(#version 450
layout(local_size_x = 64) in;
shared uint tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    barrier();
}
)";

TEST(FrontendPaths, LanguageForPath) {
  EXPECT_EQ(language_for_path("a/b.comp", false), Language::Glsl);
  EXPECT_EQ(language_for_path("b.glsl", false), Language::Glsl);
  EXPECT_EQ(language_for_path("b.hlsl", false), Language::Hlsl);
  EXPECT_EQ(language_for_path("b.hlsli", false), Language::Hlsl);
  EXPECT_EQ(language_for_path("b.spv", false), Language::SpirvBinary);
  EXPECT_EQ(language_for_path("b.spvasm", false), Language::SpirvAssembly);
  EXPECT_EQ(language_for_path("b.txt", false), std::nullopt);
  EXPECT_EQ(language_for_path("b.vert", false), std::nullopt);
  EXPECT_EQ(language_for_path("b.txt", true), Language::Glsl);
  EXPECT_EQ(language_for_path("b.spv", true), Language::SpirvBinary);
}

TEST(FrontendPaths, NonComputeStageForPath) {
  EXPECT_EQ(non_compute_stage_for_path("x/a.vert"), "vertex");
  EXPECT_EQ(non_compute_stage_for_path("a.frag"), "fragment");
  EXPECT_EQ(non_compute_stage_for_path("a.tesc"), "tesscontrol");
  EXPECT_EQ(non_compute_stage_for_path("a.tese"), "tesseval");
  EXPECT_EQ(non_compute_stage_for_path("a.geom"), "geometry");
  EXPECT_EQ(non_compute_stage_for_path("a.rgen"), "raygen");
  EXPECT_EQ(non_compute_stage_for_path("a.rchit"), "closest");
  EXPECT_EQ(non_compute_stage_for_path("a.mesh"), "mesh");
  EXPECT_EQ(non_compute_stage_for_path("a.task"), "task");
  EXPECT_EQ(non_compute_stage_for_path("a.comp"), std::nullopt);
  EXPECT_EQ(non_compute_stage_for_path("a.spv"), std::nullopt);
}

TEST(FrontendPaths, TargetEnvNames) {
  EXPECT_EQ(parse_target_env("vulkan1.0"), TargetEnv::Vulkan1_0);
  EXPECT_EQ(parse_target_env("vulkan1.3"), TargetEnv::Vulkan1_3);
  EXPECT_EQ(parse_target_env("vulkan1.4"), std::nullopt);
  EXPECT_EQ(parse_target_env("opengl4.5"), std::nullopt);
  EXPECT_EQ(to_spv_env(TargetEnv::Vulkan1_1), SPV_ENV_VULKAN_1_1);
}

// Their documentation is the rule API's, checked in tests/rules.
TEST(FrontendBuiltinRules, NamesAndDefaults) {
  for (const RuleInfo* rule : {&kCompileError, &kInvalidSpirv, &kInternalError}) {
    EXPECT_EQ(rule->default_severity, Severity::Error);
  }
  EXPECT_EQ(kCompileError.id, "compile-error");
  EXPECT_EQ(kInvalidSpirv.id, "invalid-spirv");
  EXPECT_EQ(kInternalError.id, "internal-error");
  EXPECT_EQ(kCompileError.category, Category::Input);
  EXPECT_EQ(kInternalError.category, Category::Correctness);
}

TEST_F(FrontendTest, GlslCompilesWithLineInfo) {
  std::string path = write("barrier.comp", kBarrierShader);
  CompiledShader shader = compile_file(path);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_TRUE(shader.diagnostics.empty());
  EXPECT_EQ(shader.files, std::vector<std::string>{path});
  EXPECT_EQ(shader.non_compute_stage, std::nullopt);
  EXPECT_TRUE(shader.assembly_lines.empty());
  auto barriers = lines_of(shader.spirv, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u) << testing::disassemble(shader.spirv);
  EXPECT_EQ(barriers[0].file, path);
  EXPECT_EQ(barriers[0].line, 6u);
  ASSERT_NE(sources_.get(path), nullptr);
  EXPECT_EQ(sources_.get(path)->line(6), "    barrier();");
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  EXPECT_TRUE(tools.Validate(shader.spirv));
}

TEST_F(FrontendTest, TargetEnvSelectsSpirvVersion) {
  const std::pair<TargetEnv, uint32_t> cases[] = {{TargetEnv::Vulkan1_0, 0x00010000},
                                                  {TargetEnv::Vulkan1_1, 0x00010300},
                                                  {TargetEnv::Vulkan1_2, 0x00010500},
                                                  {TargetEnv::Vulkan1_3, 0x00010600}};
  for (auto [env, version] : cases) {
    CompileOptions options;
    options.target_env = env;
    CompiledShader shader = compile_text("env.comp", kBarrierShader, Language::Glsl, options);
    ASSERT_TRUE(shader.ok) << messages(shader);
    EXPECT_EQ(shader.spirv[1], version);
  }
}

TEST_F(FrontendTest, IncludeWithoutExtensionLocal) {
  write("lib/sync.h", "// helpers\nvoid sync_tile() {\n    barrier();\n}\n");
  std::string file = write("lib/main.comp", R"(#version 450
#include "sync.h"
layout(local_size_x = 64) in;
void main() { sync_tile(); }
)");
  CompiledShader shader = compile_file(file);
  ASSERT_TRUE(shader.ok) << messages(shader);
  std::string header = path("lib/sync.h").string();
  EXPECT_EQ(shader.files, (std::vector<std::string>{file, header}));
  auto barriers = lines_of(shader.spirv, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].file, header);
  EXPECT_EQ(barriers[0].line, 3u);
  ASSERT_NE(sources_.get(header), nullptr);
  EXPECT_EQ(sources_.get(header)->line(3), "    barrier();");
}

TEST_F(FrontendTest, IncludeFromIncludeDirs) {
  write("first/common.h", "#define TILE 16\n");
  write("second/common.h", "#define TILE 32\n");
  write("second/only_here.h", "void sync_tile() {\n    barrier();\n}\n");
  std::string file = write("src/main.comp", R"(#version 450
#include <common.h>
#include "only_here.h"
layout(local_size_x = TILE) in;
void main() { sync_tile(); }
)");
  CompileOptions options;
  options.include_dirs = {path("first").string(), path("second").string()};
  CompiledShader shader = compile_file(file, options);
  ASSERT_TRUE(shader.ok) << messages(shader);
  // -I directories are searched in order: TILE comes from first/.
  EXPECT_EQ(testing::local_size_x(shader.spirv), 16u);
  auto barriers = lines_of(shader.spirv, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].file, path("second/only_here.h").string());
  EXPECT_EQ(barriers[0].line, 2u);
}

// Each #include followed is recorded once, with the name as written and the
// file it reached, whoever wrote it: the shader, a header, from -I or beside.
TEST_F(FrontendTest, EachIncludeFollowedIsRecordedWithItsIncluder) {
  write("inc/common.h", "#ifndef COMMON\n#define COMMON\n#include \"detail/tile.h\"\n#endif\n");
  write("inc/detail/tile.h", "#define TILE 16\n");
  std::string file = write("src/main.comp",
                           "#version 450\n#include <common.h>\n#include <common.h>\n#include \"../inc/detail/tile.h\"\n"
                           "layout(local_size_x = TILE) in;\nvoid main() {}\n");
  CompileOptions options;
  options.include_dirs = {path("inc").string()};
  CompiledShader shader = compile_file(file, options);
  ASSERT_TRUE(shader.ok) << messages(shader);
  const std::string common = path("inc/common.h").string();
  const std::string tile = path("inc/detail/tile.h").string();
  EXPECT_EQ(shader.includes, (std::vector<Inclusion>{{file, "common.h", common},
                                                     {common, "detail/tile.h", tile},
                                                     {file, "../inc/detail/tile.h", tile}}));
}

TEST_F(FrontendTest, IncludeNextToIncluderWinsOverIncludeDirs) {
  write("src/common.h", "#define TILE 8\n");
  write("inc/common.h", "#define TILE 4\n");
  std::string file = write("src/main.comp",
                           "#version 450\n#include \"common.h\"\n"
                           "layout(local_size_x = TILE) in;\nvoid main() {}\n");
  CompileOptions options;
  options.include_dirs = {path("inc").string()};
  CompiledShader shader = compile_file(file, options);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_EQ(testing::local_size_x(shader.spirv), 8u);
}

TEST_F(FrontendTest, IncludedPathsStayRelative) {
  write("common/sync.h", "void sync_tile() {\n    barrier();\n}\n");
  write("shaders/main.comp",
        "#version 450\n#include \"../common/sync.h\"\n"
        "layout(local_size_x = 64) in;\nvoid main() { sync_tile(); }\n");
  fs::path previous = fs::current_path();
  fs::current_path(path());
  CompiledShader shader = compile_file("shaders/main.comp");
  fs::current_path(previous);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_EQ(shader.files, (std::vector<std::string>{"shaders/main.comp", "common/sync.h"}));
  auto barriers = lines_of(shader.spirv, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].file, "common/sync.h");
}

// An extension this glslang does not know, misspelt or newer, is one
// finding that names the glslang, not two (glslang echoes ': require' as
// extra tokens).
TEST_F(FrontendTest, AnUnknownExtensionIsOneErrorThatNamesTheGlslang) {
  std::string path = write("main.comp",
                           "#version 450\n#extension GL_KHR_shader_subgrup_basic : require\n"
                           "layout(local_size_x = 1) in;\nvoid main() {}\n");
  CompiledShader shader = compile_file(path);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u) << messages(shader);
  const Diagnostic& d = shader.diagnostics.front();
  EXPECT_EQ(d.location.line, 2u);
  const glslang::Version version = glslang::GetVersion();
  EXPECT_EQ(d.message, fmt::format("extension GL_KHR_shader_subgrup_basic is unknown to the glslang klint is built "
                                   "with ({}.{}.{}): it is misspelt, or newer than that glslang (then compile the "
                                   "shader with a newer one and lint its SPIR-V)",
                                   version.major, version.minor, version.patch));
}

TEST_F(FrontendTest, MissingIncludeIsCompileErrorAtDirective) {
  std::string path = write("main.comp",
                           "#version 450\nlayout(local_size_x = 1) in;\n"
                           "#include \"nowhere.h\"\nvoid main() {}\n");
  CompileOptions options;
  options.include_dirs = {"/nonexistent/klint"};
  CompiledShader shader = compile_file(path, options);
  EXPECT_FALSE(shader.ok);
  ASSERT_FALSE(shader.diagnostics.empty());
  const Diagnostic& d = shader.diagnostics.front();
  EXPECT_EQ(d.rule, &kCompileError);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.location.file, path);
  EXPECT_EQ(d.location.line, 3u);
  EXPECT_EQ(d.message, "cannot find include file \"nowhere.h\" (searched /nonexistent/klint)");
}

TEST_F(FrontendTest, RecursiveIncludeTerminates) {
  write("loop.h", "#include \"loop.h\"\nfloat f;\n");
  std::string file = write("main.comp",
                           "#version 450\n#include \"loop.h\"\n"
                           "layout(local_size_x = 1) in;\nvoid main() {}\n");
  CompiledShader shader = compile_file(file);
  EXPECT_FALSE(shader.ok);
  ASSERT_FALSE(shader.diagnostics.empty());
  const Diagnostic& d = shader.diagnostics.front();
  EXPECT_EQ(d.rule, &kCompileError);
  EXPECT_EQ(d.location.file, path("loop.h").string());
  EXPECT_EQ(d.location.line, 1u);
  EXPECT_EQ(d.message, "#include nested more than 64 levels deep; does \"loop.h\" include itself?");
}

TEST_F(FrontendTest, FileIncludingItselfTerminates) {
  std::string path = write("self.comp",
                           "#version 450\n#include \"self.comp\"\n"
                           "layout(local_size_x = 1) in;\nvoid main() {}\n");
  CompiledShader shader = compile_file(path);
  EXPECT_FALSE(shader.ok);
  ASSERT_FALSE(shader.diagnostics.empty());
  EXPECT_EQ(shader.diagnostics[0].location.file, path);
  EXPECT_EQ(shader.diagnostics[0].location.line, 1u);
  EXPECT_EQ(shader.diagnostics[0].message, "'#version' : must occur first in shader");
}

TEST_F(FrontendTest, DefinesWithAndWithoutValue) {
  // As with glslc, -DFLAG defines FLAG with an empty body, not 1.
  const char* source = R"(#version 450
#ifndef FLAG
#error FLAG missing
#endif
layout(local_size_x = SIZE) in;
void main() { uint v = 1u FLAG; }
)";
  CompileOptions options;
  options.defines = {{"FLAG", ""}, {"SIZE", "32"}};
  CompiledShader shader = compile_text("defines.comp", source, Language::Glsl, options);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_EQ(testing::local_size_x(shader.spirv), 32u);

  options.defines = {{"SIZE", "32"}};
  CompiledShader without = compile_text("defines.comp", source, Language::Glsl, options);
  EXPECT_FALSE(without.ok);
  ASSERT_FALSE(without.diagnostics.empty());
  EXPECT_EQ(without.diagnostics[0].location.line, 3u);
  EXPECT_NE(without.diagnostics[0].message.find("FLAG missing"), std::string::npos) << messages(without);
}

TEST_F(FrontendTest, InvalidDefineIsReportedAsSuch) {
  CompileOptions options;
  options.defines = {{"1BAD", "2"}};
  CompiledShader shader = compile_text("env.comp", kBarrierShader, Language::Glsl, options);
  EXPECT_FALSE(shader.ok);
  ASSERT_FALSE(shader.diagnostics.empty());
  EXPECT_EQ(shader.diagnostics[0].location.file, "env.comp");
  EXPECT_EQ(shader.diagnostics[0].location.line, 0u);
  EXPECT_EQ(shader.diagnostics[0].message,
            "in the -D definitions: '#define' : must be followed by macro name");
}

// glslang 12 prints its whole built-in table to stdout for these.
TEST_F(FrontendTest, OldOrMissingVersionIsRejectedQuietly) {
  ::testing::internal::CaptureStdout();
  CompiledShader missing =
      compile_text("old.comp", "layout(local_size_x = 1) in;\nvoid main() {}\n", Language::Glsl);
  CompiledShader old = compile_text("old.comp", "// old\n#version 110\nvoid main() {}\n", Language::Glsl);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_EQ(missing.diagnostics[0].message,
            "no #version directive: compute shaders need #version 310 es, or 420 or later");
  EXPECT_EQ(missing.diagnostics[0].location.line, 0u);
  ASSERT_EQ(old.diagnostics.size(), 1u);
  EXPECT_EQ(old.diagnostics[0].message,
            "#version 110: compute shaders need #version 310 es, or 420 or later");
  EXPECT_EQ(old.diagnostics[0].location.line, 2u);
}

TEST_F(FrontendTest, CompileErrorLocationAndMessage) {
  const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    foo += 1;\n}\n";
  CompiledShader shader = compile_text("dir/bad.comp", source, Language::Glsl);
  EXPECT_FALSE(shader.ok);
  ASSERT_FALSE(shader.diagnostics.empty());
  const Diagnostic& d = shader.diagnostics.front();
  EXPECT_EQ(d.rule, &kCompileError);
  EXPECT_EQ(d.location.file, "dir/bad.comp");
  EXPECT_EQ(d.location.line, 4u);
  EXPECT_EQ(d.message, "'foo' : undeclared identifier");
  for (const Diagnostic& each : shader.diagnostics) {
    EXPECT_EQ(each.message.find("compilation errors"), std::string::npos);
    EXPECT_EQ(each.message.find("compilation terminated"), std::string::npos);
  }
  EXPECT_EQ(shader.files, std::vector<std::string>{"dir/bad.comp"});
}

TEST_F(FrontendTest, SyntaxErrorDropsEmptyToken) {
  const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    int x = ;\n}\n";
  CompiledShader shader = compile_text("syntax.comp", source, Language::Glsl);
  ASSERT_FALSE(shader.diagnostics.empty());
  EXPECT_EQ(shader.diagnostics[0].location.line, 4u);
  EXPECT_EQ(shader.diagnostics[0].message, "syntax error, unexpected SEMICOLON");
}

TEST_F(FrontendTest, PathWithColonIsParsed) {
  const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    foo += 1;\n}\n";
  CompiledShader shader = compile_text("odd:12:name.comp", source, Language::Glsl);
  ASSERT_FALSE(shader.diagnostics.empty());
  EXPECT_EQ(shader.diagnostics[0].location.file, "odd:12:name.comp");
  EXPECT_EQ(shader.diagnostics[0].location.line, 4u);
}

TEST_F(FrontendTest, MissingEntryPointIsLinkError) {
  CompiledShader shader = compile_text(
      "nomain.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid helper() {}\n", Language::Glsl);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u) << messages(shader);
  EXPECT_EQ(shader.diagnostics[0].location.file, "nomain.comp");
  EXPECT_EQ(shader.diagnostics[0].location.line, 0u);
  EXPECT_NE(shader.diagnostics[0].message.find("Missing entry point"), std::string::npos);
}

TEST_F(FrontendTest, EmptyFile) {
  for (const char* text : {"", "  \n\t\r\n"}) {
    CompiledShader shader = compile_text("empty.comp", text, Language::Glsl);
    EXPECT_FALSE(shader.ok);
    ASSERT_EQ(shader.diagnostics.size(), 1u);
    EXPECT_EQ(shader.diagnostics[0].rule, &kCompileError);
    EXPECT_EQ(shader.diagnostics[0].message, "empty file: no compute shader");
    EXPECT_EQ(shader.diagnostics[0].location.file, "empty.comp");
    EXPECT_EQ(shader.diagnostics[0].location.line, 0u);
  }
}

TEST_F(FrontendTest, NulByteIsBinaryContent) {
  std::string text("#ve\0\x01\xff junk", 12);
  CompiledShader shader = compile_text("junk.hlsl", text, Language::Hlsl);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u);
  EXPECT_EQ(shader.diagnostics[0].rule, &kCompileError);
  EXPECT_EQ(shader.diagnostics[0].message, "binary content: not GLSL/HLSL source (NUL byte at offset 3)");
}

TEST_F(FrontendTest, ControlCharactersAreEscapedInMessages) {
  CompiledShader shader =
      compile_text("ctl.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { \x01\x1b[31m; }\n",
                   Language::Glsl);
  ASSERT_FALSE(shader.diagnostics.empty());
  EXPECT_EQ(shader.diagnostics[0].message, "'\\x01' : unexpected token");
}

TEST_F(FrontendTest, PragmaShaderStageVertexIsSkipped) {
  const char* source =
      "#version 450\n#pragma shader_stage(vertex)\nvoid main() { gl_Position = vec4(0.0); }\n";
  CompiledShader shader = compile_text("shader.glsl", source, Language::Glsl);
  EXPECT_FALSE(shader.ok);
  EXPECT_TRUE(shader.diagnostics.empty()) << messages(shader);
  EXPECT_EQ(shader.non_compute_stage, "vertex");
}

TEST_F(FrontendTest, PragmaShaderStageComputeCompiles) {
  const char* source =
      "#version 450\n#pragma shader_stage(compute)\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  CompiledShader shader = compile_text("shader.glsl", source, Language::Glsl);
  EXPECT_TRUE(shader.ok) << messages(shader);
  EXPECT_EQ(shader.non_compute_stage, std::nullopt);
}

TEST_F(FrontendTest, PragmaShaderStageInvalid) {
  const char* source = "#version 450\n\n#pragma shader_stage(pixel)\nvoid main() {}\n";
  CompiledShader shader = compile_text("shader.glsl", source, Language::Glsl);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u);
  EXPECT_EQ(shader.diagnostics[0].location.line, 3u);
  EXPECT_EQ(shader.diagnostics[0].message, "invalid stage for 'shader_stage' #pragma: 'pixel'");
}

constexpr const char* kHlslShader = R"(RWStructuredBuffer<uint> output : register(u0);
groupshared uint tile[64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID) {
    tile[tid.x] = tid.x;
    GroupMemoryBarrierWithGroupSync();
    output[tid.x] = tile[63 - tid.x];
}
)";

TEST_F(FrontendTest, HlslComputeShader) {
  std::string path = write("kernel.hlsl", kHlslShader);
  CompiledShader shader = compile_file(path);
  ASSERT_TRUE(shader.ok) << messages(shader);
  auto barriers = lines_of(shader.spirv, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u) << testing::disassemble(shader.spirv);
  EXPECT_EQ(barriers[0].file, path);
  EXPECT_EQ(barriers[0].line, 7u);
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  EXPECT_TRUE(tools.Validate(shader.spirv));
  EXPECT_EQ(testing::local_size_x(shader.spirv), 64u);
}

TEST_F(FrontendTest, HlslInclude) {
  write("hlsl/sync.hlsli", "void sync_group() {\n    GroupMemoryBarrierWithGroupSync();\n}\n");
  std::string file = write("hlsl/main.hlsl",
                           "#include \"sync.hlsli\"\n[numthreads(8, 1, 1)]\n"
                           "void main() { sync_group(); }\n");
  CompiledShader shader = compile_file(file);
  ASSERT_TRUE(shader.ok) << messages(shader);
  auto barriers = lines_of(shader.spirv, kOpControlBarrier);
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].file, path("hlsl/sync.hlsli").string());
  EXPECT_EQ(barriers[0].line, 2u);
}

TEST_F(FrontendTest, HlslEntryPointOption) {
  std::string source = kHlslShader;
  source.replace(source.find("void main"), 9, "void csmain");
  CompileOptions options;
  options.entry_point = "csmain";
  CompiledShader shader = compile_text("kernel.hlsl", source, Language::Hlsl, options);
  ASSERT_TRUE(shader.ok) << messages(shader);
  std::string text = testing::disassemble(shader.spirv);
  EXPECT_NE(text.find("OpEntryPoint GLCompute"), std::string::npos);
  EXPECT_NE(text.find("\"csmain\""), std::string::npos);
  // glslang only warns and emits an empty entry point.
  options.entry_point = "absent";
  CompiledShader missing = compile_text("kernel.hlsl", source, Language::Hlsl, options);
  EXPECT_FALSE(missing.ok);
  ASSERT_EQ(missing.diagnostics.size(), 1u) << messages(missing);
  EXPECT_EQ(missing.diagnostics[0].message,
            "entry point 'absent' not found; the [numthreads] functions are csmain (choose one with --entry)");
  EXPECT_EQ(missing.diagnostics[0].location.line, 0u);
}

// With no entry point named, a file whose one [numthreads] function is not
// `main` compiles that function; with several, the error names them.
TEST_F(FrontendTest, HlslEntryPointIsTheOnlyNumthreadsFunction) {
  std::string source = kHlslShader;
  source.replace(source.find("void main"), 9, "void CSMain");
  CompiledShader shader = compile_text("kernel.hlsl", source, Language::Hlsl);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_NE(testing::disassemble(shader.spirv).find("\"CSMain\""), std::string::npos);

  source += "[numthreads(8, 1, 1)]\n[WaveSize(32)]\nvoid Clear(uint3 tid : SV_GroupThreadID) { output[tid.x] = 0; }\n";
  CompiledShader two = compile_text("kernel.hlsl", source, Language::Hlsl);
  EXPECT_FALSE(two.ok);
  ASSERT_EQ(two.diagnostics.size(), 1u) << messages(two);
  EXPECT_EQ(two.diagnostics[0].message,
            "entry point 'main' not found; the [numthreads] functions are CSMain, Clear (choose one with --entry)");
}

TEST_F(FrontendTest, HlslSyntaxErrorLocation) {
  const char* source = "[numthreads(1, 1, 1)]\nvoid main() {\n    uint x = 1\n    x += 2;\n}\n";
  CompiledShader shader = compile_text("broken.hlsl", source, Language::Hlsl);
  EXPECT_FALSE(shader.ok);
  ASSERT_FALSE(shader.diagnostics.empty());
  EXPECT_EQ(shader.diagnostics[0].rule, &kCompileError);
  EXPECT_EQ(shader.diagnostics[0].location.file, "broken.hlsl");
  EXPECT_EQ(shader.diagnostics[0].location.line, 4u) << messages(shader);
}

class FrontendSpirvTest : public FrontendTest {
 protected:
  std::vector<uint32_t> compiled() {
    CompiledShader shader = compile_text("barrier.comp", kBarrierShader, Language::Glsl);
    EXPECT_TRUE(shader.ok);
    return shader.spirv;
  }
};

TEST_F(FrontendSpirvTest, ValidBinary) {
  std::vector<uint32_t> words = compiled();
  CompiledShader shader = compile_text("kernel.spv", bytes_of(words), Language::SpirvBinary);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_EQ(shader.spirv, words);
  EXPECT_EQ(shader.files, std::vector<std::string>{"kernel.spv"});
  EXPECT_EQ(shader.non_compute_stage, std::nullopt);
}

TEST_F(FrontendSpirvTest, ByteSwappedBinary) {
  std::vector<uint32_t> words = compiled();
  CompiledShader shader = compile_text("kernel.spv", bytes_of(words, true), Language::SpirvBinary);
  ASSERT_TRUE(shader.ok) << messages(shader);
  EXPECT_EQ(shader.spirv, words);
}

TEST_F(FrontendSpirvTest, WrongMagic) {
  std::vector<uint32_t> words = compiled();
  words[0] = 0xDEADBEEF;
  CompiledShader shader = compile_text("kernel.spv", bytes_of(words), Language::SpirvBinary);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u);
  EXPECT_EQ(shader.diagnostics[0].rule, &kInvalidSpirv);
  EXPECT_EQ(shader.diagnostics[0].location.file, "kernel.spv");
  EXPECT_EQ(shader.diagnostics[0].location.line, 0u);
  EXPECT_EQ(shader.diagnostics[0].message, "not a SPIR-V binary: bad magic number 0xdeadbeef");
}

TEST_F(FrontendSpirvTest, TruncatedNotMultipleOfFour) {
  std::string bytes = bytes_of(compiled());
  bytes.pop_back();
  CompiledShader shader = compile_text("kernel.spv", bytes, Language::SpirvBinary);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u);
  EXPECT_EQ(shader.diagnostics[0].message,
            "truncated: " + std::to_string(bytes.size()) + " bytes is not a multiple of 4");
}

TEST_F(FrontendSpirvTest, TruncatedHeader) {
  std::string bytes = bytes_of(compiled()).substr(0, 16);
  CompiledShader shader = compile_text("kernel.spv", bytes, Language::SpirvBinary);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u);
  EXPECT_EQ(shader.diagnostics[0].rule, &kInvalidSpirv);
  EXPECT_EQ(shader.diagnostics[0].message, "truncated: shorter than the 5-word header");
}

TEST_F(FrontendSpirvTest, NonComputeBinaryIsSkipped) {
  CompiledShader assembled = compile_file(kInputs + "/vertex.spvasm");
  ASSERT_TRUE(assembled.ok) << messages(assembled);
  EXPECT_EQ(assembled.non_compute_stage, "vertex");
  CompiledShader shader = compile_text("vertex.spv", bytes_of(assembled.spirv), Language::SpirvBinary);
  EXPECT_TRUE(shader.ok);
  EXPECT_EQ(shader.non_compute_stage, "vertex");
}

TEST_F(FrontendSpirvTest, AssemblyWithInstructionLines) {
  std::string path = kInputs + "/barrier.spvasm";
  CompiledShader shader = compile_file(path);
  ASSERT_TRUE(shader.ok) << messages(shader);
  auto instructions = testing::raw_instructions(shader.spirv);
  ASSERT_EQ(shader.assembly_lines.size(), instructions.size());
  // Every recorded line holds the instruction's opcode name.
  std::string text = read_input(path);
  SourceFile file(path, text);
  for (size_t i = 0; i < instructions.size(); ++i) {
    EXPECT_NE(file.line(shader.assembly_lines[i]).find("Op"), std::string_view::npos);
  }
  // The barrier and the OpString whose text spans lines.
  size_t barrier = 0;
  while (instructions[barrier].opcode != kOpControlBarrier) ++barrier;
  EXPECT_NE(file.line(shader.assembly_lines[barrier]).find("OpControlBarrier"), std::string_view::npos);
  EXPECT_EQ(shader.assembly_lines[0], 3u);  // after two comment lines
  ASSERT_NE(sources_.get(path), nullptr);
}

TEST_F(FrontendSpirvTest, AssemblerErrorHasLine) {
  const char* text = "; bad\nOpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeFoo\n";
  CompiledShader shader = compile_text("bad.spvasm", text, Language::SpirvAssembly);
  EXPECT_FALSE(shader.ok);
  ASSERT_EQ(shader.diagnostics.size(), 1u);
  const Diagnostic& d = shader.diagnostics[0];
  EXPECT_EQ(d.rule, &kInvalidSpirv);
  EXPECT_EQ(d.location.file, "bad.spvasm");
  EXPECT_EQ(d.location.line, 4u);
  EXPECT_EQ(d.location.column, 6u);
  EXPECT_NE(d.message.find("OpTypeFoo"), std::string::npos) << d.message;
}

TEST_F(FrontendTest, ConcurrentCompiles) {
  std::vector<std::string> sources;
  for (int i = 0; i < 8; ++i) {
    std::string body = kBarrierShader;
    body.replace(body.find("local_size_x = 64"), 17, "local_size_x = " + std::to_string(i + 1));
    if (i % 2)
      body.replace(body.find("barrier();"), 10, "barrier(); undeclared_" + std::to_string(i) + "++;");
    sources.push_back(write("shader" + std::to_string(i) + ".comp", body));
  }
  std::vector<CompiledShader> results(sources.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < sources.size(); i += 4) results[i] = compile_file(sources[i]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t i = 0; i < results.size(); ++i) {
    if (i % 2) {
      EXPECT_FALSE(results[i].ok);
      ASSERT_FALSE(results[i].diagnostics.empty());
      EXPECT_EQ(results[i].diagnostics[0].location.file, sources[i]);
      EXPECT_EQ(results[i].diagnostics[0].message,
                "'undeclared_" + std::to_string(i) + "' : undeclared identifier");
    } else {
      ASSERT_TRUE(results[i].ok) << messages(results[i]);
      EXPECT_EQ(testing::local_size_x(results[i].spirv), i + 1);
      EXPECT_EQ(lines_of(results[i].spirv, kOpControlBarrier).at(0).file, sources[i]);
    }
  }
}

}  // namespace
}  // namespace klint
