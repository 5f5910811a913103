// `klint --confirm`: runs the kernel behind each finding whose rule declares
// what a run can show (RuleInfo::run_evidence) and records the verdict on the
// finding (Diagnostic::confirmation).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "runner/manifest.h"
#include "validate/loaded_shader.h"

namespace klint::runner {

struct ConfirmOptions {
  double timeout_seconds = 10;
  std::optional<uint32_t> device_index;
  std::optional<uint64_t> seed;  // nullopt: the manifest's, else 1
  // Where to write a reproducer per confirmed finding; "" writes none.
  std::string reproducers;
};

// Whether --confirm gives this finding a verdict: its rule says what a run can show.
bool is_confirmable(const Diagnostic& finding);

// Gives every confirmable finding the verdict "not runnable", saying why (the
// file cannot be read or compiled).
void not_runnable(std::vector<Diagnostic>& findings, const std::string& why);

// Sets the confirmation of every confirmable finding, running the module of
// `shader` (the one the rules that made the findings saw; a run's evidence
// joins a finding through Diagnostic::instructions) once per subgroup size,
// for each shape of its `[[kernel]]` manifest (nullptr: the default harness)
// until the finding shows; then shrinks the setup that showed it.
void confirm_findings(std::vector<Diagnostic>& findings, const LoadedShader& shader, const KernelManifest* manifest,
                      const ConfirmOptions& options);

}  // namespace klint::runner
