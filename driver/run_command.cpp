#include "driver/run_command.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>

#include "driver/config.h"
#include "driver/lint.h"
#include "driver/option_lists.h"
#include "driver/probe_report.h"
#include "driver/specialization.h"
#include "reflect/reflection.h"
#include "runner/harness.h"
#include "runner/manifest.h"
#include "runner/resources.h"
#include "runner/run.h"

namespace klint {
namespace {

constexpr int kExitCompleted = 0;
constexpr int kExitRunFailed = 1;
constexpr int kExitUsage = 2;
constexpr size_t kWordsShown = 8;
constexpr size_t kProbeRowsShown = 64;

int input_error(std::ostream& err, const std::string& path, const std::string& reason) {
  err << fmt::format("klint: error: {}: {}\n", path, reason.substr(0, reason.find('\n')));
  return kExitUsage;
}

// How to show a buffer's words: as the scalar type its first member starts with.
enum class WordType { Float, Int, Uint, Hex };

WordType word_type(const reflect::Binding& binding) {
  if (!binding.block || binding.block->members.empty()) return WordType::Hex;
  std::string type = binding.block->members.front().type;
  type = type.substr(0, type.find('['));
  // 32-bit scalars, their vectors and matrices; struct names and other widths show as hex.
  auto is = [&](std::string_view scalar, std::string_view vector) {
    return type == scalar || (type.starts_with(vector) && type.size() == vector.size() + 1) ||
           (scalar == "float" && type.starts_with("mat") && type.size() <= 6);
  };
  if (is("float", "vec")) return WordType::Float;
  if (is("uint", "uvec")) return WordType::Uint;
  if (is("int", "ivec")) return WordType::Int;
  return WordType::Hex;
}

// A word of a sentinel buffer that still holds the sentinel shows as "-".
std::string show_word(const uint8_t* bytes, WordType type, bool sentinel) {
  uint32_t word;
  std::memcpy(&word, bytes, 4);
  if (sentinel && word == runner::kSentinelWord) return "-";
  switch (type) {
    case WordType::Float: {
      float value;
      std::memcpy(&value, &word, 4);
      return fmt::format("{:g}", value);
    }
    case WordType::Int:
      return std::to_string(static_cast<int32_t>(word));
    case WordType::Uint:
      return std::to_string(word);
    case WordType::Hex:
      break;
  }
  return fmt::format("0x{:08x}", word);
}

void print_buffer(std::ostream& out, const runner::BufferSpec& before, const runner::BufferResult& after,
                  const reflect::Binding& binding) {
  const size_t words = after.data.size() / 4;
  std::string counted;
  if (before.sentinel) {
    counted = fmt::format("{} of {} words never written", runner::count_sentinel_words(after.data), words);
  } else {
    size_t changed = 0;
    for (size_t i = 0; i < words; ++i) changed += std::memcmp(&before.data[4 * i], &after.data[4 * i], 4) != 0;
    counted = fmt::format("{} of {} words changed", changed, words);
  }
  std::string first;
  const WordType type = word_type(binding);
  for (size_t i = 0; i < std::min(words, kWordsShown); ++i) {
    first += " " + show_word(&after.data[4 * i], type, before.sentinel);
  }
  out << fmt::format("binding {}.{} {} ({}, {} bytes): {}; first:{}{}\n", after.set, after.binding, after.name,
                     reflect::to_string(binding.type), after.data.size(), counted, first,
                     words > kWordsShown ? " ..." : "");
}

void print_violation(std::ostream& out, const runner::GuardViolation& guard) {
  out << fmt::format("  out of bounds: {} guard byte{} {} binding {}.{} {} changed (bytes {}..{})\n", guard.changed,
                     guard.changed == 1 ? "" : "s", guard.before ? "before" : "after", guard.set, guard.binding,
                     guard.name, guard.first, guard.last);
}

// The workgroup a dispatch of `harness` runs, specialization included.
std::string workgroup_text(const reflect::EntryPoint& entry, const runner::Harness& harness) {
  const std::array<uint32_t, 3> size = runner::workgroup_size(entry, harness);
  return fmt::format("{},{},{}", size[0], size[1], size[2]);
}

// A shader compiled, validated and reflected, its text, and its probes.
struct Kernel {
  runner::LoadedKernel loaded;
  std::string text;
  std::vector<runner::ProbeRequest> probes;
};

std::optional<Kernel> load_kernel(const std::string& path, const CompileOptions& compile_options,
                                  const Specialization& host, std::ostream& err) {
  auto fail = [&](const std::string& reason) -> std::optional<Kernel> {
    input_error(err, path, reason);
    return std::nullopt;
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail("is a directory: run takes one file");
  std::optional<Language> language = language_for_path(path, compile_options.force_compute);
  if (!language) return fail("not a shader klint knows (.comp, .glsl, .hlsl, .spv, .spvasm)");
  ReadError read_error;
  std::optional<std::string> text = read_file(path, &read_error);
  if (!text) return fail(read_error.reason);
  SourceCache sources;
  LoadOptions load = driver_load_options();
  load.normalize = false;  // a run runs the kernel as compiled, with what the host sets
  load.specializer = make_specializer(host);
  LoadedShader shader = load_shader(ShaderInput{path, *text, *language}, compile_options, sources, load);
  if (shader.non_compute_stage) return fail(fmt::format("not a compute shader ({} stage)", *shader.non_compute_stage));
  if (!shader.compiled) {
    const Diagnostic* first = shader.diagnostics.empty() ? nullptr : &shader.diagnostics.front();
    return fail(first ? fmt::format("does not compile: line {}: {}", first->location.line, first->message)
                      : "does not compile");
  }
  if (!shader.valid) {
    if (!shader.diagnostics.empty()) return fail("invalid SPIR-V: " + shader.diagnostics.front().message);
    if (!shader.notes.empty() && shader.notes.front().not_analyzed) return fail(shader.notes.front().message);
    return fail(shader.notes.empty() ? "invalid SPIR-V" : shader.notes.front().message);
  }
  std::string error;
  std::optional<reflect::ModuleReflection> module = reflect::reflect_module(shader.words, &error);
  if (!module) return fail("cannot reflect: " + error);
  std::optional<std::vector<std::string>> moved = runner::separate_registers(shader.words, *module, &error);
  if (!moved) return fail(error);
  const spv_target_env env = shader.target_env();
  ModuleOrigin origin = shader.words_origin();
  return Kernel{{std::move(shader.words), std::move(*module), std::move(origin), env, std::move(*moved)},
                std::move(*text),
                {}};
}

// The manifest's reference shader loaded as the kernel is; nullopt where it
// does not compile or is not valid, which the run reports when it comes to compare.
std::optional<std::vector<uint32_t>> compile_reference(const runner::KernelManifest& manifest,
                                                       const CompileOptions& compile_options) {
  const std::string path = manifest.reference->string();
  std::optional<Language> language = language_for_path(path, compile_options.force_compute);
  std::optional<std::string> text = read_file(path, nullptr);
  if (!language || !text) return std::nullopt;
  SourceCache sources;
  LoadOptions load = driver_load_options();
  load.normalize = false;
  LoadedShader shader = load_shader(ShaderInput{path, *text, *language}, compile_options, sources, load);
  if (!shader.valid) return std::nullopt;
  return std::move(shader.words);
}

void print_checks(std::ostream& out, const runner::OutputChecks& checks) {
  for (const runner::OutputCheck& check : checks.checks) {
    if (!check.difference) {
      out << fmt::format("{}: '{}' matches\n", check.against, check.binding);
      continue;
    }
    const runner::OutputDifference& d = *check.difference;
    out << fmt::format("{}: '{}' differs: word {} is {}, {} {} ({} word{} differ{}; {})\n", check.against,
                       check.binding, d.first_word, runner::word_text(d.a, check.words), check.theirs,
                       runner::word_text(d.b, check.words), d.words, d.words == 1 ? "" : "s",
                       d.words == 1 ? "s" : "", d.symptom);
  }
}

// The lines before a run's report: the kernel's, before the first shape of a
// manifest, and the shape's.
std::string header(const std::string& path, const runner::KernelRun& run) {
  const reflect::EntryPoint& entry = *run.entry;
  const std::array<uint32_t, 3>& grid = run.harness.grid;
  if (!run.manifest) {
    return fmt::format("{}: entry point {}, workgroup {}, grid {},{},{}, seed {}\n", path, entry.name,
                       workgroup_text(entry, run.harness), grid[0], grid[1], grid[2], run.seed);
  }
  std::string text;
  if (run.index == 0) {
    text = fmt::format("{}: entry point {}, workgroup {}, kernel {}:{}, {} shape{}\n", path, entry.name,
                       workgroup_text(entry, run.harness), run.manifest->config_path, run.manifest->at.line,
                       run.count, run.count == 1 ? "" : "s");
  }
  const std::string described = runner::describe_shape(*run.shape);
  return text + fmt::format("shape{}{}: grid {},{},{}, seed {}\n", described.empty() ? "" : " ", described, grid[0],
                            grid[1], grid[2], run.seed);
}

// Prints what one run did, down to the verdict, and returns its exit code;
// with outputs that could not be checked, stops before the verdict.
int report_run(std::ostream& out, const std::string& path, const runner::KernelRun& kernel_run,
               const RunOptions& options) {
  const runner::IsolatedRun& run = kernel_run.run;
  const runner::Harness& harness = kernel_run.harness;
  const reflect::EntryPoint& entry = *kernel_run.entry;
  out << header(path, kernel_run);
  for (const std::string& guess : harness.guesses) out << "guessed: " << guess << "\n";
  if (run.verdict != runner::Verdict::Completed) {
    out << "verdict: " << run.message << "\n";
    return kExitRunFailed;
  }
  out << "device: " << run.execution.device << "\n";
  for (size_t i = 0; i < harness.buffers.size(); ++i) {  // the probes' log comes after the kernel's own
    const runner::BufferResult& after = run.execution.buffers[i];
    auto binding = std::find_if(entry.bindings.begin(), entry.bindings.end(), [&](const reflect::Binding& b) {
      return b.set == after.set && b.binding == after.binding;
    });
    print_buffer(out, harness.buffers[i], after, *binding);
    for (const runner::GuardViolation& guard : run.execution.guard_violations) {
      if (guard.set == after.set && guard.binding == after.binding) print_violation(out, guard);
    }
  }
  for (const runner::ResourceResult& after : run.execution.resources) {
    if (after.resource >= harness.resources.size()) continue;
    for (const std::string& line : runner::describe_result(harness.resources[after.resource], after)) out << line << "\n";
  }
  if (options.time) {
    out << fmt::format("dispatch: {:.3f} ms\n", static_cast<double>(run.execution.dispatch_nanoseconds) / 1e6);
  }
  const std::optional<runner::ShadowReport>& shadow = kernel_run.shadow;
  if (shadow) {
    const runner::Instrumented& instrumented = *kernel_run.instrumented;
    out << fmt::format("shadow: {} accesses logged{}, {} finding{}\n", shadow->accesses,
                       shadow->truncated ? fmt::format(" (the log kept the first {})", instrumented.capacity) : "",
                       shadow->findings.size(), shadow->findings.size() == 1 ? "" : "s");
    for (const runner::ShadowFinding& f : shadow->findings) out << "  " << runner::describe(instrumented, f) << "\n";
    for (const runner::ShadowFinding& f : kernel_run.observed) {
      out << "  observed: " << runner::describe(instrumented, f) << "\n";
    }
    for (const std::string& skipped : instrumented.skipped) out << "  not logged: " << skipped << "\n";
  }
  if (kernel_run.probed) {
    print_probes(out, *kernel_run.probed, run.execution.buffers.back().data,
                 options.probe_rows.value_or(kProbeRowsShown));
  }
  print_checks(out, kernel_run.checks);
  if (kernel_run.checks.error) return kExitUsage;
  const size_t violations = run.execution.guard_violations.size();
  if (!kernel_run.checks.all_match()) {
    out << "verdict: completed, the outputs differ from what the manifest expects\n";
    return kExitRunFailed;
  }
  if (shadow && !shadow->findings.empty()) {
    out << fmt::format("verdict: completed, {} shadow finding{}\n", shadow->findings.size(),
                       shadow->findings.size() == 1 ? "" : "s");
    return kExitRunFailed;
  }
  if (violations > 0) {
    out << fmt::format("verdict: completed, out of bounds: wrote past {} buffer guard{}\n", violations,
                       violations == 1 ? "" : "s");
    return kExitRunFailed;
  }
  out << "verdict: completed\n";
  return kExitCompleted;
}

// --shape NAME=VALUE,...: a value for each variable of the manifest, once.
std::optional<runner::Shape> parse_shape(const std::string& text, const runner::KernelManifest& manifest,
                                         std::string* error) {
  std::vector<std::optional<runner::Number>> values(manifest.variables.size());
  for (const auto& [item, name, value] : assignments(text)) {
    auto variable = std::find(manifest.variables.begin(), manifest.variables.end(), name);
    if (variable == manifest.variables.end() || !value) {
      *error = fmt::format("--shape '{}': '{}' is not VARIABLE=NUMBER for a variable of {}:{}", text, item,
                           manifest.config_path, manifest.at.line);
      return std::nullopt;
    }
    std::optional<runner::Number>& slot = values[variable - manifest.variables.begin()];
    if (slot) {
      *error = fmt::format("--shape '{}': '{}' is given twice", text, name);
      return std::nullopt;
    }
    slot = value;
  }
  runner::Shape shape;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) {
      *error = fmt::format("--shape '{}' gives no value for '{}'", text, manifest.variables[i]);
      return std::nullopt;
    }
    shape.emplace_back(manifest.variables[i], *values[i]);
  }
  return shape;
}

// The one shape --shape gives, or none: every shape of the manifest.
bool shape_to_run(const runner::KernelManifest& manifest, const std::string& text, std::optional<runner::Shape>& shape,
                  std::string* error) {
  if (text.empty()) return true;
  if (manifest.variables.empty()) {
    *error = fmt::format("--shape: the [[kernel]] at {}:{} declares no variables", manifest.config_path,
                         manifest.at.line);
    return false;
  }
  shape = parse_shape(text, manifest, error);
  return shape.has_value();
}

// Reads every --probe and places them once, so that a probe that matches
// nothing stops klint before anything runs. Returns the exit code of why not.
std::optional<int> attach_probes(const std::string& path, const RunOptions& options, Kernel& kernel,
                                 std::ostream& err) {
  std::string error;
  if (options.probe_rows && options.probes.empty()) return input_error(err, path, "--probe-rows needs --probe");
  for (const std::string& spec : options.probes) {
    std::optional<runner::ProbeRequest> probe = parse_probe(spec, path, kernel.text, &error);
    if (!probe) return input_error(err, path, error);
    kernel.probes.push_back(std::move(*probe));
  }
  if (!kernel.probes.empty() &&
      !runner::probe_kernel(kernel.loaded.spirv, kernel.loaded.origin, kernel.probes, {}, &error)) {
    return input_error(err, path, error);
  }
  return std::nullopt;
}

}  // namespace

