#include "driver/output/span.h"

#include <algorithm>
#include <cctype>

namespace klint {
namespace {

// The first occurrence of `name` in `line` as a whole identifier, or npos.
size_t find_identifier(std::string_view line, std::string_view name) {
  if (name.empty()) return std::string_view::npos;
  auto is_identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    bool starts = at == 0 || !is_identifier(line[at - 1]);
    bool ends = at + name.size() == line.size() || !is_identifier(line[at + name.size()]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<ByteSpan> marked_span(std::string_view line, const Location& location) {
  if (location.column != 0) {
    // Columns past the end (a producer's off-by-N) mark the end of the line.
    size_t begin = std::min<size_t>(location.column - 1, line.size());
    size_t end = location.end_column > location.column ? location.end_column - 1 : begin + 1;
    end = std::clamp<size_t>(end, begin + 1, std::max(line.size(), begin + 1));
    return ByteSpan{begin, end};
  }
  if (size_t at = find_identifier(line, location.token); at != std::string_view::npos) {
    return ByteSpan{at, at + location.token.size()};
  }
  return std::nullopt;
}

void resolve_columns(Location& location, SourceCache& sources) {
  if (location.column != 0 || !location.has_line() || location.token.empty()) return;
  const SourceFile* source = sources.get(location.file);
  if (!source || location.line > source->line_count()) return;
  std::optional<ByteSpan> span = marked_span(source->line(location.line), location);
  if (!span) return;
  location.column = static_cast<uint32_t>(span->begin + 1);
  location.end_column = static_cast<uint32_t>(span->end + 1);
}

void resolve_columns(Finding& finding, SourceCache& sources) {
  // A mechanical fix is given whole or not at all: each edit needs the exact
  // bytes it replaces on a line of its file.
  for (Replacement& edit : finding.fix) {
    const SourceFile* source = edit.location.has_line() ? sources.get(edit.location.file) : nullptr;
    std::optional<ByteSpan> span;
    if (source && edit.location.line <= source->line_count()) {
      span = marked_span(source->line(edit.location.line), edit.location);
    }
    if (!span || span->end > source->line(edit.location.line).size()) {
      finding.fix.clear();
      break;
    }
    edit.location.column = static_cast<uint32_t>(span->begin + 1);
    edit.location.end_column = static_cast<uint32_t>(span->end + 1);
  }
  resolve_columns(finding.location, sources);
  for (Note& note : finding.notes) resolve_columns(note.location, sources);
  if (finding.confirmation) {
    for (Note& note : finding.confirmation->witness) resolve_columns(note.location, sources);
  }
}

}  // namespace klint
