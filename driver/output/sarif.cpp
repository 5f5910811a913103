#include "driver/output/sarif.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "analyzer/frontend.h"
#include "driver/fingerprint.h"
#include "driver/output/sarif_tool.h"
#include "driver/output/span.h"

namespace klint {
namespace {

using nlohmann::json;

constexpr std::string_view kSrcRoot = "%SRCROOT%";

// Percent-encodes all but RFC 3986's unreserved characters and '/', so that a
// path with spaces, '%', '#' or a ':' in its first segment stays one path.
std::string encode_path(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string file_uri(const std::filesystem::path& absolute) { return "file://" + encode_path(absolute.string()); }

// SARIF columns count code points (run.columnKind); klint's count bytes.
uint32_t code_points(std::string_view line, size_t bytes) {
  uint32_t count = 0;
  for (size_t i = 0; i < std::min(bytes, line.size()); ++i) {
    count += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;  // continuation bytes do not count
  }
  return count;
}

class LogWriter {
 public:
  LogWriter(const SarifRun& run, SourceCache& sources)
      : run_(run), sources_(sources), root_(run.root.lexically_normal()), rules_(run.rules) {
    if (root_.filename().empty()) root_ = root_.parent_path();  // "/repo/" -> "/repo"; "/" stays
    for (size_t i = 0; i < rules_.size(); ++i) rule_index_[rules_[i]] = i;
  }

  json log();

 private:
  struct Result {
    const Finding* diagnostic;
    const Suppression* suppression;  // nullptr when reported
  };

  json result(const Result& finding, const std::string& fingerprint);
  json location(const Location& location);
  json physical_location(const Location& location);
  json artifact_location(const std::string& file) const;
  std::optional<json> region(const Location& location);
  json notification(const InputMessage& message) const;
  size_t rule_index(const RuleInfo* rule);

  const SarifRun& run_;
  SourceCache& sources_;
  std::filesystem::path root_;
  std::vector<const RuleInfo*> rules_;  // run.rules, and the rule of any finding they leave out
  std::map<const RuleInfo*, size_t> rule_index_;
};

json LogWriter::artifact_location(const std::string& file) const {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file, ec).lexically_normal();
  const std::filesystem::path relative = absolute.lexically_relative(root_);
  if (relative.empty() || *relative.begin() == "..") return {{"uri", file_uri(absolute)}};
  return {{"uri", encode_path(relative.generic_string())}, {"uriBaseId", kSrcRoot}};
}

// The marked columns of the location's line, or the whole line when it names
// neither columns nor a token found there. A location without a line covers
// the whole file: its lines, or for a SPIR-V binary its bytes.
std::optional<json> LogWriter::region(const Location& location) {
  if (language_for_path(location.file, false) == Language::SpirvBinary) {
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(location.file, ec);
    if (ec || size == 0) return std::nullopt;
    return json{{"byteOffset", 0}, {"byteLength", size}};
  }
  const SourceFile* source = sources_.get(location.file);
  if (!location.has_line()) {
    if (!source) return std::nullopt;
    const uint32_t last = static_cast<uint32_t>(source->line_count());
    return json{{"startLine", 1},
                {"startColumn", 1},
                {"endLine", last},
                {"endColumn", code_points(source->line(last), std::string::npos) + 1}};
  }
  if (!source || location.line > source->line_count()) {
    json out{{"startLine", location.line}};
    if (location.column != 0) out["startColumn"] = location.column;
    return out;
  }
  std::string_view line = source->line(location.line);
  ByteSpan span = marked_span(line, location).value_or(ByteSpan{0, line.size()});
  span.end = std::max(span.begin, std::min(span.end, line.size()));
  return json{{"startLine", location.line},
              {"startColumn", code_points(line, span.begin) + 1},
              {"endLine", location.line},
              {"endColumn", code_points(line, span.end) + 1}};
}

json LogWriter::physical_location(const Location& location) {
  json out{{"artifactLocation", artifact_location(location.file)}};
  if (std::optional<json> where = region(location)) out["region"] = std::move(*where);
  return out;
}

// The primary location; a file without text to show (a .spv) carries what is
// shown instead, e.g. the disassembled instruction, as the location's message.
json LogWriter::location(const Location& location) {
  json out{{"physicalLocation", physical_location(location)}};
  if (!location.has_line() && !location.excerpt.empty()) out["message"] = {{"text", location.excerpt}};
  return out;
}

size_t LogWriter::rule_index(const RuleInfo* rule) {
  if (!rule) rule = &kInternalError;
  auto [it, added] = rule_index_.try_emplace(rule, rules_.size());
  if (added) rules_.push_back(rule);
  return it->second;
}

json LogWriter::result(const Result& finding, const std::string& fingerprint) {
  const Finding& diagnostic = *finding.diagnostic;
  size_t index = rule_index(diagnostic.rule);
  std::string text = sarif_sentence(diagnostic.message);
  if (!diagnostic.fix_title.empty()) text += " Fix: " + sarif_sentence(diagnostic.fix_title);
  json out{{"ruleId", rules_[index]->id},
           {"ruleIndex", index},
           {"level", sarif_level(diagnostic.severity)},
           {"message", {{"text", text}}},
           {"locations", json::array({location(diagnostic.location)})},
           {"partialFingerprints", {{"klint/v1", fingerprint}}}};
  std::vector<Note> related_notes = diagnostic.notes;
  if (diagnostic.confirmation) {
    // The witness's accesses are related locations too, told apart by their message.
    for (const Note& note : diagnostic.confirmation->witness) {
      related_notes.push_back({note.location, "Witness: " + note.message});
    }
  }
  if (!related_notes.empty()) {
    json related = json::array();
    for (const Note& note : related_notes) {
      related.push_back({{"id", related.size() + 1},
                         {"message", {{"text", sarif_sentence(note.message)}}},
                         {"physicalLocation", physical_location(note.location)}});
    }
    out["relatedLocations"] = std::move(related);
  }
  if (finding.suppression) {
    const Suppression& suppression = *finding.suppression;
    json entry{{"kind", "inSource"},
               {"status", "accepted"},
               {"location", {{"physicalLocation", physical_location(Location{.file = suppression.file, .line = suppression.line})}}}};
    if (!suppression.reason.empty()) entry["justification"] = suppression.reason;
    out["suppressions"] = json::array({std::move(entry)});
  }
  if (!diagnostic.fix.empty()) {
    // One artifact change per file, its replacements in the order given.
    json changes = json::array();
    for (const Replacement& edit : diagnostic.fix) {
      const json artifact = artifact_location(edit.location.file);
      auto same = std::find_if(changes.begin(), changes.end(),
                               [&](const json& change) { return change["artifactLocation"] == artifact; });
      if (same == changes.end()) {
        changes.push_back({{"artifactLocation", artifact}, {"replacements", json::array()}});
        same = changes.end() - 1;
      }
      (*same)["replacements"].push_back(
          {{"deletedRegion", region(edit.location).value_or(json::object())}, {"insertedContent", {{"text", edit.text}}}});
    }
    out["fixes"] = json::array({{{"description", {{"text", sarif_sentence(diagnostic.fix_title)}}},
                                 {"artifactChanges", std::move(changes)}}});
  }
  if (!diagnostic.variants.empty()) out["properties"]["variants"] = diagnostic.variants;
  if (const std::optional<runner::Confirmation>& c = diagnostic.confirmation) {
    out["properties"]["confirmation"] = {{"status", std::string(runner::to_string(c->status))},
                                         {"summary", c->summary},
                                         {"details", c->details}};
  }
  return out;
}

json LogWriter::notification(const InputMessage& message) const {
  json place{{"artifactLocation", artifact_location(message.path)}};
  if (message.line) {
    place["region"] = {{"startLine", message.line}};
    if (message.column) place["region"]["startColumn"] = message.column;
  }
  return {{"level", message.is_error ? "error" : "note"},
          {"message",
           {{"text", sarif_sentence(message.reason_names_path ? message.reason
                                                              : fmt::format("{}: {}", message.path, message.reason))}}},
          {"locations", json::array({{{"physicalLocation", std::move(place)}}})}};
}

json LogWriter::log() {
  // Reported and suppressed findings in one deterministic order, reported
  // first among equals; fingerprints number look-alikes in this order.
  std::vector<Result> findings;
  for (const Finding& diagnostic : run_.diagnostics) findings.push_back({&diagnostic, nullptr});
  for (const SuppressedDiagnostic& silenced : run_.suppressed) {
    findings.push_back({&silenced.diagnostic, &silenced.suppression});
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Result& a, const Result& b) {
    return diagnostic_less(*a.diagnostic, *b.diagnostic);
  });
  std::vector<Finding> ordered;
  for (const Result& finding : findings) ordered.push_back(*finding.diagnostic);
  const std::vector<std::string> prints = fingerprints(ordered, sources_);

