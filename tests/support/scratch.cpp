#include "tests/support/scratch.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <system_error>

namespace klint::testing {
namespace {

namespace fs = std::filesystem;

// Directories need owner rights back before their entries can go; files and
// links do not, and a link's target lies outside the tree.
void restore_permissions(const fs::path& dir) {
  std::error_code ignored;
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ignored);
  for (fs::directory_iterator it(dir, ignored), end; it != end; it.increment(ignored)) {
    if (it->symlink_status(ignored).type() == fs::file_type::directory) restore_permissions(it->path());
  }
}

void remove_tree(const fs::path& dir) {
  std::error_code ignored;
  if (fs::symlink_status(dir, ignored).type() == fs::file_type::directory) restore_permissions(dir);
  fs::remove_all(dir, ignored);
}

}  // namespace

void ScratchDirTest::SetUp() {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string("klint-") + test->test_suite_name() + "-" + std::to_string(::getpid()) + "-" +
                     test->name();
  for (char& c : name) {
    if (c == '/') c = '_';  // parameterized names hold slashes
  }
  dir_ = fs::temp_directory_path() / name;
  remove_tree(dir_);  // a crashed earlier run with the same pid
  std::error_code error;
  ASSERT_TRUE(fs::create_directories(dir_, error)) << dir_.string() << ": " << error.message();
}

void ScratchDirTest::TearDown() { remove_tree(dir_); }

fs::path ScratchDirTest::write(const fs::path& relative, std::string_view text) const {
  const fs::path file = path(relative);
  std::error_code error;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), error);
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) ADD_FAILURE() << "cannot write " << file.string();
  return file;
}

std::string ScratchDirTest::read(const fs::path& relative) const {
  std::ifstream in(path(relative), std::ios::binary);
  if (!in) ADD_FAILURE() << "cannot read " << path(relative).string();
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path ScratchDirTest::path(const fs::path& relative) const {
  return relative.empty() ? dir_ : dir_ / relative;  // dir_ / "" would end in a slash
}

void ScratchCwdTest::SetUp() {
  ScratchDirTest::SetUp();
  if (HasFatalFailure()) return;
  old_cwd_ = fs::current_path();
  fs::current_path(path());
}

void ScratchCwdTest::TearDown() {
  if (!old_cwd_.empty()) {  // empty when SetUp failed before changing it
    std::error_code ignored;
    fs::current_path(old_cwd_, ignored);
  }
  ScratchDirTest::TearDown();
}

size_t occurrences(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace klint::testing
