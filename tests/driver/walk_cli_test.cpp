// Directory walks as users meet them: .gitignore honoured, --no-ignore,
// --exclude and --extend-exclude and their klint.toml keys, and a folder that
// holds no shader reported instead of passing silently.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

class WalkCli : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    for (const char* file : {"src/a.comp", "src/gen/g.comp", "build/a.spv.comp", ".cache/c.comp", "vendor/v.comp"}) {
      write(file, kDivergentBarrierKernel);
    }
    write(".gitignore", "/build/\n");
  }
  KlintRun klint(std::vector<std::string> args) { return run_klint(args, path().string()); }
  // The files with findings, in output order.
  std::string linted(std::vector<std::string> args) {
    KlintRun run = klint(std::move(args));
    std::string files;
    for (size_t at = 0; (at = run.out.find(": error: barrier", at)) != std::string::npos; ++at) {
      size_t begin = run.out.rfind('\n', at);
      begin = begin == std::string::npos ? 0 : begin + 1;
      files += run.out.substr(begin, run.out.find(':', begin) - begin) + " ";
    }
    return files + run.err.substr(0, run.err.find('\n'));
  }
};

TEST_F(WalkCli, GitignoredAndHiddenFoldersAreNotWalked) {
  EXPECT_EQ(linted({"."}), "src/a.comp src/gen/g.comp vendor/v.comp 3 errors in 3 files");
  EXPECT_EQ(linted({"--no-ignore", "."}), "build/a.spv.comp src/a.comp src/gen/g.comp vendor/v.comp 4 errors in 4 files");
}

TEST_F(WalkCli, ExcludeAndExtendExcludeLeaveOutWalkedFiles) {
  EXPECT_EQ(linted({"--extend-exclude", "gen/,vendor", "."}), "src/a.comp 1 error in 1 file");
  write("klint.toml", "exclude = [\"vendor/\"]\nextend-exclude = [\"src/gen\"]\n");
  EXPECT_EQ(linted({"."}), "src/a.comp 1 error in 1 file");
  // --exclude replaces the configuration's `exclude`; its `extend-exclude` stays.
  EXPECT_EQ(linted({"--exclude", "*.none", "."}), "src/a.comp vendor/v.comp 2 errors in 2 files");
  // A file named on the command line is linted whatever the lists say.
  EXPECT_EQ(linted({"src/gen/g.comp"}), "src/gen/g.comp 1 error in 1 file");
}

TEST_F(WalkCli, BadPatternsAreUsageErrors) {
  KlintRun run = klint({"--exclude", "a[b", "."});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "klint: error: --exclude: bad glob 'a[b': unclosed '['\n");
  write("klint.toml", "extend-exclude = [\"ok/\", \"x[\"]\n");
  run = klint({"."});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("klint.toml:1:26: in 'extend-exclude': bad glob 'x[': unclosed '['"), std::string::npos)
      << run.err;
  write("klint.toml", "exclud = [\"gen/\"]\n");
  run = klint({"."});
  EXPECT_NE(run.err.find("unknown key 'exclud' (did you mean 'exclude'?)"), std::string::npos) << run.err;
}

TEST_F(WalkCli, AFolderWithoutShadersFailsUnlessAllowed) {
  write("docs/readme.md", "# no shaders here\n");
  KlintRun run = klint({"docs"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err.substr(0, run.err.find('\n')), "klint: error: no shaders found under docs");
  KlintRun allowed = klint({"--allow-empty", "docs"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  // Every shader below it ignored is no shader either.
  EXPECT_EQ(klint({"build"}).exit_code, 1) << "a folder named is walked, though ignored";
  write("build/.gitignore", "*\n");
  EXPECT_EQ(klint({"build"}).exit_code, 2);
}

}  // namespace
}  // namespace klint::testing
