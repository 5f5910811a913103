#include "runner/isolate.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>

#include "analyzer/isolation.h"

namespace klint::runner {
namespace {

// The child's outcome as bytes: fixed-width integers in host order (both ends
// are the same binary), strings and byte vectors prefixed by their length.
class Writer {
 public:
  void u64(uint64_t value) { bytes(&value, sizeof value); }
  void text(const std::string& value) { blob(value.data(), value.size()); }
  void blob(const void* data, size_t size) {
    u64(size);
    bytes(data, size);
  }
  std::vector<uint8_t> out;

 private:
  void bytes(const void* data, size_t size) {
    auto* p = static_cast<const uint8_t*>(data);
    out.insert(out.end(), p, p + size);
  }
};

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& in) : in_(in) {}
  bool u64(uint64_t& value) { return bytes(&value, sizeof value); }
  template <typename T>
  bool number(T& value) {
    uint64_t wide;
    if (!u64(wide)) return false;
    value = static_cast<T>(wide);
    return true;
  }
  template <typename Container>
  bool blob(Container& value) {
    uint64_t size;
    if (!u64(size) || size > in_.size() - at_) return false;
    value.assign(in_.begin() + at_, in_.begin() + at_ + size);
    at_ += size;
    return true;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  bool bytes(void* data, size_t size) {
    if (size > in_.size() - at_) return false;
    std::memcpy(data, in_.data() + at_, size);
    at_ += size;
    return true;
  }
  const std::vector<uint8_t>& in_;
  size_t at_ = 0;
};

std::vector<uint8_t> serialize(const ExecuteOutcome& outcome) {
  Writer w;
  w.u64(static_cast<uint64_t>(outcome.status));
  w.text(outcome.error);
  const Execution& e = outcome.execution;
  w.text(e.device);
  w.u64(e.buffers.size());
  for (const BufferResult& b : e.buffers) {
    w.u64(b.set);
    w.u64(b.binding);
    w.text(b.name);
    w.blob(b.data.data(), b.data.size());
  }
  w.u64(e.guard_violations.size());
  for (const GuardViolation& g : e.guard_violations) {
    w.u64(g.set);
    w.u64(g.binding);
    w.text(g.name);
    w.u64(g.before);
    w.u64(static_cast<uint64_t>(g.first));
    w.u64(static_cast<uint64_t>(g.last));
    w.u64(g.changed);
  }
  w.u64(e.resources.size());
  for (const ResourceResult& resource : e.resources) {
    w.u64(resource.resource);
    w.u64(resource.data.size());
    for (const std::vector<uint8_t>& element : resource.data) w.blob(element.data(), element.size());
  }
  w.u64(e.dispatch_nanoseconds);
  w.u64(e.min_subgroup_size);
  w.u64(e.max_subgroup_size);
  return std::move(w.out);
}

std::optional<ExecuteOutcome> deserialize(const std::vector<uint8_t>& bytes) {
  Reader r(bytes);
  ExecuteOutcome outcome;
  Execution& e = outcome.execution;
  uint64_t status, count;
  if (!r.u64(status) || status > static_cast<uint64_t>(ExecuteStatus::DeviceLost) || !r.blob(outcome.error) ||
      !r.blob(e.device) || !r.u64(count)) {
    return std::nullopt;
  }
  outcome.status = static_cast<ExecuteStatus>(status);
  for (uint64_t i = 0; i < count; ++i) {
    BufferResult b;
    if (!r.number(b.set) || !r.number(b.binding) || !r.blob(b.name) || !r.blob(b.data)) return std::nullopt;
    e.buffers.push_back(std::move(b));
  }
  if (!r.u64(count)) return std::nullopt;
  for (uint64_t i = 0; i < count; ++i) {
    GuardViolation g;
    if (!r.number(g.set) || !r.number(g.binding) || !r.blob(g.name) || !r.number(g.before) || !r.number(g.first) ||
        !r.number(g.last) || !r.number(g.changed)) {
      return std::nullopt;
    }
    e.guard_violations.push_back(std::move(g));
  }
  if (!r.u64(count)) return std::nullopt;
  for (uint64_t i = 0; i < count; ++i) {
    ResourceResult resource;
    uint64_t elements;
    if (!r.number(resource.resource) || !r.u64(elements) || elements > bytes.size()) return std::nullopt;
    resource.data.resize(elements);
    for (std::vector<uint8_t>& element : resource.data) {
      if (!r.blob(element)) return std::nullopt;
    }
    e.resources.push_back(std::move(resource));
  }
  if (!r.u64(e.dispatch_nanoseconds) || !r.number(e.min_subgroup_size) || !r.number(e.max_subgroup_size) ||
      !r.done()) {
    return std::nullopt;
  }
  return outcome;
}

[[noreturn]] void child(int out, int ready, const std::vector<uint32_t>& spirv, const std::string& entry_point,
                        const Harness& harness, const IsolateOptions& options) {
  if (options.in_child) options.in_child();
  // lavapipe takes its subgroup size from LP_NATIVE_VECTOR_WIDTH, but Mesa's
  // on-disk shader cache does not key on it: a kernel compiled at one width
  // would run at that width under every other. Each width gets a cache of
  // its own, so that the runs of one kernel (every setup and every step of a
  // shrink compile the same module) compile it once per width; without a
  // folder for it, no cache.
  if (const char* width = std::getenv("LP_NATIVE_VECTOR_WIDTH")) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    std::error_code ec;
    const std::filesystem::path base = xdg && *xdg ? std::filesystem::path(xdg)
                                       : home && *home ? std::filesystem::path(home) / ".cache"
                                                       : std::filesystem::path();
    const std::filesystem::path folder = base / "klint" / (std::string("lavapipe-width-") + width);
    if (!base.empty() && std::string_view(width).find_first_not_of("0123456789") == std::string_view::npos &&
        (std::filesystem::create_directories(folder, ec), !ec) && std::filesystem::is_directory(folder, ec)) {
      setenv("MESA_SHADER_CACHE_DIR", folder.c_str(), 1);
    } else {
      setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    }
  }
  ExecuteOptions execute_options = options.execute;
  execute_options.before_dispatch = [ready] {
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = write(ready, &byte, 1);
    close(ready);
  };
  if (!isolation::write_frame(out, serialize(execute(spirv, entry_point, harness, execute_options)))) _exit(3);
  // _exit, not exit: the parent's atexit handlers and stdio buffers are not
  // the child's to run, nor LeakSanitizer's report of the driver's memory.
  _exit(0);
}

