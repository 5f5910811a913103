#include "driver/output/statistics.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "rules/rule.h"

namespace klint {
namespace {

// (rule, count), most findings first, then by id.
std::vector<std::pair<const RuleInfo*, size_t>> counts(const std::vector<Finding>& findings) {
  std::map<const RuleInfo*, size_t, RuleIdLess> by_rule;
  for (const Finding& finding : findings) {
    if (finding.rule) ++by_rule[finding.rule];
  }
  std::vector<std::pair<const RuleInfo*, size_t>> out(by_rule.begin(), by_rule.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace

void print_statistics(std::ostream& out, const std::vector<Finding>& findings) {
  const auto rules = counts(findings);
  size_t count_width = 0;
  size_t id_width = 0;
  for (const auto& [rule, count] : rules) {
    count_width = std::max(count_width, std::to_string(count).size());
    id_width = std::max(id_width, rule->id.size());
  }
  for (const auto& [rule, count] : rules) {
    out << fmt::format("{:>{}}  {:<{}}  {}\n", count, count_width, rule->id, id_width,
                       RuleRegistry::describe(*rule).summary);
  }
}

void print_statistics_json(std::ostream& out, const std::vector<Finding>& findings) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [rule, count] : counts(findings)) {
    rules.push_back({{"rule", std::string(rule->id)},
                     {"count", count},
                     {"summary", std::string(RuleRegistry::describe(*rule).summary)}});
  }
  out << rules.dump(2) << '\n';
}

}  // namespace klint
