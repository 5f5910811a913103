// `klint run --probe FILE:LINE[:NAME]`: reads the option, instruments the
// kernel with its probes (runner/probe.h) and prints what each invocation
// recorded as a table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "analyzer/module.h"
#include "runner/executor.h"
#include "runner/instrument.h"

namespace klint {

// FILE:LINE[:NAME] for the file being run (`path`, whose text is `text`):
// FILE must be that file, LINE one of its lines, NAME an identifier. Fails
// with a reason, e.g. "--probe 'x.comp': not FILE:LINE[:NAME]".
std::optional<runner::ProbeRequest> parse_probe(const std::string& spec, const std::string& path,
                                                const std::string& text, std::string* error);

// A kernel with its probes and a harness with the log buffer added last.
struct ProbedKernel {
  runner::Instrumented instrumented;
  runner::Harness harness;
};

// Instruments `spirv` with the probes for a run with `harness` (whose
// specialization the module takes). Fails with a reason for a probe that
// matches nothing.
std::optional<ProbedKernel> probe_kernel(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin,
                                         const std::vector<runner::ProbeRequest>& probes,
                                         const runner::Harness& harness, std::string* error);

// A line per probe saying what it records, then a table of one row per
// invocation of the grid (workgroup, then local index), at most `rows` of
// them, and a column per probe.
void print_probes(std::ostream& out, const ProbedKernel& kernel, std::span<const uint8_t> log, size_t rows);

}  // namespace klint
