// `klint --confirm` in the driver: hands the shader linting loaded, and the
// findings it gave, to the runner (runner/confirm.h).
#pragma once

#include <span>

#include "analyzer/source.h"
#include "driver/jobs.h"
#include "driver/lint.h"
#include "runner/confirm.h"
#include "runner/manifest.h"

namespace klint {

// Gives the findings of `report` that a run can show their verdicts, on the
// shader the report keeps (LintOptions::keep_shader), which it then lets go;
// a report without one (from the cache) has its file loaded again. Findings
// of a file that can no longer be read or compiled are not runnable.
void confirm_report(FileReport& report, const Job& job, const runner::KernelManifest* manifest,
                    const runner::ConfirmOptions& options, SourceCache& sources);

// The same for the merged report of one file's variants (driver/variants.h):
// a finding carries the instructions of the first variant that found it,
// and is confirmed on that variant's shader.
void confirm_variants(FileReport& merged, std::span<const Job> variants, const runner::KernelManifest* manifest,
                      const runner::ConfirmOptions& options, SourceCache& sources);

}  // namespace klint
