#include "driver/output/text.h"

#include <fmt/ranges.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "driver/output/span.h"

namespace klint {
namespace {

// clang's diagnostic colours.
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kMagenta = "\x1b[1;35m";
constexpr std::string_view kCyan = "\x1b[1;36m";
constexpr std::string_view kGreen = "\x1b[1;32m";
constexpr std::string_view kReset = "\x1b[0m";

constexpr size_t kTabStop = 8;
// Source lines wider than kMaxLineWidth are cut to kTrimmedWidth columns that
// start kContextBefore columns left of the caret.
constexpr size_t kMaxLineWidth = 200;
constexpr size_t kTrimmedWidth = 160;
constexpr size_t kContextBefore = 40;
constexpr std::string_view kEllipsis = "...";

class Painter {
 public:
  explicit Painter(const TextStyle& style) : color_(style.color) {}
  std::string operator()(std::string_view code, std::string_view text) const {
    if (!color_ || text.empty()) return std::string(text);
    return fmt::format("{}{}{}", code, text, kReset);
  }

 private:
  bool color_;
};

std::string_view severity_color(Severity severity) {
  switch (severity) {
    case Severity::Error: return kRed;
    case Severity::Warning: return kMagenta;
    case Severity::Note: return kCyan;
  }
  return kRed;
}

// One thing shown on the terminal for some bytes of a source line: a character,
// a tab's spaces, or the escaped form of a byte a terminal would act on.
struct Glyph {
  std::string text;
  size_t byte;    // where it starts in the source line
  size_t column;  // where it starts on screen, 0-based
  size_t width;
};

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629:
// no overlongs, no surrogates), and its code point; 0 when ill-formed.
size_t decode_utf8(std::string_view s, char32_t* code_point) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(0);
  size_t length;
  unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (s.size() < length || byte(1) < low || byte(1) > high) return 0;
  char32_t value = lead & (0xFF >> (length + 1));
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(i) & 0x3F);
  }
  *code_point = value;
  return length;
}

