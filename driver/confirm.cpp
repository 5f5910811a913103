#include "driver/confirm.h"

#include <algorithm>

#include "driver/compile_worker.h"

namespace klint {

void confirm_report(FileReport& report, const Job& job, const runner::KernelManifest* manifest,
                    const runner::ConfirmOptions& options, SourceCache& sources) {
  std::vector<const Diagnostic*> findings;
  for (const Finding& finding : report.diagnostics) findings.push_back(&finding);
  if (std::none_of(findings.begin(), findings.end(), [](const Diagnostic* d) { return runner::is_confirmable(*d); })) {
    return;
  }
  auto record = [&](runner::Verdicts verdicts) {
    for (size_t i = 0; i < verdicts.size(); ++i) report.diagnostics[i].confirmation = std::move(verdicts[i]);
  };
  const std::string& path = job.input.path;
  ReadError read_error;
  std::optional<std::string> text = read_file(path, &read_error);
  if (!text) return record(runner::not_runnable(findings, read_error.reason));
  CompiledShader compiled = compile_isolated(path, *text, job.input.language, job.options.compile, sources);
  if (!compiled.ok) return record(runner::not_runnable(findings, "it does not compile"));
  record(runner::confirm_findings(findings, compiled.spirv, ModuleOrigin{path, std::move(compiled.assembly_lines)},
                                  manifest, options));
}

}  // namespace klint
