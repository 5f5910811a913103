#include "analyzer/isolation.h"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "analyzer/cancel.h"

namespace klint::isolation {

namespace {

// A frame larger than this is not one klint wrote.
constexpr uint64_t kMaxFrameBytes = uint64_t{1} << 32;

bool write_all(int fd, const void* data, size_t size) {
  bool socket = true;
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    // send() with MSG_NOSIGNAL on sockets; write() on pipes, whose writer is
    // the child, which ends with its parent's reader anyway.
    ssize_t n = socket ? send(fd, p, size, MSG_NOSIGNAL) : write(fd, p, size);
    if (n < 0 && errno == ENOTSOCK) {
      socket = false;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Reads exactly `size` bytes.
ReadEnd read_all(int fd, void* data, size_t size, std::optional<Clock::time_point> deadline) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    if (deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) return ReadEnd::TimedOut;
      if (cancel::requested()) return ReadEnd::Cancelled;
      // In slices, to see a request to stop within one.
      constexpr long long kSliceMs = 50;
      pollfd waiting{fd, POLLIN, 0};
      const int ready = poll(&waiting, 1, static_cast<int>(std::min<long long>(left, kSliceMs)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) continue;  // the deadline is checked again
      if (ready < 0) return ReadEnd::Error;
    }
    const ssize_t n = read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) return ReadEnd::Closed;
    if (n < 0) return ReadEnd::Error;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return ReadEnd::Complete;
}

}  // namespace

Clock::time_point deadline_in(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

bool write_frame(int fd, const std::vector<uint8_t>& bytes) {
  const uint64_t size = bytes.size();
  return write_all(fd, &size, sizeof size) && write_all(fd, bytes.data(), bytes.size());
}

Frame read_frame(int fd, std::optional<Clock::time_point> deadline) {
  Frame frame;
  uint64_t size = 0;
  frame.end = read_all(fd, &size, sizeof size, deadline);
  if (frame.end != ReadEnd::Complete) return frame;
  if (size > kMaxFrameBytes) return Frame{ReadEnd::Error, {}};
  frame.bytes.resize(size);
  frame.end = read_all(fd, frame.bytes.data(), frame.bytes.size(), deadline);
  // A frame cut short is the peer's end, not a message.
  if (frame.end == ReadEnd::Closed) frame.bytes.clear();
  return frame;
}

std::optional<int> wait_until(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return 0;
    if (Clock::now() >= deadline) return std::nullopt;
    usleep(2000);
  }
}

int reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int kill_and_reap(pid_t pid) {
  kill(pid, SIGKILL);
  return reap(pid);
}

int ending_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return fmt::format("signal {}, {}", WTERMSIG(status), strsignal(WTERMSIG(status)));
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  return "ended";
}

}  // namespace klint::isolation
