// Test fixtures that give each test a fresh directory of its own, for files
// that must exist on disk.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace klint::testing {

class ScratchDirTest : public ::testing::Test {
 protected:
  // Named after the suite, the process and the test, so that tests that ctest
  // runs in parallel processes never share a directory.
  void SetUp() override;
  // Gives back permissions a test took away first, so nothing is left behind.
  void TearDown() override;

  // Creates the parent directories, so a test states only the tree it needs;
  // binary, so the bytes on disk are exactly `text`; failing to write fails the test.
  std::filesystem::path write(const std::filesystem::path& relative, std::string_view text = "") const;
  // Binary, so the text compared is the bytes a command wrote; a missing file fails the test.
  std::string read(const std::filesystem::path& relative) const;
  // Full paths for the code under test; without an argument, the directory itself.
  std::filesystem::path path(const std::filesystem::path& relative = {}) const;

 private:
  std::filesystem::path dir_;
};

// The scratch directory is also the working directory during the test, so that
// relative paths are spelled as a user would; the old one comes back after.
class ScratchCwdTest : public ScratchDirTest {
 protected:
  void SetUp() override;
  void TearDown() override;

 private:
  std::filesystem::path old_cwd_;
};

// How often `what` occurs in `text`, overlaps included: expectations that a
// line is printed exactly once rather than at least once.
size_t occurrences(std::string_view text, std::string_view what);

}  // namespace klint::testing
