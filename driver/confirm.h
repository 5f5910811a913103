// `klint --confirm`: runs the kernel behind each finding that a run can show
// and records the verdict on the finding (Diagnostic::confirmation).
#pragma once

#include <cstdint>
#include <optional>

#include "analyzer/source.h"
#include "driver/jobs.h"
#include "driver/lint.h"
#include "runner/manifest.h"

namespace klint {

struct ConfirmOptions {
  double timeout_seconds = 10;
  std::optional<uint32_t> device_index;
  std::optional<uint64_t> seed;  // nullopt: the manifest's, else 1
  // Where to write a reproducer per confirmed finding; "" writes none.
  std::string reproducers;
};

// Whether --confirm gives findings of this rule a verdict.
bool is_confirmable(const RuleInfo& rule);

// Sets the confirmation of every confirmable finding of `report`, running the
// file's kernel (compiled as `job` compiles it) once per subgroup size, for
// each shape of its `[[kernel]]` manifest (nullptr: the default harness)
// until the finding shows; then shrinks the shape that showed it.
void confirm_findings(FileReport& report, const Job& job, const runner::KernelManifest* manifest,
                      const ConfirmOptions& options, SourceCache& sources);

}  // namespace klint
