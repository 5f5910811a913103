// `klint server` driven over its standard input and output as an editor
// drives it: framing, lifecycle, diagnostics of unsaved text, code actions,
// hover, the configuration and compile commands of the document's path.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <tuple>

#include "tests/support/kernels.h"
#include "tests/support/run.h"
#include "tests/support/scratch.h"

namespace klint::testing {
namespace {

using nlohmann::json;

constexpr int kTimeoutMs = 30000;

// memoryBarrierShared() where barrier() belongs: insufficient-barrier on line
// 8, with notes on the write (line 7) and the read (line 9).
constexpr const char* kFenceKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    memoryBarrierShared();
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
)";

// An editor's side of the pipe. Every byte the server writes to standard
// output must be a frame: anything else fails the test.
class Client {
 public:
  Client(const std::vector<std::string>& args, const std::filesystem::path& cwd) {
    int in[2], out[2];
    EXPECT_EQ(::pipe2(in, O_CLOEXEC), 0);
    EXPECT_EQ(::pipe2(out, O_CLOEXEC), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], STDIN_FILENO);
      ::dup2(out[1], STDOUT_FILENO);
      if (::chdir(cwd.c_str()) != 0) ::_exit(126);
      std::vector<std::string> argv{KLINT_BINARY, "server"};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> raw;
      for (std::string& arg : argv) raw.push_back(arg.data());
      raw.push_back(nullptr);
      ::execv(raw[0], raw.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_server_ = in[1];
    from_server_ = out[0];
    ::signal(SIGPIPE, SIG_IGN);
  }

  ~Client() {
    if (to_server_ >= 0) ::close(to_server_);
    ::close(from_server_);
    if (pid_ > 0 && exit_code_ < 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  void send_raw(const std::string& bytes) {
    ASSERT_EQ(::write(to_server_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }
  static std::string frame(const json& message) {
    std::string body = message.dump();
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  void send(const json& message) { send_raw(frame(message)); }
  void request(int id, const std::string& method, const json& params) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
  }
  void notify(const std::string& method, const json& params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }

  // The next message; null after a timeout (a failure, unless `quiet_after_ms`
  // says how long silence is expected) or the end of the output.
  json next(int quiet_after_ms = 0) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(quiet_after_ms ? quiet_after_ms : kTimeoutMs);
    while (true) {
      if (std::optional<json> message = take()) return *message;
      int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      deadline - std::chrono::steady_clock::now())
                                      .count());
      pollfd request{from_server_, POLLIN, 0};
      if (left <= 0 || ::poll(&request, 1, left) <= 0) {
        if (!quiet_after_ms) ADD_FAILURE() << "no message from the server in time; unread: " << buffer_;
        return nullptr;
      }
      char chunk[65536];
      ssize_t n = ::read(from_server_, chunk, sizeof chunk);
      if (n <= 0) return nullptr;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

  // Reads until a message satisfies `wanted`; the others are logs and other
  // documents' diagnostics.
  json until(const std::function<bool(const json&)>& wanted) {
    while (true) {
      json message = next();
      if (message.is_null() || wanted(message)) return message;
      EXPECT_TRUE(message.value("method", "") == "window/logMessage" ||
                  message.value("method", "") == "textDocument/publishDiagnostics")
          << message.dump();
    }
  }
  json response(int id) {
    return until([&](const json& m) { return m.contains("id") && m["id"] == id; });
  }
  // The next diagnostics published for `uri`.
  json diagnostics(const std::string& uri) {
    json message = until([&](const json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
    });
    return message.is_null() ? json() : message["params"];
  }

  void initialize() {
    request(1, "initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", json::object()}});
    json answer = response(1);
    ASSERT_TRUE(answer.contains("result")) << answer.dump();
    notify("initialized", json::object());
  }

  void close_input() {
    ::close(to_server_);
    to_server_ = -1;
  }

  // The server's exit code, waiting for it; -1 when it does not exit in time.
  int wait() {
    for (int waited = 0; waited < kTimeoutMs; waited += 10) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_code_;
      }
      ::usleep(10000);
    }
    return -1;
  }

