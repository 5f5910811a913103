// Fingerprints that name a finding by the code around it rather than by its
// line number, so that SARIF's partialFingerprints and the baseline keep
// matching a finding when lines above it move.
#pragma once

#include <string>
#include <vector>

#include "analyzer/source.h"
#include "driver/finding.h"

namespace klint {

// One fingerprint per diagnostic, in order: 16 hex digits hashing the rule's
// first id (RuleRegistry::first_id, the same across renames),
// the text of the finding's line (whitespace collapsed) and the identifier it
// is about; for a file without text, the excerpt shown instead. Findings whose
// hash would coincide within one file are told apart by their order in it
// (":1", ":2", ...), so a new instance of a rule on an identical line still
// counts as new. Only the line itself: an edit of its neighbours, as well as
// lines inserted above, leaves the fingerprint as it was.
std::vector<std::string> fingerprints(const std::vector<Finding>& diagnostics, SourceCache& sources);

}  // namespace klint