void add_run_options(CLI::App& run, RunOptions& options) {
  run.add_option("--grid", options.grid, "Workgroups to dispatch (default: the manifest's, else 1,1,1)")->type_name("X,Y,Z");
  run.add_flag("--shadow", options.shadow,
               "Run the kernel instrumented and report races, reads of unwritten shared memory and indices out of range");
  run.add_flag("--time", options.time, "Print how long the dispatch took");
  run.add_option("--shape", options.shape, "Run one shape of the kernel's manifest, a value for every variable")
      ->type_name("NAME=VALUE,...");
  run.add_option("--specialization", options.specialization,
                 "Give specialization constants, by constant_id or name, these values (others keep their defaults)")
      ->type_name("CONSTANT=VALUE,...");
  run.add_option("--push-constants", options.push_constants,
                 "Give push-constant members, by name, these values (others are 0, or the manifest's); runtime arrays "
                 "grow to cover the largest product of two of the integers given")
      ->type_name("MEMBER=VALUE,...");
  run.add_option("--uniforms", options.uniforms,
                 "Give scalar members of uniform blocks, by their path from the block down (global.width), these "
                 "values, over the buffer's seeded contents")
      ->type_name("PATH=VALUE,...");
  run.add_option("--probe", options.probes, "Record the value a line computes, per invocation (repeatable)")
      ->type_name("FILE:LINE[:NAME]")
      ->allow_extra_args(false);
}

