// Command-line mistakes in one format, in klint's words and never the
// parser's: `klint: error: OPTION: 'VALUE' is not ...`, exit 2, with a
// did-you-mean for rule ids and targets as klint.toml gives.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

class CliErrors : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("k.comp", kCleanKernel);
  }
  // The one line klint prints for `args` followed by k.comp; exit 2 expected.
  std::string refused(std::vector<std::string> args) {
    args.push_back("k.comp");
    KlintRun run = run_klint(args, path().string());
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    EXPECT_EQ(run.out, "");
    return run.err;
  }
};

TEST_F(CliErrors, ChoicesAreNamedAndNumbersBehindThemRefused) {
  EXPECT_EQ(refused({"--fail-on=bogus"}), "klint: error: --fail-on: 'bogus' is not one of note, warning, error, never\n");
  EXPECT_EQ(refused({"--fail-on=2"}), "klint: error: --fail-on: '2' is not one of note, warning, error, never\n");
  EXPECT_EQ(refused({"--format", "xml"}), "klint: error: --format: 'xml' is not one of text, json, github, sarif\n");
  EXPECT_EQ(refused({"--format=1"}), "klint: error: --format: '1' is not one of text, json, github, sarif\n");
  EXPECT_EQ(refused({"--color=sometimes"}), "klint: error: --color: 'sometimes' is not one of auto, always, never\n");
  EXPECT_EQ(refused({"reflect", "--format=xml"}), "klint: error: --format: 'xml' is not one of table, json\n");
}

TEST_F(CliErrors, NumbersAreWholeAndInRange) {
  EXPECT_EQ(refused({"--max-shared-memory", "4k"}),
            "klint: error: --max-shared-memory: '4k' is not a whole number of bytes, 1 or more\n");
  EXPECT_EQ(refused({"-j", "-1"}), "klint: error: --jobs: '-1' is not a number of jobs, 1 or more\n");
  EXPECT_EQ(refused({"--jobs=two"}), "klint: error: --jobs: 'two' is not a number of jobs, 1 or more\n");
  EXPECT_EQ(refused({"--timeout", "-3"}), "klint: error: --timeout: '-3' is not a number of seconds above 0\n");
  EXPECT_EQ(refused({"--seed", "0x10"}), "klint: error: --seed: '0x10' is not a whole number\n");
  EXPECT_EQ(refused({"run", "--device", "gpu"}),
            "klint: error: --device: 'gpu' is not a device index (klint devices lists them)\n");
  // What is valid still is.
  EXPECT_EQ(run_klint({"--max-shared-memory", "49152", "-j", "1", "--fail-on=error", "k.comp"}, path().string()).exit_code,
            0);
}

TEST_F(CliErrors, HelpShowsWhatToTypeNotTheParsersTypes) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--help"}, {"reflect", "--help"}}) {
    KlintRun help = run_klint(args, path().string());
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_EQ(help.out.find("ENUM"), std::string::npos) << help.out;
    EXPECT_EQ(help.out.find("->"), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("--format FORMAT"), std::string::npos) << help.out;
  }
}

TEST_F(CliErrors, MisspeltRulesAndTargetsGetADidYouMean) {
  EXPECT_EQ(refused({"--ignore=shared-memory-rase"}),
            "klint: error: --ignore: unknown rule 'shared-memory-rase' (did you mean 'shared-memory-race'?)\n");
  EXPECT_EQ(refused({"--select=nothing-like-it"}),
            "klint: error: --select: unknown rule 'nothing-like-it' (klint --list-rules lists them)\n");
  EXPECT_EQ(refused({"--target", "nvidia-amper"}),
            "klint: error: --target: unknown target 'nvidia-amper' (did you mean 'nvidia-ampere'?)\n");
  EXPECT_EQ(refused({"--explain", "shared-memory-rase"}),
            "klint: error: --explain: unknown rule 'shared-memory-rase' (did you mean 'shared-memory-race'?)\n");
}

TEST_F(CliErrors, AMisspeltRuleInASuppressionGetsADidYouMean) {
  write("s.comp", std::string(kCleanKernel) + "// klint-ignore: shared-memory-rase\n");
  KlintRun run = run_klint({"s.comp"}, path().string());
  EXPECT_NE(run.out.find("suppression names 'shared-memory-rase', which is not a klint rule (did you mean "
                         "'shared-memory-race'?) [unused-suppression]"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace klint::testing
