// A finding as the driver reports it: the Diagnostic a stage made, with what
// the driver learns of it after linting, as clang-tidy's ClangTidyError adds
// to a clang Diagnostic what only the tool knows.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/diagnostic.h"
#include "runner/confirm.h"

namespace klint {

struct Finding : Diagnostic {
  Finding() = default;
  // A diagnostic handed over becomes a finding. Only an rvalue converts, so
  // that a Finding seen as a Diagnostic& is never copied into a new Finding
  // without its variants and confirmation.
  Finding(Diagnostic&& diagnostic) : Diagnostic(std::move(diagnostic)) {}

  // When a configuration lints one shader as several variants (define sets):
  // the variants that found this. Empty otherwise.
  std::vector<std::string> variants;
  // The verdict of `--confirm`, for the rules whose findings a run can show.
  std::optional<runner::Confirmation> confirmation;
};

}  // namespace klint
