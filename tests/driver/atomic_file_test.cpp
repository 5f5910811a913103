// --output's file writing: whole or not at all (the CLI side is in sarif_test.cpp).
#include "driver/output/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public ScratchDirTest {
 protected:
  std::string temporary(const fs::path& file) { return file.string() + ".tmp-" + std::to_string(getpid()); }
};

TEST_F(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path out = write("report.sarif", "old report");
  std::string error;
  ASSERT_TRUE(write_file_atomically(out.string(), "new report\n", &error)) << error;
  EXPECT_EQ(read(out), "new report\n");
  EXPECT_FALSE(fs::exists(temporary(out)));
}

TEST_F(AtomicFile, ALeftoverTemporaryIsReplacedAndALinkThereNotFollowed) {
  const fs::path out = path("report.sarif");
  const fs::path victim = write("victim", "keep me");
  fs::create_symlink(victim, temporary(out));
  std::string error;
  ASSERT_TRUE(write_file_atomically(out.string(), "report", &error)) << error;
  EXPECT_EQ(read(out), "report");
  EXPECT_EQ(read(victim), "keep me");
  EXPECT_FALSE(fs::exists(fs::symlink_status(temporary(out))));
}

TEST_F(AtomicFile, FailureLeavesTheOldFileAndNamesIt) {
  const fs::path out = path("taken");
  fs::create_directories(out / "inside");
  std::string error;
  EXPECT_FALSE(write_file_atomically(out.string(), "report", &error));
  EXPECT_EQ(error, out.string() + ": is a directory");
  EXPECT_TRUE(fs::is_directory(out / "inside"));
  EXPECT_FALSE(fs::exists(temporary(out)));

  EXPECT_FALSE(write_file_atomically(path("missing/out").string(), "report", &error));
  EXPECT_EQ(error, path("missing/out").string() + ": no such file or directory");
}

}  // namespace
}  // namespace klint::testing
