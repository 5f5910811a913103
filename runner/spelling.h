// Suggestions for misspelt names, shared by klint.toml's keys and the names a
// kernel manifest gives bindings, push constants and specialization constants.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace klint {

// " (did you mean 'select'?)" when a candidate is a few edits away from
// `word`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace klint
