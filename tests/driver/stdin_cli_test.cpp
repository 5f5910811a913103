// A shader on standard input, as ruff's --stdin-filename reads one: the name
// gives the language, names the findings and finds the klint.toml; `-` alone
// is an error that says what to add.
#include <gtest/gtest.h>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

class Stdin : public ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args, const std::string& input) {
    args.insert(args.begin(), "--color=never");
    return run_klint_with_input(args, input, path().string());
  }
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST_F(Stdin, TheNameGivesLanguageFindingsAndConfiguration) {
  KlintRun run = klint({"--stdin-filename", "shaders/k.comp", "-"}, kDivergentBarrierKernel);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(first_line(run.out),
            "shaders/k.comp:5:9: error: barrier in control flow that depends on gl_LocalInvocationID "
            "[barrier-in-divergent-control-flow]")
      << run.out;
  EXPECT_NE(run.out.find("        barrier();"), std::string::npos) << "the excerpt is standard input's:\n" << run.out;
  // Without `-` too, as ruff reads it.
  EXPECT_EQ(klint({"--stdin-filename", "k.comp"}, kDivergentBarrierKernel).exit_code, 1);
  EXPECT_EQ(klint({"--stdin-filename", "k.comp"}, kCleanKernel).exit_code, 0);

  // The klint.toml above the name applies, and #include looks beside it.
  write("shaders/klint.toml", "ignore = [\"barrier-in-divergent-control-flow\"]\n");
  write("shaders/tile.glsl", "shared float tile[10000];\n");
  EXPECT_EQ(klint({"--stdin-filename", "shaders/k.comp"}, kDivergentBarrierKernel).exit_code, 0);
  KlintRun included = klint({"--stdin-filename", "shaders/big.comp"},
                            "#version 450\nlayout(local_size_x = 64) in;\n#include \"tile.glsl\"\n"
                            "void main() { tile[gl_LocalInvocationID.x] = 0.0; }\n");
  EXPECT_NE(included.out.find("[shared-memory-over-limit]"), std::string::npos) << included.out << included.err;
}

TEST_F(Stdin, NeverReadsTheFileOfThatName) {
  write("k.comp", kCleanKernel);
  KlintRun run = klint({"--stdin-filename", "k.comp"}, kDivergentBarrierKernel);
  EXPECT_EQ(run.exit_code, 1) << run.out;
  write("suppressed.comp", "// klint-ignore-file: barrier-in-divergent-control-flow\n");
  EXPECT_EQ(klint({"--stdin-filename", "suppressed.comp"}, kDivergentBarrierKernel).exit_code, 1);
}

// An editor pipes every buffer: one of another stage, or a header, is
// skipped with the note a named file gets, not compiled as a kernel.
TEST_F(Stdin, OtherStagesAndHeadersAreSkippedWithANote) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"blur.frag.glsl", "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n"},
      {"cull.glsl", "#version 450\n#extension GL_EXT_mesh_shader : require\nlayout(local_size_x = 32) in;\n"
                    "layout(triangles, max_vertices = 3, max_primitives = 1) out;\nvoid main() { SetMeshOutputsEXT(0, 0); }\n"},
      {"common.glsl", "float twice(float v) { return 2.0 * v; }\n"}};
  for (const auto& [name, text] : cases) {
    KlintRun run = klint({"--stdin-filename", name, "-"}, text);
    EXPECT_EQ(run.exit_code, 0) << name << run.out << run.err;
    EXPECT_EQ(run.out.find("error"), std::string::npos) << run.out;
    const std::string why = name == "common.glsl" ? "no compute entry point; skipped" : "not a compute shader (";
    EXPECT_NE(run.err.find("klint: note: " + name + ": " + why), std::string::npos) << run.err;
  }
  // -fshader-stage=compute says it is a kernel: compiled as one.
  KlintRun forced = klint({"-fshader-stage=compute", "--stdin-filename", "blur.frag.glsl", "-"},
                          "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
  EXPECT_EQ(forced.exit_code, 1) << forced.out << forced.err;
  EXPECT_NE(forced.out.find("[compile-error]"), std::string::npos) << forced.out;
}

TEST_F(Stdin, HlslByItsName) {
  KlintRun run = klint({"--stdin-filename", "k.hlsl", "-"},
                       "groupshared float cache[64];\nRWStructuredBuffer<float> d : register(u0);\n"
                       "[numthreads(64, 1, 1)]\nvoid CSMain(uint3 t : SV_GroupThreadID) {\n"
                       "    if (t.x < 16) { GroupMemoryBarrierWithGroupSync(); }\n    d[t.x] = 1.0;\n}\n");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out.rfind("k.hlsl:5:", 0), 0u) << run.out;
}

TEST_F(Stdin, MisuseIsAOneLineError) {
  KlintRun dash = klint({"-"}, kCleanKernel);
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_EQ(dash.err,
            "klint: error: -: a shader on standard input needs --stdin-filename NAME, whose extension gives its "
            "language (k.comp, k.hlsl, k.spv, k.spvasm)\n");
  write("other.comp", kCleanKernel);
  KlintRun mixed = klint({"--stdin-filename", "k.comp", "-", "other.comp"}, kCleanKernel);
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_EQ(mixed.err,
            "klint: error: --stdin-filename: standard input is linted alone; name no other files, folders or "
            "--commands\n");
  KlintRun unknown = klint({"--stdin-filename", "k.txt"}, kCleanKernel);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err,
            "klint: error: --stdin-filename k.txt: unknown file type: use -fshader-stage=compute for GLSL with "
            "other extensions\n");
  EXPECT_EQ(klint({"-fshader-stage=compute", "--stdin-filename", "k.txt"}, kCleanKernel).exit_code, 0);
}

}  // namespace
}  // namespace klint::testing
