// Inline suppressions, as ruff's `# noqa` and clang-tidy's NOLINT:
//   x = tile[i + 1];  // klint-ignore: shared-memory-race -- the barrier is in the caller
//   // klint-ignore-next-line: redundant-barrier, manual-subgroup-reduction -- reason
//   // klint-ignore-file: uncoalesced-global-access -- rows are tiny here
//   x = tile[i + 1]; /* klint-ignore: shared-memory-race -- reason */ y = 0;
// A suppression names one or more rule ids; the reason after `--` is for the
// reader. A block comment is read as the line comment of the same words: it
// must start with klint-ignore, and silences the line it opens on (the next
// line, the file). One that silences nothing is reported as unused-suppression.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/source.h"
#include "driver/discover.h"
#include "driver/finding.h"
#include "rules/rule.h"

namespace klint {

struct Suppression {
  std::string file;
  uint32_t line = 0;         // where the comment is
  uint32_t target_line = 0;  // the line it silences; 0 for the whole file
  std::vector<std::string> rules;
  std::string reason;
};

// The suppressions in a file's text (`//` and `/* */` comments, GLSL and HLSL alike).
std::vector<Suppression> parse_suppressions(const std::string& file, std::string_view text);

// A finding that a suppression silenced; SARIF reports these with
// --include-suppressed.
struct SuppressedDiagnostic {
  Finding diagnostic;
  Suppression suppression;
};

// Moves the diagnostics that suppressions in their files silence out of
// `diagnostics` (returning them, in order), and adds an unused-suppression
// finding for each suppression of `main_file` that silences nothing among the
// rules `selection` runs. A suppression of `main_file` that names a rule by
// the id it had before a rename adds a note saying the new one to `notes`.
std::vector<SuppressedDiagnostic> apply_suppressions(std::vector<Finding>& diagnostics, const std::string& main_file,
                                                     SourceCache& sources, const RuleSelection& selection,
                                                     std::vector<InputMessage>* notes = nullptr);


}  // namespace klint
