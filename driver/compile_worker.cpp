#include "driver/compile_worker.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "driver/report_json.h"

extern char** environ;

namespace klint {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// Frames on the socket: an 8-byte length, then that many bytes of CBOR.
// CBOR rather than JSON text: a shader's bytes need not be UTF-8, and CBOR
// carries strings as they are.
bool write_all(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = send(fd, p, size, MSG_NOSIGNAL);  // a dead worker is an error, not SIGPIPE
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool write_frame(int fd, const json& message) {
  const std::vector<uint8_t> bytes = json::to_cbor(message);
  const uint64_t size = bytes.size();
  return write_all(fd, &size, sizeof size) && write_all(fd, bytes.data(), bytes.size());
}

// Reads exactly `size` bytes before `deadline` (none: wait as long as it
// takes). False at end of file, on an error or past the deadline (`timed_out`).
bool read_all(int fd, void* data, size_t size, std::optional<Clock::time_point> deadline, bool* timed_out) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    if (deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) {
        *timed_out = true;
        return false;
      }
      pollfd waiting{fd, POLLIN, 0};
      const int ready = poll(&waiting, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) continue;  // the deadline is checked again
      if (ready < 0) return false;
    }
    const ssize_t n = read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// A frame larger than this is not one klint wrote.
constexpr uint64_t kMaxFrameBytes = uint64_t{1} << 32;

std::optional<json> read_frame(int fd, std::optional<Clock::time_point> deadline, bool* timed_out) {
  uint64_t size = 0;
  if (!read_all(fd, &size, sizeof size, deadline, timed_out) || size > kMaxFrameBytes) return std::nullopt;
  std::vector<uint8_t> bytes(size);
  if (!read_all(fd, bytes.data(), bytes.size(), deadline, timed_out)) return std::nullopt;
  json message = json::from_cbor(bytes, true, false);
  if (message.is_discarded()) return std::nullopt;
  return message;
}

json request_json(const std::string& path, const std::string& text, Language language, const CompileOptions& options) {
  return json{{"path", path},
              {"text", text},
              {"language", static_cast<int>(language)},
              {"include_dirs", options.include_dirs},
              {"defines", options.defines},
              {"target_env", static_cast<int>(options.target_env)},
              {"force_compute", options.force_compute},
              {"entry_point", options.entry_point}};
}

json response_json(const std::string& path, const CompiledShader& compiled) {
  FileReport report{path, compiled.diagnostics, {}, {}, compiled.files};
  std::vector<uint8_t> spirv(compiled.spirv.size() * 4);
  if (!spirv.empty()) std::memcpy(spirv.data(), compiled.spirv.data(), spirv.size());
  json response{{"ok", compiled.ok},
                {"spirv", json::binary(std::move(spirv))},
                {"report", report_to_json(report)},
                {"assembly_lines", compiled.assembly_lines}};
  if (compiled.non_compute_stage) response["non_compute_stage"] = *compiled.non_compute_stage;
  return response;
}

std::optional<CompiledShader> compiled_from_json(const json& response, std::string* error) {
  try {
    CompiledShader compiled;
    compiled.ok = response.at("ok").get<bool>();
    const std::vector<uint8_t>& spirv = response.at("spirv").get_binary();
    compiled.spirv.resize(spirv.size() / 4);
    if (!compiled.spirv.empty()) std::memcpy(compiled.spirv.data(), spirv.data(), compiled.spirv.size() * 4);
    std::optional<FileReport> report = report_from_json(response.at("report"), error);
    if (!report) return std::nullopt;
    compiled.diagnostics = std::move(report->diagnostics);
    compiled.files = std::move(report->files);
    compiled.assembly_lines = response.at("assembly_lines").get<std::vector<uint32_t>>();
    if (response.contains("non_compute_stage")) compiled.non_compute_stage = response["non_compute_stage"];
    return compiled;
  } catch (const json::exception& e) {
    *error = e.what();
    return std::nullopt;
  }
}

struct Worker {
  pid_t pid = -1;
  int fd = -1;
};

class Pool {
 public:
  // Idle workers of the previous command end here: a worker is reused only
  // for the command it was started with.
  void configure(CompileIsolation isolation) {
    std::vector<Worker> idle;
    {
      std::lock_guard lock(mutex_);
      isolation_ = std::move(isolation);
      idle.swap(idle_);
    }
    std::string how;
    for (const Worker& worker : idle) discard(worker, true, &how);
  }
  const CompileIsolation& isolation() const { return isolation_; }