 private:
  std::optional<json> take() {
    const std::string header = "Content-Length: ";
    if (buffer_.size() < header.size()) return std::nullopt;
    if (buffer_.compare(0, header.size(), header) != 0) {
      ADD_FAILURE() << "not a frame on standard output: " << buffer_;
      buffer_.clear();
      return std::nullopt;
    }
    size_t end = buffer_.find("\r\n\r\n");
    if (end == std::string::npos) return std::nullopt;
    size_t length = std::stoul(buffer_.substr(header.size(), end - header.size()));
    if (buffer_.size() < end + 4 + length) return std::nullopt;
    json message = json::parse(buffer_.substr(end + 4, length));
    buffer_.erase(0, end + 4 + length);
    EXPECT_EQ(message["jsonrpc"], "2.0");
    return message;
  }

  pid_t pid_ = -1;
  int to_server_ = -1;
  int from_server_ = -1;
  int exit_code_ = -1;
  std::string buffer_;
};

std::string uri_of(const std::filesystem::path& path) { return "file://" + path.string(); }

json open_params(const std::string& uri, const std::string& text, int version = 1) {
  return {{"textDocument", {{"uri", uri}, {"languageId", "glsl"}, {"version", version}, {"text", text}}}};
}

json change_params(const std::string& uri, const std::string& text, int version) {
  return {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", {{{"text", text}}}}};
}

json range(int start_line, int start_character, int end_line, int end_character) {
  return {{"start", {{"line", start_line}, {"character", start_character}}},
          {"end", {{"line", end_line}, {"character", end_character}}}};
}

// The text after the edits of a WorkspaceEdit to `uri` (ASCII text, so
// UTF-16 positions are bytes), applied from the last so positions hold.
std::string apply(std::string text, const json& edit, const std::string& uri) {
  std::vector<json> edits = edit.at("changes").at(uri);
  std::sort(edits.begin(), edits.end(), [](const json& a, const json& b) {
    return std::make_pair(a["range"]["start"]["line"], a["range"]["start"]["character"]) >
           std::make_pair(b["range"]["start"]["line"], b["range"]["start"]["character"]);
  });
  auto offset = [&](const json& position) {
    size_t at = 0;
    for (int line = 0; line < position["line"].get<int>(); ++line) at = text.find('\n', at) + 1;
    return at + position["character"].get<size_t>();
  };
  for (const json& one : edits) {
    size_t begin = offset(one["range"]["start"]), end = offset(one["range"]["end"]);
    text.replace(begin, end - begin, one["newText"].get<std::string>());
  }
  return text;
}

class Server : public ScratchDirTest {};

TEST_F(Server, PublishesFindingsOfTheUnsavedTextWithLinksNotesFixesAndExplanations) {
  // On disk the file is clean: the server lints what the editor holds.
  write("k.comp", kCleanKernel);
  const std::string uri = uri_of(path("k.comp"));
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(uri, kFenceKernel));
  json published = client.diagnostics(uri);
  EXPECT_EQ(published["version"], 1);
  ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
  const json diagnostic = published["diagnostics"][0];
  EXPECT_EQ(diagnostic["code"], "insufficient-barrier");
  EXPECT_EQ(diagnostic["source"], "klint");
  EXPECT_EQ(diagnostic["severity"], 1);
  EXPECT_EQ(diagnostic["codeDescription"]["href"], std::string(KLINT_DOCS_URL) + "/insufficient-barrier.md");
  EXPECT_EQ(diagnostic["range"], range(7, 4, 7, 23)) << "memoryBarrierShared on line 8";
  EXPECT_NE(diagnostic["message"].get<std::string>().find("memoryBarrierShared()"), std::string::npos);
  ASSERT_EQ(diagnostic["relatedInformation"].size(), 2u) << diagnostic.dump(1);
  EXPECT_EQ(diagnostic["relatedInformation"][0]["location"]["uri"], uri);
  EXPECT_EQ(diagnostic["relatedInformation"][0]["location"]["range"]["start"]["line"], 6);
  EXPECT_EQ(diagnostic["relatedInformation"][0]["message"], "'tile' is written here");
  EXPECT_EQ(diagnostic["relatedInformation"][1]["location"]["range"]["start"]["line"], 8);

  // Hover on the finding: the rule's explanation, as --explain has it.
  client.request(2, "textDocument/hover",
                 {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 7}, {"character", 10}}}});
  json hover = client.response(2)["result"];
  EXPECT_EQ(hover["contents"]["kind"], "markdown");
  const std::string explanation = hover["contents"]["value"];
  EXPECT_EQ(explanation.rfind("# insufficient-barrier\n", 0), 0u) << explanation;
  EXPECT_NE(explanation.find("## Why it matters"), std::string::npos);
  client.request(3, "textDocument/hover",
                 {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 1}, {"character", 3}}}});
  EXPECT_TRUE(client.response(3)["result"].is_null()) << "no finding there";

  // The fix and both suppressions; each edit, applied, leaves no finding.
  client.request(4, "textDocument/codeAction",
                 {{"textDocument", {{"uri", uri}}},
                  {"range", range(7, 6, 7, 6)},
                  {"context", {{"diagnostics", published["diagnostics"]}}}});
  json actions = client.response(4)["result"];
  ASSERT_EQ(actions.size(), 3u) << actions.dump(1);
  EXPECT_EQ(actions[0]["title"], "Use barrier(), which waits for the workgroup and makes its shared writes visible");
  EXPECT_EQ(actions[0]["isPreferred"], true);
  EXPECT_EQ(actions[1]["title"], "Suppress insufficient-barrier on this line");
  EXPECT_EQ(actions[2]["title"], "Suppress insufficient-barrier in this file");
  client.request(40, "textDocument/codeAction",
                 {{"textDocument", {{"uri", uri}}},
                  {"range", range(7, 6, 7, 6)},
                  {"context", {{"diagnostics", json::array()}, {"only", {"source.organizeImports"}}}}});
  EXPECT_EQ(client.response(40)["result"], json::array()) << "every action is a quick fix";
  const std::vector<std::string> expected_lines{"    barrier();\n",
                                                "    // klint-ignore-next-line: insufficient-barrier\n",
                                                "// klint-ignore-file: insufficient-barrier\n"};
  int version = 1;
  for (size_t i = 0; i < actions.size(); ++i) {
    EXPECT_EQ(actions[i]["kind"], "quickfix");
    EXPECT_EQ(actions[i]["diagnostics"][0]["code"], "insufficient-barrier");
    std::string edited = apply(kFenceKernel, actions[i]["edit"], uri);
    EXPECT_NE(edited.find(expected_lines[i]), std::string::npos) << edited;
    client.notify("textDocument/didChange", change_params(uri, edited, ++version));
    json after = client.diagnostics(uri);
    EXPECT_EQ(after["version"], version);
    EXPECT_EQ(after["diagnostics"], json::array()) << actions[i]["title"] << "\n" << edited << after.dump(1);
    // The command line agrees.
    EXPECT_EQ(run_klint_with_input({"--stdin-filename", "k.comp", "-"}, edited, path().string()).exit_code, 0);
  }

  // Back to the bug, then fixed by hand.
  client.notify("textDocument/didChange", change_params(uri, kFenceKernel, ++version));
  EXPECT_EQ(client.diagnostics(uri)["diagnostics"].size(), 1u);
  client.notify("textDocument/didChange", change_params(uri, kCleanKernel, ++version));
  EXPECT_EQ(client.diagnostics(uri)["diagnostics"], json::array());
  client.notify("textDocument/didChange", change_params(uri, kFenceKernel, ++version));
  EXPECT_EQ(client.diagnostics(uri)["diagnostics"].size(), 1u);
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  EXPECT_EQ(client.diagnostics(uri)["diagnostics"].size(), 1u) << "a save lints again";
  client.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  EXPECT_EQ(client.diagnostics(uri)["diagnostics"], json::array()) << "closing clears them";

  client.request(5, "shutdown", nullptr);
  EXPECT_TRUE(client.response(5)["result"].is_null());
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

