// `klint --confirm`: runs the kernel behind each finding that a run can show
// and records the verdict on the finding (Diagnostic::confirmation).
#pragma once

#include <cstdint>
#include <optional>

#include "analyzer/source.h"
#include "driver/jobs.h"
#include "driver/lint.h"

namespace klint {

struct ConfirmOptions {
  double timeout_seconds = 10;
  std::optional<uint32_t> device_index;
  uint64_t seed = 1;
};

// Whether --confirm gives findings of this rule a verdict.
bool is_confirmable(const RuleInfo& rule);

// Sets the confirmation of every confirmable finding of `report`, running the
// file's kernel (compiled as `job` compiles it) once per subgroup size.
void confirm_findings(FileReport& report, const Job& job, const ConfirmOptions& options, SourceCache& sources);

}  // namespace klint