// C1 controls act on terminals like C0 ones; bidirectional overrides make the
// shown text differ from the compiled one ("Trojan Source").
bool is_unsafe_code_point(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

// The line as shown: tabs expanded, control and ill-formed bytes as \xNN,
// unsafe code points as <U+XXXX>. Every character counts one column.
std::vector<Glyph> render(std::string_view line) {
  std::vector<Glyph> glyphs;
  size_t column = 0;
  for (size_t at = 0; at < line.size();) {
    const unsigned char c = static_cast<unsigned char>(line[at]);
    Glyph glyph{.text = {}, .byte = at, .column = column, .width = 1};
    size_t length = 1;
    char32_t code_point = 0;
    if (c == '\t') {
      glyph.width = kTabStop - column % kTabStop;
      glyph.text.assign(glyph.width, ' ');
    } else if (c >= 0x20 && c < 0x7F) {
      glyph.text = static_cast<char>(c);
    } else if (size_t n = c >= 0x80 ? decode_utf8(line.substr(at), &code_point) : 0; n != 0) {
      length = n;
      if (is_unsafe_code_point(code_point)) {
        glyph.text = fmt::format("<U+{:04X}>", static_cast<uint32_t>(code_point));
        glyph.width = glyph.text.size();
      } else {
        glyph.text = line.substr(at, length);
      }
    } else {
      glyph.text = fmt::format("\\x{:02X}", c);
      glyph.width = glyph.text.size();
    }
    column += glyph.width;
    at += length;
    glyphs.push_back(std::move(glyph));
  }
  return glyphs;
}

size_t width_of(const std::vector<Glyph>& glyphs) {
  return glyphs.empty() ? 0 : glyphs.back().column + glyphs.back().width;
}

// The screen column of source byte `byte`; bytes past the end of the line
// continue one column each, so a caret can point just after the last character.
size_t column_of(const std::vector<Glyph>& glyphs, std::string_view line, size_t byte) {
  if (byte >= line.size()) return width_of(glyphs) + (byte - line.size());
  auto after = std::upper_bound(glyphs.begin(), glyphs.end(), byte,
                                [](size_t b, const Glyph& g) { return b < g.byte; });
  return std::prev(after)->column;
}

// The line number column: as wide as the widest line number a diagnostic
// shows, and at least as wide as clang's.
size_t gutter_width(const Diagnostic& diagnostic) {
  uint32_t max_line = diagnostic.location.line;
  for (const Note& note : diagnostic.notes) max_line = std::max(max_line, note.location.line);
  return std::max<size_t>(4, std::to_string(max_line).size()) + 1;
}

class DiagnosticPrinter {
 public:
  DiagnosticPrinter(std::ostream& out, SourceCache& sources, const TextStyle& style, size_t gutter)
      : out_(out), sources_(sources), paint_(style), gutter_(gutter) {}

  void header(const Location& location, Severity severity, std::string_view message, std::string_view rule_id);
  void snippet(const Location& location);
  // The verdict of --confirm: a line of its own, then how the run was set up.
  void confirmation(const runner::Confirmation& c) {
    if (c.status == runner::Confirmation::Status::NoRun) {
      out_ << "  " << paint_(kBold, sanitize(c.summary)) << '\n';
      return;
    }
    const std::string_view color = c.status == runner::Confirmation::Status::Confirmed ? kRed : kBold;
    out_ << "  " << paint_(color, fmt::format("{}:", runner::to_string(c.status))) << ' ' << sanitize(c.summary)
         << '\n';
    for (const std::string& detail : c.details) out_ << "    " << sanitize(detail) << '\n';
  }
  void help(std::string_view title) { out_ << "  " << paint_(kBold, "help:") << ' ' << sanitize(title) << '\n'; }
  // A shader built fifty ways would bury the finding: the text names the
  // first few (the machine formats list them all).
  void variants(const std::vector<std::string>& names) {
    constexpr size_t kShown = 8;
    std::string list = names.size() <= kShown + 1
                           ? fmt::format("{}", fmt::join(names, ", "))
                           : fmt::format("{} and {} more", fmt::join(names.begin(), names.begin() + kShown, ", "),
                                         names.size() - kShown);
    out_ << "  " << paint_(kBold, names.size() == 1 ? "variant:" : "variants:") << ' ' << sanitize(list) << '\n';
  }

 private:
  void source_line(std::string_view line, const Location& location);
  void gutter_line(std::string_view line_number, std::string_view text);

  std::ostream& out_;
  SourceCache& sources_;
  Painter paint_;
  size_t gutter_;
};

void DiagnosticPrinter::header(const Location& location, Severity severity, std::string_view message,
                               std::string_view rule_id) {
  if (!location.file.empty()) {
    std::string where = sanitize(location.file);
    if (location.line != 0) where += fmt::format(":{}", location.line);
    if (location.line != 0 && location.column != 0) where += fmt::format(":{}", location.column);
    out_ << paint_(kBold, where + ":") << ' ';
  }
  out_ << paint_(severity_color(severity), fmt::format("{}:", to_string(severity))) << ' ';
  std::string text = sanitize(message);
  if (!rule_id.empty()) text += fmt::format(" [{}]", rule_id);
  out_ << paint_(kBold, text) << '\n';
}

void DiagnosticPrinter::snippet(const Location& location) {
  if (location.has_line()) {
    const SourceFile* file = sources_.get(location.file);
    if (file && location.line <= file->line_count()) return source_line(file->line(location.line), location);
  }
  // No text to show the line from (e.g. a .spv): show what the producer gave.
  std::string_view excerpt = location.excerpt;
  while (!excerpt.empty()) {
    size_t end = std::min(excerpt.find('\n'), excerpt.size());
    gutter_line("", sanitize(excerpt.substr(0, end)));
    excerpt.remove_prefix(std::min(end + 1, excerpt.size()));
  }
}

void DiagnosticPrinter::gutter_line(std::string_view line_number, std::string_view text) {
  out_ << fmt::format("{:>{}} |", line_number, gutter_) << (text.empty() ? "" : " ") << text << '\n';
}

void DiagnosticPrinter::source_line(std::string_view line, const Location& location) {
  const std::vector<Glyph> glyphs = render(line);
  // The marked bytes [begin, end): from the column to end_column, or the first
  // non-blank character when only the line is known.
  bool has_caret = true;
  size_t begin = 0, end = 0;
  if (std::optional<ByteSpan> span = marked_span(line, location)) {
    begin = span->begin;
    end = span->end;
  } else {
    begin = line.find_first_not_of(" \t");
    has_caret = begin != std::string_view::npos;
    end = begin + 1;
  }
  size_t caret_begin = has_caret ? column_of(glyphs, line, begin) : 0;
  size_t caret_end = has_caret ? std::max(column_of(glyphs, line, end), caret_begin + 1) : 0;

  // Keep the glyphs in [first, last) and move the caret with them.
  size_t first = 0, last = glyphs.size();
  std::string prefix, suffix;
  if (width_of(glyphs) > kMaxLineWidth) {
    const size_t window_begin = caret_begin > kContextBefore ? caret_begin - kContextBefore : 0;
    const size_t window_end = window_begin + kTrimmedWidth;
    while (first < last && glyphs[first].column < window_begin) ++first;
    last = first;
    while (last < glyphs.size() && glyphs[last].column + glyphs[last].width <= window_end) ++last;
    if (first > 0) prefix = kEllipsis;
    if (last < glyphs.size()) suffix = kEllipsis;
    const size_t shown_begin = first < glyphs.size() ? glyphs[first].column : width_of(glyphs);
    const size_t shown_end = last < glyphs.size() ? glyphs[last].column : width_of(glyphs);
    caret_end = std::min(caret_end, std::max(shown_end, caret_begin + 1));
    caret_begin = caret_begin - shown_begin + prefix.size();
    caret_end = caret_end - shown_begin + prefix.size();
  }
  std::string text = prefix;
  for (size_t i = first; i < last; ++i) text += glyphs[i].text;
  text += suffix;
  gutter_line(std::to_string(location.line), text);
  if (!has_caret) return;
  std::string marker = "^" + std::string(caret_end - caret_begin - 1, '~');
  gutter_line("", std::string(caret_begin, ' ') + paint_(kGreen, marker));
}

}  // namespace

