#include "driver/suggestions.h"

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

std::string did_you_mean_target(std::string_view name) {
  std::vector<std::string_view> names;
  for (const Target& target : builtin_targets()) names.push_back(target.name);
  return did_you_mean(name, names);
}

}  // namespace klint