TEST_F(Server, OffersTheMechanicalFixOnlyWhereTheRuleGivesOne) {
  const std::string hlsl_uri = uri_of(path("k.hlsl"));
  const std::string hlsl = "groupshared float tile[64];\nRWStructuredBuffer<float> x : register(u0);\n"
                           "[numthreads(64, 1, 1)]\n"
                           "void main(uint3 t : SV_GroupThreadID, uint3 g : SV_DispatchThreadID) {\n"
                           "    tile[t.x] = x[g.x];\n    GroupMemoryBarrier();\n"
                           "    x[g.x] = tile[(t.x + 1) % 64];\n}\n";
  // Under a branch that splits the workgroup, barrier() would be a new bug: no fix.
  const std::string divergent_uri = uri_of(path("divergent.comp"));
  const std::string divergent = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < 32) {
        tile[tid] = x[gl_GlobalInvocationID.x];
        memoryBarrierShared();
        x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 32];
    }
}
)";
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(hlsl_uri, hlsl));
  json published = client.diagnostics(hlsl_uri);
  ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
  client.request(2, "textDocument/codeAction",
                 {{"textDocument", {{"uri", hlsl_uri}}}, {"range", published["diagnostics"][0]["range"]},
                  {"context", {{"diagnostics", json::array()}}}});
  json actions = client.response(2)["result"];
  ASSERT_EQ(actions.size(), 3u) << actions.dump(1);
  std::string fixed = apply(hlsl, actions[0]["edit"], hlsl_uri);
  EXPECT_NE(fixed.find("    GroupMemoryBarrierWithGroupSync();\n"), std::string::npos) << fixed;
  client.notify("textDocument/didChange", change_params(hlsl_uri, fixed, 2));
  EXPECT_EQ(client.diagnostics(hlsl_uri)["diagnostics"], json::array());

  client.notify("textDocument/didOpen", open_params(divergent_uri, divergent));
  published = client.diagnostics(divergent_uri);
  ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
  EXPECT_EQ(published["diagnostics"][0]["code"], "insufficient-barrier");
  client.request(3, "textDocument/codeAction",
                 {{"textDocument", {{"uri", divergent_uri}}}, {"range", published["diagnostics"][0]["range"]},
                  {"context", {{"diagnostics", json::array()}}}});
  actions = client.response(3)["result"];
  ASSERT_EQ(actions.size(), 2u) << actions.dump(1);
  EXPECT_EQ(actions[0]["title"], "Suppress insufficient-barrier on this line");
}

