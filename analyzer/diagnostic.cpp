#include "analyzer/diagnostic.h"

#include <tuple>

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
  auto key = [](const Diagnostic& d) {
    std::string_view rule = d.rule ? d.rule->id : std::string_view();
    return std::tie(d.location.file, d.location.line, d.location.column, rule, d.message);
  };
  return key(a) < key(b);
}

}  // namespace klint
