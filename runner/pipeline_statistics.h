// The evidence for a finding about where the device's compiler keeps a
// kernel's values (RunEvidence::PipelineStatistics): the statistics it
// reports for the kernel's pipeline through VK_KHR_pipeline_executable_properties.
// Scratch memory or spilled registers confirm the finding; a device that
// reports none shows it is not so there; a device that reports no
// statistics (lavapipe) says nothing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "runner/confirm.h"
#include "runner/isolate.h"

namespace klint::runner {

// The pipeline of `spirv` at the harness's specialization, created on the
// device with its statistics captured, in a child; nothing is dispatched.
IsolatedRun capture_statistics(const std::vector<uint32_t>& spirv, const std::string& entry_point,
                               const Harness& harness, const ConfirmOptions& options);

// Whether a statistic tells of memory the compiler keeps outside registers:
// its name speaks of spills, scratch, local or private memory, or a stack.
bool is_scratch_statistic(const PipelineStatistic& statistic);

// The verdict on `finding`, one of `of_rule` findings of its rule in the
// kernel, from the capture. The statistics are the kernel's: with several
// such findings no statistic says which array is in scratch, and none is
// confirmed.
Confirmation statistics_verdict(const Diagnostic& finding, size_t of_rule, const IsolatedRun& capture);

}  // namespace klint::runner
