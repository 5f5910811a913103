#include "driver/suggestions.h"

#include <fmt/core.h>

#include <optional>
#include <vector>

#include "rules/rule.h"
#include "runner/spelling.h"
#include "validate/targets.h"

namespace klint {

std::string did_you_mean_rule(std::string_view id) {
  std::vector<std::string_view> ids;
  for (const RuleInfo* info : RuleRegistry::infos()) ids.push_back(info->id);
  return did_you_mean(id, ids);
}

std::string renamed_rule_note(std::string_view id) {
  std::optional<std::string_view> now = RuleRegistry::renamed(id);
  if (!now) return "";
  return fmt::format("rule '{}' is now '{}'; the old id still works", id, *now);
}

std::string did_you_mean_target(std::string_view name) {
  std::vector<std::string_view> names;
  for (const Target& target : builtin_targets()) names.push_back(target.name);
  return did_you_mean(name, names);
}

}  // namespace klint
