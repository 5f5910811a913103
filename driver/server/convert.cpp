#include "driver/server/convert.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "driver/output/sarif_tool.h"
#include "driver/output/span.h"

namespace klint::server {
namespace {

using nlohmann::json;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Bytes of the UTF-8 sequence that `lead` starts (1 for a stray byte).
size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return lead < 0xF0 ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

json position(uint32_t line, uint32_t character) { return {{"line", line}, {"character", character}}; }

// (line, character) of a Position, for ordering.
std::pair<int64_t, int64_t> key(const json& position) {
  return {position.at("line").get<int64_t>(), position.at("character").get<int64_t>()};
}

}  // namespace

std::optional<std::string> path_of_uri(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.size() < kScheme.size() || !std::equal(kScheme.begin(), kScheme.end(), uri.begin(), [](char a, char b) {
        return a == std::tolower(static_cast<unsigned char>(b));
      })) {
    return std::nullopt;
  }
  uri.remove_prefix(kScheme.size());
  // file://localhost/path and file:///path; another host is not this machine's.
  size_t slash = uri.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view host = uri.substr(0, slash);
  if (!host.empty() && host != "localhost") return std::nullopt;
  uri.remove_prefix(slash);
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex_value(uri[i + 1]) >= 0 && hex_value(uri[i + 2]) >= 0) {
      path += static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2]));
      i += 2;
    } else if (uri[i] == '?' || uri[i] == '#') {
      break;
    } else {
      path += uri[i];
    }
  }
  return path;
}

std::string uri_of_path(const std::string& path) {
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  if (ec) absolute = path;
  std::string uri = "file://";
  for (unsigned char c : absolute) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += fmt::format("%{:02X}", c);
    }
  }
  return uri;
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec;
  return std::filesystem::absolute(a, ec).lexically_normal() == std::filesystem::absolute(b, ec).lexically_normal();
}

uint32_t character_of(std::string_view line, size_t byte, Encoding encoding) {
  byte = std::min(byte, line.size());
  if (encoding == Encoding::Utf8) return static_cast<uint32_t>(byte);
  uint32_t units = 0;
  for (size_t at = 0; at < byte;) {
    size_t length = sequence_length(static_cast<unsigned char>(line[at]));
    units += length == 4 ? 2 : 1;  // beyond the BMP: a surrogate pair
    at += length;
  }
  return units;
}

size_t byte_of(std::string_view line, uint32_t character, Encoding encoding) {
  if (encoding == Encoding::Utf8) return std::min<size_t>(character, line.size());
  size_t at = 0;
  for (uint32_t units = 0; at < line.size() && units < character;) {
    size_t length = sequence_length(static_cast<unsigned char>(line[at]));
    units += length == 4 ? 2 : 1;
    at = std::min(at + length, line.size());
  }
  return at;
}

size_t offset_of(std::string_view text, const json& position, Encoding encoding) {
  const int64_t line = position.at("line").get<int64_t>();
  size_t start = 0;
  for (int64_t i = 0; i < line; ++i) {
    size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) return text.size();
    start = newline + 1;
  }
  size_t end = std::min(text.find('\n', start), text.size());
  std::string_view row = text.substr(start, end - start);
  if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
  const int64_t character = std::max<int64_t>(0, position.at("character").get<int64_t>());
  return start + byte_of(row, static_cast<uint32_t>(std::min<int64_t>(character, UINT32_MAX)), encoding);
}

json lsp_range(uint32_t start_line, uint32_t start_character, uint32_t end_line, uint32_t end_character) {
  return {{"start", position(start_line, start_character)}, {"end", position(end_line, end_character)}};
}

json lsp_range(const Location& location, SourceCache& sources, Encoding encoding) {
  if (!location.has_line()) return lsp_range(0, 0, 0, 0);
  const uint32_t line = location.line - 1;
  const SourceFile* source = location.file.empty() ? nullptr : sources.get(location.file);
  if (!source || location.line > source->line_count()) return lsp_range(line, 0, line, 0);
  std::string_view text = source->line(location.line);
  // As SARIF's region: what the text output underlines, else the whole line.
  ByteSpan span = marked_span(text, location).value_or(ByteSpan{0, text.size()});
  span.end = std::max(span.begin, std::min(span.end, text.size()));
  return lsp_range(line, character_of(text, span.begin, encoding), line, character_of(text, span.end, encoding));
}

std::optional<json> exact_range(const Location& location, SourceCache& sources, Encoding encoding) {
  if (!location.has_line() || location.file.empty()) return std::nullopt;
  const SourceFile* source = sources.get(location.file);
  if (!source || location.line > source->line_count()) return std::nullopt;
  std::string_view text = source->line(location.line);
  std::optional<ByteSpan> span = marked_span(text, location);
  if (!span || span->end > text.size()) return std::nullopt;
  const uint32_t line = location.line - 1;
  return lsp_range(line, character_of(text, span->begin, encoding), line, character_of(text, span->end, encoding));
}

