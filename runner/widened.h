// The evidence of a half-precision accumulator (RunEvidence::WidenedAccumulator):
// what the kernel writes, against what a copy of it that sums in 32 bits
// (runner/widen.h) writes from the same inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "analyzer/diagnostic.h"
#include "runner/confirm.h"
#include "runner/evidence.h"
#include "runner/observe.h"

namespace klint::runner {

struct WidenedCopy {
  std::vector<uint32_t> spirv;
  std::string accumulator;  // "'acc'", or "the accumulator" where the finding names none
};

// The copy for a finding of the module the rules saw, or the verdict that
// says why a run cannot show it: a relaxed-precision accumulator (a device
// decides whether to compute it in 16 bits, and lavapipe never does), or
// one klint cannot widen.
std::variant<WidenedCopy, Confirmation> widened_copy(const Diagnostic& finding, std::span<const uint32_t> spirv);

// The witness, where the first run of `o` completed, ran the finding's loop
// (on `lines`) twice for some invocation as far as the log says, and the
// kernel (`spirv`, as the rules saw it) and its copy, each run not
// instrumented with the same harness at the same subgroup size, wrote
// different outputs. The kernel then runs again: where its own outputs
// differ from one run to the next (a race, an order of atomics), a
// difference shows nothing, and that goes to `failure`, as does a failure
// to run.
std::optional<Found> widened_witness(const WidenedCopy& copy, const std::vector<uint32_t>& spirv,
                                     const std::string& entry_point, const Harness& harness, const Observations& o,
                                     const Covered& lines, const std::vector<Words>& words,
                                     const ObserveOptions& options, std::string* failure);

}  // namespace klint::runner
