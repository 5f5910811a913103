#include "driver/lint.h"

#include "driver/compile_worker.h"
#include "driver/suppressions.h"

#include <algorithm>
#include <exception>

#include "analyzer/module.h"
#include "analyzer/printable.h"

namespace klint {
namespace {

InputMessage note_message(const std::string& path, const LoadNote& note) {
  // A note on a file that klint analyzed still counts it as linted.
  return note.not_analyzed ? InputMessage{path, note.message, true}
                           : InputMessage{path, note.message, false, 0, 0, true};
}

void run_rules_on(const Module& module, const LintOptions& options, FileReport& report) {
  for (Diagnostic& d : run_rules(module, options.selection, options.rule_options)) {
    report.diagnostics.push_back(std::move(d));
  }
  if (!module.workgroup_size_declared()) {
    report.messages.push_back(InputMessage{
        module.path(),
        "declares no workgroup size (local_size_x/y/z), so its host sets one when it creates the pipeline; klint "
        "judged only the rules that do not depend on it",
        false, 0, 0, true});
  }
  for (const std::string& note : module.budget_notes()) {
    report.messages.push_back(InputMessage{
        module.path(), printable(fmt::format("klint analyzed less than all of it: {}", note)), false, 0, 0, true});
  }
}

// Sorts, and drops what suppressions and the selection take out.
void finish(const InputFile& input, const LintOptions& options, SourceCache& sources, FileReport& report) {
  std::erase_if(report.diagnostics, [&](const Diagnostic& d) { return !options.selection.enabled(*d.rule); });
  report.suppressed = apply_suppressions(report.diagnostics, input.path, sources, options.selection, &report.messages);
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), diagnostic_less);
  // Inlining copies a helper into each caller: one line, one finding, about
  // the instructions of every copy.
  auto same = [](const Diagnostic& a, const Diagnostic& b) {
    return a.rule == b.rule && a.location == b.location && a.message == b.message;
  };
  std::vector<Finding> unique;
  for (Finding& d : report.diagnostics) {
    if (unique.empty() || !same(unique.back(), d)) {
      unique.push_back(std::move(d));
      continue;
    }
    for (size_t instruction : d.instructions) {
      std::vector<size_t>& kept = unique.back().instructions;
      if (std::find(kept.begin(), kept.end(), instruction) == kept.end()) kept.push_back(instruction);
    }
  }
  report.diagnostics = std::move(unique);
}

}  // namespace

LoadOptions driver_load_options() {
  LoadOptions load;
  load.compiler = compile_isolated;
  return load;
}

LoadOptions lint_load_options(const LintOptions& options) {
  LoadOptions load = driver_load_options();
  load.specializer = make_specializer(options.specialization);
  return load;
}

std::vector<std::pair<std::string, LintOptions>> subgroup_width_lints(const LintOptions& options) {
  if (!options.specialization.subgroup_size_constant) return {{"", options}};
  std::vector<std::pair<std::string, LintOptions>> lints;
  for (auto& [width, targets] : subgroup_widths(options.rule_options.targets)) {
    LintOptions at_width = options;
    at_width.specialization.subgroup_size = width;
    at_width.rule_options.targets = std::move(targets);
    lints.emplace_back(fmt::format("subgroup size {}", width), std::move(at_width));
  }
  if (lints.empty()) lints.emplace_back("", options);
  return lints;
}

FileReport lint_file(const InputFile& input, const LintOptions& options, SourceCache& sources) {
  ReadError read_error;
  std::optional<std::string> text = read_file(input.path, &read_error);
  if (!text) {
    FileReport report{input.path, {}, {}, {}, {input.path}};
    report.messages.push_back(InputMessage{input.path, read_error.reason, true});
    return report;
  }
  return lint_text(input, *text, options, sources);
}

FileReport lint_text(const InputFile& input, const std::string& text, const LintOptions& options,
                     SourceCache& sources) {
  std::shared_ptr<const LoadedShader> shader;
  try {
    shader = std::make_shared<const LoadedShader>(
        load_shader(ShaderInput{input.path, text, input.language}, options.compile, sources, lint_load_options(options)));
  } catch (const std::exception& e) {
    FileReport report{input.path, {}, {}, {}, {input.path}};
    report.diagnostics.push_back(Diagnostic{&kInternalError, Severity::Error,
                                            fmt::format("klint failed on this file: {}", e.what()),
                                            Location{input.path}, {}, "please report this as a bug in klint"});
    return report;
  }
  return lint_shader(input, std::move(shader), options, sources);
}

FileReport lint_shader(const InputFile& input, std::shared_ptr<const LoadedShader> shader, const LintOptions& options,
                       SourceCache& sources) {
  FileReport report{input.path, {}, {}, {}, {input.path}};
  try {
    for (const Diagnostic& d : shader->diagnostics) report.diagnostics.push_back(Diagnostic(d));
    report.files = shader->files;
    if (report.files.empty()) report.files.push_back(input.path);
    for (const LoadNote& note : shader->notes) report.messages.push_back(note_message(input.path, note));
    if (shader->non_compute_stage) {
      report.messages.push_back(InputMessage{
          input.path, fmt::format("not a compute shader ({} stage); skipped", *shader->non_compute_stage), false});
    } else if (shader->module) {
      run_rules_on(*shader->module, options, report);
    }
  } catch (const std::exception& e) {
    report.diagnostics.push_back(Diagnostic{&kInternalError, Severity::Error,
                                            fmt::format("klint failed on this file: {}", e.what()),
                                            Location{input.path}, {}, "please report this as a bug in klint"});
  }
  finish(input, options, sources, report);
  if (options.keep_shader && shader->module) report.shader = std::move(shader);
  return report;
}

}  // namespace klint