TEST_F(Server, ASuppressionCommentAlreadyThereGetsTheRuleAdded) {
  std::string text = kFenceKernel;
  text.replace(text.find("    memoryBarrierShared();"), 0,
               "    // klint-ignore-next-line: redundant-barrier -- kept for the reader\n");
  text.replace(text.find("#version 450\n"), 13, "#version 450\n// klint-ignore-file: uncoalesced-global-access\n");
  const std::string uri = uri_of(path("k.comp"));
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(uri, text));
  json published = client.diagnostics(uri);
  json barrier;
  for (const json& diagnostic : published["diagnostics"]) {
    if (diagnostic["code"] == "insufficient-barrier") barrier = diagnostic;
  }
  ASSERT_FALSE(barrier.is_null()) << published.dump(1);
  client.request(2, "textDocument/codeAction",
                 {{"textDocument", {{"uri", uri}}}, {"range", barrier["range"]},
                  {"context", {{"diagnostics", json::array()}}}});
  json actions = client.response(2)["result"];
  ASSERT_EQ(actions.size(), 3u) << actions.dump(1);
  std::string on_line = apply(text, actions[1]["edit"], uri);
  const std::string extended =
      "// klint-ignore-next-line: redundant-barrier, insufficient-barrier -- kept for the reader\n";
  EXPECT_NE(on_line.find("    " + extended), std::string::npos) << on_line;
  std::string in_file = apply(text, actions[2]["edit"], uri);
  EXPECT_NE(in_file.find("#version 450\n// klint-ignore-file: uncoalesced-global-access, insufficient-barrier\n"),
            std::string::npos)
      << in_file;
  for (const std::string& edited : {on_line, in_file}) {
    KlintRun run = run_klint_with_input({"--stdin-filename", "k.comp", "--select", "insufficient-barrier", "-"}, edited,
                                        path().string());
    EXPECT_EQ(run.exit_code, 0) << edited << run.out;
  }
}

TEST_F(Server, PadsTheRowsOfACrowdedTileAsTheFixSays) {
  // A transpose through a 32x32 tile: the column reads fall on one bank.
  const std::string glsl = R"(#version 450
layout(local_size_x = 32, local_size_y = 4) in;
layout(binding = 0) buffer Data { float data[]; };
const uint TILE = 32;
shared float tile[TILE][TILE];
void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    for (uint j = 0; j < TILE; j += 4) tile[y + j][x] = data[(y + j) * TILE + x];
    barrier();
    for (uint j = 0; j < TILE; j += 4) data[(y + j) * TILE + x] = tile[x][y + j];
}
)";
  const std::string hlsl = R"(RWStructuredBuffer<float> data : register(u0);
