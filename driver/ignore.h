// What a directory walk leaves out: the patterns of .gitignore and .ignore
// files, and of `exclude` lists, in gitignore's syntax (the common subset):
//   # comment        a line starting with '#' (`\#` for a literal '#')
//   *.spv            no slash: a name at any depth
//   /build           a leading '/' anchors at the list's directory
//   gen/*.comp       a slash inside anchors too
//   out/             a trailing '/' matches directories only
//   **/gen, a/**/b   `**` as a whole component: any number of directories
//   !keep.comp       '!' takes a path back in that an earlier line left out
// `*`, `?` and `[a-z]` never match '/'; `\` makes the next character literal.
// A directory left out is not entered, so nothing below it comes back.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/glob.h"

namespace klint {

class IgnorePattern {
 public:
  // nullopt for a blank line or a comment; for a pattern glob.h cannot read,
  // nullopt with `error` set.
  static std::optional<IgnorePattern> parse(std::string_view line, std::string* error);

  // `path` is '/'-separated and relative to the list's directory; a path
  // outside it (starting with `..`) is matched by its name alone, and only by
  // patterns that are not anchored.
  bool matches(std::string_view path, bool is_dir) const;
  bool negated() const { return negated_; }
  bool anchored() const { return anchored_; }

 private:
  explicit IgnorePattern(Glob glob) : glob_(std::move(glob)) {}
  Glob glob_;
  bool negated_ = false;
  bool dir_only_ = false;
  bool anchored_ = false;
};

// The patterns of one file or one list, and the directory they are relative to.
class IgnoreList {
 public:
  // `base` is absolute and lexically normal. A line that is not a valid
  // pattern is skipped: a .gitignore is git's to judge, not klint's.
  static IgnoreList from_text(std::string_view text, std::filesystem::path base);
  // Patterns from klint.toml or the command line: nullopt with `error` for the
  // first one that is not valid.
  static std::optional<IgnoreList> from_patterns(const std::vector<std::string>& patterns,
                                                 std::filesystem::path base, std::string* error);
  // Reads `file`; an empty list when it cannot be read.
  static IgnoreList from_file(const std::filesystem::path& file);

  // true: left out, false: taken back by a '!' pattern, nullopt: no pattern
  // matches (the last matching line decides, as in git). `absolute` is
  // lexically normal.
  std::optional<bool> verdict(const std::filesystem::path& absolute, bool is_dir) const;
  bool empty() const { return patterns_.empty(); }

 private:
  std::filesystem::path base_;
  std::vector<IgnorePattern> patterns_;
};

}  // namespace klint
