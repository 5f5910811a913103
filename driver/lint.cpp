#include "driver/lint.h"

#include "driver/compile_worker.h"
#include "driver/suppressions.h"

#include <algorithm>
#include <exception>
#include <array>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "analyzer/loops.h"
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

const char* const kAxes[] = {"x", "y", "z"};

// The one dimension of a compute entry point that the host sets with no
// default declared (`layout(local_size_x_id = 0) in;` alone), with the
// declared size of the others.
struct HostSetDimension {
  size_t axis = 0;
  std::array<uint32_t, 3> size{1, 1, 1};
};

std::optional<HostSetDimension> host_set_dimension(const Module& module) {
  std::optional<HostSetDimension> found;
  for (const EntryPoint& entry : module.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute || !entry.workgroup_size) continue;
    HostSetDimension host;
    size_t undeclared = 0;
    for (size_t axis = 0; axis < 3; ++axis) {
      const WorkgroupDimension& dimension = (*entry.workgroup_size)[axis];
      host.size[axis] = static_cast<uint32_t>(dimension.value);
      if (dimension.left_to_host()) {
        host.axis = axis;
        ++undeclared;
      }
    }
    // Two dimensions left to the host make a shape klint would have to guess.
    if (undeclared > 1 || (undeclared == 1 && found)) return std::nullopt;
    if (undeclared == 1) found = host;
  }
  return found;
}

// The sizes a lint assumes for that dimension: the powers of two from 32 (a
// subgroup, in klint's model) up to what every target runs.
std::vector<uint32_t> assumed_sizes(const HostSetDimension& host, const RuleOptions& options) {
  uint64_t others = uint64_t{host.size[0]} * host.size[1] * host.size[2] / std::max(1u, host.size[host.axis]);
  std::vector<uint32_t> sizes;
  for (uint32_t size = 32; size <= 1024; size *= 2) {
    bool runs = std::all_of(options.targets.begin(), options.targets.end(), [&](const Target* target) {
      uint32_t invocations = target->max_compute_work_group_invocations;
      uint32_t along = target->max_compute_work_group_size[host.axis];
      return (invocations == 0 || size * others <= invocations) && (along == 0 || size <= along);
    });
    if (runs) sizes.push_back(size);
  }
  return sizes;
}

std::string size_list(const std::vector<uint32_t>& sizes) {
  std::string text;
  for (size_t i = 0; i < sizes.size(); ++i) {
    text += i == 0 ? "" : i + 1 == sizes.size() ? " and " : ", ";
    text += std::to_string(sizes[i]);
  }
  return text;
}

// A kernel whose source leaves one workgroup dimension to its host, with no
// default, is linted at each size assumed_sizes() gives where none of its
// loops stands still (`i += WG / 128` at 64 never ends, so the host cannot
// use 64), and a finding is reported when it is found at every such size
// (by rule and line), with a note that says what klint assumed. nullopt when
// the kernel has no such dimension, the user gave its size, or no size runs.
std::optional<FileReport> lint_at_assumed_sizes(const InputFile& input, const std::string& text,
                                                const std::shared_ptr<const LoadedShader>& shader_owner,
                                                const LintOptions& options, SourceCache& sources) {
  const LoadedShader& shader = *shader_owner;
  if (options.specialization.workgroup_size || !shader.module) return std::nullopt;
  std::optional<HostSetDimension> host = host_set_dimension(*shader.module);
  if (!host) return std::nullopt;
  struct AtSize {
    uint32_t size;
    std::shared_ptr<const LoadedShader> shader;
    FileReport report;
  };
  std::vector<AtSize> lints;
  std::vector<uint32_t> stuck;  // sizes at which a loop never ends
  std::optional<CompiledShader> compiled;
  for (uint32_t size : assumed_sizes(*host, options.rule_options)) {
    LintOptions at_size = options;
    std::array<uint32_t, 3> given = host->size;
    given[host->axis] = size;
    at_size.specialization.workgroup_size = GivenWorkgroupSize{given, "an assumed workgroup size"};
    LoadOptions load = lint_load_options(at_size);
    // The file is compiled once more, for the first size, and its output
    // serves the others: only these kernels pay, not every lint.
    load.compiler = [&compiled, compile = load.compiler](const std::string& path, const std::string& source,
                                                         Language language, const CompileOptions& compile_options,
                                                         SourceCache& cache) {
      if (!compiled) compiled = compile ? compile(path, source, language, compile_options, cache)
                                        : klint::compile(path, source, language, compile_options, cache);
      return *compiled;
    };
    auto loaded = std::make_shared<const LoadedShader>(
        load_shader(ShaderInput{input.path, text, input.language}, options.compile, sources, load));
    if (!loaded->module) return std::nullopt;
    bool moves = std::all_of(loaded->module->entry_points().begin(), loaded->module->entry_points().end(),
                             [&](const EntryPoint& entry) {
                               return !entry.function || !loop_counter_that_never_moves(*loaded->module, *entry.function);
                             });
    if (!moves) {
      stuck.push_back(size);
      continue;
    }
    FileReport report = lint_shader(input, loaded, at_size, sources);
    lints.push_back(AtSize{size, std::move(loaded), std::move(report)});
  }
  if (lints.empty()) return std::nullopt;

  std::vector<uint32_t> sizes;
  for (const AtSize& lint : lints) sizes.push_back(lint.size);
  using Key = std::tuple<std::string, std::string, uint32_t>;
  auto key = [](const Finding& d) { return Key{std::string(d.rule->id), d.location.file, d.location.line}; };
  std::map<Key, size_t> found_at;
  for (const AtSize& lint : lints) {
    std::set<Key> seen;
    for (const Finding& d : lint.report.diagnostics) {
      if (seen.insert(key(d)).second) ++found_at[key(d)];
    }
  }
  // What the lint finds at the compiler's 1, where no constant that
  // depends on the size is known, holds whatever the size: no note.
  std::set<Key> without_size;
  for (const Finding& d : lint_shader(input, shader_owner, options, sources).diagnostics) {
    without_size.insert(key(d));
  }
  FileReport report = std::move(lints.front().report);
  std::erase_if(report.diagnostics, [&](const Finding& d) { return found_at[key(d)] != lints.size(); });
  std::string assumed = fmt::format(
      "the host sets the workgroup's {} size (local_size_{}_id, with no default declared); klint linted it at {}{} "
      "and found this at each (--workgroup-size gives yours)",
      kAxes[host->axis], kAxes[host->axis], size_list(sizes),
      stuck.empty() ? "" : fmt::format(" (at {} a loop never ends)", size_list(stuck)));
  Location where = shader.module->source_line(fmt::format("local_size_{}_id", kAxes[host->axis]))
                       .value_or(Location{input.path});
  for (Finding& d : report.diagnostics) {
    if (!without_size.count(key(d))) d.notes.push_back(Note{where, assumed});
  }
  if (options.keep_shader) {
    report.shader = std::move(lints.front().shader);
    report.assumed_workgroup_size = host->size;
    (*report.assumed_workgroup_size)[host->axis] = lints.front().size;
  }
  return report;
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
    if (auto report = lint_at_assumed_sizes(input, text, shader, options, sources)) return *report;
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
    report.includes = shader->includes;
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
