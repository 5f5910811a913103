// What klint needs to run work in a child process that may crash or hang: a
// glslang front end that crashes on malformed input (the compile worker), a
// Vulkan driver that hangs on a kernel (the runner). Frames on a socket or
// pipe, reads with a deadline, and waiting for, killing and reaping a child so
// that none outlives its caller.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace klint::isolation {

using Clock = std::chrono::steady_clock;

// A deadline `seconds` from now.
Clock::time_point deadline_in(double seconds);

// One message: an 8-byte length in host order (both ends are the same
// binary), then that many bytes. A dead peer is an error, not SIGPIPE.
bool write_frame(int fd, const std::vector<uint8_t>& bytes);

// Cancelled: the calling thread was asked to stop (analyzer/cancel.h) while
// it waited for a frame with a deadline.
enum class ReadEnd { Complete, Closed, TimedOut, Error, Cancelled };
struct Frame {
  ReadEnd end = ReadEnd::Error;
  std::vector<uint8_t> bytes;  // when Complete
};
// The next frame, waiting until `deadline` (none: as long as it takes).
Frame read_frame(int fd, std::optional<Clock::time_point> deadline);

// The child's exit status once it has ended, nullopt when it still runs at
// the deadline.
std::optional<int> wait_until(pid_t pid, Clock::time_point deadline);
// Kills the child (SIGKILL) and reaps it; its exit status.
int kill_and_reap(pid_t pid);
// Reaps a child that is ending by itself; its exit status.
int reap(pid_t pid);

// An exit status in words: "exited with status 1", "signal 11, Segmentation fault".
std::string describe_status(int status);
// The signal that ended the child, 0 when it exited.
int ending_signal(int status);

}  // namespace klint::isolation
