// `--format json`: every finding and every input error of one run as one JSON
// document on standard output. The schema (klint-findings-1) is in
// docs/output.md; fields are only ever added to it.
#pragma once

#include <ostream>
#include <vector>

#include "driver/discover.h"
#include "driver/finding.h"

namespace klint {

void print_json(std::ostream& out, const std::vector<Finding>& diagnostics,
                const std::vector<InputMessage>& messages, size_t files_linted, int exit_code);

}  // namespace klint
