// `klint run FILE`: compiles a kernel, makes up a harness from its reflection
// and runs it once on a Vulkan device in a child process (runner/).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "analyzer/frontend.h"

namespace klint {

struct RunOptions {
  std::optional<uint32_t> device;  // nullopt: the CPU device (lavapipe), else device 0
  double timeout_seconds = 10;
  uint64_t seed = 1;
  std::string grid = "1,1,1";  // X[,Y[,Z]] workgroups, as typed
};

// Prints the device, what the harness guessed, each buffer after the run
// (size, words changed, its first words, guard bytes written) and a verdict
// line. Returns 0 when the run completed within its buffers, 1 when it timed
// out, crashed, lost the device or wrote out of bounds, 2 when the file could
// not be read, compiled or run, or an option is wrong (`klint: error: FILE:
// reason` on `err`).
int run_kernel(const std::string& path, const CompileOptions& compile_options, const RunOptions& options,
               std::ostream& out, std::ostream& err);

}  // namespace klint
