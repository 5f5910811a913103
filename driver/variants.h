// One shader compiled with several define sets (a configuration's variants,
// or the commands of a compile database) is linted once per set; a finding
// that several of them share is reported once, naming them.
#pragma once

#include <string>
#include <vector>

#include "driver/lint.h"

namespace klint {

// Merges the reports of one file's variants, `names[i]` naming `reports[i]`:
// equal findings (rule, severity, place, message) become one whose `variants`
// lists, in the given order, the variants that found it; equal input messages
// become one. The result is in diagnostic_less order.
FileReport merge_variants(std::vector<FileReport> reports, const std::vector<std::string>& names);

}  // namespace klint
