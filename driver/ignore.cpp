#include "driver/ignore.h"

#include <fstream>
#include <sstream>

namespace klint {
namespace {

namespace fs = std::filesystem;

// Trailing spaces end a gitignore line unless a backslash escapes them.
std::string_view trim_trailing_spaces(std::string_view line) {
  while (line.ends_with(' ') && !line.ends_with("\\ ")) line.remove_suffix(1);
  return line;
}

}  // namespace

std::optional<IgnorePattern> IgnorePattern::parse(std::string_view line, std::string* error) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  line = trim_trailing_spaces(line);
  if (line.empty() || line.starts_with('#')) return std::nullopt;
  bool negated = line.starts_with('!');
  if (negated) line.remove_prefix(1);
  bool dir_only = line.ends_with('/');
  while (line.ends_with('/')) line.remove_suffix(1);
  // A slash at the start or inside anchors the pattern at the list's directory.
  bool anchored = line.find('/') != std::string_view::npos;
  while (line.starts_with('/')) line.remove_prefix(1);
  if (line.empty()) return std::nullopt;
  // "./" makes a Glob match the whole path even when no other slash is left.
  std::optional<Glob> glob = Glob::parse(anchored ? "./" + std::string(line) : std::string(line), error);
  if (!glob) return std::nullopt;
  IgnorePattern pattern(std::move(*glob));
  pattern.negated_ = negated;
  pattern.dir_only_ = dir_only;
  pattern.anchored_ = anchored;
  return pattern;
}

bool IgnorePattern::matches(std::string_view path, bool is_dir) const {
  if (dir_only_ && !is_dir) return false;
  if (path.starts_with("../") || path == "..") {
    if (anchored_) return false;
    path.remove_prefix(std::min(path.size(), path.rfind('/') + 1));
  }
  return glob_.matches(path);
}

IgnoreList IgnoreList::from_text(std::string_view text, fs::path base) {
  IgnoreList list;
  list.base_ = std::move(base);
  while (!text.empty()) {
    size_t end = std::min(text.find('\n'), text.size());
    std::string error;
    if (std::optional<IgnorePattern> pattern = IgnorePattern::parse(text.substr(0, end), &error)) {
      list.patterns_.push_back(std::move(*pattern));
    }
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return list;
}

std::optional<IgnoreList> IgnoreList::from_patterns(const std::vector<std::string>& patterns, fs::path base,
                                                    std::string* error) {
  IgnoreList list;
  list.base_ = std::move(base);
  for (const std::string& text : patterns) {
    if (text.empty()) continue;  // `--exclude=` clears the list
    error->clear();
    std::optional<IgnorePattern> pattern = IgnorePattern::parse(text, error);
    if (!pattern) {
      if (error->empty()) *error = "'" + text + "' is not a pattern";
      return std::nullopt;
    }
    list.patterns_.push_back(std::move(*pattern));
  }
  return list;
}

IgnoreList IgnoreList::from_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  return from_text(text.str(), file.parent_path());
}

std::optional<bool> IgnoreList::verdict(const fs::path& absolute, bool is_dir) const {
  const std::string relative = absolute.lexically_relative(base_).generic_string();
  if (relative.empty() || relative == ".") return std::nullopt;
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->matches(relative, is_dir)) return !it->negated();
  }
  return std::nullopt;
}

}  // namespace klint
