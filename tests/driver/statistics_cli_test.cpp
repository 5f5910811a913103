// --statistics, as ruff users know it: one line per rule with its count of
// findings, most first, instead of the findings; the exit code is the run's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

// Two races on `tile`, one on each neighbour.
constexpr const char* kTwoRaces = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    float right = i + 1 < 64 ? tile[i + 1] : 0.0;
    float left = i > 0 ? tile[i - 1] : 0.0;
    data[gl_GlobalInvocationID.x] = right + left;
}
)";

class Statistics : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("a.comp", kTwoRaces);
    write("b.comp", kTwoRaces);
    write("c.comp", kDivergentBarrierKernel);
  }
  KlintRun klint(std::vector<std::string> args) {
    args.insert(args.begin(), "--color=never");
    return run_klint(args, path().string());
  }
};

TEST_F(Statistics, CountsFindingsPerRuleInsteadOfShowingThem) {
  KlintRun run = klint({"--statistics", "a.comp", "b.comp", "c.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out,
            "4  shared-memory-race                 two invocations access one workgroup-memory element, at least one "
            "writing, with no barrier between\n"
            "1  barrier-in-divergent-control-flow  workgroup barrier that only some invocations of a workgroup may "
            "reach\n");
  EXPECT_EQ(klint({"--statistics", "--fail-on=never", "a.comp"}).exit_code, 0);
  KlintRun clean = klint({"--statistics", "--ignore=shared-memory-race", "a.comp"});
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_EQ(clean.out, "");
}

TEST_F(Statistics, JsonIsAnArrayOfCounts) {
  KlintRun run = klint({"--statistics", "--format=json", "a.comp", "c.comp"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  nlohmann::json counts = nlohmann::json::parse(run.out);
  ASSERT_EQ(counts.size(), 2u) << run.out;
  EXPECT_EQ(counts[0]["rule"], "shared-memory-race");
  EXPECT_EQ(counts[0]["count"], 2);
  EXPECT_EQ(counts[1]["rule"], "barrier-in-divergent-control-flow");
  EXPECT_EQ(counts[1]["count"], 1);
  EXPECT_EQ(counts[1]["summary"], "workgroup barrier that only some invocations of a workgroup may reach");
}

TEST_F(Statistics, OtherFormatsRefuseIt) {
  KlintRun run = klint({"--statistics", "--format=sarif", "a.comp"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: --statistics applies to --format text and json only\n");
}

}  // namespace
}  // namespace klint::testing
