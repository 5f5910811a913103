#include "runner/isolate.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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

extern char** environ;

namespace klint::runner {
namespace {

RunIsolation& run_isolation() {
  static RunIsolation isolation;
  return isolation;
}

// The run and the child's outcome as bytes: fixed-width integers in host order
// (both ends are the same binary), strings and byte vectors prefixed by their
// length.
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

// What a worker needs of a run: the kernel, the harness (not its guesses
// nor its shape, which only reports read) and what the executor is told.
struct Request {
  std::vector<uint32_t> spirv;
  std::string entry_point;
  Harness harness;
  ExecuteOptions execute;
};

std::vector<uint8_t> serialize(const std::vector<uint32_t>& spirv, const std::string& entry_point,
                               const Harness& harness, const ExecuteOptions& execute) {
  Writer w;
  w.blob(spirv.data(), spirv.size() * sizeof(uint32_t));
  w.text(entry_point);
  w.u64(execute.device_index.has_value());
  w.u64(execute.device_index.value_or(0));
  w.u64(execute.required_subgroup_size);
  w.u64(static_cast<uint64_t>(execute.target_env));
  w.u64(execute.validated);
  w.u64(execute.read_back_unwritten);
  w.u64(execute.capture_statistics);
  w.u64(harness.buffers.size());
  for (const BufferSpec& b : harness.buffers) {
    w.u64(b.set);
    w.u64(b.binding);
    w.u64(static_cast<uint64_t>(b.kind));
    w.text(b.name);
    w.blob(b.data.data(), b.data.size());
    w.u64(b.sentinel);
    w.u64(b.written);
  }
  w.u64(harness.resources.size());
  for (const ResourceSpec& r : harness.resources) {
    for (uint64_t value : {uint64_t{r.set}, uint64_t{r.binding}, static_cast<uint64_t>(r.kind), uint64_t{r.count},
                           uint64_t{r.format}, uint64_t{r.texel_bytes}, uint64_t{r.view_type}, uint64_t{r.extent[0]},
                           uint64_t{r.extent[1]}, uint64_t{r.extent[2]}, uint64_t{r.layers}, uint64_t{r.sentinel},
                           uint64_t{r.written}, static_cast<uint64_t>(r.address_buffer), uint64_t{r.address_offset}}) {
      w.u64(value);
    }
    w.text(r.name);
    w.text(r.format_name);
    w.u64(r.data.size());
    for (const std::vector<uint8_t>& element : r.data) w.blob(element.data(), element.size());
  }
  w.blob(harness.push_constants.data(), harness.push_constants.size());
  w.u64(harness.specialization.size());
  for (const SpecializationValue& v : harness.specialization) {
    w.u64(v.id);
    w.blob(v.bytes.data(), v.bytes.size());
  }
  for (uint32_t n : harness.grid) w.u64(n);
  return std::move(w.out);
}

std::optional<Request> deserialize_request(const std::vector<uint8_t>& bytes) {
  Reader r(bytes);
  Request request;
  std::vector<uint8_t> words;
  uint64_t has_device, device, count;
  ExecuteOptions& e = request.execute;
  if (!r.blob(words) || words.size() % sizeof(uint32_t) != 0 || !r.blob(request.entry_point) || !r.u64(has_device) ||
      !r.u64(device) || !r.number(e.required_subgroup_size) || !r.number(e.target_env) || !r.number(e.validated) ||
      !r.number(e.read_back_unwritten) || !r.number(e.capture_statistics) || !r.u64(count)) {
    return std::nullopt;
  }
  request.spirv.resize(words.size() / sizeof(uint32_t));
  if (!words.empty()) std::memcpy(request.spirv.data(), words.data(), words.size());
  if (has_device) e.device_index = static_cast<uint32_t>(device);
  Harness& h = request.harness;
  for (uint64_t i = 0; i < count; ++i) {
    BufferSpec b;
    if (!r.number(b.set) || !r.number(b.binding) || !r.number(b.kind) || !r.blob(b.name) || !r.blob(b.data) ||
        !r.number(b.sentinel) || !r.number(b.written)) {
      return std::nullopt;
    }
    h.buffers.push_back(std::move(b));
  }
  if (!r.u64(count)) return std::nullopt;
  for (uint64_t i = 0; i < count; ++i) {
    ResourceSpec s;
    uint64_t elements;
    if (!r.number(s.set) || !r.number(s.binding) || !r.number(s.kind) || !r.number(s.count) || !r.number(s.format) ||
        !r.number(s.texel_bytes) || !r.number(s.view_type) || !r.number(s.extent[0]) || !r.number(s.extent[1]) ||
        !r.number(s.extent[2]) || !r.number(s.layers) || !r.number(s.sentinel) || !r.number(s.written) ||
        !r.number(s.address_buffer) || !r.number(s.address_offset) || !r.blob(s.name) || !r.blob(s.format_name) ||
        !r.u64(elements) || elements > bytes.size()) {
      return std::nullopt;
    }
    s.data.resize(elements);
    for (std::vector<uint8_t>& element : s.data) {
      if (!r.blob(element)) return std::nullopt;
    }
    h.resources.push_back(std::move(s));
  }
  if (!r.blob(h.push_constants) || !r.u64(count)) return std::nullopt;
  for (uint64_t i = 0; i < count; ++i) {
    SpecializationValue v;
    if (!r.number(v.id) || !r.blob(v.bytes)) return std::nullopt;
    h.specialization.push_back(std::move(v));
  }
  for (uint32_t& n : h.grid) {
    if (!r.number(n)) return std::nullopt;
  }
  if (!r.done()) return std::nullopt;
  return request;
}

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
  w.u64(e.statistics_offered);
  w.u64(e.statistics.size());
  for (const PipelineStatistic& s : e.statistics) {
    w.text(s.executable);
    w.text(s.name);
    w.text(s.description);
    w.blob(&s.value, sizeof s.value);
    w.text(s.text);
  }
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
      !r.number(e.statistics_offered) || !r.u64(count) || count > bytes.size()) {
    return std::nullopt;
  }
  for (uint64_t i = 0; i < count; ++i) {
    PipelineStatistic s;
    std::string value;
    if (!r.blob(s.executable) || !r.blob(s.name) || !r.blob(s.description) || !r.blob(value) ||
        value.size() != sizeof s.value || !r.blob(s.text)) {
      return std::nullopt;
    }
    std::memcpy(&s.value, value.data(), sizeof s.value);
    e.statistics.push_back(std::move(s));
  }
  if (!r.done()) {
    return std::nullopt;
  }
  return outcome;
}

