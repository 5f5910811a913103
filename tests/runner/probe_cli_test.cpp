// `klint run --probe`: the table of values each invocation computed at a
// line, per loop iteration, `-` where an invocation never got there, names,
// shapes of a manifest, and bad probes.
#include <gtest/gtest.h>

#include <fmt/core.h>

#include <cstring>

#include "reflect/reflection.h"
#include "runner/harness.h"
#include "tests/runner/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint {
namespace {

using testing::KlintRun;
using testing::run_klint;

// Line numbers matter: the tests probe them.
const char* kKernel = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float y = x[i] * 2.0;
    float acc = 0.0, m = 1.0;
    for (uint k = 0; k <= i; ++k) {
        acc += float(k + 1);
    }
    if (i % 2 == 1) {
        m = -acc;
    }
    o[i] = y + acc + m;
}
)";

class ProbeCli : public testing::ScratchDirTest {
 protected:
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    return run_klint(args, path().string());
  }
};

// The report from the first probe line on, the verdict included.
std::string probes_of(const std::string& out) {
  const size_t at = out.find("\nprobe ");
  return at == std::string::npos ? "" : out.substr(at + 1);
}

// x as `klint run` fills it: the default harness's seeded floats.
std::vector<float> seeded_x(const char* source, uint64_t seed) {
  std::string error;
  std::optional<reflect::ModuleReflection> module =
      reflect::reflect_module(runner::testing::spirv_from_glsl(source), &error);
  EXPECT_TRUE(module) << error;
  runner::HarnessOptions options;
  options.seed = seed;
  std::optional<runner::Harness> harness = runner::default_harness(module->entry_points[0], options, &error);
  EXPECT_TRUE(harness) << error;
  std::vector<float> x(harness->buffers[0].data.size() / 4);
  std::memcpy(x.data(), harness->buffers[0].data.data(), x.size() * 4);
  return x;
}

