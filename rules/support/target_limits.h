// Phrasing shared by the rules that check limits across targets: the targets
// that fail, grouped by their limit, e.g. "apple-m1, lavapipe (32768 bytes)
// and arm-mali-valhall (16384 bytes)".
#pragma once

#include <fmt/core.h>

#include <map>
#include <string>
#include <vector>

#include "rules/rule.h"
#include "validate/target.h"

namespace klint {

template <class Limit, class Describe>
std::string failing_targets(const std::vector<std::pair<const Target*, Limit>>& failures, Describe&& describe) {
  std::map<Limit, std::vector<std::string>> by_limit;
  for (const auto& [target, limit] : failures) by_limit[limit].push_back(target->name);
  std::string out;
  size_t group = 0;
  for (const auto& [limit, names] : by_limit) {
    if (group > 0) out += group + 1 == by_limit.size() ? " and " : "; ";
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
    out += fmt::format(" ({})", describe(limit));
    ++group;
  }
  return out;
}

// A limit broken only against klint's default devices is a warning: Vulkan
// guarantees less than any of them offers, and the user has not said which
// devices the kernel is for. Against targets the user declared, the rule's
// own severity stands.
inline void judge_limit(DiagnosticBuilder& diagnostic, const RuleOptions& options, const Location& at,
                        std::string_view guaranteed) {
  if (options.targets_declared) return;
  diagnostic.severity(Severity::Warning);
  diagnostic.note(at, fmt::format("Vulkan guarantees {}; klint checked its default devices, since no target was "
                                  "declared (--target, or targets in klint.toml)",
                                  guaranteed));
}

}  // namespace klint