// lavapipe takes its subgroup size from LP_NATIVE_VECTOR_WIDTH, but Mesa's
// on-disk shader cache does not key on it: a kernel compiled at one width
// would run at that width under every other. Each width gets a cache of its
// own, so that the runs of one kernel (every setup and every step of a shrink
// compile the same module) compile it once per width; without a folder for
// it, no cache.
void keep_cache_per_width() {
  const char* width = std::getenv("LP_NATIVE_VECTOR_WIDTH");
  if (!width) return;
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

// The child's part, forked or a worker: says on `ready` when the dispatch
// starts and writes the outcome on `out`.
[[noreturn]] void execute_and_answer(int out, int ready, const std::vector<uint32_t>& spirv,
                                     const std::string& entry_point, const Harness& harness, ExecuteOptions options) {
  keep_cache_per_width();
  options.before_dispatch = [ready] {
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = write(ready, &byte, 1);
    close(ready);
  };
  if (!isolation::write_frame(out, serialize(execute(spirv, entry_point, harness, options)))) _exit(3);
  // _exit, not exit: the parent's atexit handlers and stdio buffers are not
  // the child's to run, nor LeakSanitizer's report of the driver's memory.
  _exit(0);
}

// A descriptor of at least 10, so that placing the worker's on 3, 4 and 5
// overwrites none of them.
int above_standard(int fd) {
  if (fd >= 10) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  return moved;
}

// The run, one frame, written to an anonymous file and read from its start.
int request_file(const std::vector<uint8_t>& bytes, std::string* error) {
  const int fd = memfd_create("klint-run", MFD_CLOEXEC);
  if (fd < 0) {
    *error = fmt::format("memfd_create: {}", std::strerror(errno));
    return -1;
  }
  if (!isolation::write_frame(fd, bytes)) {
    *error = fmt::format("writing the run: {}", std::strerror(errno));
    close(fd);
    return -1;
  }
  lseek(fd, 0, SEEK_SET);
  return above_standard(fd);
}

// This process's environment with `changes` made.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& changes) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    if (std::none_of(changes.begin(), changes.end(), [&](const auto& c) { return c.first == name; })) {
      out.emplace_back(entry);
    }
  }
  for (const auto& [name, value] : changes) out.push_back(name + "=" + value);
  return out;
}

