// Git hooks and pre-commit pass klint every changed shader file by name,
// include-only headers among them: a header is noted and skipped, never a
// failure, while the kernels beside it are linted as usual.
#include <gtest/gtest.h>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

constexpr const char* kClean = R"(#version 450
#include "common.glsl"
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    data[gl_GlobalInvocationID.x] = twice(data[gl_GlobalInvocationID.x]);
}
)";

constexpr const char* kGlslHeader = "float twice(float x) { return 2.0 * x; }\n";
constexpr const char* kHlslHeader = "float twice(float x) { return 2 * x; }\n";
// A pixel shader: an entry point, but not a compute one.
constexpr const char* kHlslPixel = "float4 main() : SV_Target { return 0; }\n";

class Headers : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("common.glsl", kGlslHeader);
    write("common.hlsli", kHlslHeader);
    write("pixel.hlsl", kHlslPixel);
  }
  KlintRun klint(std::vector<std::string> args) { return run_klint(args, path().string()); }
};

constexpr const char* kNotes =
    "klint: note: common.glsl: no compute entry point; skipped\n"
    "klint: note: common.hlsli: no compute entry point; skipped\n"
    "klint: note: pixel.hlsl: no compute entry point; skipped\n";

TEST_F(Headers, BesideACleanKernelTheyAreNotedAndTheRunPasses) {
  write("kernel.comp", kClean);
  KlintRun run = klint({"common.glsl", "common.hlsli", "kernel.comp", "pixel.hlsl"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, kNotes);
}

TEST_F(Headers, AloneTheyPass) {
  KlintRun run = klint({"common.glsl", "common.hlsli", "pixel.hlsl"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, kNotes);
}

TEST_F(Headers, AFindingBesideThemStillFails) {
  write("bad.comp", kDivergentBarrierKernel);
  KlintRun run = klint({"common.glsl", "bad.comp", "common.hlsli", "pixel.hlsl"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("bad.comp:5:9: error: barrier in control flow that depends on gl_LocalInvocationID "
                         "[barrier-in-divergent-control-flow]"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.err.substr(0, std::string(kNotes).size()), kNotes);
}

// -fshader-stage=compute says the file is a kernel, so a header is compiled as
// one and its missing main() is the compiler's error.
TEST_F(Headers, ForcedComputeCompilesThem) {
  KlintRun run = klint({"-fshader-stage=compute", "common.glsl"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("[compile-error]"), std::string::npos) << run.out;
  EXPECT_EQ(run.err.find("skipped"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace klint::testing
