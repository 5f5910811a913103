#include "driver/server/protocol.h"

#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <optional>
#include <string_view>

namespace klint::server {
namespace {

// A header block or a body larger than this is not a client's message.
constexpr size_t kMaxHeader = 8 * 1024;
constexpr size_t kMaxBody = 256 * 1024 * 1024;

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The Content-Length of a header block (its lines without the blank one), or
// nullopt with `error`.
std::optional<size_t> content_length(std::string_view headers, std::string* error) {
  std::optional<size_t> length;
  while (!headers.empty()) {
    size_t end = headers.find("\r\n");
    std::string_view line = headers.substr(0, end);
    headers = end == std::string_view::npos ? std::string_view() : headers.substr(end + 2);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      *error = "a header line without ':'";
      return std::nullopt;
    }
    if (!equals_ignoring_case(line.substr(0, colon), "Content-Length")) continue;  // Content-Type and others
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    size_t n = 0;
    auto [at, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || at != value.data() + value.size() || n > kMaxBody) {
      *error = "Content-Length is not a length";
      return std::nullopt;
    }
    length = n;
  }
  if (!length) *error = "no Content-Length header";
  return length;
}

}  // namespace

std::optional<Frame> FrameReader::take() {
  size_t end = buffer_.find("\r\n\r\n");
  if (end == std::string::npos) {
    if (buffer_.size() <= kMaxHeader) return std::nullopt;
    buffer_.clear();
    return Frame{Frame::Kind::Malformed, "a header block without its end (\\r\\n\\r\\n)"};
  }
  std::string error;
  std::optional<size_t> length = content_length(std::string_view(buffer_).substr(0, end), &error);
  if (!length) {
    buffer_.erase(0, end + 4);
    return Frame{Frame::Kind::Malformed, error};
  }
  if (buffer_.size() < end + 4 + *length) return std::nullopt;
  Frame frame{Frame::Kind::Message, buffer_.substr(end + 4, *length)};
  buffer_.erase(0, end + 4 + *length);
  return frame;
}

bool FrameReader::fill() {
  char chunk[1 << 16];
  while (!ended_) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    ended_ = true;
  }
  return false;
}

bool FrameReader::ready() {
  if (ended_ || buffer_.size() > kMaxHeader) return true;
  if (size_t end = buffer_.find("\r\n\r\n"); end != std::string::npos) {
    std::string error;
    std::optional<size_t> length = content_length(std::string_view(buffer_).substr(0, end), &error);
    if (!length || buffer_.size() >= end + 4 + *length) return true;
  }
  // Bytes or the end waiting: a client sends a message whole, so the rest follows.
  pollfd request{fd_, POLLIN, 0};
  return ::poll(&request, 1, 0) > 0;
}

bool FrameReader::wait(int milliseconds) {
  if (ready()) return true;
  pollfd request{fd_, POLLIN, 0};
  while (::poll(&request, 1, milliseconds) < 0 && errno == EINTR) {
  }
  return ready();
}

Frame FrameReader::next() {
  while (true) {
    if (std::optional<Frame> frame = take()) return *std::move(frame);
    if (!fill()) {
      // Bytes left at the end are a frame cut short.
      bool blank = buffer_.find_first_not_of(" \t\r\n") == std::string::npos;
      buffer_.clear();
      if (!blank) return Frame{Frame::Kind::Malformed, "the input ended inside a message"};
      return Frame{Frame::Kind::End, ""};
    }
  }
}

bool FrameWriter::write(const nlohmann::json& message) {
  // Invalid UTF-8 (a path or a line the shader holds) is replaced, never thrown on.
  const std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  size_t written = 0;
  while (written < frame.size()) {
    ssize_t n = ::write(fd_, frame.data() + written, frame.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

nlohmann::json error_response(const nlohmann::json& id, ErrorCode code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

}  // namespace klint::server
