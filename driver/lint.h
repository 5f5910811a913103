// The per-file pipeline: read, load (validate/loaded_shader.h), run rules.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/frontend.h"
#include "analyzer/source.h"
#include "driver/discover.h"
#include "driver/finding.h"
#include "driver/specialization.h"
#include "driver/suppressions.h"
#include "rules/rule.h"
#include "validate/loaded_shader.h"

namespace klint {

struct LintOptions {
  CompileOptions compile;
  RuleSelection selection;
  RuleOptions rule_options;
  // What the host gives the pipeline: applied to the module before analysis.
  Specialization specialization;
  // Keeps the loaded shader on the report (FileReport::shader), for
  // `--confirm` to run the module the rules saw.
  bool keep_shader = false;
};

struct FileReport {
  std::string path;
  std::vector<Finding> diagnostics;      // sorted with diagnostic_less
  std::vector<InputMessage> messages;    // unreadable, or skipped as not compute
  std::vector<SuppressedDiagnostic> suppressed;  // silenced by klint-ignore comments
  // Every file the result depends on: the shader and each file it included.
  std::vector<std::string> files;
  // Each #include the compiler followed to get them (not kept in the cache:
  // only the language server, which never reads it, places findings by them).
  std::vector<Inclusion> includes;
  // The shader as loaded, when LintOptions::keep_shader and it was analyzed;
  // the findings' instructions (Diagnostic::instructions) are its module's.
  std::shared_ptr<const LoadedShader> shader;
  // The workgroup size klint assumed for `shader` where the host sets it and
  // nothing gave it (the first of the sizes it linted at), which its runs
  // run and a replay must give.
  std::optional<std::array<uint32_t, 3>> assumed_workgroup_size;
};

// Reads the file, then lints it as lint_text does.
FileReport lint_file(const InputFile& input, const LintOptions& options, SourceCache& sources);

// Lints `text` as the contents of input.path (includes are found relative to
// that path). An exception from any stage becomes an internal-error finding.
FileReport lint_text(const InputFile& input, const std::string& text, const LintOptions& options,
                     SourceCache& sources);

// Lints a shader that load_shader() made of input.path.
FileReport lint_shader(const InputFile& input, std::shared_ptr<const LoadedShader> shader, const LintOptions& options,
                       SourceCache& sources);

// How the driver loads a file: compiled through the compile worker (driver/compile_worker.h).
LoadOptions driver_load_options();

// How the driver loads a file to lint it: driver_load_options(), specialized
// as `options` says.
LoadOptions lint_load_options(const LintOptions& options);

// The lints of one file that `options` asks for: itself, named "", or with a
// subgroup-size constant one per subgroup width its targets run, named
// "subgroup size 32", its constant set to that width and judged against the
// targets that run it. When no target says what width it runs, the one lint
// keeps the constant's default (a note says so).
std::vector<std::pair<std::string, LintOptions>> subgroup_width_lints(const LintOptions& options);

}  // namespace klint
