#include "driver/confirm.h"

#include <algorithm>

#include "driver/compile_worker.h"

namespace klint {

void confirm_report(FileReport& report, const Job& job, const runner::KernelManifest* manifest,
                    const runner::ConfirmOptions& options, SourceCache& sources) {
  std::vector<Diagnostic>& findings = report.diagnostics;
  if (std::none_of(findings.begin(), findings.end(), runner::is_confirmable)) return;
  const std::string& path = job.input.path;
  ReadError read_error;
  std::optional<std::string> text = read_file(path, &read_error);
  if (!text) return runner::not_runnable(findings, read_error.reason);
  CompiledShader compiled = compile_isolated(path, *text, job.input.language, job.options.compile, sources);
  if (!compiled.ok) return runner::not_runnable(findings, "it does not compile");
  runner::confirm_findings(findings, compiled.spirv, ModuleOrigin{path, std::move(compiled.assembly_lines)}, manifest,
                           options);
}

}  // namespace klint
