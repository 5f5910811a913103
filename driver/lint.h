// The per-file pipeline: read, compile, validate, normalize, model, run rules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/frontend.h"
#include "analyzer/source.h"
#include "driver/discover.h"
#include "driver/finding.h"
#include "driver/suppressions.h"
#include "rules/rule.h"

namespace klint {

struct LintOptions {
  CompileOptions compile;
  RuleSelection selection;
  RuleOptions rule_options;
};

struct FileReport {
  std::string path;
  std::vector<Finding> diagnostics;      // sorted with diagnostic_less
  std::vector<InputMessage> messages;    // unreadable, or skipped as not compute
  std::vector<SuppressedDiagnostic> suppressed;  // silenced by klint-ignore comments
  // Every file the result depends on: the shader and each file it included.
  std::vector<std::string> files;
};

// Reads the file, then lints it as lint_text does.
FileReport lint_file(const InputFile& input, const LintOptions& options, SourceCache& sources);

// Lints `text` as the contents of input.path (includes are found relative to
// that path). An exception from any stage becomes an internal-error finding.
FileReport lint_text(const InputFile& input, const std::string& text, const LintOptions& options,
                     SourceCache& sources);

}  // namespace klint
