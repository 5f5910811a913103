// Value probes: `klint run --probe FILE:LINE[:NAME]` records, per invocation,
// the value a source line computes, each time the invocation runs it. Which
// instruction holds that value is chosen here; runner/instrument.cpp appends
// a record after it (the format is in runner/instrument.h), and read_probes
// takes the records back out of the log.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyzer/module.h"
#include "runner/instrument.h"

namespace klint::runner {

// The instruction a probe records after, and what it records.
struct ProbeTarget {
  const ir::Instruction* after = nullptr;  // the probed instruction, in the module's code
  uint32_t value = 0;                      // the id of the recorded value
  ValueType type = ValueType::None;
  uint32_t components = 1;
  std::string what;  // e.g. "the value stored to y", "the result of OpFMul"
};

// Among the instructions whose nearest location is the request's line, the
// ones that make a 32-bit int, uint, float or bool scalar or vector:
//  - with a name: the last OpStore on the line to a Function, Private or
//    Workgroup variable of that name (or into one of its elements), else the
//    last instruction whose OpName it is, else the last load of the variable;
//  - without: the last OpStore on the line, else its last value.
// Fails with one line when nothing on the line matches, naming what is there
// ("no value named 'acc' at softmax.comp:14; names there: x, m").
std::optional<ProbeTarget> select_probe(const Module& module, const ProbeRequest& request, std::string* error);

struct ProbeRecord {
  uint32_t probe = 0;  // into Instrumented::probes
  uint32_t workgroup = 0;
  uint32_t invocation = 0;  // gl_LocalInvocationIndex
  uint32_t iteration = 0;   // how many times this invocation recorded the probe before
  std::array<uint32_t, 4> components{};
};

struct ProbeLog {
  std::vector<ProbeRecord> records;  // in log order
  uint64_t logged = 0;               // records of every kind the kernel logged, those that did not fit included
  bool truncated = false;            // the log was full
};

// A kernel instrumented with its probes, and the harness to run it with: the
// kernel's own, with the log buffer added last.
struct ProbedKernel {
  Instrumented instrumented;
  Harness harness;
};

// Instruments `spirv` with the probes for a run with `harness` (whose
// specialization the module takes). Fails with a reason for a probe that
// matches nothing.
std::optional<ProbedKernel> probe_kernel(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin,
                                         const std::vector<ProbeRequest>& probes, const Harness& harness,
                                         std::string* error);

// `log` is the log buffer's bytes after the run.
ProbeLog read_probes(const Instrumented& instrumented, std::span<const uint8_t> log);

// A recorded value as text: floats as %g, integers in decimal, bools as
// true/false, vectors as (a,b,...).
std::string probe_value_text(const ProbeSite& site, const ProbeRecord& record);

}  // namespace klint::runner
