// --output's file writing: whole or not at all (the CLI side is in sarif_test.cpp).
#include "driver/output/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace klint::testing {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("klint-atomic-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::string temporary(const fs::path& path) { return path.string() + ".tmp-" + std::to_string(getpid()); }

  fs::path dir_;
};

TEST_F(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path out = dir_ / "report.sarif";
  std::ofstream(out) << "old report";
  std::string error;
  ASSERT_TRUE(write_file_atomically(out.string(), "new report\n", &error)) << error;
  EXPECT_EQ(slurp(out), "new report\n");
  EXPECT_FALSE(fs::exists(temporary(out)));
}

TEST_F(AtomicFile, ALeftoverTemporaryIsReplacedAndALinkThereNotFollowed) {
  const fs::path out = dir_ / "report.sarif";
  const fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "keep me";
  fs::create_symlink(victim, temporary(out));
  std::string error;
  ASSERT_TRUE(write_file_atomically(out.string(), "report", &error)) << error;
  EXPECT_EQ(slurp(out), "report");
  EXPECT_EQ(slurp(victim), "keep me");
  EXPECT_FALSE(fs::exists(fs::symlink_status(temporary(out))));
}

TEST_F(AtomicFile, FailureLeavesTheOldFileAndNamesIt) {
  const fs::path out = dir_ / "taken";
  fs::create_directories(out / "inside");
  std::string error;
  EXPECT_FALSE(write_file_atomically(out.string(), "report", &error));
  EXPECT_EQ(error, out.string() + ": is a directory");
  EXPECT_TRUE(fs::is_directory(out / "inside"));
  EXPECT_FALSE(fs::exists(temporary(out)));

  EXPECT_FALSE(write_file_atomically((dir_ / "missing" / "out").string(), "report", &error));
  EXPECT_EQ(error, (dir_ / "missing" / "out").string() + ": no such file or directory");
}

}  // namespace
}  // namespace klint::testing
