// What a run must show to confirm a finding (its rule's RunEvidence), and
// whether the observations of a run show it: the witness, or why the runs
// say nothing about the finding.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "rules/rule.h"
#include "runner/confirm.h"
#include "runner/executor.h"
#include "runner/instrument.h"
#include "runner/observe.h"
#include "runner/shadow.h"

namespace klint::runner {

// What a run must show to confirm a finding: its rule's declared evidence.
RunEvidence evidence_of(const Diagnostic& d);

using Line = std::pair<std::string, uint32_t>;

// What a finding speaks for in the module the rules saw, which is the module
// the runs instrument, so that ordinals agree: the instructions it is about
// (Diagnostic::instructions), and, when it sits on a loop, every instruction
// of the loop (a grid-stride finding names the loop; the store that shows it
// is in the body). Where the module has line info, the source lines of those,
// of the finding and of its notes count too: a statement compiles to several
// instructions and the finding names one. Without line info an instruction
// speaks for itself alone, so that two findings' runs never mix.
struct Covered {
  std::set<size_t> instructions;
  std::set<Line> lines;
};

Covered covered(const Diagnostic& d, const Module& module, const std::vector<const ir::Instruction*>& by_ordinal);

// Whether a logged site is on what the finding covers.
bool on(const Covered& covered, const AccessSite& site);

// What a run that did not reproduce a finding failed to show.
std::string_view not_shown(RunEvidence evidence);

// "subgroup size 8", or "the device's subgroup size" for 0.
std::string size_text(uint32_t subgroup_size);

// A witness: what a run showed, and at which subgroup sizes.
struct Found {
  std::string device;
  std::vector<uint32_t> sizes;  // the subgroup size that showed it; two for outputs that differ
  std::string summary;
  std::vector<Note> witness;
  // A bank conflict or uncoalesced access: how many words in one bank, or
  // lines, the worst group needed; a smaller setup must show as many.
  uint32_t degree = 0;
};

// The first witness of the evidence on the finding's lines in the runs: a
// shadow finding, or (for subgroup-size dependence) outputs that differ
// between two subgroup sizes.
std::optional<Found> find_witness(RunEvidence evidence, const Covered& lines, const Harness& harness,
                                  const Observations& o, const std::vector<Words>& words);

// Whether the runs that did not show a finding ran its code at all: any
// instrumented site on it (for a barrier, the barrier; for a subgroup
// operation, the operation), and whether a run's log filled up (its
// capacity, 0 when none did).
struct Reach {
  bool sites = false;
  bool reached = false;
  // The records a log keeps, where a run's log filled up: what such a run
  // did not log may have happened, so the flags here and below come from the
  // runs whose logs kept everything (`complete`).
  uint32_t truncated = 0;
  bool complete = false;
  // A logged branch on the finding ran (`exits`: a widened accumulator's
  // loop exit), and went one way twice for one invocation (`repeated`): the
  // loop it leaves ran more than once.
  bool exits = false;
  bool repeated = false;
  // A barrier finding's logged branches: where one ran, and whether one went
  // different ways (or as many times) in two invocations of a workgroup; for
  // a partial group, of a subgroup.
  std::optional<Location> branch;
  bool split = false;
  bool split_workgroup = false;  // a partial group's branch split a workgroup, if no subgroup
  // The subgroup sizes of a partial group's runs, as the reason names them,
  // or of a subgroup-size finding's (0: the device's own).
  std::vector<uint32_t> subgroup_sizes;
};

// Adds what the completed runs of one setup reached to `reach`.
void note_reach(RunEvidence evidence, const Instrumented& in, const std::vector<Observation>& runs,
                const Covered& lines, Reach& reach);

// The verdict on a finding no setup showed, after `tried` (the setups, as the
// details list them): not reproduced, or inconclusive where the runs could
// not have shown it: a log that filled up, its code never reached, its
// branch never split, or (`accumulator` named: a copy that sums in 32 bits
// is the evidence) its loop never run twice by one invocation; `failure`, a
// reason the runs that reached it showed nothing (the copy failed).
Confirmation unshown_verdict(const Diagnostic& d, const Reach& reach, const std::vector<std::string>& tried,
                             const std::vector<std::string>& guesses, std::string_view accumulator,
                             std::string_view failure);

}  // namespace klint::runner