  json results = json::array();
  for (size_t i = 0; i < findings.size(); ++i) {
    if (findings[i].suppression && !run_.include_suppressed) continue;
    results.push_back(result(findings[i], prints[i]));
  }
  json notifications = json::array();
  for (const InputMessage& message : run_.messages) notifications.push_back(notification(message));
  json invocation{{"executionSuccessful", run_.exit_code < 2},
                  {"exitCode", run_.exit_code},
                  {"toolExecutionNotifications", std::move(notifications)}};
  std::string root_uri = file_uri(root_);
  if (!root_uri.ends_with('/')) root_uri += '/';
  json sarif_run{{"tool", {{"driver", sarif_tool_driver(rules_)}}},
                 {"invocations", json::array({std::move(invocation)})},
                 {"originalUriBaseIds", {{kSrcRoot, {{"uri", root_uri}}}}},
                 {"columnKind", "unicodeCodePoints"},
                 {"results", std::move(results)}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", json::array({std::move(sarif_run)})}};
}

}  // namespace

void print_sarif(std::ostream& out, const SarifRun& run, SourceCache& sources) {
  out << LogWriter(run, sources).log().dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

std::vector<const RuleInfo*> rules_that_run(const RuleSelection& selection) {
  std::vector<const RuleInfo*> out = RuleRegistry::infos();
  std::erase_if(out, [&](const RuleInfo* rule) { return !selection.enabled(*rule); });
  return out;
}

std::filesystem::path repository_root(const std::filesystem::path& directory) {
  std::error_code ec;
  const std::filesystem::path start = std::filesystem::absolute(directory, ec).lexically_normal();
  if (start.empty()) return start;
  for (std::filesystem::path at = start;; at = at.parent_path()) {
    if (std::filesystem::exists(at / ".git", ec)) return at;
    if (at == at.parent_path()) return start;
  }
}

}  // namespace klint
