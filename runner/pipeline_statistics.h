// The evidence for a finding about where the device's compiler keeps a
// kernel's values (RunEvidence::PipelineStatistics): the statistics it
// reports for the kernel's pipeline through VK_KHR_pipeline_executable_properties.
// Scratch memory or spilled registers confirm the finding; a device that
// reports none shows it is not so there; a device that reports no
// statistics (lavapipe) says nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "runner/confirm.h"
#include "runner/isolate.h"
#include "validate/target.h"

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

// Whether a statistic gives the workgroup memory the compiler allocates: its
// name speaks of shared memory or LDS.
bool is_shared_memory_statistic(const PipelineStatistic& statistic);

// The verdict on an occupancy finding (RunEvidence::Occupancy) from the
// capture: the workgroup memory the device's compiler allocates for the
// kernel, where klint counted `counted` bytes, through the occupancy model
// of each of `targets` (the lint's) at workgroups of `invocations`. Some
// target still keeping too few workgroups resident confirms it; none, at
// what the compiler allocates (an array it dropped), is not reproduced.
Confirmation occupancy_verdict(const Diagnostic& finding, const IsolatedRun& capture, uint64_t counted,
                               uint64_t invocations, std::span<const Target* const> targets);

}  // namespace klint::runner
