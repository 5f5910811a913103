#include "driver/reflect_command.h"

#include "driver/lint.h"
#include "validate/occupancy.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>

#include "analyzer/source.h"
#include "driver/discover.h"
#include "driver/output/text.h"
#include "reflect/format.h"
#include "reflect/reflection.h"

namespace klint {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUnreadable = 2;

struct Outcome {
  int status = kExitOk;
  void fail(int code) { status = std::max(status, code); }
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// `file:line: error: message [rule]`, the first line of the message only.
void print_compile_error(std::ostream& err, const Diagnostic& diagnostic) {
  std::string where = diagnostic.location.file;
  if (diagnostic.location.has_line()) where += fmt::format(":{}", diagnostic.location.line);
  err << fmt::format("{}: {}: {} [{}]\n", where, to_string(diagnostic.severity), first_line(diagnostic.message),
                     diagnostic.rule ? diagnostic.rule->id : "unknown");
}

void print_not_compute(std::ostream& err, const std::string& path, const std::string& stage, std::string_view verb) {
  err << fmt::format("{}: error: not a compute shader ({} stage): klint {} compute kernels only\n", path, stage, verb);
}

// The module as compiled, checked by the validator so that SPIRV-Cross only
// ever sees valid SPIR-V; nullopt after printing why not.
std::optional<std::vector<uint32_t>> load(const InputFile& input, const CompileOptions& options, std::string_view verb,
                                          std::ostream& err, Outcome& outcome) {
  ReadError read_error;
  std::optional<std::string> text = read_file(input.path, &read_error);
  if (!text) {
    print_input_message(err, InputMessage{input.path, read_error.reason, true}, TextStyle{});
    outcome.fail(kExitUnreadable);
    return std::nullopt;
  }
  SourceCache sources;
  LoadOptions load = driver_load_options();
  load.normalize = false;
  LoadedShader shader = load_shader(ShaderInput{input.path, *text, input.language}, options, sources, load);
  if (shader.non_compute_stage) {
    print_not_compute(err, input.path, *shader.non_compute_stage, verb);
    outcome.fail(kExitFailed);
    return std::nullopt;
  }
  if (!shader.compiled) {
    for (const Diagnostic& diagnostic : shader.diagnostics) print_compile_error(err, diagnostic);
    if (shader.diagnostics.empty()) err << fmt::format("{}: error: does not compile\n", input.path);
    outcome.fail(kExitFailed);
    return std::nullopt;
  }
  if (!shader.valid) {
    for (const Diagnostic& diagnostic : shader.diagnostics) {
      err << fmt::format("{}: error: {} [{}]\n", input.path, first_line(diagnostic.message), diagnostic.rule->id);
    }
    for (const LoadNote& note : shader.notes) err << fmt::format("{}: error: {}\n", input.path, note.message);
    outcome.fail(kExitFailed);
    return std::nullopt;
  }
  return std::move(shader.words);
}

// Discovery's notes are the non-compute files it skipped; named here they are errors.
std::vector<InputFile> inputs(const std::vector<std::string>& paths, const CompileOptions& options,
                              std::string_view verb, std::ostream& err, Outcome& outcome) {
  Discovery discovery = discover_inputs(paths, options.force_compute);
  for (const InputMessage& message : discovery.messages) {
    std::optional<std::string> stage = message.is_error ? std::nullopt : non_compute_stage_for_path(message.path);
    if (stage) {
      print_not_compute(err, message.path, *stage, verb);
      outcome.fail(kExitFailed);
    } else {
      print_input_message(err, message, TextStyle{});
      outcome.fail(message.is_error ? kExitUnreadable : kExitOk);
    }
  }
  return discovery.files;
}

}  // namespace

// `layout(local_size_x_id = N) in;` without a `constant_id = N` constant: the
// workgroup is 1 wide there unless every pipeline specializes N.
void warn_undeclared_defaults(const std::string& path, const reflect::EntryPoint& entry, std::ostream& err) {
  if (!entry.workgroup_size) return;
  const char* axes[] = {"x", "y", "z"};
  for (size_t i = 0; i < 3; ++i) {
    const reflect::WorkgroupDimension& d = (*entry.workgroup_size)[i];
    if (!d.spec_id || d.default_declared) continue;
    err << fmt::format(
        "{}: warning: workgroup size {} of '{}' comes from specialization constant {}, which has no declared default, "
        "so 1 is assumed (declare layout(constant_id = {}) const uint NAME = SIZE;)\n",
        path, axes[i], entry.name, *d.spec_id, *d.spec_id);
  }
}

void add_occupancy(reflect::EntryPoint& entry, const std::vector<const Target*>& targets) {
  for (const Target* target : targets) {
    uint64_t shared = entry.workgroup_memory.total_bytes;
    uint64_t invocations = 1;
    bool dimensions_fit = true;
    if (entry.workgroup_size) {
      for (size_t i = 0; i < 3; ++i) {
        invocations *= (*entry.workgroup_size)[i].value;
        // A limit no source gives (0) is not held against the kernel.
        const uint32_t max = target->max_compute_work_group_size[i];
        dimensions_fit &= max == 0 || (*entry.workgroup_size)[i].value <= max;
      }
    }
    reflect::Residency residency{target->name, true, std::nullopt, {}};
    residency.fits = shared <= target->max_compute_shared_memory_size && dimensions_fit &&
                     (target->max_compute_work_group_invocations == 0 ||
                      invocations <= target->max_compute_work_group_invocations);
    if (auto occupancy = estimate_occupancy(*target, shared, invocations); occupancy && residency.fits) {
      residency.resident_workgroups = occupancy->resident_workgroups;
      residency.limited_by = std::string(to_string(occupancy->limited_by));
    }
    entry.occupancy.push_back(std::move(residency));
  }
}

int run_reflect(const std::vector<std::string>& paths, const CompileOptions& options,
                const std::vector<const Target*>& targets, ReflectFormat format, std::ostream& out, std::ostream& err) {
  Outcome outcome;
  std::vector<reflect::ReflectedFile> reflected;
  for (const InputFile& input : inputs(paths, options, "reflects", err, outcome)) {
    std::optional<std::vector<uint32_t>> spirv = load(input, options, "reflects", err, outcome);
    if (!spirv) continue;
    std::string error;
    std::optional<reflect::ModuleReflection> module = reflect::reflect_module(*spirv, &error);
    if (!module) {
      err << fmt::format("{}: error: cannot reflect: {}\n", input.path, first_line(error));
      outcome.fail(kExitFailed);
      continue;
    }
    for (reflect::EntryPoint& entry : module->entry_points) {
      add_occupancy(entry, targets);
      warn_undeclared_defaults(input.path, entry, err);
    }
    reflected.push_back({input.path, std::move(*module)});
  }
  // Tools get a document even when some files failed: the ones that did not.
  if (format == ReflectFormat::Json) {
    reflect::write_json(out, reflected);
  } else {
    reflect::write_table(out, reflected);
  }
  return outcome.status;
}

int run_translate(const std::string& path, const CompileOptions& options, reflect::TranslateTo to, std::ostream& out,
                  std::ostream& err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    print_input_message(err, InputMessage{path, "is a directory: translate takes one file", true}, TextStyle{});
    return kExitUnreadable;
  }
  Outcome outcome;
  for (const InputFile& input : inputs({path}, options, "translates", err, outcome)) {
    std::optional<std::vector<uint32_t>> spirv = load(input, options, "translates", err, outcome);
    if (!spirv) continue;
    std::string error;
    std::optional<std::string> source = reflect::translate(*spirv, to, &error);
    if (!source) {
      err << fmt::format("{}: error: cannot translate to {}: {}\n", input.path, reflect::to_string(to),
                         first_line(error));
      outcome.fail(kExitFailed);
      continue;
    }
    out << *source;
  }
  return outcome.status;
}

}  // namespace klint
