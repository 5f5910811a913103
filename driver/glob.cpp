#include "driver/glob.h"

#include <fmt/core.h>

namespace klint {
namespace {

constexpr size_t kUnclosed = std::string_view::npos;

// The position just past the class that opens at pattern[open] == '['.
size_t class_end(std::string_view pattern, size_t open) {
  size_t i = open + 1;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) ++i;
  if (i < pattern.size() && pattern[i] == ']') ++i;  // "[]a]": a leading ']' is a member
  while (i < pattern.size() && pattern[i] != ']') ++i;
  return i < pattern.size() ? i + 1 : kUnclosed;
}

// `members` is the text between the brackets.
bool class_matches(std::string_view members, char c) {
  bool negated = !members.empty() && (members[0] == '!' || members[0] == '^');
  if (negated) members.remove_prefix(1);
  bool found = false;
  for (size_t i = 0; i < members.size(); ++i) {
    if (i + 2 < members.size() && members[i + 1] == '-') {
      found |= members[i] <= c && c <= members[i + 2];
      i += 2;
    } else {
      found |= members[i] == c;
    }
  }
  return found != negated;
}

// One path component against one pattern component (no '/' in either),
// backtracking to the last '*' on a mismatch.
bool component_matches(std::string_view pattern, std::string_view text) {
  size_t p = 0;
  size_t t = 0;
  size_t star = kUnclosed;
  size_t resume = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      char c = pattern[p];
      if (c == '*') {
        star = p++;
        resume = t;
        continue;
      }
      if (c == '?') {
        ++p;
        ++t;
        continue;
      }
      if (c == '[') {
        size_t end = class_end(pattern, p);
        if (class_matches(pattern.substr(p + 1, end - p - 2), text[t])) {
          p = end;
          ++t;
          continue;
        }
      } else if (c == '\\') {
        if (pattern[p + 1] == text[t]) {
          p += 2;
          ++t;
          continue;
        }
      } else if (c == text[t]) {
        ++p;
        ++t;
        continue;
      }
    }
    if (star == kUnclosed) return false;
    p = star + 1;
    t = ++resume;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool components_match(const std::vector<std::string>& pattern, size_t p, const std::vector<std::string_view>& path,
                      size_t t) {
  if (p == pattern.size()) return t == path.size();
  if (pattern[p] == "**") {
    for (size_t skip = t; skip <= path.size(); ++skip) {
      if (components_match(pattern, p + 1, path, skip)) return true;
    }
    return false;
  }
  return t < path.size() && component_matches(pattern[p], path[t]) && components_match(pattern, p + 1, path, t + 1);
}

// Components of a '/'-separated path, without empty and "." ones.
std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (!part.empty() && part != ".") parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

// Why `component` is not a valid pattern component; "" when it is.
std::string component_error(std::string_view component) {
  if (component != "**" && component.find("**") != std::string_view::npos) {
    return "'**' must be a whole path component, as in 'a/**/b'";
  }
  for (size_t i = 0; i < component.size(); ++i) {
    if (component[i] == '\\') {
      if (i + 1 == component.size()) return "it ends with '\\'";
      ++i;
    } else if (component[i] == '[') {
      size_t end = class_end(component, i);
      if (end == kUnclosed) return "unclosed '['";
      i = end - 1;
    }
  }
  return "";
}

}  // namespace

std::optional<Glob> Glob::parse(std::string_view pattern, std::string* error) {
  if (pattern.empty()) {
    *error = "empty glob";
    return std::nullopt;
  }
  if (pattern.front() == '/') {
    *error = fmt::format("bad glob '{}': it is absolute; globs are relative to the config file's directory", pattern);
    return std::nullopt;
  }
  Glob glob;
  glob.pattern_ = std::string(pattern);
  glob.name_only_ = pattern.find('/') == std::string_view::npos;
  for (std::string_view part : split(pattern)) {
    std::string reason = component_error(part);
    if (!reason.empty()) {
      *error = fmt::format("bad glob '{}': {}", pattern, reason);
      return std::nullopt;
    }
    glob.components_.emplace_back(part);
  }
  if (pattern.back() == '/') glob.components_.emplace_back("**");
  if (glob.components_.empty()) {
    *error = fmt::format("bad glob '{}': it names no file", pattern);
    return std::nullopt;
  }
  return glob;
}

bool Glob::matches(std::string_view path) const {
  std::vector<std::string_view> parts = split(path);
  if (name_only_) return !parts.empty() && component_matches(components_.front(), parts.back());
  return components_match(components_, 0, parts, 0);
}

}  // namespace klint