IsolatedRun verdict(Verdict verdict, std::string message) { return {verdict, std::move(message), {}}; }

// Waits until the child says its dispatch starts, or ends (closing the pipe
// unsaid), or the deadline passes: false only for the deadline.
bool wait_for_dispatch(int fd, isolation::Clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - isolation::Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return true;  // nothing to wait on: the frame's read decides
    if (n == 0) continue;
    char byte;
    const ssize_t got = read(fd, &byte, 1);
    if (got < 0 && errno == EINTR) continue;
    return true;
  }
}

}  // namespace

IsolatedRun run_isolated(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                         const IsolateOptions& options) {
  int fds[2];
  int ready[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return verdict(Verdict::Failed, fmt::format("pipe: {}", std::strerror(errno)));
  if (pipe2(ready, O_CLOEXEC) != 0) {
    close(fds[0]);
    close(fds[1]);
    return verdict(Verdict::Failed, fmt::format("pipe: {}", std::strerror(errno)));
  }
  // What the parent has buffered must not be written twice.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const double pipeline_seconds = std::max(options.timeout_seconds, kPipelineSeconds);
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {fds[0], fds[1], ready[0], ready[1]}) close(fd);
    return verdict(Verdict::Failed, fmt::format("fork: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    close(ready[0]);
    child(fds[1], ready[1], spirv, entry_point, harness, options);
  }
  close(fds[1]);
  close(ready[1]);

  // The pipeline first, on its own clock; then the dispatch on --timeout's.
  const bool dispatching = wait_for_dispatch(ready[0], isolation::deadline_in(pipeline_seconds));
  close(ready[0]);
  const isolation::Clock::time_point deadline = isolation::deadline_in(options.timeout_seconds);
  // A child that crashes or exits early closes the pipe: its status says why.
  isolation::Frame frame = dispatching ? isolation::read_frame(fds[0], deadline) : isolation::Frame{};
  close(fds[0]);
  std::optional<int> status = !dispatching || frame.end == isolation::ReadEnd::TimedOut
                                  ? std::nullopt
                                  : isolation::wait_until(pid, deadline);
  if (!status) {
    isolation::kill_and_reap(pid);
    return verdict(Verdict::TimedOut, dispatching ? fmt::format("timed out after {:g} s", options.timeout_seconds)
                                                  : fmt::format("timed out creating the pipeline after {:g} s",
                                                                pipeline_seconds));
  }
  if (const int signal = isolation::ending_signal(*status)) {
    return verdict(Verdict::Crashed, fmt::format("crashed (signal {}, {})", signal, strsignal(signal)));
  }
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    return verdict(Verdict::Failed, fmt::format("the child exited with status {}", WEXITSTATUS(*status)));
  }
  if (frame.end != isolation::ReadEnd::Complete) return verdict(Verdict::Failed, "the child's result is truncated");
  const std::vector<uint8_t>& bytes = frame.bytes;
  std::optional<ExecuteOutcome> outcome = deserialize(bytes);
  if (!outcome) return verdict(Verdict::Failed, "the child's result is truncated");
  switch (outcome->status) {
    case ExecuteStatus::Completed:
      return {Verdict::Completed, "completed", std::move(outcome->execution)};
    case ExecuteStatus::DeviceLost:
      return verdict(Verdict::DeviceLost, "device lost: " + outcome->error);
    case ExecuteStatus::Failed:
      break;
  }
  return verdict(Verdict::Failed, outcome->error);
}

}  // namespace klint::runner