std::string sanitize(std::string_view text) {
  std::string out;
  for (const Glyph& glyph : render(text)) out += glyph.text;
  return out;
}

bool use_color(ColorMode mode, int fd) {
  switch (mode) {
    case ColorMode::Always: return true;
    case ColorMode::Never: return false;
    case ColorMode::Auto: break;
  }
  // https://no-color.org: set and non-empty disables colour.
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  return ::isatty(fd) == 1;
}

void print_diagnostic(std::ostream& out, const Finding& diagnostic, SourceCache& sources,
                      const TextStyle& style) {
  DiagnosticPrinter printer(out, sources, style, gutter_width(diagnostic));
  printer.header(diagnostic.location, diagnostic.severity, diagnostic.message,
                 diagnostic.rule ? diagnostic.rule->id : std::string_view());
  printer.snippet(diagnostic.location);
  for (const Note& note : diagnostic.notes) {
    printer.header(note.location, Severity::Note, note.message, {});
    printer.snippet(note.location);
  }
  if (!diagnostic.variants.empty()) printer.variants(diagnostic.variants);
  if (diagnostic.confirmation) {
    printer.confirmation(*diagnostic.confirmation);
    for (const Note& note : diagnostic.confirmation->witness) {
      printer.header(note.location, Severity::Note, note.message, {});
      printer.snippet(note.location);
    }
  }
  if (!diagnostic.fix_title.empty()) printer.help(diagnostic.fix_title);
}

// "klint.toml:7:1", or the path alone.
std::string message_place(const InputMessage& message) {
  if (message.line == 0) return message.path;
  if (message.column == 0) return fmt::format("{}:{}", message.path, message.line);
  return fmt::format("{}:{}:{}", message.path, message.line, message.column);
}

void print_input_message(std::ostream& out, const InputMessage& message, const TextStyle& style) {
  Painter paint(style);
  const Severity severity = message.is_error ? Severity::Error : Severity::Note;
  out << "klint: " << paint(severity_color(severity), fmt::format("{}:", to_string(severity))) << ' '
      << paint(kBold, message.reason_names_path
                          ? sanitize(message.reason)
                          : fmt::format("{}: {}", sanitize(message_place(message)), sanitize(message.reason)))
      << '\n';
}

void print_summary(std::ostream& out, const std::vector<Finding>& diagnostics, size_t files_linted,
                   size_t input_errors, const TextStyle& style, bool show_clean) {
  if (diagnostics.empty() && input_errors == 0 && !show_clean) return;
  auto count = [](size_t n, std::string_view noun) {
    return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
  };
  std::vector<std::string> parts;
  for (Severity severity : {Severity::Error, Severity::Warning, Severity::Note}) {
    auto n = std::count_if(diagnostics.begin(), diagnostics.end(),
                           [&](const Diagnostic& diagnostic) { return diagnostic.severity == severity; });
    if (n > 0) parts.push_back(count(static_cast<size_t>(n), to_string(severity)));
  }
  std::string line;
  if (!parts.empty()) {
    line = fmt::format("{} in {}", fmt::join(parts, ", "), count(files_linted, "file"));
  } else if (files_linted == 0) {
    // A broken configuration or missing paths: "no issues" would read as a pass.
    line = "nothing linted";
  } else {
    line = fmt::format("checked {}: no findings", count(files_linted, "file"));
  }
  if (input_errors > 0) line += fmt::format(" ({})", count(input_errors, "input error"));
  out << Painter(style)(kBold, line) << '\n';
}

}  // namespace klint