groupshared float tile[32][32];
[numthreads(32, 4, 1)]
void main(uint3 t : SV_GroupThreadID) {
    for (uint j = 0; j < 32; j += 4) tile[t.y + j][t.x] = data[(t.y + j) * 32 + t.x];
    GroupMemoryBarrierWithGroupSync();
    for (uint j = 0; j < 32; j += 4) data[(t.y + j) * 32 + t.x] = tile[t.x][t.y + j];
}
)";
  Client client({}, path());
  client.initialize();
  int id = 1;
  for (const auto& [name, text, declaration] :
       {std::tuple{"t.comp", glsl, "shared float tile[TILE][TILE + 1];"},
        std::tuple{"t.hlsl", hlsl, "groupshared float tile[32][33];"}}) {
    const std::string uri = uri_of(path(name));
    client.notify("textDocument/didOpen", open_params(uri, text));
    json published = client.diagnostics(uri);
    ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
    EXPECT_EQ(published["diagnostics"][0]["code"], "shared-memory-bank-conflict");
    client.request(++id, "textDocument/codeAction",
                   {{"textDocument", {{"uri", uri}}}, {"range", published["diagnostics"][0]["range"]},
                    {"context", {{"diagnostics", json::array()}}}});
    json actions = client.response(id)["result"];
    ASSERT_EQ(actions.size(), 3u) << actions.dump(1);
    EXPECT_EQ(actions[0]["title"], "Pad each row by one element ([32][33]) so that a column spreads over the banks");
    std::string padded = apply(text, actions[0]["edit"], uri);
    EXPECT_NE(padded.find(declaration), std::string::npos) << padded;
    client.notify("textDocument/didChange", change_params(uri, padded, 2));
    EXPECT_EQ(client.diagnostics(uri)["diagnostics"], json::array()) << padded;
  }
}

TEST_F(Server, TheKlintTomlOfTheDocumentsFolderApplies) {
  write("quiet/klint.toml", "ignore = [\"insufficient-barrier\"]\n");
  write("broken/klint.toml", "selectt = [\"insufficient-barrier\"]\n");
  Client client({}, path());
  client.initialize();
  const std::string loud = uri_of(path("k.comp")), quiet = uri_of(path("quiet/k.comp"));
  client.notify("textDocument/didOpen", open_params(loud, kFenceKernel));
  EXPECT_EQ(client.diagnostics(loud)["diagnostics"].size(), 1u);
  client.notify("textDocument/didOpen", open_params(quiet, kFenceKernel));
  EXPECT_EQ(client.diagnostics(quiet)["diagnostics"], json::array());
  // A configuration that cannot be read says so on the document.
  const std::string broken = uri_of(path("broken/k.comp"));
  client.notify("textDocument/didOpen", open_params(broken, kFenceKernel));
  json published = client.diagnostics(broken);
  ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
  EXPECT_NE(published["diagnostics"][0]["message"].get<std::string>().find("klint.toml:1:1: unknown key 'selectt'"),
            std::string::npos)
      << published.dump(1);
  // Saving a klint.toml lints the open documents again with it.
  write("klint.toml", "ignore = [\"insufficient-barrier\"]\n");
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri_of(path("klint.toml"))}}}});
  EXPECT_EQ(client.diagnostics(loud)["diagnostics"], json::array());
}

TEST_F(Server, ReadsTheCompileCommandsItIsGiven) {
  std::string shader = kFenceKernel;
  shader.replace(shader.find("    memoryBarrierShared();"), 26,
                 "#ifdef RACY\n    memoryBarrierShared();\n#else\n    barrier();\n#endif");
  write("cmds.txt", "glslc -DRACY k.comp -o k.spv\n");
  const std::string uri = uri_of(path("k.comp"));
  {
    Client client({"--commands", "cmds.txt"}, path());
    client.initialize();
    client.notify("textDocument/didOpen", open_params(uri, shader));
    json published = client.diagnostics(uri);
    ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
    EXPECT_EQ(published["diagnostics"][0]["range"]["start"]["line"], 8);
  }
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(uri, shader));
  EXPECT_EQ(client.diagnostics(uri)["diagnostics"], json::array()) << "without the command, RACY is not defined";
}

