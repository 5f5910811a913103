// The Language Server Protocol's base protocol: JSON-RPC 2.0 messages, each
// framed by a `Content-Length: N` header and a blank line
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#baseProtocol).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace klint::server {

// JSON-RPC's and the LSP's error codes.
enum class ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
};

// One read from the client: a message's body, a frame that could not be read
// (its bytes are skipped, the next frame is read after them), or the end of
// the input.
struct Frame {
  enum class Kind { Message, Malformed, End };
  Kind kind = Kind::End;
  std::string text;  // the body; for Malformed, why
};

// Reads frames from a file descriptor, buffering what it read ahead.
class FrameReader {
 public:
  explicit FrameReader(int fd) : fd_(fd) {}

  // Whether next() would return without waiting for the client.
  bool ready();
  // ready(), after waiting up to `milliseconds` for the client to send.
  bool wait(int milliseconds);
  // The next frame, waiting for it.
  Frame next();

 private:
  // A whole frame from the buffer, or nullopt when more bytes are needed.
  std::optional<Frame> take();
  // Reads what the descriptor has, waiting for it. False at the end of the input.
  bool fill();

  int fd_;
  std::string buffer_;
  bool ended_ = false;
};

// Writes framed messages to a file descriptor. Returns false once the client
// is gone.
class FrameWriter {
 public:
  explicit FrameWriter(int fd) : fd_(fd) {}
  bool write(const nlohmann::json& message);

 private:
  int fd_;
};

nlohmann::json error_response(const nlohmann::json& id, ErrorCode code, const std::string& message);

}  // namespace klint::server
