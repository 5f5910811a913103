// "[12/300] shaders/mul_mat.comp" on standard error while klint works through
// many files on a terminal; nothing otherwise.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace klint {

class Progress {
 public:
  // Shown only when standard error is a terminal and there are at least
  // `kMinimum` files: a handful finishes before a line would be read.
  explicit Progress(size_t total);
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` files are finished, `current` is the one output waits for.
  void update(size_t done, const std::string& current);
  // Erases the line, before anything else is printed to the terminal.
  void clear();

  static constexpr size_t kMinimum = 8;

 private:
  size_t total_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace klint
