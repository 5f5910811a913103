#include "driver/server/server.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <memory>

#include "analyzer/cancel.h"
#include "driver/output/span.h"
#include "driver/paths.h"
#include "driver/server/actions.h"
#include "driver/server/convert.h"
#include "driver/server/protocol.h"
#include "driver/variants.h"

namespace klint::server {
namespace {

using nlohmann::json;

// LSP's MessageType, for window/logMessage.
enum class LogType { Error = 1, Warning = 2, Info = 3 };

struct Document {
  std::string path;  // as display_path spells it, as --commands spells the files it names
  std::string text;
  json version;  // the client's, echoed in publishDiagnostics
  uint64_t edits = 0;  // the number of its last change, to know a lint's result is stale
  std::vector<Published> published;
};

// What a lint of one document gives: its diagnostics, and what to log.
struct Linted {
  std::vector<Published> published;
  std::vector<std::pair<LogType, std::string>> logs;
};

class Server {
 public:
  Server(const ServerOptions& options, FrameReader& reader, FrameWriter& writer)
      : options_(options), reader_(reader), writer_(writer) {}

  int run() {
    while (!exit_code_) {
      if (running_) {
        // The lint runs on a thread of its own; messages are read meanwhile,
        // and an edit that makes its result stale stops it.
        if (reader_.wait(20)) {
          receive(reader_.next());
          cancel_if_stale();
        } else if (running_->result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
          finish_lint();
        }
        continue;
      }
      // Lint only when no message waits: the edits typed meanwhile come first,
      // so a burst of didChange is linted once, at its last version.
      if (!dirty_.empty() && !reader_.ready()) {
        start_lint();
      } else {
        receive(reader_.next());
      }
    }
    if (running_) {
      running_->cancel->store(true);
      running_->result.wait();
    }
    return *exit_code_;
  }

 private:
  void receive(const Frame& frame) {
    if (frame.kind == Frame::Kind::End) {
      exit_code_ = shut_down_ ? 0 : 1;
      return;
    }
    if (frame.kind == Frame::Kind::Malformed) {
      return send(error_response(nullptr, ErrorCode::ParseError, "unreadable message: " + frame.text));
    }
    json message = json::parse(frame.text, nullptr, false);
    if (message.is_discarded()) return send(error_response(nullptr, ErrorCode::ParseError, "the body is not JSON"));
    json id = message.is_object() && message.contains("id") ? message["id"] : json();
    if (!id.is_null() && !id.is_number_integer() && !id.is_string()) id = nullptr;
    if (!message.is_object() || message.value("jsonrpc", json()) != "2.0") {
      return send(error_response(id, ErrorCode::InvalidRequest, "not a JSON-RPC 2.0 message"));
    }
    if (!message.contains("method")) {
      // A response to a request of ours; the server sends none that need one.
      if (message.contains("result") || message.contains("error")) return;
      return send(error_response(id, ErrorCode::InvalidRequest, "a message without a method"));
    }
    if (!message["method"].is_string()) {
      return send(error_response(id, ErrorCode::InvalidRequest, "the method is not a string"));
    }
    const std::string method = message["method"];
    const json params = message.value("params", json::object());
    if (message.contains("id")) return request(message["id"], method, params);
    try {
      notification(method, params);
    } catch (const json::exception& e) {
      log(LogType::Error, method + ": bad parameters: " + e.what());
    } catch (const std::exception& e) {
      log(LogType::Error, method + ": " + e.what());
    }
  }

