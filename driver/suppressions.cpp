#include "driver/suppressions.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "driver/suggestions.h"

namespace klint {

namespace {

std::vector<std::string> split_rules(const std::string& list) {
  std::vector<std::string> rules;
  size_t at = 0;
  while (at <= list.size()) {
    size_t comma = list.find(',', at);
    std::string id = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    id.erase(0, id.find_first_not_of(" \t"));
    id.erase(id.find_last_not_of(" \t") + 1);
    if (!id.empty()) rules.push_back(id);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return rules;
}

}  // namespace

std::vector<Suppression> parse_suppressions(const std::string& file, std::string_view text) {
  // `// klint-ignore...: ids -- reason` runs to the end of the line;
  // `/* klint-ignore...: ids -- reason */` ends at its `*/` (or the line's
  // end), and code may follow it on the line.
  static const std::regex kLineComment(
      R"(//\s*klint-ignore(-next-line|-file)?\s*:\s*([^\r\n]*?)\s*(?:--\s*([^\r\n]*))?$)");
  static const std::regex kBlockComment(
      R"(/\*\s*klint-ignore(-next-line|-file)?\s*:\s*([^\r\n]*?)\s*(?:--\s*([^\r\n]*?))?\s*(?:\*/|$))");
  std::vector<Suppression> out;
  uint32_t line = 0;
  size_t start = 0;
  auto add = [&](const std::smatch& match) {
    Suppression suppression{file, line, line, split_rules(match[2].str()), match[3].str()};
    if (match[1] == "-next-line") suppression.target_line = line + 1;
    if (match[1] == "-file") suppression.target_line = 0;
    out.push_back(std::move(suppression));
  };
  while (start <= text.size()) {
    ++line;
    size_t end = text.find('\n', start);
    std::string current(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (!current.empty() && current.back() == '\r') current.pop_back();  // CRLF files
    if (current.find("klint-ignore") != std::string::npos) {
      for (std::sregex_iterator it(current.begin(), current.end(), kBlockComment), done; it != done; ++it) add(*it);
      std::smatch match;
      if (std::regex_search(current, match, kLineComment)) add(match);
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

std::vector<SuppressedDiagnostic> apply_suppressions(std::vector<Finding>& diagnostics, const std::string& main_file,
                                                     SourceCache& sources, const RuleSelection& selection,
                                                     std::vector<InputMessage>* notes) {
  std::vector<SuppressedDiagnostic> silenced_diagnostics;
  std::set<std::string> files{main_file};
  for (const Diagnostic& diagnostic : diagnostics) files.insert(diagnostic.location.file);
  std::vector<Suppression> suppressions;
  for (const std::string& file : files) {
    const SourceFile* source = sources.get(file);
    if (!source) continue;
    for (Suppression& s : parse_suppressions(file, source->text())) suppressions.push_back(std::move(s));
  }
  if (suppressions.empty()) return silenced_diagnostics;
  // named[i][j]: the rule that suppression i names j-th (nullptr: no klint
  // rule); used[i][j]: it silenced something.
  std::vector<std::vector<const RuleInfo*>> named(suppressions.size());
  std::vector<std::vector<bool>> used(suppressions.size());
  for (size_t i = 0; i < suppressions.size(); ++i) {
    const Suppression& s = suppressions[i];
    for (const std::string& id : s.rules) {
      named[i].push_back(RuleRegistry::find(id));
      // Said once per comment, where unused suppressions are reported: in the file linted.
      std::string note = renamed_rule_note(id);
      if (notes && !note.empty() && s.file == main_file) {
        notes->push_back(InputMessage{s.file, std::move(note), false, s.line, 0, true});
      }
    }
    used[i].assign(s.rules.size(), false);
  }
  std::erase_if(diagnostics, [&](const Finding& diagnostic) {
    const Suppression* silenced = nullptr;
    for (size_t i = 0; i < suppressions.size(); ++i) {
      const Suppression& s = suppressions[i];
      if (s.file != diagnostic.location.file) continue;
      if (s.target_line != 0 && s.target_line != diagnostic.location.line) continue;
      for (size_t j = 0; j < s.rules.size(); ++j) {
        if (diagnostic.rule && named[i][j] == diagnostic.rule) {
          used[i][j] = true;
          if (!silenced) silenced = &s;
        }
      }
    }
    if (silenced) silenced_diagnostics.push_back(SuppressedDiagnostic{diagnostic, *silenced});
    return silenced != nullptr;
  });
  if (!selection.enabled(kUnusedSuppression)) return silenced_diagnostics;
  for (size_t i = 0; i < suppressions.size(); ++i) {
    const Suppression& s = suppressions[i];
    if (s.file != main_file) continue;
    for (size_t j = 0; j < s.rules.size(); ++j) {
      if (used[i][j]) continue;
      const RuleInfo* rule = named[i][j];
      if (rule && !selection.enabled(*rule)) continue;
      std::string message = rule ? fmt::format("suppression of {} silences nothing here", s.rules[j])
                                 : fmt::format("suppression names '{}', which is not a klint rule{}", s.rules[j],
                                               did_you_mean_rule(s.rules[j]));
      diagnostics.push_back(Diagnostic{&kUnusedSuppression, kUnusedSuppression.default_severity, message,
                                       Location{s.file, s.line, 0, 0, {}, "klint-ignore"}, {},
                                       rule ? "remove the suppression" : "klint --list-rules lists the rule ids"});
    }
  }
  return silenced_diagnostics;
}

}  // namespace klint
