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

#include "analyzer/isolation.h"
#include "rules/rule.h"

extern char** environ;

namespace klint {
namespace {

using isolation::Clock;
using nlohmann::json;

// The worker's messages, CBOR in isolation frames: CBOR rather than JSON
// text, since a shader's bytes need not be UTF-8. Both ends are one binary,
// but a worker left from an older klint (a long-running editor session across
// an upgrade) must be told apart, not misread.
constexpr int kProtocolVersion = 2;

bool write_message(int fd, const json& message) { return isolation::write_frame(fd, json::to_cbor(message)); }

std::optional<json> read_message(int fd, std::optional<Clock::time_point> deadline, isolation::ReadEnd* end) {
  isolation::Frame frame = isolation::read_frame(fd, deadline);
  *end = frame.end;
  if (frame.end != isolation::ReadEnd::Complete) return std::nullopt;
  json message = json::from_cbor(frame.bytes, true, false);
  if (message.is_discarded()) return std::nullopt;
  return message;
}

json request_json(const std::string& path, const std::string& text, Language language, const CompileOptions& options) {
  return json{{"version", kProtocolVersion},
              {"path", path},
              {"text", text},
              {"language", static_cast<int>(language)},
              {"include_dirs", options.include_dirs},
              {"defines", options.defines},
              {"target_env", options.target_env ? static_cast<int>(*options.target_env) : -1},
              {"force_compute", options.force_compute},
              {"entry_point", options.entry_point}};
}

json location_json(const Location& location) {
  return json{{"file", location.file},       {"line", location.line},       {"column", location.column},
              {"end_column", location.end_column}, {"excerpt", location.excerpt}, {"token", location.token}};
}

Location location_from_json(const json& value) {
  Location location;
  location.file = value.at("file").get<std::string>();
  location.line = value.at("line").get<uint32_t>();
  location.column = value.at("column").get<uint32_t>();
  location.end_column = value.at("end_column").get<uint32_t>();
  location.excerpt = value.at("excerpt").get<std::string>();
  location.token = value.at("token").get<std::string>();
  return location;
}

// What compiling reports: compile errors and undecodable SPIR-V.
const RuleInfo* front_end_rule(const std::string& id) {
  const RuleInfo* rule = RuleRegistry::find(id);
  const bool front_end = rule == &kCompileError || rule == &kInvalidSpirv || rule == &kInternalError;
  return front_end ? rule : nullptr;
}

// The answer, with the text of every file the shader included as the worker
// read it: excerpts show what was compiled, not what is on disk later.
json response_json(const CompiledShader& compiled, SourceCache& sources) {
  std::vector<uint8_t> spirv(compiled.spirv.size() * 4);
  if (!spirv.empty()) std::memcpy(spirv.data(), compiled.spirv.data(), spirv.size());
  json diagnostics = json::array();
  for (const Diagnostic& d : compiled.diagnostics) {
    json notes = json::array();
    for (const Note& note : d.notes) notes.push_back({{"location", location_json(note.location)}, {"message", note.message}});
    diagnostics.push_back({{"rule", d.rule ? std::string(d.rule->id) : ""},
                           {"severity", static_cast<int>(d.severity)},
                           {"message", d.message},
                           {"location", location_json(d.location)},
                           {"notes", std::move(notes)},
                           {"fix_title", d.fix_title}});
  }
  json files = json::array();
  for (const std::string& path : compiled.files) {
    const SourceFile* file = sources.get(path);
    files.push_back({{"path", path}, {"text", file ? json(file->text()) : json(nullptr)}});
  }
  json includes = json::array();
  for (const Inclusion& inclusion : compiled.includes) {
    includes.push_back({{"includer", inclusion.includer}, {"name", inclusion.name}, {"path", inclusion.path}});
  }
  json response{{"version", kProtocolVersion},
                {"ok", compiled.ok},
                {"spirv", json::binary(std::move(spirv))},
                {"diagnostics", std::move(diagnostics)},
                {"files", std::move(files)},
                {"includes", std::move(includes)},
                {"assembly_lines", compiled.assembly_lines}};
  if (compiled.non_compute_stage) response["non_compute_stage"] = *compiled.non_compute_stage;
  if (!compiled.workgroup_size_declared) response["workgroup_size_declared"] = false;
  return response;
}

std::optional<CompiledShader> compiled_from_json(const json& response, SourceCache& sources, std::string* error) {
  try {
    if (response.at("version").get<int>() != kProtocolVersion) {
      *error = fmt::format("it speaks version {} of the protocol, not {}", response.at("version").get<int>(),
                           kProtocolVersion);
      return std::nullopt;
    }
    CompiledShader compiled;
    compiled.ok = response.at("ok").get<bool>();
    const std::vector<uint8_t>& spirv = response.at("spirv").get_binary();
    compiled.spirv.resize(spirv.size() / 4);
    if (!compiled.spirv.empty()) std::memcpy(compiled.spirv.data(), spirv.data(), compiled.spirv.size() * 4);
    for (const json& d : response.at("diagnostics")) {
      Diagnostic diagnostic;
      diagnostic.rule = front_end_rule(d.at("rule").get<std::string>());
      if (!diagnostic.rule) {
        *error = "a finding of unknown rule '" + d.at("rule").get<std::string>() + "'";
        return std::nullopt;
      }
      diagnostic.severity = static_cast<Severity>(d.at("severity").get<int>());
      diagnostic.message = d.at("message").get<std::string>();
      diagnostic.location = location_from_json(d.at("location"));
      for (const json& note : d.at("notes")) {
        diagnostic.notes.push_back({location_from_json(note.at("location")), note.at("message").get<std::string>()});
      }
      diagnostic.fix_title = d.at("fix_title").get<std::string>();
      compiled.diagnostics.push_back(std::move(diagnostic));
    }
    for (const json& file : response.at("files")) {
      compiled.files.push_back(file.at("path").get<std::string>());
      if (!file.at("text").is_null()) sources.add(compiled.files.back(), file.at("text").get<std::string>());
    }
    for (const json& inclusion : response.at("includes")) {
      compiled.includes.push_back({inclusion.at("includer").get<std::string>(), inclusion.at("name").get<std::string>(),
                                   inclusion.at("path").get<std::string>()});
    }
    compiled.assembly_lines = response.at("assembly_lines").get<std::vector<uint32_t>>();
    if (response.contains("non_compute_stage")) compiled.non_compute_stage = response["non_compute_stage"];
    compiled.workgroup_size_declared = response.value("workgroup_size_declared", true);
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
  const CompileIsolation& config() const { return isolation_; }

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

  // Ends a worker that failed. Returns the signal that ended it, 0 when it
  // exited; `how` says which ("exited with status 1").
  static int discard(Worker worker, bool kill_it, std::string* how) {
    close(worker.fd);
    const int status = kill_it ? isolation::kill_and_reap(worker.pid) : isolation::reap(worker.pid);
    *how = isolation::describe_status(status);
    return isolation::ending_signal(status);
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
  const CompileIsolation& config = pool().config();
  if (config.command.empty() || (language != Language::Glsl && language != Language::Hlsl)) {
    return compile(path, text, language, options, sources);
  }
  std::string error;
  std::optional<Worker> worker = pool().take(&error);
  if (!worker) return failed(path, error);
  isolation::ReadEnd end = isolation::ReadEnd::Error;
  std::optional<json> response;
  if (write_message(worker->fd, request_json(path, text, language, options))) {
    response = read_message(worker->fd, isolation::deadline_in(config.timeout_seconds), &end);
  }
  if (!response) {
    // Killed in any case: one that closed its end but runs on is not waited for.
    std::string how;
    const int signal = Pool::discard(*worker, true, &how);
    const char* front_end = language == Language::Hlsl ? "HLSL" : "GLSL";
    if (end == isolation::ReadEnd::Cancelled) return failed(path, "the lint was cancelled while glslang compiled");
    if (end == isolation::ReadEnd::TimedOut) {
      return failed(path, fmt::format("glslang's {} front end did not finish compiling this file within {:g} s",
                                      front_end, config.timeout_seconds));
    }
    if (signal != 0 && signal != SIGKILL) {
      return failed(path, fmt::format("glslang's {} front end crashed compiling this file ({}); klint cannot lint it",
                                      front_end, how));
    }
    return failed(path, fmt::format("the compiler worker ended without an answer ({})", how));
  }
  std::optional<CompiledShader> compiled = compiled_from_json(*response, sources, &error);
  if (!compiled) {
    std::string how;
    Pool::discard(*worker, true, &how);
    return failed(path, "the compiler worker's answer is not one klint reads: " + error);
  }
  pool().give_back(*worker);
  sources.add(path, text);
  return std::move(*compiled);
}

int run_compile_worker(int fd) {
  while (true) {
    isolation::ReadEnd end = isolation::ReadEnd::Error;
    std::optional<json> request = read_message(fd, std::nullopt, &end);
    if (!request) return 0;  // klint closed the socket: done
    CompiledShader compiled;
    SourceCache sources;
    std::string path;
    try {
      path = request->at("path").get<std::string>();
      if (request->at("version").get<int>() != kProtocolVersion) {
        throw std::runtime_error(fmt::format("version {} of the protocol, not {}", request->at("version").get<int>(),
                                             kProtocolVersion));
      }
      CompileOptions options;
      options.include_dirs = request->at("include_dirs").get<std::vector<std::string>>();
      options.defines = request->at("defines").get<std::vector<std::pair<std::string, std::string>>>();
      if (const int env = request->at("target_env").get<int>(); env >= 0) {
        options.target_env = static_cast<TargetEnv>(env);
      }
      options.force_compute = request->at("force_compute").get<bool>();
      options.entry_point = request->at("entry_point").get<std::string>();
      compiled = compile(path, request->at("text").get<std::string>(),
                         static_cast<Language>(request->at("language").get<int>()), options, sources);
    } catch (const std::exception& e) {
      compiled = failed(path, std::string("a compile request klint cannot read: ") + e.what());
    }
    if (!write_message(fd, response_json(compiled, sources))) return 1;
  }
}

}  // namespace klint
