// `klint --confirm` in the driver: compiles a file whose findings a run can
// show, as linting compiled it, and hands both to the runner (runner/confirm.h).
#pragma once

#include "analyzer/source.h"
#include "driver/jobs.h"
#include "driver/lint.h"
#include "runner/confirm.h"
#include "runner/manifest.h"

namespace klint {

// Gives the findings of `report` that a run can show their verdicts; those
// of a file that can no longer be read or compiled are not runnable.
void confirm_report(FileReport& report, const Job& job, const runner::KernelManifest* manifest,
                    const runner::ConfirmOptions& options, SourceCache& sources);

}  // namespace klint
