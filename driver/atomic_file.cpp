#include "driver/atomic_file.h"

#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace klint {

bool write_file_atomically(const std::string& path, std::string_view content, std::string* error) {
  // The pid tells concurrent writers' temporaries apart; same directory, so
  // the rename never crosses filesystems.
  std::string temporary = fmt::format("{}.tmp-{}", path, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out) out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (out) out.flush();
    if (!out) {
      *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace klint