TEST_F(Server, LintsTheLastOfABurstOfChangesOnce) {
  const std::string uri = uri_of(path("k.comp"));
  Client client({}, path());
  client.initialize();
  // One write, so the server has it all before it lints.
  std::string burst = Client::frame({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                                     {"params", open_params(uri, kFenceKernel)}});
  burst += Client::frame({{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
                          {"params", change_params(uri, kDivergentBarrierKernel, 2)}});
  burst += Client::frame({{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
                          {"params", change_params(uri, kCleanKernel, 3)}});
  ASSERT_LT(burst.size(), 4096u) << "a pipe writes at most PIPE_BUF bytes at once";
  client.send_raw(burst);
  json published = client.diagnostics(uri);
  EXPECT_EQ(published["version"], 3) << published.dump(1);
  EXPECT_EQ(published["diagnostics"], json::array());
  client.request(2, "shutdown", nullptr);
  json next = client.until([](const json&) { return true; });
  EXPECT_EQ(next["id"], 2) << "the superseded versions are never published: " << next.dump(1);
}

// A finding in an included file is shown on the line of the document that
// includes it, its place named in the message and related information.
TEST_F(Server, AFindingInAnIncludedFileIsShownOnItsIncludeLine) {
  write("exchange.glsl",
        "float exchange(uint tid, float v) {\n"
        "    tile[tid] = v;\n"
        "    return tile[(tid + 1) % 64];\n"
        "}\n");
  const std::string uri = uri_of(path("k.comp"));
  const std::string text = "#version 450\n"
                           "layout(local_size_x = 64) in;\n"
                           "layout(binding = 0) buffer Data { float x[]; };\n"
                           "shared float tile[64];\n"
                           "  #include \"exchange.glsl\"  \n"
                           "void main() {\n"
                           "    x[gl_GlobalInvocationID.x] = exchange(gl_LocalInvocationID.x, x[gl_GlobalInvocationID.x]);\n"
                           "}\n";
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(uri, text));
  json published = client.diagnostics(uri);
  ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
  const json& race = published["diagnostics"][0];
  EXPECT_EQ(race["code"], "shared-memory-race");
  EXPECT_EQ(race["range"], json({{"start", {{"line", 4}, {"character", 2}}}, {"end", {{"line", 4}, {"character", 26}}}}))
      << race.dump(1);
  EXPECT_EQ(race["message"].get<std::string>().rfind("exchange.glsl:3: data race on 'tile'", 0), 0u) << race.dump(1);
  EXPECT_EQ(race["relatedInformation"][0]["location"]["uri"], uri_of(path("exchange.glsl"))) << race.dump(1);
  EXPECT_EQ(race["relatedInformation"][0]["location"]["range"]["start"]["line"], 2) << race.dump(1);
  client.request(2, "shutdown", nullptr);
  client.response(2);
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

// A finding in a header that another header includes, reached through a
// relative name, is shown on the document's #include line that leads to it,
// not on a line that includes an unrelated header; GLSL and HLSL alike.
TEST_F(Server, AFindingInANestedHeaderIsShownOnTheIncludeLineThatLeadsToIt) {
  write("common/unrelated.glsl", "float twice(float v) { return 2.0 * v; }\n");
  write("common/outer.glsl", "#include \"inner/exchange.glsl\"\n");
  write("common/inner/exchange.glsl",
        "float exchange(uint tid, float v) {\n"
        "    tile[tid] = v;\n"
        "    return tile[(tid + 1) % 64];\n"
        "}\n");
  write("common/unrelated.hlsli", "float twice(float v) { return 2.0 * v; }\n");
  write("common/outer.hlsli", "#include \"inner/exchange.hlsli\"\n");
  write("common/inner/exchange.hlsli",
        "float exchange(uint tid, float v) {\n"
        "    tile[tid] = v;\n"
        "    return tile[(tid + 1) % 64];\n"
        "}\n");
  const std::string glsl_uri = uri_of(path("src/k.comp"));
  const std::string glsl = "#version 450\n"
                           "layout(local_size_x = 64) in;\n"
                           "layout(binding = 0) buffer Data { float x[]; };\n"
                           "shared float tile[64];\n"
                           "#include \"../common/unrelated.glsl\"\n"
                           "#include \"../common/outer.glsl\"\n"
                           "void main() {\n"
                           "    uint i = gl_GlobalInvocationID.x;\n"
                           "    x[i] = twice(exchange(gl_LocalInvocationID.x, x[i]));\n"
                           "}\n";
  const std::string hlsl_uri = uri_of(path("src/k.hlsl"));
  const std::string hlsl = "RWStructuredBuffer<float> x : register(u0);\n"
                           "groupshared float tile[64];\n"
                           "#include \"../common/unrelated.hlsli\"\n"
                           "\n"
                           "#include \"../common/outer.hlsli\"\n"
                           "[numthreads(64, 1, 1)]\n"
                           "void main(uint3 id : SV_DispatchThreadID, uint3 lid : SV_GroupThreadID) {\n"
                           "    x[id.x] = twice(exchange(lid.x, x[id.x]));\n"
                           "}\n";
  Client client({}, path());
  client.initialize();
  for (const auto& [uri, text, line, end, header] :
       {std::tuple{glsl_uri, glsl, 5, 31, "exchange.glsl"}, std::tuple{hlsl_uri, hlsl, 4, 32, "exchange.hlsli"}}) {
    client.notify("textDocument/didOpen", open_params(uri, text));
    json published = client.diagnostics(uri);
    ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
    const json& race = published["diagnostics"][0];
    EXPECT_EQ(race["code"], "shared-memory-race");
    EXPECT_EQ(race["range"], range(line, 0, line, end)) << race.dump(1);
    EXPECT_EQ(race["relatedInformation"][0]["location"]["uri"], uri_of(path(std::filesystem::path("common/inner") / header)))
        << race.dump(1);
    EXPECT_NE(race["message"].get<std::string>().find(fmt::format("inner/{}:3: data race on 'tile'", header)),
              std::string::npos)
        << race.dump(1);
  }
  client.request(2, "shutdown", nullptr);
  client.response(2);
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

// A fragment shader named "blur.frag.glsl" and a mesh shader, which declares
// a workgroup size as a kernel does, get no diagnostics: the log says why.
TEST_F(Server, ShadersOfOtherStagesAreNotLinted) {
  Client client({}, path());
  client.initialize();
  const std::vector<std::pair<std::string, std::string>> documents = {
      {"blur.frag.glsl", "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n"},
      {"cull.glsl", "#version 450\n#extension GL_EXT_mesh_shader : require\nlayout(local_size_x = 32) in;\n"
                    "layout(triangles, max_vertices = 3, max_primitives = 1) out;\nvoid main() { SetMeshOutputsEXT(0, 0); }\n"}};
  for (const auto& [name, text] : documents) {
    const std::string uri = uri_of(path(name));
    client.notify("textDocument/didOpen", open_params(uri, text));
    std::vector<std::string> logs;
    json published = client.until([&](const json& m) {
      if (m.value("method", "") == "window/logMessage") logs.push_back(m["params"]["message"]);
      return m.value("method", "") == "textDocument/publishDiagnostics";
    });
    ASSERT_FALSE(published.is_null()) << name;
    EXPECT_EQ(published["params"]["diagnostics"], json::array()) << published.dump(1);
    const std::string stage = name == "cull.glsl" ? "mesh" : "fragment";
    EXPECT_TRUE(std::any_of(logs.begin(), logs.end(), [&](const std::string& log) {
      return log.find(name + ": not linted: not a compute shader (" + stage + " stage)") != std::string::npos;
    })) << ::testing::PrintToString(logs);
  }
  client.request(2, "shutdown", nullptr);
  client.response(2);
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

// A kernel of `loops` loops of two barriers each, which takes klint about a
// second per 300 to lint here.
std::string many_loops(int loops) {
  std::string text = "#version 450\nlayout(local_size_x = 64) in;\nlayout(binding = 0) buffer Data { float x[]; };\n"
                     "shared float tile[64];\nvoid main() {\n    uint tid = gl_LocalInvocationID.x;\n    float acc = 0.0;\n";
  for (int i = 0; i < loops; ++i) {
    text += fmt::format("    for (uint k{0} = 0; k{0} < x.length(); k{0} += 64) {{ tile[tid] = x[k{0} + tid]; barrier(); "
                        "acc += tile[(tid + 1) % 64] * {0}.0; barrier(); }}\n",
                        i);
  }
  return text + "    x[gl_GlobalInvocationID.x] = acc;\n}\n";
}

// An edit while a lint runs stops that lint: the edit comes while the long
// kernel is linted; its version is never published, the edit's is, and the
// log says why.
TEST_F(Server, AnEditCancelsTheLintItMakesStale) {
  const std::string uri = uri_of(path("k.comp"));
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(uri, many_loops(700)));
  ::usleep(300 * 1000);  // the server reads the open alone, and starts its lint
  client.notify("textDocument/didChange", change_params(uri, kCleanKernel, 2));
  std::vector<std::string> logs;
  json published = client.until([&](const json& m) {
    if (m.value("method", "") == "window/logMessage") logs.push_back(m["params"]["message"]);
    return m.value("method", "") == "textDocument/publishDiagnostics";
  });
  ASSERT_FALSE(published.is_null());
  EXPECT_EQ(published["params"]["version"], 2) << published.dump(1);
  EXPECT_EQ(published["params"]["diagnostics"], json::array());
  EXPECT_NE(std::find(logs.begin(), logs.end(), "k.comp: an edit cancelled the lint of the version before it"),
            logs.end())
      << ::testing::PrintToString(logs);
  client.request(2, "shutdown", nullptr);
  client.response(2);
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

// A shutdown while a lint runs stops it too, and what it found so far is
// never published.
TEST_F(Server, AShutdownDuringALintPublishesNothing) {
  const std::string uri = uri_of(path("k.comp"));
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(uri, many_loops(700)));
  ::usleep(300 * 1000);
  client.request(2, "shutdown", nullptr);
  client.response(2);
  // The lint, cut short, ends meanwhile.
  for (json message = client.next(2000); !message.is_null(); message = client.next(2000)) {
    EXPECT_NE(message.value("method", ""), "textDocument/publishDiagnostics") << message.dump(1);
  }
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

TEST_F(Server, AShaderThatCrashesGlslangIsAFindingNotTheServersEnd) {
  const std::string crash = uri_of(path("crash.hlsl")), fine = uri_of(path("k.comp"));
  Client client({}, path());
  client.initialize();
  client.notify("textDocument/didOpen", open_params(crash, kCrashesGlslang));
  json published = client.diagnostics(crash);
  ASSERT_EQ(published["diagnostics"].size(), 1u) << published.dump(1);
  EXPECT_EQ(published["diagnostics"][0]["code"], "compile-error");
  EXPECT_NE(published["diagnostics"][0]["message"].get<std::string>().find("crashed"), std::string::npos)
      << published.dump(1);
  client.notify("textDocument/didOpen", open_params(fine, kFenceKernel));
  EXPECT_EQ(client.diagnostics(fine)["diagnostics"].size(), 1u) << "the next document is linted";
  client.request(2, "shutdown", nullptr);
  client.response(2);
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

TEST_F(Server, AnswersMalformedMessagesWithAnErrorAndGoesOn) {
  Client client({}, path());
  auto error_code = [&](const json& message) { return message["error"]["code"].get<int>(); };
  client.send_raw("Content-Lenght: 2\r\n\r\n");
  json error = client.next();
  EXPECT_EQ(error_code(error), -32700) << error.dump();
  EXPECT_TRUE(error["id"].is_null());
  client.send_raw("Content-Length: 9\r\n\r\n{not json");
  EXPECT_EQ(error_code(client.next()), -32700);
  client.send_raw("Content-Length: 5\r\n\r\n[1,2]");
  EXPECT_EQ(error_code(client.next()), -32600);
  client.request(9, "textDocument/hover", json::object());
  EXPECT_EQ(error_code(client.response(9)), -32002) << "not initialized yet";
  client.initialize();
  client.request(10, "klint/noSuchMethod", json::object());
  EXPECT_EQ(error_code(client.response(10)), -32601);
  client.notify("klint/noSuchNotification", json::object());  // ignored, unanswered
  client.request(11, "textDocument/codeAction", {{"textDocument", {{"uri", "file:///nowhere.comp"}}}});
  EXPECT_EQ(client.next()["result"], json::array()) << "no such document: no actions";
  client.request(12, "textDocument/hover", {{"textDocument", 3}});
  EXPECT_EQ(error_code(client.response(12)), -32602);
  client.request(13, "shutdown", nullptr);
  client.response(13);
  client.request(14, "textDocument/hover", json::object());
  EXPECT_EQ(error_code(client.response(14)), -32600) << "after shutdown";
  client.notify("exit", nullptr);
  EXPECT_EQ(client.wait(), 0);
}

TEST_F(Server, ExitsWithOneWithoutShutdown) {
  {
    Client client({}, path());
    client.initialize();
    client.notify("exit", nullptr);
    EXPECT_EQ(client.wait(), 1);
  }
  Client client({}, path());
  client.initialize();
  client.close_input();
  EXPECT_EQ(client.wait(), 1) << "the client went away";
}

}  // namespace
}  // namespace klint::testing
