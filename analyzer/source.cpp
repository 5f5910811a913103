#include "analyzer/source.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace klint {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n' && i + 1 < text_.size()) line_starts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = text_.find('\n', begin);
  if (end == std::string::npos) end = text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::optional<std::string> read_file(const std::string& path, ReadError* error) {
  auto fail = [&](std::string reason) -> std::optional<std::string> {
    // strerror capitalises; klint's messages are lower case.
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
    if (error) error->reason = std::move(reason);
    return std::nullopt;
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("is a directory");
  if (!S_ISREG(st.st_mode)) return fail("not a regular file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(errno ? std::strerror(errno) : "cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return fail("read error");
  return std::move(buffer).str();
}

const SourceFile& SourceCache::add(const std::string& path, std::string text) {
  std::lock_guard lock(mutex_);
  auto& slot = files_[path];
  // Files are never replaced: excerpts handed out earlier must stay valid.
  if (!slot) slot = std::make_unique<SourceFile>(path, std::move(text));
  return *slot;
}

const SourceFile* SourceCache::get(const std::string& path) {
  std::lock_guard lock(mutex_);
  if (auto it = files_.find(path); it != files_.end()) return it->second.get();
  auto text = read_file(path, nullptr);
  if (!text) return nullptr;
  auto& slot = files_[path];
  slot = std::make_unique<SourceFile>(path, std::move(*text));
  return slot.get();
}

}  // namespace klint
