// klint as users run it: output shape, exit codes, options, and every kind of
// bad input, each reported in one line while the other files are still linted.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <spirv-tools/libspirv.hpp>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"
#include "validate/targets.h"

namespace klint::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDivergent = R"(#version 450
layout(local_size_x = 64) in;
shared float tile[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = 1.0;
    if (i < 16) {
        barrier();
    }
}
)";

constexpr const char* kClean = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[63 - i];
}
)";

class Cli : public ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args) { return run_klint(args, path().string()); }
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST_F(Cli, FindingHasTheCompilerStyleFirstLineAndExitsOne) {
  write("bad.comp", kDivergent);
  KlintRun run = klint({"bad.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(first_line(run.out),
            "bad.comp:8:9: error: barrier in control flow that depends on gl_LocalInvocationID "
            "[barrier-in-divergent-control-flow]");
  EXPECT_NE(run.out.find("barrier();"), std::string::npos) << "the source line is shown:\n" << run.out;
  EXPECT_NE(run.out.find("bad.comp:7: note:"), std::string::npos) << "the branch is a note:\n" << run.out;
}

// `file:line:col:` wherever klint underlines something, in every format;
// `file:line:` where it knows no column, so that tools reading `file:line:`
// (realbugs' score.py among them) read both.
TEST_F(Cli, HeadersNameTheColumnTheyUnderline) {
  write("bad.comp", kDivergent);
  KlintRun text = klint({"bad.comp"});
  EXPECT_NE(text.out.find("bad.comp:8:9: error: barrier in control flow"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("bad.comp:5:14: note: gl_LocalInvocationID differs"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("bad.comp:7: note: invocations that branch away"), std::string::npos) << text.out;
  const std::regex score_py(R"(^(.+?):(\d+)(?::\d+)?: )");
  std::smatch match;
  const std::string header = first_line(text.out);
  ASSERT_TRUE(std::regex_search(header, match, score_py)) << header;
  EXPECT_EQ(match[1], "bad.comp");
  EXPECT_EQ(match[2], "8");

  nlohmann::json report = nlohmann::json::parse(klint({"--format=json", "bad.comp"}).out);
  const nlohmann::json& location = report["findings"][0]["location"];
  EXPECT_EQ(location["line"], 8);
  EXPECT_EQ(location["column"], 9);
  EXPECT_EQ(location["end_column"], 16);  // exclusive: `barrier` is 7 bytes
  KlintRun github = klint({"--format=github", "bad.comp"});
  EXPECT_EQ(first_line(github.out).rfind("::error file=bad.comp,line=8,col=9,endColumn=16,", 0), 0u) << github.out;
  EXPECT_NE(github.out.find("%0Abad.comp:5:14: gl_LocalInvocationID differs"), std::string::npos) << github.out;

  // A compiler that gives no column gets none.
  write("broken.comp", "#version 450\nlayout(local_size_x = 64) in;\nvoid main() { x = 1; }\n");
  EXPECT_EQ(first_line(klint({"broken.comp"}).out).rfind("broken.comp:3: error: 'x' : undeclared identifier", 0), 0u);
}

TEST_F(Cli, CleanShaderPrintsNothingAndExitsZero) {
  write("good.comp", kClean);
  KlintRun run = klint({"good.comp"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "");
}

TEST_F(Cli, FailOnSetsTheThreshold) {
  write("bad.comp", kDivergent);
  EXPECT_EQ(klint({"--fail-on=never", "bad.comp"}).exit_code, 0);
  EXPECT_EQ(klint({"--fail-on=error", "bad.comp"}).exit_code, 1);
  EXPECT_EQ(klint({"--fail-on=sometimes", "bad.comp"}).exit_code, 2);
}

TEST_F(Cli, SelectAndIgnoreChooseRules) {
  write("bad.comp", kDivergent);
  KlintRun ignored = klint({"--ignore", "barrier-in-divergent-control-flow", "bad.comp"});
  EXPECT_EQ(ignored.exit_code, 0);
  EXPECT_EQ(ignored.out, "");
  KlintRun selected = klint({"--select=shared-memory-over-limit", "bad.comp"});
  EXPECT_EQ(selected.exit_code, 0);
  KlintRun unknown = klint({"--select=no-such-rule", "bad.comp"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown rule 'no-such-rule'"), std::string::npos) << unknown.err;
}

TEST_F(Cli, ListRulesAndExplain) {
  KlintRun list = klint({"--list-rules"});
  EXPECT_EQ(list.exit_code, 0);
  for (const char* id : {"barrier-in-divergent-control-flow", "shared-memory-over-limit", "compile-error",
                         "invalid-spirv"}) {
    EXPECT_NE(list.out.find(id), std::string::npos) << id;
  }
  // Text for a reader, not Markdown: no comment, no heading marks, no fences.
  KlintRun explain = klint({"--explain", "shared-memory-over-limit"});
  EXPECT_EQ(explain.exit_code, 0);
  EXPECT_EQ(explain.out.rfind("shared-memory-over-limit\n\n", 0), 0u) << explain.out;
  EXPECT_NE(explain.out.find("\nWhy it matters\n"), std::string::npos) << explain.out;
  EXPECT_NE(explain.out.find("\n    layout(local_size_x"), std::string::npos) << explain.out;
  for (const char* markup : {"<!--", "do not edit", "## ", "```", "| --- |", "\x1b["}) {
    EXPECT_EQ(explain.out.find(markup), std::string::npos) << markup << " in\n" << explain.out;
  }
  EXPECT_EQ(klint({"--explain", "nope"}).exit_code, 2);
}

// Bold headings on a terminal, unless NO_COLOR says otherwise (util-linux script).
TEST_F(Cli, ExplainIsBoldOnATerminalOnly) {
  auto on_a_terminal = [&](const std::string& environment) {
    std::string command = environment + " " + KLINT_BINARY + " --explain shared-memory-race";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(("script -qefc '" + command + "' /dev/null").c_str(), "r"),
                                                pclose);
    std::string out;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
    return out;
  };
  EXPECT_NE(on_a_terminal("env -u NO_COLOR").find("\x1b[1mWhy it matters\x1b[0m"), std::string::npos);
  EXPECT_EQ(on_a_terminal("env NO_COLOR=1").find("\x1b["), std::string::npos);
}

TEST_F(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(klint({}).exit_code, 2);
  EXPECT_EQ(klint({"--no-such-option", "x.comp"}).exit_code, 2);
  EXPECT_EQ(klint({"--target-env=vulkan9", "x.comp"}).exit_code, 2);
  EXPECT_EQ(klint({"-fshader-stage=vertex", "x.comp"}).exit_code, 2);
}

TEST_F(Cli, GlslcOptionsReachTheCompiler) {
  write("inc/tile.glsl", "shared float tile[TILE];\n");
  write("macro.comp", "#version 450\nlayout(local_size_x = 64) in;\n#include \"tile.glsl\"\n"
                      "void main() { tile[gl_LocalInvocationID.x] = 0.0; }\n");
  KlintRun without = klint({"macro.comp"});
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_NE(without.out.find("[compile-error]"), std::string::npos) << without.out;
  KlintRun with = klint({"-I", "inc", "-DTILE=10000", "--target-env=vulkan1.1", "macro.comp"});
  EXPECT_EQ(with.exit_code, 1) << with.out << with.err;
  EXPECT_NE(with.out.find("40000 bytes"), std::string::npos) << with.out;
  EXPECT_EQ(klint({"-I", "inc", "-DTILE=64", "macro.comp"}).exit_code, 0);
  write("shader.txt", kClean);
  EXPECT_EQ(klint({"shader.txt"}).exit_code, 2);
  EXPECT_EQ(klint({"-fshader-stage=compute", "shader.txt"}).exit_code, 0);
  // glslc's own spelling of the stage.
  EXPECT_EQ(klint({"-fshader-stage=comp", "shader.txt"}).exit_code, 0);
}

// An extension in capitals names the same kind of file, named or walked.
TEST_F(Cli, UpperCaseExtensionsAreShaders) {
  write("upper/K.COMP", kDivergent);
  write("upper/R.HLSL", "RWStructuredBuffer<float> d : register(u0);\n[numthreads(64, 1, 1)]\n"
                        "void main(uint3 id : SV_DispatchThreadID) { d[id.x] = 1.0; }\n");
  KlintRun named = klint({"upper/K.COMP", "upper/R.HLSL"});
  EXPECT_EQ(named.exit_code, 1) << named.err;
  EXPECT_NE(named.out.find("K.COMP:"), std::string::npos) << named.out;
  KlintRun walked = klint({"upper"});
  EXPECT_EQ(walked.exit_code, 1) << walked.err;
  EXPECT_NE(walked.out.find("K.COMP:"), std::string::npos) << walked.out;
  EXPECT_EQ(walked.err.find("R.HLSL"), std::string::npos) << walked.err;
}

TEST_F(Cli, OutputIsDeterministic) {
  write("a/one.comp", kDivergent);
  write("b/two.comp", kDivergent);
  write("c.comp", kDivergent);
  KlintRun first = klint({"."});
  KlintRun second = klint({"c.comp", "b", "a"});
  EXPECT_EQ(first.exit_code, 1);
  EXPECT_EQ(first.out, second.out);
  EXPECT_LT(first.out.find("a/one.comp"), first.out.find("b/two.comp"));
}

TEST_F(Cli, ColorFollowsTheOption) {
  write("bad.comp", kDivergent);
  EXPECT_NE(klint({"--color=always", "bad.comp"}).out.find("\x1b["), std::string::npos);
  EXPECT_EQ(klint({"--color=never", "bad.comp"}).out.find("\x1b["), std::string::npos);
  EXPECT_EQ(klint({"bad.comp"}).out.find("\x1b["), std::string::npos) << "auto: not a terminal";
}

// Bad input: one line naming the file and the reason; the rest still linted.
class BadInput : public Cli {
 protected:
  // Lints `name` beside a file with a finding; the finding must still be
  // reported and `expected` must appear on one line together with the name.
  KlintRun lint_beside_finding(const std::string& name, const std::string& expected, int exit_code,
                               bool unprivileged = false) {
    write("finding.comp", kDivergent);
    KlintRun run = run_klint({name, "finding.comp"}, path().string(), 60, unprivileged);
    EXPECT_EQ(run.exit_code, exit_code) << run.out << run.err;
    EXPECT_NE(run.out.find("finding.comp:8:9: error:"), std::string::npos) << "other files still linted:\n" << run.out;
    std::string all = run.out + run.err;
    bool found = false;
    size_t begin = 0;
    while (begin < all.size()) {
      size_t end = all.find('\n', begin);
      std::string line = all.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      found |= line.find(name) != std::string::npos && line.find(expected) != std::string::npos;
      if (end == std::string::npos) break;
      begin = end + 1;
    }
    EXPECT_TRUE(found) << "no line names " << name << " with '" << expected << "':\n" << all;
    return run;
  }
};

TEST_F(BadInput, MissingPath) { lint_beside_finding("missing.comp", "no such file", 2); }

TEST_F(BadInput, UnreadableFile) {
  write("secret.comp", kClean);
  chmod(path("secret.comp").c_str(), 0);
  lint_beside_finding("secret.comp", "permission denied", 2, /*unprivileged=*/true);
}

TEST_F(BadInput, EmptyFile) {
  write("empty.comp", "");
  lint_beside_finding("empty.comp", "empty file", 1);
}

TEST_F(BadInput, BinaryJunkNamedComp) {
  write("junk.comp", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0", 20));
  KlintRun run = lint_beside_finding("junk.comp", "binary content", 1);
  EXPECT_EQ(run.out.find("ELF"), std::string::npos) << "junk is not echoed";
}

TEST_F(BadInput, TruncatedSpirv) {
  write("short.spv", std::string("\x03\x02\x23\x07\x00\x00\x01", 7));
  lint_beside_finding("short.spv", "truncated", 1);
}

TEST_F(BadInput, SpirvWithWrongMagic) {
  write("magic.spv", std::string(20, '\x42'));
  lint_beside_finding("magic.spv", "bad magic number", 1);
}

// A binary module without OpLine: one note for the file says how to get
// source lines; the same module assembled from text needs none.
TEST_F(BadInput, SpirvWithoutLinesSaysHowToGetThem) {
  const char* assembly = kEmptyKernelAssembly;
  std::vector<uint32_t> words;
  ASSERT_TRUE(spvtools::SpirvTools(SPV_ENV_VULKAN_1_3).Assemble(assembly, &words));
  write("bare.spv", std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  write("bare.spvasm", assembly);
  KlintRun binary = klint({"--no-cache", "bare.spv"});
  EXPECT_EQ(binary.exit_code, 0) << binary.err;
  EXPECT_NE(binary.err.find("klint: note: bare.spv: the module carries no source lines"), std::string::npos) << binary.err;
  EXPECT_NE(binary.err.find("compile it with -g"), std::string::npos) << binary.err;
  KlintRun text = klint({"--no-cache", "bare.spvasm"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err.find("source lines"), std::string::npos) << text.err;
}

// A binary's version says which Vulkan it was made for: glslc's default
// SPIR-V 1.0 is validated for Vulkan 1.0, and the finding says so; the
// environment --target-env names wins.
TEST_F(BadInput, SpirvIsValidatedForTheVulkanOfItsVersion) {
  const char* assembly = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_ptr = OpTypePointer Function %uint
%float_1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%counter = OpVariable %uint_ptr Function
OpStore %counter %float_1
OpReturn
OpFunctionEnd
)";
  std::vector<uint32_t> words;
  ASSERT_TRUE(spvtools::SpirvTools(SPV_ENV_UNIVERSAL_1_0).Assemble(assembly, &words));
  write("v10.spv", std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  auto notes_of = [&](const std::vector<std::string>& args) {
    KlintRun run = klint(args);
    EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
    const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
    std::string notes;
    if (report.is_discarded() || report["findings"].size() != 1) return run.out;
    for (const nlohmann::json& note : report["findings"][0]["notes"]) {
      notes += note["message"].get<std::string>() + "\n";
    }
    return notes;
  };
  EXPECT_NE(notes_of({"--no-cache", "--format", "json", "v10.spv"})
                .find("klint validated it for vulkan1.0, the oldest Vulkan version that takes SPIR-V 1.0"),
            std::string::npos);
  EXPECT_NE(notes_of({"--no-cache", "--format", "json", "--target-env", "vulkan1.2", "v10.spv"})
                .find("klint validated it for vulkan1.2, as --target-env or klint.toml says"),
            std::string::npos);
}

TEST_F(BadInput, VertexShaderIsSkippedWithANote) {
  write("shader.vert", "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  KlintRun run = lint_beside_finding("shader.vert", "not a compute shader", 1);
  EXPECT_NE(run.err.find("note:"), std::string::npos) << run.err;
}

TEST_F(BadInput, FragmentStagePragmaIsSkippedWithANote) {
  write("stage.glsl", "#version 450\n#pragma shader_stage(fragment)\nlayout(location = 0) out vec4 c;\n"
                      "void main() { c = vec4(1.0); }\n");
  lint_beside_finding("stage.glsl", "not a compute shader", 1);
}

// Many projects name a stage before .glsl or .hlsl ("blur.frag.glsl"), and
// mesh and task shaders declare a workgroup size as kernels do: each is
// skipped with a note, named or found in a directory, rather than compiled
// as a compute shader into compile errors. "x.comp.glsl" is a kernel.
TEST_F(BadInput, StagesNamedBeforeTheExtensionOrUsedByMeshShadersAreSkippedWithANote) {
  write("blur.frag.glsl", "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  write("blur.vert.hlsl", "float4 main(float3 p : POSITION) : SV_Position { return float4(p, 1.0); }\n");
  write("cull.glsl", "#version 450\n#extension GL_EXT_mesh_shader : require\n"
                     "layout(local_size_x = 32) in;\nlayout(triangles, max_vertices = 3, max_primitives = 1) out;\n"
                     "void main() { SetMeshOutputsEXT(0, 0); }\n");
  write("cull.hlsl", "[numthreads(32, 1, 1)] [OutputTopology(\"triangle\")]\n"
                     "void main(out indices uint3 tris[1], out vertices float4 verts[3] : SV_Position) {\n"
                     "  SetMeshOutputCounts(0, 0);\n}\n");
  for (const char* name : {"blur.frag.glsl", "blur.vert.hlsl", "cull.glsl", "cull.hlsl"}) {
    lint_beside_finding(name, "not a compute shader", 1);
  }
  write("tree/blur.frag.glsl", "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  write("tree/cull.glsl", "#version 450\n#extension GL_EXT_mesh_shader : require\n"
                          "layout(local_size_x = 32) in;\nlayout(triangles, max_vertices = 3, max_primitives = 1) out;\n"
                          "void main() { SetMeshOutputsEXT(0, 0); }\n");
  write("tree/k.comp.glsl", kDivergent);
  // A kernel whose comment names the extension is still a kernel.
  write("tree/note.glsl", std::string("// no GL_EXT_mesh_shader here\n") + kDivergent);
  KlintRun run = klint({"--no-cache", "tree"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("k.comp.glsl:8:9: error:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("note.glsl:9:9: error:"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("compile-error"), std::string::npos) << run.out;
  EXPECT_EQ(run.err.find("cull.glsl"), std::string::npos) << "a walk passes other stages by silently: " << run.err;
}

TEST_F(BadInput, InvalidGlslIsACompileErrorAtItsLine) {
  write("broken.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  undeclared = 1;\n}\n");
  KlintRun run = lint_beside_finding("broken.comp", "undeclared", 1);
  EXPECT_NE(run.out.find("broken.comp:4:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("[compile-error]"), std::string::npos) << run.out;
}

TEST_F(BadInput, SymlinkLoopInADirectory) {
  write("tree/sub/a.comp", kDivergent);
  fs::create_directory_symlink("..", path("tree/sub/loop"));
  write("finding.comp", kDivergent);
  KlintRun run = klint({"tree", "finding.comp"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("symlink loop"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("tree/sub/a.comp:8:9: error:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("finding.comp:8:9: error:"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace klint::testing

namespace klint::testing {
namespace {

constexpr const char* kForty = R"(#version 450
layout(local_size_x = 100) in;
layout(binding = 0) buffer M { float m[]; };
shared float tile[10000];
void main() {
    tile[gl_LocalInvocationID.x] = m[gl_LocalInvocationID.x];
    barrier();
    m[gl_LocalInvocationID.x] = tile[99 - gl_LocalInvocationID.x];
}
)";

TEST_F(Cli, TargetsListsEveryBuiltInTarget) {
  KlintRun run = klint({"targets"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  for (const Target& target : builtin_targets()) {
    EXPECT_NE(run.out.find(target.name), std::string::npos) << target.name;
  }
  EXPECT_NE(run.out.find("* apple-m1"), std::string::npos) << "default targets are starred:\n" << run.out;
}

TEST_F(Cli, TargetsNameTheFailingDevicesAndTheirLimits) {
  write("forty.comp", kForty);
  KlintRun run = klint({"--target", "nvidia-ampere,apple-m1,arm-mali-valhall", "forty.comp"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("over the limit of apple-m1, arm-mali-valhall (32768 bytes)"), std::string::npos) << run.out;
  EXPECT_EQ(klint({"--target=nvidia-ampere", "forty.comp"}).exit_code, 0) << "48 KiB on NVIDIA";
}

TEST_F(Cli, UnknownOrMalformedTargetsAreUsageErrors) {
  write("forty.comp", kForty);
  KlintRun unknown = klint({"--target=nvidia-voodoo", "forty.comp"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown target 'nvidia-voodoo'"), std::string::npos) << unknown.err;
  write("broken.json", "{\n  \"schema\": \"klint-target-1\",\n  \"name\": \"x\"\n  \"vendor\": 1\n}\n");
  KlintRun broken = klint({"--target=broken.json", "forty.comp"});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("broken.json:4:"), std::string::npos) << broken.err;
  EXPECT_EQ(klint({"--target=device:x", "forty.comp"}).exit_code, 2);
  EXPECT_EQ(klint({"--target=device:99", "forty.comp"}).exit_code, 2);
}

TEST_F(Cli, TargetFileIsReadLikeABuiltInOne) {
  const Target* lavapipe = find_target("lavapipe");
  ASSERT_NE(lavapipe, nullptr);
  Target small = *lavapipe;
  small.name = "small-device";
  small.max_compute_shared_memory_size = 16384;
  write("small.json", target_to_json(small));
  write("good.comp", kClean);
  write("forty.comp", kForty);
  EXPECT_EQ(klint({"--target=small.json", "good.comp"}).exit_code, 0);
  KlintRun run = klint({"--target=small.json", "forty.comp"});
  EXPECT_NE(run.out.find("small-device (16384 bytes)"), std::string::npos) << run.out << run.err;
}

TEST_F(Cli, LiveDeviceIsATarget) {
  // lavapipe, the CPU Vulkan driver every CI machine has: 32 KiB of shared memory.
  KlintRun devices = klint({"devices"});
  ASSERT_EQ(devices.exit_code, 0) << devices.err;
  EXPECT_NE(devices.out.find("llvmpipe"), std::string::npos) << devices.out;
  size_t at = devices.out.find("device:");
  ASSERT_NE(at, std::string::npos);
  std::string lavapipe;
  for (size_t line = 0; line < devices.out.size();) {
    size_t end = devices.out.find('\n', line);
    std::string text = devices.out.substr(line, end - line);
    if (text.find("llvmpipe") != std::string::npos) lavapipe = text.substr(0, text.find(' '));
    line = end == std::string::npos ? devices.out.size() : end + 1;
  }
  ASSERT_FALSE(lavapipe.empty());
  write("forty.comp", kForty);
  KlintRun run = klint({"--target", lavapipe, "forty.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find(lavapipe + " (32768 bytes)"), std::string::npos) << run.out;
}

TEST_F(Cli, ReflectAndTranslate) {
  write("forty.comp", kForty);
  KlintRun table = klint({"reflect", "--target=apple-m1,nvidia-ampere", "forty.comp"});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("workgroup memory  40000 bytes"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("apple-m1"), std::string::npos) << table.out;
  KlintRun json = klint({"reflect", "--format", "json", "forty.comp"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"schema\": \"klint-reflect-1\""), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"occupancy\": ["), std::string::npos);
  KlintRun msl = klint({"translate", "--to", "msl", "forty.comp"});
  EXPECT_EQ(msl.exit_code, 0) << msl.err;
  EXPECT_NE(msl.out.find("threadgroup float"), std::string::npos) << msl.out;
  EXPECT_EQ(klint({"translate", "--to", "wgsl", "forty.comp"}).exit_code, 2);
  write("nodefault.comp", "#version 450\nlayout(local_size_x_id = 0) in;\nvoid main() {}\n");
  KlintRun nodefault = klint({"reflect", "--format=json", "nodefault.comp"});
  EXPECT_EQ(nodefault.exit_code, 0);
  EXPECT_NE(nodefault.err.find("nodefault.comp: warning: workgroup size x of 'main' comes from specialization "
                               "constant 0, which has no declared default, so 1 is assumed"),
            std::string::npos)
      << nodefault.err;
  EXPECT_NE(nodefault.out.find("\"default_declared\": false"), std::string::npos) << nodefault.out;
  write("shader.vert", "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  KlintRun vertex = klint({"reflect", "shader.vert"});
  EXPECT_NE(vertex.exit_code, 0);
  EXPECT_NE(vertex.err.find("shader.vert"), std::string::npos) << vertex.err;
}

}  // namespace
}  // namespace klint::testing