bool contains(const json& range, const json& position) {
  return key(range.at("start")) <= key(position) && key(position) <= key(range.at("end"));
}

bool overlaps(const json& a, const json& b) {
  return key(a.at("start")) <= key(b.at("end")) && key(b.at("start")) <= key(a.at("end"));
}

namespace {

// The name that one of the document's own #include lines wrote for the
// header through which a chain of `includes` reaches `file`; nullopt when no
// chain does. Breadth first, so the shortest chain wins.
std::optional<std::string> included_as(const std::string& document, const std::string& file,
                                       std::span<const Inclusion> includes) {
  std::vector<std::pair<std::string, std::string>> layer;  // a file reached, and the document's name for its chain
  for (const Inclusion& inclusion : includes) {
    if (same_file(inclusion.includer, document)) layer.emplace_back(inclusion.path, inclusion.name);
  }
  std::set<std::string> seen;
  while (!layer.empty()) {
    std::vector<std::pair<std::string, std::string>> next;
    for (const auto& [path, name] : layer) {
      if (same_file(path, file)) return name;
      if (!seen.insert(path).second) continue;
      for (const Inclusion& inclusion : includes) {
        if (inclusion.includer == path) next.emplace_back(inclusion.path, name);
      }
    }
    layer = std::move(next);
  }
  return std::nullopt;
}

// The first line of `document` that is `#include` of `name`, in quotes or
// brackets, as a range over its text.
std::optional<json> include_line(const std::string& document, const std::string& name, SourceCache& sources,
                                 Encoding encoding) {
  const SourceFile* source = sources.get(document);
  if (!source) return std::nullopt;
  for (uint32_t number = 1; number <= source->line_count(); ++number) {
    std::string_view text = source->line(number);
    const size_t hash = text.find_first_not_of(" \t");
    if (hash == std::string_view::npos || text[hash] != '#') continue;
    const size_t word = text.find_first_not_of(" \t", hash + 1);
    if (word == std::string_view::npos || text.substr(word, 7) != "include") continue;
    const size_t open = text.find_first_of("\"<", word + 7);
    const size_t close = open == std::string_view::npos ? open : text.find_first_of("\">", open + 1);
    if (close == std::string_view::npos || text.substr(open + 1, close - open - 1) != name) continue;
    const size_t end = text.find_last_not_of(" \t\r") + 1;
    return lsp_range(number - 1, character_of(text, hash, encoding), number - 1, character_of(text, end, encoding));
  }
  return std::nullopt;
}

}  // namespace

json lsp_diagnostic(const Finding& finding, const std::string& document, std::span<const Inclusion> includes,
                    SourceCache& sources, Encoding encoding) {
  const bool elsewhere = finding.location.has_line() && !finding.location.file.empty() &&
                         !same_file(finding.location.file, document);
  std::string message = finding.message;
  if (elsewhere) message = fmt::format("{}:{}: {}", finding.location.file, finding.location.line, message);
  if (!finding.variants.empty()) {
    std::string names;
    for (const std::string& variant : finding.variants) names += (names.empty() ? "" : ", ") + variant;
    message += fmt::format("\n{}: {}", finding.variants.size() == 1 ? "variant" : "variants", names);
  }
  if (!finding.fix_title.empty()) message += "\nhelp: " + finding.fix_title;
  json related = json::array();
  auto relate = [&](const Location& location, const std::string& text) {
    const std::string& file = location.file.empty() ? document : location.file;
    related.push_back({{"location", {{"uri", uri_of_path(file)}, {"range", lsp_range(location, sources, encoding)}}},
                       {"message", text}});
  };
  if (elsewhere) relate(finding.location, finding.message);
  for (const Note& note : finding.notes) relate(note.location, note.message);
  const std::string id(finding.rule ? finding.rule->id : "internal-error");
  // A finding in an included file is shown on the line whose #include leads
  // to it, else at the top of the document.
  std::optional<json> line;
  if (elsewhere) {
    if (std::optional<std::string> name = included_as(document, finding.location.file, includes)) {
      line = include_line(document, *name, sources, encoding);
    }
  }
  json range = !elsewhere ? lsp_range(finding.location, sources, encoding) : line.value_or(lsp_range(0, 0, 0, 0));
  json out{{"range", std::move(range)},
           {"severity", finding.severity == Severity::Error ? 1 : finding.severity == Severity::Warning ? 2 : 3},
           {"source", "klint"},
           {"code", id},
           {"message", message}};
  if (finding.rule) out["codeDescription"] = {{"href", rule_doc_url(*finding.rule)}};
  if (!related.empty()) out["relatedInformation"] = std::move(related);
  return out;
}

}  // namespace klint::server