  // An idle worker, or a new one; nullopt with `error` when none can start.
  std::optional<Worker> take(std::string* error) {
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        Worker worker = idle_.back();
        idle_.pop_back();
        return worker;
      }
    }
    return spawn(error);
  }

  void give_back(Worker worker) {
    std::lock_guard lock(mutex_);
    idle_.push_back(worker);
  }

  // Ends a worker that failed. Returns the signal that killed it, 0 when it
  // exited; `how` says which ("exited with status 1").
  static int discard(Worker worker, bool kill_it, std::string* how) {
    close(worker.fd);
    if (kill_it) kill(worker.pid, SIGKILL);
    int status = 0;
    while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
      *how = fmt::format("signal {}, {}", WTERMSIG(status), strsignal(WTERMSIG(status)));
      return WTERMSIG(status);
    }
    *how = WIFEXITED(status) ? fmt::format("exited with status {}", WEXITSTATUS(status)) : "ended";
    return 0;
  }

 private:
  std::optional<Worker> spawn(std::string* error) {
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
      *error = fmt::format("cannot create a socket for the compiler worker: {}", std::strerror(errno));
      return std::nullopt;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 3);                // dup2 clears FD_CLOEXEC
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);  // stray prints
    std::vector<char*> argv;
    for (const std::string& arg : isolation_.command) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(sockets[1]);
    if (spawned != 0) {
      close(sockets[0]);
      *error = fmt::format("cannot start the compiler worker {}: {}", isolation_.command[0], std::strerror(spawned));
      return std::nullopt;
    }
    return Worker{pid, sockets[0]};
  }

  CompileIsolation isolation_;
  std::mutex mutex_;
  std::vector<Worker> idle_;
};

Pool& pool() {
  static Pool* instance = new Pool;  // never destroyed: workers end when their socket closes at exit
  return *instance;
}

CompiledShader failed(const std::string& path, std::string message) {
  CompiledShader compiled;
  compiled.files = {path};
  compiled.diagnostics.push_back(
      Diagnostic{&kCompileError, Severity::Error, std::move(message), Location{path}, {}, {}});
  return compiled;
}

}  // namespace

void set_compile_isolation(CompileIsolation isolation) { pool().configure(std::move(isolation)); }

CompiledShader compile_isolated(const std::string& path, const std::string& text, Language language,
                                const CompileOptions& options, SourceCache& sources) {
  const CompileIsolation& isolation = pool().isolation();
  if (isolation.command.empty() || (language != Language::Glsl && language != Language::Hlsl)) {
    return compile(path, text, language, options, sources);
  }
  std::string error;
  std::optional<Worker> worker = pool().take(&error);
  if (!worker) return failed(path, error);
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(isolation.timeout_seconds * 1000));
  bool timed_out = false;
  std::optional<json> response;
  if (write_frame(worker->fd, request_json(path, text, language, options))) {
    response = read_frame(worker->fd, deadline, &timed_out);
  }
  if (!response) {
    // Killed in any case: one that closed its end but runs on is not waited for.
    std::string how;
    const int signal = Pool::discard(*worker, true, &how);
    const char* front_end = language == Language::Hlsl ? "HLSL" : "GLSL";
    if (timed_out) {
      return failed(path, fmt::format("glslang's {} front end did not finish compiling this file within {:g} s",
                                      front_end, isolation.timeout_seconds));
    }
    if (signal != 0 && signal != SIGKILL) {
      return failed(path, fmt::format("glslang's {} front end crashed compiling this file ({}); klint cannot lint it",
                                      front_end, how));
    }
    return failed(path, fmt::format("the compiler worker ended without an answer ({})", how));
  }
  std::optional<CompiledShader> compiled = compiled_from_json(*response, &error);
  if (!compiled) {
    std::string how;
    Pool::discard(*worker, true, &how);
    return failed(path, "the compiler worker's answer is not one klint reads: " + error);
  }
  pool().give_back(*worker);
  sources.add(path, text);
  for (const std::string& file : compiled->files) sources.get(file);
  return std::move(*compiled);
}

int run_compile_worker(int fd) {
  while (true) {
    bool timed_out = false;
    std::optional<json> request = read_frame(fd, std::nullopt, &timed_out);
    if (!request) return 0;  // klint closed the socket: done
    CompiledShader compiled;
    std::string path;
    try {
      path = request->at("path").get<std::string>();
      CompileOptions options;
      options.include_dirs = request->at("include_dirs").get<std::vector<std::string>>();
      options.defines = request->at("defines").get<std::vector<std::pair<std::string, std::string>>>();
      options.target_env = static_cast<TargetEnv>(request->at("target_env").get<int>());
      options.force_compute = request->at("force_compute").get<bool>();
      options.entry_point = request->at("entry_point").get<std::string>();
      SourceCache sources;
      compiled = compile(path, request->at("text").get<std::string>(),
                         static_cast<Language>(request->at("language").get<int>()), options, sources);
    } catch (const json::exception& e) {
      compiled = failed(path, std::string("a compile request klint cannot read: ") + e.what());
    }
    if (!write_frame(fd, response_json(path, compiled))) return 1;
  }
}

}  // namespace klint
