#include "driver/confirm.h"

#include <algorithm>

#include "rules/rule.h"

namespace klint {
namespace {

// What the lint gave the pipeline, as a replay gives it again: each constant
// once, at the value that won, and the subgroup width this lint set.
runner::LintedWith linted_with(const Specialization& specialization) {
  runner::LintedWith out;
  for (const SpecializationOption& option : specialization.constants) {
    std::erase_if(out.specialization, [&](const auto& set) { return set.first == option.setting.key; });
    out.specialization.emplace_back(option.setting.key, option.setting.value);
  }
  if (specialization.subgroup_size_constant && specialization.subgroup_size) {
    out.specialization.emplace_back(specialization.subgroup_size_constant->key,
                                    runner::Number{int64_t{specialization.subgroup_size}});
  }
  if (specialization.workgroup_size) out.workgroup_size = specialization.workgroup_size->size;
  return out;
}

// The verdict of a rule's finding that no run can show yet. The front end's
// findings (compile-error, invalid-spirv) are about the file, not a run: none.
void say_no_run(std::vector<Finding>& findings) {
  const auto& rules = RuleRegistry::rules();
  for (Finding& finding : findings) {
    if (finding.confirmation) continue;
    bool rule = std::any_of(rules.begin(), rules.end(), [&](const auto& r) { return &r->info() == finding.rule; });
    if (rule) finding.confirmation = runner::Confirmation{runner::Confirmation::Status::NoRun, "no run can show this yet", {}, {}};
  }
}

}  // namespace

void confirm_report(FileReport& report, const Job& job, const runner::KernelManifest* manifest,
                    const runner::ConfirmOptions& options, SourceCache& sources) {
  std::vector<const Diagnostic*> findings;
  for (const Finding& finding : report.diagnostics) findings.push_back(&finding);
  if (std::none_of(findings.begin(), findings.end(), [](const Diagnostic* d) { return runner::is_confirmable(*d); })) {
    report.shader.reset();
    say_no_run(report.diagnostics);
    return;
  }
  auto record = [&](runner::Verdicts verdicts) {
    for (size_t i = 0; i < verdicts.size(); ++i) report.diagnostics[i].confirmation = std::move(verdicts[i]);
    say_no_run(report.diagnostics);
  };
  std::shared_ptr<const LoadedShader> shader = std::move(report.shader);
  if (!shader) {
    // A result from the cache: the file is loaded afresh as linting loaded
    // it, which gives the same module, so the findings' instructions hold.
    const std::string& path = job.input.path;
    ReadError read_error;
    std::optional<std::string> text = read_file(path, &read_error);
    if (!text) return record(runner::not_runnable(findings, read_error.reason));
    shader = std::make_shared<const LoadedShader>(load_shader(ShaderInput{path, *text, job.input.language},
                                                              job.options.compile, sources, lint_load_options(job.options)));
  }
  if (!shader->module) return record(runner::not_runnable(findings, "it does not compile"));
  runner::ConfirmOptions with = options;
  with.linted_with = linted_with(job.options.specialization);
  if (!with.linted_with.workgroup_size) with.linted_with.workgroup_size = report.assumed_workgroup_size;
  with.linted_with.targets = job.options.rule_options.targets;
  record(runner::confirm_findings(findings, *shader, manifest, with));
}

void confirm_variants(FileReport& merged, std::span<const Job> variants, const runner::KernelManifest* manifest,
                      const runner::ConfirmOptions& options, SourceCache& sources) {
  std::vector<Finding>& findings = merged.diagnostics;
  for (const Job& job : variants) {
    FileReport part{merged.path, {}, {}, {}, {}};
    std::vector<size_t> taken;
    for (size_t k = 0; k < findings.size(); ++k) {
      if (findings[k].variants.empty() || findings[k].variants.front() != job.variant) continue;
      part.diagnostics.push_back(std::move(findings[k]));
      taken.push_back(k);
    }
    confirm_report(part, job, manifest, options, sources);
    for (size_t k = 0; k < taken.size(); ++k) findings[taken[k]] = std::move(part.diagnostics[k]);
  }
}

}  // namespace klint
