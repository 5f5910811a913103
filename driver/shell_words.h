// Splits command lines as a POSIX shell would, for the plain-text form of
// --commands: words separated by blanks, '...' and "..." quoting, backslash
// escapes, `\` line continuations, `#` comments. What only a running shell
// could resolve ($VAR, `cmd`, pipes, redirections, `;`, `&&`) is an error, so
// that klint never lints something other than what the build compiles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klint {

struct ShellCommand {
  std::vector<std::string> words;
  uint32_t line = 0;  // 1-based line of its first word
};

struct ShellError {
  uint32_t line = 0;
  std::string reason;
};

// One command per line (continuations join lines); blank and comment-only
// lines give none.
std::optional<std::vector<ShellCommand>> split_shell_lines(std::string_view text, ShellError* error);

}  // namespace klint
