// Path globs for klint.toml's `files` lists, in gitignore's spirit:
//   *.hlsl          no slash: the file name, at any depth
//   vendor/**       a slash: the whole path, relative to the config's directory
//   src/**/tile.comp  `**` as a whole component matches zero or more directories
// `*` and `?` never match `/`; `[abc]`, `[a-z]`, `[!a]` match one character;
// `\` makes the next character literal; a leading `./` only anchors; a
// trailing `/` means everything below.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klint {

class Glob {
 public:
  // nullopt with `error` set ("unclosed '[' in 'a[b'") for a pattern that is
  // empty, absolute, has an unclosed class, a trailing `\`, or `**` beside
  // other characters in one component.
  static std::optional<Glob> parse(std::string_view pattern, std::string* error);

  // `path` is '/'-separated and relative to the directory the glob is
  // relative to (it may start with `..` for files outside it).
  bool matches(std::string_view path) const;

  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  std::vector<std::string> components_;  // "**" stands for any number of path components
  bool name_only_ = false;               // no slash in the pattern: matched against the file name
};

}  // namespace klint
