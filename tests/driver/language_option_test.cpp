// -x glsl|hlsl|spvasm, as glslc's -x: the language of the files named, and of
// standard input, whatever their extension (.fx, HLSL named .comp).
#include <gtest/gtest.h>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

// A barrier under a branch on the group thread id: one finding, in HLSL's words.
constexpr const char* kHlslKernel =
    "groupshared float cache[64];\n"
    "RWStructuredBuffer<float> d : register(u0);\n"
    "[numthreads(64, 1, 1)]\n"
    "void CSMain(uint3 t : SV_GroupThreadID) {\n"
    "    cache[t.x] = d[t.x];\n"
    "    if (t.x < 16) { GroupMemoryBarrierWithGroupSync(); }\n"
    "    d[t.x] = cache[63 - t.x];\n"
    "}\n";

class LanguageOption : public ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), "--color=never");
    return run_klint(args, path().string());
  }
};

TEST_F(LanguageOption, HlslOfAnyExtension) {
  write("blur.fx", kHlslKernel);
  KlintRun unknown = klint({"blur.fx"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.out;
  KlintRun run = klint({"-x", "hlsl", "blur.fx"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out.rfind("blur.fx:6:", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("depends on SV_GroupThreadID"), std::string::npos) << run.out;
  // glslc's joined spelling.
  EXPECT_EQ(klint({"-xhlsl", "blur.fx"}).out, run.out);
}

TEST_F(LanguageOption, HlslNamedLikeGlslAndTheCacheTellsThemApart) {
  write("k.comp", kHlslKernel);
  // Linted first as GLSL (a compile error, kept in the result cache), then as
  // HLSL: the cache must not answer the second run with the first's report.
  KlintRun as_glsl = klint({"k.comp"});
  EXPECT_EQ(as_glsl.exit_code, 1);
  EXPECT_NE(as_glsl.out.find("[compile-error]"), std::string::npos) << as_glsl.out;
  KlintRun as_hlsl = klint({"-x", "hlsl", "k.comp"});
  EXPECT_EQ(as_hlsl.exit_code, 1) << as_hlsl.err;
  EXPECT_EQ(as_hlsl.out.find("[compile-error]"), std::string::npos) << as_hlsl.out;
  EXPECT_NE(as_hlsl.out.find("[barrier-in-divergent-control-flow]"), std::string::npos) << as_hlsl.out;
}

TEST_F(LanguageOption, AssemblyAndStandardInput) {
  write("kernel.asm", kEmptyKernelAssembly);
  KlintRun run = klint({"-x", "spvasm", "kernel.asm"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  KlintRun piped = run_klint_with_input({"--color=never", "-x", "hlsl", "--stdin-filename", "in.fx"}, kHlslKernel,
                                        path().string());
  EXPECT_EQ(piped.exit_code, 1) << piped.err;
  EXPECT_EQ(piped.out.rfind("in.fx:6:", 0), 0u) << piped.out;
}

TEST_F(LanguageOption, AnUnknownLanguageIsOneLine) {
  write("k.comp", kHlslKernel);
  KlintRun run = klint({"-x", "metal", "k.comp"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: -x: 'metal' is not one of glsl, hlsl, spvasm\n");
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace klint::testing
