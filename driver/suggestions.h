// Did-you-mean for the names a user types: rule ids and built-in targets, the
// same on the command line, in klint.toml and in klint-ignore comments; and
// the note for a rule id that was renamed.
#pragma once

#include <string>
#include <string_view>

namespace klint {

// " (did you mean 'shared-memory-race'?)" when a rule id is a few edits away
// from `id`, else "".
std::string did_you_mean_rule(std::string_view id);
// The same among the built-in target names (klint targets).
std::string did_you_mean_target(std::string_view name);

// "rule 'shader-feature-unsupported' is now 'numeric-type-unsupported'; the
// old id still works" when `id` is the id of a renamed rule
// (RuleRegistry::renamed), else "". Wherever a user names a rule, klint
// accepts the old id and says this once, as a note.
std::string renamed_rule_note(std::string_view id);

}  // namespace klint
