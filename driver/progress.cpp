#include "driver/progress.h"

#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>

namespace klint {

Progress::Progress(size_t total) : total_(total), enabled_(total >= kMinimum && isatty(STDERR_FILENO)) {}

void Progress::update(size_t done, const std::string& current) {
  if (!enabled_) return;
  // Redrawn ten times a second at most: a terminal is slower than klint.
  auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100) && done < total_) return;
  last_ = now;
  std::string line = fmt::format("[{}/{}] {}", done, total_, current);
  if (line.size() > 79) line = line.substr(0, 76) + "...";
  std::fputs(fmt::format("\r\x1b[2K{}", line).c_str(), stderr);
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  std::fputs("\r\x1b[2K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace klint