// Starts the worker with the run on 3 and the pipes' write ends on 4 and 5.
pid_t spawn_worker(const RunIsolation& isolation, const std::vector<uint8_t>& request, int out, int ready,
                   const IsolateOptions& options, std::string* error) {
  const int file = request_file(request, error);
  if (file < 0) return -1;
  std::vector<std::string> environment = environment_with(options.environment);
  std::vector<char*> argv, envp;
  for (const std::string& arg : isolation.command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, file, 3);  // dup2 clears FD_CLOEXEC
  posix_spawn_file_actions_adddup2(&actions, out, 4);
  posix_spawn_file_actions_adddup2(&actions, ready, 5);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);  // stray prints
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(file);
  if (spawned != 0) {
    *error = fmt::format("cannot start the run worker {}: {}", isolation.command[0], std::strerror(spawned));
    return -1;
  }
  return pid;
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
  // Pipes above the standard descriptors, which a worker's take.
  for (int* fd : {&fds[0], &fds[1], &ready[0], &ready[1]}) *fd = above_standard(*fd);
  if (std::min({fds[0], fds[1], ready[0], ready[1]}) < 0) {
    for (int fd : {fds[0], fds[1], ready[0], ready[1]}) close(fd);
    return verdict(Verdict::Failed, fmt::format("fcntl: {}", std::strerror(errno)));
  }
  const double pipeline_seconds = std::max(options.timeout_seconds, kPipelineSeconds);
  pid_t pid = -1;
  if (!run_isolation().command.empty() && !options.in_child) {
    std::string error;
    pid = spawn_worker(run_isolation(), serialize(spirv, entry_point, harness, options.execute), fds[1], ready[1],
                       options, &error);
    if (pid < 0) {
      for (int fd : {fds[0], fds[1], ready[0], ready[1]}) close(fd);
      return verdict(Verdict::Failed, error);
    }
  } else {
    // What the parent has buffered must not be written twice.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    pid = fork();
    if (pid < 0) {
      for (int fd : {fds[0], fds[1], ready[0], ready[1]}) close(fd);
      return verdict(Verdict::Failed, fmt::format("fork: {}", std::strerror(errno)));
    }
    if (pid == 0) {
      close(fds[0]);
      close(ready[0]);
      if (options.in_child) options.in_child();
      for (const auto& [name, value] : options.environment) setenv(name.c_str(), value.c_str(), 1);
      execute_and_answer(fds[1], ready[1], spirv, entry_point, harness, options.execute);
    }
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

void set_run_isolation(RunIsolation isolation) { run_isolation() = std::move(isolation); }

int run_isolated_worker(int request, int out, int ready) {
  // Killed with the thread that started it, which waits for it: a klint that
  // is killed leaves no worker running a kernel behind.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  isolation::Frame frame = isolation::read_frame(request, std::nullopt);
  close(request);
  if (frame.end != isolation::ReadEnd::Complete) return 4;
  std::vector<uint8_t>& bytes = frame.bytes;
  std::optional<Request> run = deserialize_request(bytes);
  if (!run) return 4;
  bytes = {};
  execute_and_answer(out, ready, run->spirv, run->entry_point, run->harness, run->execute);
}

}  // namespace klint::runner
