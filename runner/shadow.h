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
//   skipped barrier     the invocations of one workgroup arrive at a barrier
//                       different numbers of times: some skipped it
//
// and observations that are no problem by themselves but are the witness of
// one:
//
//   repeated loop read  invocations of two workgroups load one word of a
//                       storage buffer at the same load inside a loop: a
//                       grid-stride loop whose workgroups overlap
//   partial group       a subgroup operation runs with some lanes of its
//                       group (subgroup, quad or cluster) inactive
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
  uint32_t extra = 0;  // the last word: a group operation's third ballot word
};

enum class ShadowKind {
  Race,
  UninitializedRead,
  OutOfRange,
  OverlappingWrite,
  RepeatedLoopRead,
  SkippedBarrier,
  PartialGroup,
};

// Whether the kind is a problem in itself (all but RepeatedLoopRead and
// PartialGroup: many correct kernels read one element from several
// workgroups, or combine the lanes a condition leaves active).
bool is_problem(ShadowKind kind);

struct ShadowFinding {
  ShadowKind kind = ShadowKind::Race;
  // For races, overlapping writes and repeated reads, the earlier access; unused otherwise.
  AccessRecord first;
  // The access that shows the problem: the later of a race, the read, the
  // access out of range.
  AccessRecord second;
  uint32_t element = 0;  // the scalar (workgroup) or byte offset (storage) both touch
  // A skipped barrier: `first` is the barrier record of an invocation that
  // arrived most often, `second` one of an invocation that arrived fewer
  // times (its record made up where it never arrived), each record's value
  // the invocation's arrivals; `fewer` holds every invocation of the
  // workgroup that arrived fewer times, by local index. A partial group:
  // `second` is the record of an active lane, `element` the group's first
  // invocation, `first.value` how many invocations the group has, and
  // `fewer` the active ones.
  std::vector<uint32_t> fewer;
};

// How often an invocation found a logged conditional branch's condition
// true and false.
struct BranchTaken {
  uint32_t site = 0;
  uint32_t workgroup = 0;
  uint32_t invocation = 0;
  uint32_t held = 0;
  uint32_t failed = 0;
};

// How one execution of an access by a group of 32 consecutive invocations
// (a subgroup as wide as the rules assume) spread over memory, at its worst:
// in workgroup memory, the most different words that fell in one of 32
// 4-byte banks; in a storage buffer, the 128-byte lines it touched.
struct Spread {
  uint32_t site = 0;
  uint32_t workgroup = 0;
  uint32_t first = 0, last = 0;  // the first and last invocation of the group that took part
  uint32_t degree = 0;           // words in the fullest bank, or lines touched
  uint32_t best = 0;             // the fewest the same words or bytes could need
  uint32_t bank = 0;             // workgroup memory: the fullest bank
  std::vector<uint32_t> units;   // its words (workgroup memory) or lines, ascending, at most 8
};

struct ShadowReport {
  std::vector<ShadowFinding> findings;  // in log order; one per kind and pair of sites
  uint64_t accesses = 0;                // records the kernel logged, those past the capacity included
  bool truncated = false;               // the log was full
  std::vector<bool> reached;            // per site: whether any invocation ran it
  std::vector<BranchTaken> branches;    // one per site, workgroup and invocation, in the order first logged
  std::vector<Spread> spreads;          // per access, its worst group where worse than the best (unless truncated)
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

// A skipped barrier's arrivals: "invocation 0 arrives 3 times, invocation 5
// only 2 times" ("once", "never").
std::string arrivals_text(const ShadowFinding& skipped);

// "0..7, 9, 12..15": local indices, ascending, runs joined.
std::string invocation_ranges(const std::vector<uint32_t>& invocations);

// A logged 32-bit value as its type shows it: "0.25", "-3", "7", "true";
// "" for ValueType::None.
std::string value_text(ValueType type, uint32_t bits);

}  // namespace klint::runner
