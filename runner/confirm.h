// `klint --confirm`: runs the kernel behind each finding whose rule declares
// what a run can show (RuleDescription::run_evidence) and gives the finding a
// verdict (Confirmation).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "runner/expression.h"
#include "runner/manifest.h"
#include "validate/loaded_shader.h"
#include "validate/target.h"

namespace klint::runner {

// What the lint gave the pipeline beyond the module (the driver's
// Specialization), which the runs ran with and a replay must give again: the
// constants it set, by name or constant_id as given, in order of precedence,
// and the workgroup size it gave (--workgroup-size).
struct LintedWith {
  std::vector<std::pair<std::string, Number>> specialization;
  std::optional<std::array<uint32_t, 3>> workgroup_size;
  std::vector<const Target*> targets;  // what occupancy is judged against
};

struct ConfirmOptions {
  LintedWith linted_with;
  double timeout_seconds = 10;
  std::optional<uint32_t> device_index;
  std::optional<uint64_t> seed;  // nullopt: the manifest's, else 1
  // Where to write a reproducer per confirmed finding; "" writes none.
  std::string reproducers;
  // Tests only: told each setup of the search as its runs start, in the
  // words of the verdicts' details ("shape n=1, grid 2,1,1, workgroup 96,1,1").
  std::function<void(const std::string&)> setup_started;
};

// What running the kernel showed about a finding.
struct Confirmation {
  // NoRun: the finding's rule says nothing a run can show yet (a bank
  // conflict, a spill): the verdict says so, in one line. Inconclusive: the
  // runs completed but never ran the finding's code, so they say nothing of it.
  enum class Status { Confirmed, NotReproduced, NotRunnable, NoRun, Inconclusive };
  Status status = Status::NotRunnable;
  // One line: the witness, what was tried, or why the kernel could not run.
  std::string summary;
  // The accesses the witness is made of, where the source has them.
  std::vector<Note> witness;
  // How the run was set up: grid, seed, subgroup sizes, guesses made.
  std::vector<std::string> details;
};

// "confirmed", "not reproduced", "not runnable", "no run", "inconclusive"
std::string_view to_string(Confirmation::Status status);

// The verdicts on findings, one per finding in the order given: nullopt for a
// finding that is not confirmable.
using Verdicts = std::vector<std::optional<Confirmation>>;

// Whether --confirm gives this finding a verdict: its rule says what a run can show.
bool is_confirmable(const Diagnostic& finding);

// The verdict "not runnable" for every confirmable finding, saying why (the
// file cannot be read or compiled).
Verdicts not_runnable(std::span<const Diagnostic* const> findings, const std::string& why);

// The verdict on every confirmable finding, running the module of `shader`
// (the one the rules that made the findings saw; a run's evidence joins a
// finding through Diagnostic::instructions) once per subgroup size, for each
// shape of its `[[kernel]]` manifest (nullptr: the default harness) until the
// finding shows; then shrinking the setup that showed it.
Verdicts confirm_findings(std::span<const Diagnostic* const> findings, const LoadedShader& shader,
                          const KernelManifest* manifest, const ConfirmOptions& options);

}  // namespace klint::runner
