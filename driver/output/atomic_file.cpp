#include "driver/output/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace klint {
namespace {

bool fail(const std::string& path, int error_number, std::string* error) {
  // strerror capitalises; klint's messages are lower case.
  std::string reason = std::strerror(error_number);
  if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
  *error = path + ": " + reason;
  return false;
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written == 0) errno = EIO;  // no progress, and no reason given
    if (written <= 0) return false;
    text.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

}  // namespace

bool write_file_atomically(const std::string& path, std::string_view text, std::string* error) {
  // Beside the target, so that the rename stays within one file system.
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  // A fresh file, never one found there: a leftover of a crashed run with the
  // same pid is removed first, and a link planted there is not followed.
  constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::open(temporary.c_str(), kFlags, 0666);
  if (fd < 0 && errno == EEXIST && ::unlink(temporary.c_str()) == 0) fd = ::open(temporary.c_str(), kFlags, 0666);
  if (fd < 0) return fail(path, errno, error);
  bool ok = write_all(fd, text) && ::fsync(fd) == 0;
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && ::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    ::unlink(temporary.c_str());
    return fail(path, saved, error);
  }
  return true;
}

}  // namespace klint