  void request(const json& id, const std::string& method, const json& params) {
    if (!id.is_number_integer() && !id.is_string()) {
      return send(error_response(nullptr, ErrorCode::InvalidRequest, "the id is neither a number nor a string"));
    }
    if (method == "initialize" && initialized_) {
      return send(error_response(id, ErrorCode::InvalidRequest, "initialize: sent twice"));
    }
    if (!initialized_ && method != "initialize") {
      return send(error_response(id, ErrorCode::ServerNotInitialized, method + ": the server is not initialized"));
    }
    if (shut_down_) return send(error_response(id, ErrorCode::InvalidRequest, method + ": the server is shut down"));
    try {
      std::optional<json> result = answer(method, params);
      if (!result) return send(error_response(id, ErrorCode::MethodNotFound, method + ": not supported"));
      send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(*result)}});
    } catch (const json::exception& e) {
      send(error_response(id, ErrorCode::InvalidParams, method + ": " + e.what()));
    } catch (const std::exception& e) {
      send(error_response(id, ErrorCode::InternalError, method + ": " + e.what()));
    }
  }

  // The result of a request; nullopt for a method the server does not know.
  std::optional<json> answer(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (method == "shutdown") {
      shut_down_ = true;
      return json(nullptr);
    }
    if (method == "textDocument/codeAction") {
      const std::string uri = params.at("textDocument").at("uri");
      auto it = documents_.find(uri);
      // Every action is a quick fix: none for a client that asks only for other kinds.
      json only = params.value("context", json::object()).value("only", json::array({"quickfix"}));
      bool wanted = std::any_of(only.begin(), only.end(), [](const json& kind) {
        return kind.is_string() && (kind == "quickfix" || kind == "");
      });
      if (it == documents_.end() || !wanted) return json::array();
      return code_actions(uri, it->second.text, it->second.published, params.at("range"));
    }
    if (method == "textDocument/hover") {
      auto it = documents_.find(params.at("textDocument").at("uri").get<std::string>());
      if (it == documents_.end()) return json(nullptr);
      return hover(it->second.published, params.at("position"));
    }
    return std::nullopt;
  }

  json initialize(const json& params) {
    initialized_ = true;
    // A client that counts bytes saves both sides the UTF-16 conversion.
    json encodings = params.value("capabilities", json::object())
                         .value("general", json::object())
                         .value("positionEncodings", json::array());
    if (std::find(encodings.begin(), encodings.end(), "utf-8") != encodings.end()) encoding_ = Encoding::Utf8;
    return {{"capabilities",
             {{"positionEncoding", encoding_ == Encoding::Utf8 ? "utf-8" : "utf-16"},
              // Full: each didChange carries the whole text.
              {"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
              {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
              {"hoverProvider", true}}},
            {"serverInfo", {{"name", "klint"}, {"version", KLINT_VERSION}}}};
  }

  void notification(const std::string& method, const json& params) {
    if (method == "exit") {
      exit_code_ = shut_down_ ? 0 : 1;
      return;
    }
    if (!initialized_ || shut_down_) return;  // dropped, as the protocol says
    if (method == "textDocument/didOpen") {
      const json& item = params.at("textDocument");
      const std::string uri = item.at("uri");
      std::optional<std::string> path = path_of_uri(uri);
      if (!path) return log(LogType::Info, uri + ": not a file: klint lints files only");
      Document& document = documents_[uri];
      document = Document{display_path(*path), item.at("text"), item.value("version", json()), 0, {}};
      return mark_dirty(uri);
    }
    if (method == "textDocument/didChange") {
      const std::string uri = params.at("textDocument").at("uri");
      auto it = documents_.find(uri);
      if (it == documents_.end()) return;
      for (const json& change : params.at("contentChanges")) apply_change(it->second.text, change);
      it->second.version = params.at("textDocument").value("version", json());
      return mark_dirty(uri);
    }
    if (method == "textDocument/didSave") {
      const std::string uri = params.at("textDocument").at("uri");
      std::optional<std::string> path = path_of_uri(uri);
      // A saved klint.toml changes the settings of the documents below it.
      if (path && std::filesystem::path(*path).filename() == "klint.toml") return mark_all_dirty();
      auto it = documents_.find(uri);
      if (it == documents_.end()) return;
      if (params.contains("text")) it->second.text = params["text"];
      return mark_dirty(uri);
    }
    if (method == "textDocument/didClose") {
      const std::string uri = params.at("textDocument").at("uri");
      documents_.erase(uri);
      std::erase(dirty_, uri);
      return publish(uri, json(), json::array());
    }
    // The files a client watches for the server (klint.toml, headers): any may change a result.
    if (method == "workspace/didChangeWatchedFiles") return mark_all_dirty();
    // Anything else ($/cancelRequest, $/setTrace, configuration) needs nothing done.
  }

  void apply_change(std::string& text, const json& change) {
    if (!change.contains("range")) {
      text = change.at("text");
      return;
    }
    // Full sync is what initialize asked for; a client that sends ranges anyway is followed.
    size_t begin = offset_of(text, change["range"].at("start"), encoding_);
    size_t end = std::max(begin, offset_of(text, change["range"].at("end"), encoding_));
    text.replace(begin, end - begin, change.at("text").get<std::string>());
  }

  void mark_dirty(const std::string& uri) {
    // Numbered across documents, so that a document closed and opened again
    // during a lint is not taken for the one linted.
    documents_.at(uri).edits = ++changes_;
    if (std::find(dirty_.begin(), dirty_.end(), uri) == dirty_.end()) dirty_.push_back(uri);
  }

  void mark_all_dirty() {
    for (auto& [uri, document] : documents_) mark_dirty(uri);
  }

  // The lint of the document changed longest ago, on a thread of its own,
  // of a copy of its text.
  void start_lint() {
    const std::string uri = dirty_.front();
    dirty_.pop_front();
    const Document& document = documents_.at(uri);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    std::future<Linted> result = std::async(std::launch::async, [this, document, cancel] {
      cancel::Scope scope(*cancel);
      return lint(document);
    });
    running_ = Running{uri, document.path, document.edits, std::move(cancel), std::move(result)};
  }

  // An edit of the document being linted, its closing, or the end of the
  // session, makes the lint's result one no one reads: it stops.
  void cancel_if_stale() {
    auto it = documents_.find(running_->uri);
    if (exit_code_ || shut_down_ || it == documents_.end() || it->second.edits != running_->edits) {
      running_->cancel->store(true);
    }
  }

  void finish_lint() {
    Running done = std::move(*running_);
    running_.reset();
    Linted linted;
    try {
      linted = done.result.get();
    } catch (const std::exception& e) {
      // lint_text makes a stage's exception a finding; this is the server's own.
      log(LogType::Error, done.uri + ": the lint failed: " + e.what());
    }
    auto it = documents_.find(done.uri);
    const bool edited = it != documents_.end() && it->second.edits != done.edits;
    // A lint cut short (an edit, the document closed, a shutdown) or stale is
    // never published: the document is linted again, or no one waits for it.
    if (done.cancel->load() || exit_code_ || it == documents_.end() || edited) {
      if (done.cancel->load() && edited) {
        log(LogType::Info, done.path + ": an edit cancelled the lint of the version before it");
      }
      return;
    }
    for (const auto& [type, text] : linted.logs) log(type, text);
    json diagnostics = json::array();
    for (const Published& one : linted.published) diagnostics.push_back(one.diagnostic);
    it->second.published = std::move(linted.published);
    publish(done.uri, it->second.version, std::move(diagnostics));
  }

  // Runs on the lint's thread: it reads the options and the copy it is
  // given, and says what to log rather than logging.
  Linted lint(const Document& document) const;

  void publish(const std::string& uri, const json& version, json diagnostics) {
    json params{{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
    if (version.is_number_integer()) params["version"] = version;
    send({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", std::move(params)}});
  }

  void log(LogType type, const std::string& message) {
    std::cerr << "klint server: " << message << std::endl;
    if (initialized_) {
      send({{"jsonrpc", "2.0"},
            {"method", "window/logMessage"},
            {"params", {{"type", static_cast<int>(type)}, {"message", message}}}});
    }
  }

  void send(const json& message) {
    // A client that is gone cannot be told anything more.
    if (!writer_.write(message) && !exit_code_) exit_code_ = 1;
  }

  const ServerOptions& options_;
  FrameReader& reader_;
  FrameWriter& writer_;
  bool initialized_ = false;
  bool shut_down_ = false;
  std::optional<int> exit_code_;
  Encoding encoding_ = Encoding::Utf16;
  std::map<std::string, Document> documents_;  // by URI, as the client spells it
  std::deque<std::string> dirty_;              // URIs to lint, oldest change first
  uint64_t changes_ = 0;
  struct Running {
    std::string uri;
    std::string path;
    uint64_t edits;  // the document's when the lint started
    std::shared_ptr<std::atomic<bool>> cancel;
    std::future<Linted> result;
  };
  std::optional<Running> running_;
};

// The lint of one document, as `klint PATH` (or `klint --commands FILE`)
// would lint its unsaved text.
Linted Server::lint(const Document& document) const {
  Linted linted;
  const CommandLineSettings& command_line = options_.command_line;
  std::optional<Language> language = language_for_path(document.path, command_line.force_compute);
  if (!language) {
    linted.logs.emplace_back(
        LogType::Info, document.path + ": not linted: klint knows the language of .comp, .glsl, .hlsl and .spvasm files");
    return linted;
  }
  if (std::optional<std::string> reason =
          command_line.force_compute ? std::nullopt : not_a_kernel(document.path, document.text)) {
    linted.logs.emplace_back(LogType::Info, document.path + ": not linted: " + *reason);
    return linted;
  }
  std::vector<CompileJob> commands;
  if (options_.commands) {
    for (const CompileJob& command : options_.commands->jobs) {
      if (same_file(command.file, document.path)) commands.push_back(command);
    }
  }
  // Read afresh for each lint: a klint.toml edited since applies.
  ConfigResolver configs(options_.config);
  Plan plan = commands.empty()
                  ? plan_jobs({InputFile{document.path, *language, true}}, {}, command_line, configs,
                              options_.resolve_targets)
                  : plan_jobs({}, commands, command_line, configs, options_.resolve_targets);
  SourceCache sources;
  std::vector<FileReport> reports;
  std::vector<std::string> variants;
  for (const Job& job : plan.jobs) {
    sources.add(job.input.path, document.text);
    reports.push_back(lint_text(job.input, document.text, job.options, sources));
    variants.push_back(job.variant);
  }
  FileReport report;
  if (reports.size() == 1 && variants[0].empty()) {
    report = std::move(reports[0]);
  } else if (!reports.empty()) {
    report = merge_variants(std::move(reports), variants);
  }
  std::vector<Published>& published = linted.published;
  std::vector<InputMessage> messages = plan.messages;
  messages.insert(messages.end(), report.messages.begin(), report.messages.end());
  for (const InputMessage& message : messages) {
    std::string text = message.line ? fmt::format("{}:{}:{}: {}", message.path, message.line, message.column,
                                                  message.reason)
                                     : message.reason_names_path ? message.reason
                                                                 : message.path + ": " + message.reason;
    linted.logs.emplace_back(message.is_error ? LogType::Error : LogType::Info, text);
    if (!message.is_error) continue;
    // A broken klint.toml stops the lint: say so where the user looks.
    Published error;
    error.diagnostic = {{"range", lsp_range(0, 0, 0, 0)}, {"severity", 1}, {"source", "klint"}, {"message", text}};
    published.push_back(std::move(error));
  }
  for (Finding& finding : report.diagnostics) {
    if (!plan.jobs.empty()) apply_severity(finding, plan.jobs.front().severity);
    resolve_columns(finding, sources);
    Published one{finding, lsp_diagnostic(finding, document.path, report.includes, sources, encoding_), json::array(), true};
    one.in_document = !finding.location.has_line() || finding.location.file.empty() ||
                      same_file(finding.location.file, document.path);
    for (const Replacement& replacement : finding.fix) {
      std::optional<json> range = same_file(replacement.location.file, document.path)
                                      ? exact_range(replacement.location, sources, encoding_)
                                      : std::nullopt;
      if (!range) {
        one.fix = json::array();
        break;
      }
      one.fix.push_back({{"range", *range}, {"newText", replacement.text}});
    }
    published.push_back(std::move(one));
  }
  return linted;
}

}  // namespace

int run_server(const ServerOptions& options) {
  // Protocol goes to a descriptor of its own; whatever else writes to
  // standard output (a library's message) reaches standard error instead.
  const int protocol = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (protocol < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::cerr << "klint server: cannot set up standard output\n";
    return 1;
  }
  // A client that goes away makes a write fail, rather than kill the server.
  ::signal(SIGPIPE, SIG_IGN);
  FrameReader reader(STDIN_FILENO);
  FrameWriter writer(protocol);
  return Server(options, reader, writer).run();
}

}  // namespace klint::server
