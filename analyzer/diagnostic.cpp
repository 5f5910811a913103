#include "analyzer/diagnostic.h"


namespace klint {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string_view to_string(Category category) {
  switch (category) {
    case Category::Correctness: return "correctness";
    case Category::Portability: return "portability";
    case Category::Performance: return "performance";
    case Category::Input: return "input";
  }
  return "correctness";
}

bool diagnostic_less(const Diagnostic& a, const Diagnostic& b) {
  auto rule_id = [](const Diagnostic& d) { return d.rule ? d.rule->id : std::string_view(); };
  if (a.location.file != b.location.file) return a.location.file < b.location.file;
  if (a.location.line != b.location.line) return a.location.line < b.location.line;
  if (a.location.column != b.location.column) return a.location.column < b.location.column;
  if (rule_id(a) != rule_id(b)) return rule_id(a) < rule_id(b);
  return a.message < b.message;
}

}  // namespace klint
