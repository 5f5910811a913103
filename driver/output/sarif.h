// `--format sarif`: one SARIF 2.1.0 log as GitHub code scanning reads it
// (docs/output.md lists what goes where). Every rule that ran is described in
// tool.driver.rules with its documentation; results point into it by index,
// carry paths relative to the repository root (%SRCROOT%) and fingerprints
// that survive lines moving.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/source.h"
#include "driver/discover.h"
#include "driver/finding.h"
#include "driver/suppressions.h"
#include "rules/rule.h"

namespace klint {

struct SarifRun {
  std::vector<const RuleInfo*> rules;  // the rules that ran: tool.driver.rules, in this order
  std::vector<Finding> diagnostics;
  // Always passed, since fingerprints count them (silencing one of two
  // look-alike findings must not renumber the other); listed as results with
  // `suppressions` only when include_suppressed (--include-suppressed).
  std::vector<SuppressedDiagnostic> suppressed;
  bool include_suppressed = false;
  std::vector<InputMessage> messages;  // become the invocation's notifications
  int exit_code = 0;
  std::filesystem::path root;  // absolute; paths below it become relative to %SRCROOT%
};

void print_sarif(std::ostream& out, const SarifRun& run, SourceCache& sources);

// The rules a selection runs, in RuleRegistry::infos() order (by id).
std::vector<const RuleInfo*> rules_that_run(const RuleSelection& selection);

// The nearest of `directory` and its ancestors that holds `.git` (a directory,
// or a file in a worktree or submodule); `directory` itself when none does.
std::filesystem::path repository_root(const std::filesystem::path& directory);

}  // namespace klint
