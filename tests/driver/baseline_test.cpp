// --write-baseline and --baseline: old findings stay quiet through edits
// elsewhere in the file, new ones appear, bad baselines are one-line errors.
#include <gtest/gtest.h>

#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

// One race on `tile` (the read of tile[i + 1] before any barrier).
constexpr const char* kRace = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    float right = i + 1 < 64 ? tile[i + 1] : 0.0;
    data[gl_GlobalInvocationID.x] = right;
}
)";

class BaselineTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("shaders/race.comp", kRace);
  }
  KlintRun klint(std::vector<std::string> args) { return run_klint(args, path().string()); }
};

TEST_F(BaselineTest, RecordsFindingsAndExitsCleanly) {
  KlintRun written = klint({"--write-baseline", "klint-baseline.json", "shaders"});
  EXPECT_EQ(written.exit_code, 0) << written.err;
  EXPECT_EQ(written.out, "");  // recorded, not shown
  EXPECT_NE(written.err.find("wrote 1 finding to klint-baseline.json"), std::string::npos) << written.err;
  std::string baseline = read("klint-baseline.json");
  EXPECT_NE(baseline.find("\"schema\": \"klint-baseline-1\""), std::string::npos) << baseline;
  EXPECT_NE(baseline.find("\"file\": \"shaders/race.comp\""), std::string::npos) << baseline;
  EXPECT_NE(baseline.find("\"rule\": \"shared-memory-race\""), std::string::npos) << baseline;

  KlintRun checked = klint({"--baseline", "klint-baseline.json", "shaders"});
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_EQ(checked.out, "");
  EXPECT_NE(checked.err.find("1 finding in the baseline klint-baseline.json not shown"), std::string::npos)
      << checked.err;
}

TEST_F(BaselineTest, EditsElsewhereDoNotResurfaceOldFindings) {
  ASSERT_EQ(klint({"--write-baseline", "klint-baseline.json", "shaders"}).exit_code, 0);
  std::string moved = kRace;
  moved.insert(moved.find("layout(binding"), "// a comment that moves every line below it\n\n\n");
  moved.insert(moved.find("    data[gl_Global"), "    right *= 2.0;\n");
  write("shaders/race.comp", moved);
  KlintRun run = klint({"--baseline", "klint-baseline.json", "shaders"});
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(run.out, "");
}

TEST_F(BaselineTest, ANewInstanceOfTheSameRuleAppears) {
  ASSERT_EQ(klint({"--write-baseline", "klint-baseline.json", "shaders"}).exit_code, 0);
  std::string twice = kRace;
  twice.insert(twice.find("    data[gl_Global"), "    float left = i > 0 ? tile[i - 1] : 0.0;\n    right += left;\n");
  write("shaders/race.comp", twice);
  KlintRun run = klint({"--baseline", "klint-baseline.json", "shaders"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_EQ(occurrences(run.out, "[shared-memory-race]"), 1u) << run.out;
  EXPECT_NE(run.out.find("tile[i - 1]"), std::string::npos) << run.out;  // the new one, not the old
}

TEST_F(BaselineTest, TheSameCodeInAnotherFileIsNew) {
  ASSERT_EQ(klint({"--write-baseline", "klint-baseline.json", "shaders"}).exit_code, 0);
  write("shaders/copy.comp", kRace);
  KlintRun run = klint({"--baseline", "klint-baseline.json", "shaders"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("copy.comp:8:"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("race.comp"), std::string::npos) << run.out;
}

TEST_F(BaselineTest, PathsAreRelativeToTheBaselineNotTheCurrentDirectory) {
  ASSERT_EQ(klint({"--write-baseline", "klint-baseline.json", "shaders"}).exit_code, 0);
  KlintRun run = run_klint({"--baseline", "../klint-baseline.json", "race.comp"}, path("shaders").string());
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "");
}

TEST_F(BaselineTest, BadBaselinesAreOneLineErrors) {
  write("garbage.json", "{ not json");
  write("other.json", R"({"schema": "something-else", "findings": []})");
  write("shape.json", R"({"schema": "klint-baseline-1", "findings": [{"file": 3}]})");
  for (const char* name : {"missing.json", "garbage.json", "other.json", "shape.json"}) {
    KlintRun run = klint({"--baseline", name, "shaders"});
    EXPECT_EQ(run.exit_code, 2) << name;
    EXPECT_EQ(run.out, "") << name;
    EXPECT_EQ(occurrences(run.err, "\n"), 1u) << name << ": " << run.err;
    EXPECT_TRUE(run.err.starts_with(std::string("klint: error: ") + name + ": ")) << run.err;
  }
}

TEST_F(BaselineTest, AnUnwritableBaselineIsAnError) {
  KlintRun run = klint({"--write-baseline", "no/such/dir/baseline.json", "shaders"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: no/such/dir/baseline.json: no such file or directory\n");
}

}  // namespace
}  // namespace klint::testing
