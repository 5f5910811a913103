#include "driver/server/actions.h"

#include <fmt/core.h>

#include <set>

#include "driver/docs.h"
#include "driver/server/convert.h"
#include "driver/suppressions.h"

namespace klint::server {
namespace {

using nlohmann::json;

// Line `line` (0-based) of `text`, without its terminator.
std::string_view line_of(std::string_view text, uint32_t line) {
  size_t start = 0;
  for (uint32_t i = 0; i < line; ++i) {
    size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) return {};
    start = newline + 1;
  }
  std::string_view row = text.substr(start, text.find('\n', start) - start);
  if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
  return row;
}

json text_edit(const json& range, const std::string& text) { return {{"range", range}, {"newText", text}}; }

json insertion(uint32_t line, uint32_t character, const std::string& text) {
  return text_edit(lsp_range(line, character, line, character), text);
}

// Adds `rule` to the `// klint-ignore...:` comment that `suppression` read,
// after the ids it names (before its `-- reason`): nullopt when the comment is
// not a line comment of this form.
std::optional<json> extend(const Suppression& suppression, std::string_view text, std::string_view rule) {
  std::string_view row = line_of(text, suppression.line - 1);
  const std::string_view kind = suppression.target_line == 0 ? "klint-ignore-file" : "klint-ignore-next-line";
  size_t comment = row.find("//");
  size_t at = row.find(kind, comment == std::string_view::npos ? row.size() : comment);
  if (comment == std::string_view::npos || at == std::string_view::npos) return std::nullopt;
  size_t colon = row.find(':', at);
  if (colon == std::string_view::npos) return std::nullopt;
  size_t end = std::min(row.find("--", colon), row.size());
  while (end > colon + 1 && (row[end - 1] == ' ' || row[end - 1] == '\t')) --end;
  // A byte offset is a character in every encoding only on an ASCII line.
  for (size_t i = 0; i < end; ++i) {
    if (static_cast<unsigned char>(row[i]) >= 0x80) return std::nullopt;
  }
  return insertion(suppression.line - 1, static_cast<uint32_t>(end), fmt::format(", {}", rule));
}

// The edit that silences `rule` on 1-based `line` of `text` (line 0: in the whole file).
json suppression_edit(std::string_view text, uint32_t line, std::string_view rule) {
  for (const Suppression& suppression : parse_suppressions("", text)) {
    const bool same_kind = line == 0 ? suppression.target_line == 0
                                     : suppression.target_line == line && suppression.line + 1 == line;
    if (!same_kind) continue;
    if (std::optional<json> edit = extend(suppression, text, rule)) return *edit;
  }
  const std::string newline = text.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  if (line == 0) return insertion(0, 0, fmt::format("// klint-ignore-file: {}{}", rule, newline));
  std::string_view row = line_of(text, line - 1);
  std::string indent(row.substr(0, row.find_first_not_of(" \t") == std::string_view::npos
                                       ? row.size()
                                       : row.find_first_not_of(" \t")));
  return insertion(line - 1, 0, fmt::format("{}// klint-ignore-next-line: {}{}", indent, rule, newline));
}

json action(const std::string& title, const std::string& uri, const json& diagnostic, json edits, bool preferred) {
  json out{{"title", title},
           {"kind", "quickfix"},
           {"diagnostics", json::array({diagnostic})},
           {"edit", {{"changes", {{uri, std::move(edits)}}}}}};
  if (preferred) out["isPreferred"] = true;
  return out;
}

}  // namespace

json code_actions(const std::string& uri, const std::string& text, const std::vector<Published>& findings,
                  const json& range) {
  json fixes = json::array();
  json suppressions = json::array();
  std::set<std::string> offered;  // one suppression per rule and line
  for (const Published& published : findings) {
    const Finding& finding = published.finding;
    if (!finding.rule || !overlaps(published.diagnostic.at("range"), range)) continue;
    const std::string id(finding.rule->id);
    if (!published.fix.empty()) {
      std::string title = finding.fix_title.empty() ? "Apply klint's fix" : finding.fix_title;
      title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
      fixes.push_back(action(title, uri, published.diagnostic, published.fix, true));
    }
    // A finding elsewhere (an included file) is shown at the top of the
    // document; the comment belongs in that file.
    if (!published.in_document) continue;
    const uint32_t line = finding.location.line;
    if (finding.location.has_line() && offered.insert(fmt::format("{}:{}", id, line)).second) {
      suppressions.push_back(action(fmt::format("Suppress {} on this line", id), uri, published.diagnostic,
                                    json::array({suppression_edit(text, line, id)}), false));
    }
    if (offered.insert(id).second) {
      suppressions.push_back(action(fmt::format("Suppress {} in this file", id), uri, published.diagnostic,
                                    json::array({suppression_edit(text, 0, id)}), false));
    }
  }
  for (json& suppression : suppressions) fixes.push_back(std::move(suppression));
  return fixes;
}

json hover(const std::vector<Published>& findings, const json& position) {
  std::string markdown;
  json range;
  std::set<const RuleInfo*> shown;
  for (const Published& published : findings) {
    const RuleInfo* rule = published.finding.rule;
    if (!rule || !contains(published.diagnostic.at("range"), position) || !shown.insert(rule).second) continue;
    std::string doc = rule_markdown(*rule);
    if (doc.starts_with("<!--")) doc.erase(0, doc.find('\n') + 1);  // "generated, do not edit"
    markdown += (markdown.empty() ? "" : "\n\n---\n\n") + doc;
    if (range.is_null()) range = published.diagnostic.at("range");
  }
  if (markdown.empty()) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", markdown}}}, {"range", range}};
}

}  // namespace klint::server