TEST_F(ProbeCli, ShowsEachInvocationsValue) {
  write("k.comp", kKernel);
  KlintRun run = klint({"k.comp", "--grid", "2", "--probe", "k.comp:7"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<float> x = seeded_x(kKernel, 1);
  std::string expected = "probe k.comp:7: the value stored to y, float\nworkgroup  local  k.comp:7\n";
  for (uint32_t i = 0; i < 8; ++i) {
    expected += fmt::format("{},0,0      {},0,0  {:g}\n", i / 4, i % 4, x[i] * 2.0f);
  }
  EXPECT_EQ(probes_of(run.out), expected + "verdict: completed\n") << run.out;
  // The kernel's own buffers are reported as without probes; the log is not one of them.
  EXPECT_NE(run.out.find("binding 0.1 Out (storage-buffer, 65536 bytes): 16376 of 16384 words never written"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("klint_log"), std::string::npos) << run.out;
}

// The loop's body runs i + 1 times: a value per iteration, in order, and a
// count past eight.
TEST_F(ProbeCli, LoopLineShowsEveryIteration) {
  write("k.comp", kKernel);
  KlintRun run = klint({"k.comp", "--grid", "3", "--probe", "k.comp:10"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(probes_of(run.out),
            "probe k.comp:10: the value stored to acc, float\n"
            "workgroup  local  k.comp:10\n"
            "0,0,0      0,0,0  1\n"
            "0,0,0      1,0,0  1 3\n"
            "0,0,0      2,0,0  1 3 6\n"
            "0,0,0      3,0,0  1 3 6 10\n"
            "1,0,0      0,0,0  1 3 6 10 15\n"
            "1,0,0      1,0,0  1 3 6 10 15 21\n"
            "1,0,0      2,0,0  1 3 6 10 15 21 28\n"
            "1,0,0      3,0,0  1 3 6 10 15 21 28 36\n"
            "2,0,0      0,0,0  1 3 6 10 15 21 28 36 ... (9 in all)\n"
            "2,0,0      1,0,0  1 3 6 10 15 21 28 36 ... (10 in all)\n"
            "2,0,0      2,0,0  1 3 6 10 15 21 28 36 ... (11 in all)\n"
            "2,0,0      3,0,0  1 3 6 10 15 21 28 36 ... (12 in all)\n"
            "verdict: completed\n")
      << run.out;
}

// 1024 invocations run the loop's body 524800 times in all: more than the log
// holds, which the report says.
TEST_F(ProbeCli, FullLogIsReported) {
  write("k.comp", kKernel);
  KlintRun run = klint({"k.comp", "--grid", "256", "--probe", "k.comp:10", "--probe-rows", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("workgroup  local  k.comp:10\n0,0,0      0,0,0  "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n1023 more invocations not shown (--probe-rows N shows more)\n"
                         "probe log full: the kernel logged 524800 records, the first 262144 were kept\n"
                         "verdict: completed\n"),
            std::string::npos)
      << run.out;
}

// Two probes side by side; the branch's line only odd invocations reach.
TEST_F(ProbeCli, LineSomeInvocationsSkipShowsADash) {
  write("k.comp", kKernel);
  KlintRun run = klint({"k.comp", "--probe", "k.comp:13", "--probe", "k.comp:6:i"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(probes_of(run.out),
            "probe k.comp:13: the value stored to m, float\n"
            "probe k.comp:6:i: the value stored to i, uint\n"
            "workgroup  local  k.comp:13  k.comp:6:i\n"
            "0,0,0      0,0,0  -          0\n"
            "0,0,0      1,0,0  -3         1\n"
            "0,0,0      2,0,0  -          2\n"
            "0,0,0      3,0,0  -10        3\n"
            "verdict: completed\n")
      << run.out;
}

// Line 8 stores acc, then m: without a name the last store, with one the
// named; a load stands for a name the line only reads.
TEST_F(ProbeCli, NameChoosesTheValue) {
  write("k.comp", kKernel);
  KlintRun run = klint({"k.comp", "--probe", "k.comp:8", "--probe", "k.comp:8:acc", "--probe", "k.comp:15:y",
                        "--probe-rows", "2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<float> x = seeded_x(kKernel, 1);
  EXPECT_EQ(probes_of(run.out),
            fmt::format("probe k.comp:8: the value stored to m, float\n"
                        "probe k.comp:8:acc: the value stored to acc, float\n"
                        "probe k.comp:15:y: the value of y as the line reads it, float\n"
                        "workgroup  local  k.comp:8  k.comp:8:acc  k.comp:15:y\n"
                        "0,0,0      0,0,0  1         0             {:g}\n"
                        "0,0,0      1,0,0  1         0             {:g}\n"
                        "2 more invocations not shown (--probe-rows N shows more)\n"
                        "verdict: completed\n",
                        x[0] * 2.0f, x[1] * 2.0f))
      << run.out;
}

// One table per shape, each after its own buffers.
TEST_F(ProbeCli, OneTablePerShape) {
  write("k.comp", kKernel);
  write("klint.toml", R"toml([[kernel]]
file = "k.comp"
variables = ["g"]
matrix = [[1], [2]]
grid = ["g"]
buffers = { In = "4 * g", Out = "4 * g" }
)toml");
  KlintRun run = klint({"k.comp", "--probe", "k.comp:6:i"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const size_t second = run.out.find("shape g=2");
  ASSERT_NE(second, std::string::npos) << run.out;
  const std::string first_shape = run.out.substr(0, second);
  EXPECT_NE(first_shape.find("0,0,0      3,0,0  3\nverdict: completed\n"), std::string::npos) << run.out;
  EXPECT_EQ(first_shape.find("\n1,0,0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1,0,0      3,0,0  7\nverdict: completed\n", second), std::string::npos) << run.out;
  EXPECT_EQ(testing::occurrences(run.out, "probe k.comp:6:i: the value stored to i, uint\n"), 2u) << run.out;
}

TEST_F(ProbeCli, ProbesThatMatchNothingAreErrors) {
  write("k.comp", kKernel);
  write("other.comp", kKernel);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"k.comp", "--probe 'k.comp': not FILE:LINE[:NAME]"},
      {"k.comp:0", "--probe 'k.comp:0': lines are numbered from 1"},
      {"k.comp:x:y", "--probe 'k.comp:x:y': 'x' is not a line number"},
      {"k.comp:7:2y", "--probe 'k.comp:7:2y': '2y' is not a name"},
      {"other.comp:7", "--probe 'other.comp:7': other.comp is not the file being run (k.comp)"},
      {"k.comp:99", "--probe 'k.comp:99': k.comp has 16 lines"},
      {"k.comp:1", "no code at k.comp:1: nothing on that line runs"},
      {"k.comp:15:k", "no value named 'k' at k.comp:15; names there: i, y, acc, m"},
  };
  for (const auto& [spec, reason] : cases) {
    KlintRun run = klint({"k.comp", "--probe", spec});
    EXPECT_EQ(run.exit_code, 2) << spec;
    EXPECT_EQ(run.err, "klint: error: k.comp: " + reason + "\n") << spec;
    EXPECT_EQ(run.out, "") << spec;
  }
  KlintRun rows = klint({"k.comp", "--probe-rows", "3"});
  EXPECT_EQ(rows.exit_code, 2);
  EXPECT_EQ(rows.err, "klint: error: k.comp: --probe-rows needs --probe\n");
}

}  // namespace
}  // namespace klint
