// The summary line as ruff users expect it: a clean run says so on a terminal
// and stays silent in pipes, --quiet leaves findings and errors only, a run
// that linted nothing never reads as a pass, and invalid source is a finding
// (exit 1), as docs/output.md says.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

class Summary : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("a.comp", kCleanKernel);
    write("b.comp", kCleanKernel);
  }
  KlintRun klint(std::vector<std::string> args) { return run_klint(args, path().string()); }
  // What klint writes with a terminal as its standard error (util-linux
  // script), standard output dropped.
  std::string on_a_terminal(const std::string& args) {
    std::string command = "cd '" + path().string() + "' && " + KLINT_BINARY + " --color=never " + args + " >/dev/null";
    std::string line = "script -qefc \"" + command + "\" /dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(line.c_str(), "r"), pclose);
    std::string out;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
    return out;
  }
};

TEST_F(Summary, ACleanRunSaysSoOnATerminal) {
  EXPECT_EQ(on_a_terminal("a.comp b.comp"), "checked 2 files: no findings\r\n");
  EXPECT_EQ(on_a_terminal("--quiet a.comp b.comp"), "");
  KlintRun piped = klint({"a.comp", "b.comp"});
  EXPECT_EQ(piped.exit_code, 0);
  EXPECT_EQ(piped.err, "");
}

TEST_F(Summary, QuietKeepsFindingsAndErrorsOnly) {
  write("bad.comp", "#version 450\nlayout(local_size_x = 64) in;\nvoid main() { x = 1; }\n");
  KlintRun run = klint({"-q", "bad.comp", "missing.comp"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("bad.comp:3:"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "klint: error: missing.comp: no such file or directory\n");
}

TEST_F(Summary, ARunThatLintedNothingDoesNotReadAsAPass) {
  write("klint.toml", "selectt = []\n");
  KlintRun run = klint({"a.comp"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err,
            "klint: error: klint.toml:1:1: unknown key 'selectt' (did you mean 'select'?)\n"
            "nothing linted (1 input error)\n");
}

// ruff reports a syntax error as a finding and exits 1; so does klint for a
// shader that does not compile, and docs/output.md says so.
TEST_F(Summary, InvalidGlslIsACompileErrorFindingWithExitOne) {
  write("bad.comp", "#version 450\nlayout(local_size_x = 64) in;\nvoid main() { x = 1; }\n");
  KlintRun run = klint({"bad.comp"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("[compile-error]"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "1 error in 1 file\n");
  std::string docs = read(std::string(KLINT_SOURCE_DIR) + "/docs/output.md");
  EXPECT_NE(docs.find("invalid GLSL or HLSL is a `compile-error` finding, exit code 1"), std::string::npos);
}

}  // namespace
}  // namespace klint::testing
