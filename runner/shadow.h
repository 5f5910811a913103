// Reads the access log of an instrumented run (runner/instrument.h) as shadow
// memory: per element of each workgroup variable, who wrote it last and in
// which barrier epoch. From that come the findings a static rule can only
// suspect, each with the accesses that show it:
//
//   race                two invocations of one workgroup touch an element in
//                       the same epoch (no barrier that orders workgroup
//                       memory between them), at least one writing, not
//                       both atomically
//   uninitialized read  a read of an element that no invocation wrote in an
//                       earlier epoch and the reader did not write itself
//   out of range        an array index at or past the array's length
//   overlapping write   two invocations store to one word of a storage
//                       buffer, from different workgroups or in one epoch
//
// and one observation that is no problem by itself but is the witness of a
// grid-stride loop whose workgroups overlap:
//
//   repeated loop read  invocations of two workgroups load one word of a
//                       storage buffer at the same load inside a loop
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runner/instrument.h"

namespace klint::runner {

struct AccessRecord {
  uint32_t site = 0;
  uint32_t workgroup = 0;
  uint32_t invocation = 0;  // gl_LocalInvocationIndex
  uint32_t element = 0;
  uint32_t epoch = 0;
  uint32_t value = 0;
  uint32_t out_of_range = 0;
};

enum class ShadowKind { Race, UninitializedRead, OutOfRange, OverlappingWrite, RepeatedLoopRead };

// Whether the kind is a problem in itself (all but RepeatedLoopRead: many
// correct kernels read one element from several workgroups).
bool is_problem(ShadowKind kind);

struct ShadowFinding {
  ShadowKind kind = ShadowKind::Race;
  // For races, overlapping writes and repeated reads, the earlier access; unused otherwise.
  AccessRecord first;
  // The access that shows the problem: the later of a race, the read, the
  // access out of range.
  AccessRecord second;
  uint32_t element = 0;  // the scalar (workgroup) or byte offset (storage) both touch
};

struct ShadowReport {
  std::vector<ShadowFinding> findings;  // in log order; one per kind and pair of sites
  uint64_t accesses = 0;                // records the kernel logged, those past the capacity included
  bool truncated = false;               // the log was full
};

// `log` is the log buffer's bytes after the run.
ShadowReport read_log(const Instrumented& instrumented, std::span<const uint8_t> log);

// Reads the log of a completed run of the instrumented kernel, whose harness
// had log_buffer() last, and takes the log out of `execution`: its buffer
// and its guard violations, so that what remains is the kernel's own.
ShadowReport take_log(const Instrumented& instrumented, Execution& execution);

// One line, e.g. "race on tile[1] in workgroup 0: invocation 1 writes it at
// neighbour.comp:9 (value 0.25) and invocation 0 reads it at neighbour.comp:11
// (saw 0) with no barrier between".
std::string describe(const Instrumented& instrumented, const ShadowFinding& finding);

std::string_view to_string(ShadowKind kind);  // "race", "uninitialized read", ...

// A logged 32-bit value as its type shows it: "0.25", "-3", "7", "true";
// "" for ValueType::None.
std::string value_text(ValueType type, uint32_t bits);

}  // namespace klint::runner
