#include "driver/output/sarif_tool.h"

#include <cctype>

#include "driver/docs.h"
#include "rules/rule.h"

namespace klint {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// shared-memory-race -> SharedMemoryRace
std::string pascal_case(std::string_view id) {
  std::string out;
  bool upper = true;
  for (char c : id) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

// The text under `## heading` up to the next heading of that level.
std::string_view section(std::string_view markdown, std::string_view heading) {
  const std::string marker = "## " + std::string(heading) + "\n";
  size_t begin = markdown.find(marker);
  if (begin == std::string_view::npos) return {};
  begin += marker.size();
  size_t end = markdown.find("\n## ", begin);
  return markdown.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

// GitHub ranks and filters alerts by these. Correctness and portability
// findings are facts established for concrete invocations and limits, and
// input findings are the compiler's own, so they are "high"; performance
// findings are "medium", since whether they cost time depends on the GPU and
// its compiler.
std::string_view precision(Category category) {
  return category == Category::Performance ? "medium" : "high";
}

std::string_view problem_severity(Severity severity) {
  return severity == Severity::Note ? "recommendation" : sarif_level(severity);
}

}  // namespace

std::string_view sarif_level(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

std::string sarif_sentence(std::string_view text) {
  std::string out(trim(text));
  if (out.empty()) return out;
  if (out.back() != '.' && out.back() != '?' && out.back() != '!') out += '.';
  return out;
}

std::string markdown_to_text(std::string_view markdown) {
  std::string out;
  std::string paragraph;
  auto flush = [&] {
    if (!paragraph.empty()) out += paragraph + "\n";
    paragraph.clear();
  };
  auto blank = [&] {
    flush();
    if (!out.empty() && !out.ends_with("\n\n")) out += "\n";
  };
  bool in_code = false;
  while (!markdown.empty()) {
    size_t end = markdown.find('\n');
    std::string_view line = markdown.substr(0, end);
    markdown.remove_prefix(end == std::string_view::npos ? markdown.size() : end + 1);
    if (trim(line).starts_with("```")) {
      blank();
      in_code = !in_code;
      continue;
    }
    if (in_code) {
      out += std::string(line) + "\n";
      continue;
    }
    std::string text;
    for (char c : trim(line)) {
      if (c != '`') text += c;
    }
    if (text.empty()) {
      blank();
    } else if (text.starts_with('#')) {
      blank();
      out += std::string(trim(text.substr(text.find_first_not_of('#')))) + "\n";
    } else if (text.starts_with("- ") || text.starts_with("* ") || text.starts_with('|') ||
               (std::isdigit(static_cast<unsigned char>(text[0])) && text.find(". ") < 4)) {
      flush();
      paragraph = text;
    } else {
      paragraph += paragraph.empty() ? text : " " + text;
    }
  }
  flush();
  return std::string(trim(out));
}

std::string rule_doc_url(const RuleInfo& rule) {
  return std::string(KLINT_DOCS_URL) + "/" + std::string(rule.id) + ".md";
}

nlohmann::json sarif_rule(const RuleInfo& rule) {
  const std::string id(rule.id);
  const RuleDescription& description = RuleRegistry::describe(rule);
  std::string markdown = rule_markdown(rule);
  if (markdown.starts_with("<!--")) markdown.erase(0, markdown.find('\n') + 1);  // "generated, do not edit"
  std::string found = markdown_to_text(section(description.doc, "What it finds"));
  nlohmann::json rule_json{{"id", id},
                         {"name", pascal_case(id)},
                         {"shortDescription", {{"text", sarif_sentence(description.summary)}}},
                         {"fullDescription", {{"text", found.empty() ? sarif_sentence(description.summary) : found}}},
                         {"help",
                          {{"text", sarif_sentence(description.summary) + "\n\n" + markdown_to_text(description.doc)},
                           {"markdown", markdown}}},
                         {"helpUri", rule_doc_url(rule)},
                         {"defaultConfiguration", {{"level", sarif_level(rule.default_severity)}}},
                         {"properties",
                          {{"tags", {to_string(rule.category), "gpu", "vulkan"}},
                           {"precision", precision(rule.category)},
                           {"problem.severity", problem_severity(rule.default_severity)}}}};
  // SARIF's own field for the ids a rule had in earlier versions.
  std::vector<std::string_view> former = RuleRegistry::former_ids(rule);
  if (!former.empty()) rule_json["deprecatedIds"] = former;
  return rule_json;
}

nlohmann::json sarif_tool_driver(const std::vector<const RuleInfo*>& rules) {
  nlohmann::json descriptors = nlohmann::json::array();
  for (const RuleInfo* rule : rules) descriptors.push_back(sarif_rule(*rule));
  return {{"name", "klint"},
          {"version", KLINT_VERSION},
          {"semanticVersion", KLINT_VERSION},
          {"informationUri", KLINT_HOMEPAGE_URL},
          {"rules", std::move(descriptors)}};
}

}  // namespace klint
