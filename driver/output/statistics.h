// `--statistics`: how many findings each rule made, instead of the findings,
// as `ruff --statistics` counts them:
//      12  shared-memory-race   two invocations access one workgroup-memory element, ...
//       3  redundant-barrier    workgroup barrier that orders no access of one invocation ...
#pragma once

#include <ostream>
#include <vector>

#include "driver/finding.h"

namespace klint {

// One line per rule that made a finding: the count, the rule id and the
// rule's summary, most findings first (then by id).
void print_statistics(std::ostream& out, const std::vector<Finding>& findings);

// The same as a JSON array of {rule, count, summary} objects, in that order.
void print_statistics_json(std::ostream& out, const std::vector<Finding>& findings);

}  // namespace klint
