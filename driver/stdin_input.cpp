#include "driver/stdin_input.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "analyzer/frontend.h"

namespace klint {

std::optional<std::string> stdin_usage_error(const std::vector<std::string>& paths, const std::string& stdin_filename,
                                             bool commands) {
  const bool dash = std::find(paths.begin(), paths.end(), "-") != paths.end();
  if (stdin_filename.empty()) {
    if (!dash) return std::nullopt;
    return "-: a shader on standard input needs --stdin-filename NAME, whose extension gives its language "
           "(k.comp, k.hlsl, k.spv, k.spvasm)";
  }
  if (commands || std::any_of(paths.begin(), paths.end(), [](const std::string& path) { return path != "-"; })) {
    return "--stdin-filename: standard input is linted alone; name no other files, folders or --commands";
  }
  return std::nullopt;
}

std::optional<StdinInput> read_stdin_input(const std::string& name, std::optional<Language> language,
                                           bool force_compute, std::string* error) {
  if (!language) language = language_for_path(name, force_compute);
  if (!language) {
    *error = fmt::format("--stdin-filename {}: unknown file type: use -fshader-stage=compute for GLSL with other "
                         "extensions",
                         name);
    return std::nullopt;
  }
  StdinInput input{InputFile{name, *language, true}, {}};
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::string reason = std::strerror(errno);
      reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
      *error = fmt::format("-: standard input: {}", reason);
      return std::nullopt;
    }
    input.text.append(buffer, static_cast<size_t>(n));
  }
  return input;
}

}  // namespace klint
