// Source text as klint reads it, with line lookup for excerpts.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klint {

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  size_t line_count() const { return line_starts_.size(); }
  // The text of 1-based `line` without its line terminator; empty if out of range.
  std::string_view line(uint32_t line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

// Why a file could not be read, in words fit for `klint: error: PATH: REASON`.
struct ReadError {
  std::string reason;
};

// Reads a whole file. Fails with a reason for missing, unreadable, directory
// and special files instead of throwing.
std::optional<std::string> read_file(const std::string& path, ReadError* error);

// Files read during one run, shared by the front-end (which reads shaders and
// their includes) and the output formats (which show excerpts). Thread-safe.
class SourceCache {
 public:
  // Registers text under `path`; a path already known keeps its first text.
  const SourceFile& add(const std::string& path, std::string text);
  // The file under `path`, read from disk on first use; nullptr if unreadable.
  const SourceFile* get(const std::string& path);

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<SourceFile>, std::less<>> files_;
};

}  // namespace klint
