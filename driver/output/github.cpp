#include "driver/output/github.h"

#include <fmt/ranges.h>

#include <fmt/core.h>

#include "driver/output/text.h"

namespace klint {
namespace {

std::string_view command(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    default: return "notice";
  }
}

}  // namespace

std::string github_escape(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

void print_github(std::ostream& out, const Finding& diagnostic) {
  std::string properties = "file=" + github_escape(sanitize(diagnostic.location.file), true);
  if (diagnostic.location.has_line()) properties += fmt::format(",line={}", diagnostic.location.line);
  if (diagnostic.location.column) properties += fmt::format(",col={}", diagnostic.location.column);
  if (diagnostic.location.end_column) properties += fmt::format(",endColumn={}", diagnostic.location.end_column);
  std::string rule = diagnostic.rule ? std::string(diagnostic.rule->id) : "klint";
  properties += ",title=" + github_escape(rule, true);
  // The notes, with their lines, and the fix follow the message on lines of their own.
  std::string message = diagnostic.message;
  for (const Note& note : diagnostic.notes) {
    const Location& at = note.location;
    std::string place = at.column ? fmt::format("{}:{}:{}", sanitize(at.file), at.line, at.column)
                                  : fmt::format("{}:{}", sanitize(at.file), at.line);
    message += at.has_line() ? fmt::format("\n{}: {}", place, note.message) : "\n" + note.message;
  }
  if (!diagnostic.variants.empty()) message += fmt::format("\nvariants: {}", fmt::join(diagnostic.variants, ", "));
  if (!diagnostic.fix_title.empty()) message += "\nhelp: " + diagnostic.fix_title;
  out << "::" << command(diagnostic.severity) << ' ' << properties << "::" << github_escape(message, false) << '\n';
}

void print_github(std::ostream& out, const InputMessage& message) {
  out << "::" << (message.is_error ? "error" : "notice") << " file=" << github_escape(sanitize(message.path), true);
  if (message.line) out << ",line=" << message.line;
  if (message.line && message.column) out << ",col=" << message.column;
  out << ",title=klint::" << github_escape(message.reason, false) << '\n';
}

}  // namespace klint
