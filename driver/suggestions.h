// Did-you-mean for the names a user types: rule ids and built-in targets, the
// same on the command line, in klint.toml and in klint-ignore comments.
#pragma once

#include <string>
#include <string_view>

namespace klint {

// " (did you mean 'shared-memory-race'?)" when a rule id is a few edits away
// from `id`, else "".
std::string did_you_mean_rule(std::string_view id);
// The same among the built-in target names (klint targets).
std::string did_you_mean_target(std::string_view name);

}  // namespace klint