int run_file(const std::string& path, const CompileOptions& compile_options, const RunOptions& options,
             std::ostream& out, std::ostream& err) {
  runner::RunSettings settings;
  if (!options.grid.empty()) {
    settings.grid = parse_dimensions(options.grid);
    if (!settings.grid) {
      return input_error(err, path, fmt::format("--grid '{}' is not X,Y,Z of positive integers", options.grid));
    }
  }
  if (!(options.timeout_seconds > 0)) return input_error(err, path, "--timeout must be positive");
  ConfigResolver configs(options.config);
  std::string error;
  std::optional<const runner::KernelManifest*> manifest = configs.kernel_for(path, &error);
  if (!manifest) return input_error(err, path, error);
  if (!*manifest && !options.shape.empty()) {
    return input_error(err, path, "--shape needs a [[kernel]] table for the file in klint.toml");
  }
  std::optional<Specialization> host = command_line_specialization({}, options.workgroup_size, "", &error);
  if (!host) return input_error(err, path, error);
  std::optional<Kernel> kernel = load_kernel(path, compile_options, *host, err);
  if (!kernel) return kExitUsage;
  if (std::optional<int> code = attach_probes(path, options, *kernel, err)) return *code;
  if (*manifest && !shape_to_run(**manifest, options.shape, settings.shape, &error)) {
    return input_error(err, path, error);
  }
  std::optional<std::vector<runner::SpecializationSetting>> specialization =
      parse_specialization(options.specialization, &error);
  if (!specialization) return input_error(err, path, error);
  settings.specialization = std::move(*specialization);
  settings.specialization_label = fmt::format("--specialization '{}'", options.specialization);
  for (const auto& [item, name, value] : options.push_constants.empty() ? std::vector<Assignment>{}
                                                                         : assignments(options.push_constants)) {
    if (!value || name.empty()) {
      return input_error(err, path, fmt::format("--push-constants '{}': '{}' is not MEMBER=NUMBER",
                                                options.push_constants, item));
    }
    settings.push_constants.push_back({name, *value});
  }
  settings.push_constants_label = fmt::format("--push-constants '{}'", options.push_constants);
  for (const auto& [item, name, value] : options.uniforms.empty() ? std::vector<Assignment>{}
                                                                   : assignments(options.uniforms)) {
    if (!value || name.empty()) {
      return input_error(err, path, fmt::format("--uniforms '{}': '{}' is not PATH=NUMBER", options.uniforms, item));
    }
    settings.uniforms.push_back({name, *value});
  }
  settings.uniforms_label = fmt::format("--uniforms '{}'", options.uniforms);
  std::optional<std::vector<uint32_t>> reference;
  if (*manifest && (*manifest)->reference) reference = compile_reference(**manifest, compile_options);
  settings.reference = reference ? &*reference : nullptr;
  settings.device = options.device;
  settings.timeout_seconds = options.timeout_seconds;
  settings.seed = options.seed;
  settings.shadow = options.shadow;
  settings.probes = kernel->probes;

  int worst = kExitCompleted;
  auto report = [&](const runner::KernelRun& run) { worst = std::max(worst, report_run(out, path, run, options)); };
  if (!runner::run_kernel(kernel->loaded, *manifest, settings, report, &error)) return input_error(err, path, error);
  return worst;
}

}  // namespace klint
