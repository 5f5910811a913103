#include "runner/run.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "runner/extents.h"
#include "runner/harness.h"

namespace klint::runner {
namespace {

// Sets the constants the settings give, over the harness's, then gives every
// other its declared default, as klint's reflection and --confirm take it.
bool specialize(const RunSettings& settings, const reflect::ModuleReflection& module, Harness& harness,
                std::string* error) {
  for (const SpecializationSetting& setting : settings.specialization) {
    std::string why;
    if (!set_specialization(module, setting.key, setting.value, harness, &why)) {
      *error = fmt::format("{}: {}", settings.specialization_label, why);
      return false;
    }
  }
  give_default_specialization(module, harness);
  return true;
}

// Sets the uniform and push-constant members the settings give, over the
// harness's, and says so in its guesses.
bool push(const RunSettings& settings, const reflect::EntryPoint& entry, Harness& harness, std::string* error) {
  for (const SpecializationSetting& setting : settings.uniforms) {
    std::string why;
    if (!set_uniform(entry, setting.key, setting.value, harness, &why)) {
      *error = fmt::format("{}: {}", settings.uniforms_label, why);
      return false;
    }
  }
  if (settings.push_constants.empty()) return true;
  std::vector<std::string> given;
  for (const SpecializationSetting& setting : settings.push_constants) {
    std::string why;
    if (!set_push_constant(entry, setting.key, setting.value, harness, &why)) {
      *error = fmt::format("{}: {}", settings.push_constants_label, why);
      return false;
    }
    given.push_back(setting.key);
  }
  std::erase_if(harness.guesses, [](const std::string& g) { return g.starts_with("push constants:"); });
  std::vector<std::string> zero;
  for (const reflect::Member& member : entry.push_constants->block.members) {
    if (std::find(given.begin(), given.end(), member.name) == given.end()) zero.push_back(member.name);
  }
  if (!zero.empty()) harness.guesses.push_back(fmt::format("push constants: 0 for {}", fmt::join(zero, ", ")));
  return true;
}

// Runs `run.harness` and reports the run. Fails when the kernel cannot be
// instrumented or run at all, or its outputs cannot be checked.
bool run_once(const LoadedKernel& kernel, const RunSettings& settings, KernelRun& run,
              const std::function<void(const KernelRun&)>& report, std::string* error) {
  IsolateOptions isolate;
  isolate.timeout_seconds = settings.timeout_seconds;
  isolate.execute.device_index = settings.device;
  isolate.execute.target_env = kernel.target_env;
  // --shadow and --probe run the instrumented kernel with its log as one
  // more buffer, which the report leaves out.
  if (settings.shadow && !settings.probes.empty()) {
    *error = "--shadow and --probe run apart";
    return false;
  }
  std::optional<Instrumented> instrumented;
  if (settings.shadow) {
    InstrumentOptions instrument_options;
    instrument_options.specialization = run.harness.specialization;
    instrument_options.all_group_operations = true;  // what is active at each is observed
    instrument_options.barriers = true;
    std::string why;
    instrumented = instrument(kernel.spirv, kernel.origin, instrument_options, &why);
    if (!instrumented) {
      *error = "cannot instrument: " + why;
      return false;
    }
  }
  std::optional<ProbedKernel> probed;
  if (!settings.probes.empty()) {
    probed = probe_kernel(kernel.spirv, kernel.origin, settings.probes, run.harness, error);
    if (!probed) return false;
  }
  run.harness.guesses.insert(run.harness.guesses.begin(), kernel.moved.begin(), kernel.moved.end());
  Harness with_log = probed ? probed->harness : run.harness;
  if (instrumented) with_log.buffers.push_back(log_buffer(*instrumented));
  const std::vector<uint32_t>& spirv =
      instrumented ? instrumented->spirv : probed ? probed->instrumented.spirv : kernel.spirv;
  // The loaded words were validated; what the runner made of them was not.
  isolate.execute.validated = !instrumented && !probed;
  run.run = run_isolated(spirv, run.entry->name, with_log, isolate);
  isolate.execute.validated = true;  // the reference, below
  if (run.run.verdict == Verdict::Failed) {
    *error = run.run.message;
    return false;
  }
  run.instrumented = instrumented ? &*instrumented : nullptr;
  run.probed = probed ? &*probed : nullptr;
  const bool completed = run.run.verdict == Verdict::Completed;
  if (instrumented && completed) {
    run.shadow = take_log(*instrumented, run.run.execution);
    // Loads that two workgroups repeat are evidence for --confirm, no
    // problem in themselves: kept apart, and not counted.
    for (ShadowFinding& f : run.shadow->findings) {
      if (!is_problem(f.kind)) run.observed.push_back(f);
    }
    std::erase_if(run.shadow->findings, [](const ShadowFinding& f) { return !is_problem(f.kind); });
  }
  if (run.manifest && completed) {
    run.checks = check_outputs(*run.manifest, *run.shape, *run.entry, run.harness, run.run.execution,
                               settings.reference, isolate);
  }
  report(run);
  if (run.checks.error) {
    *error = *run.checks.error;
    return false;
  }
  return true;
}

bool run_manifest(const LoadedKernel& kernel, KernelManifest manifest, const RunSettings& settings,
                  const std::function<void(const KernelRun&)>& report, std::string* error) {
  if (settings.grid) {
    manifest.grid.clear();
    for (uint32_t count : *settings.grid) manifest.grid.push_back({Expression::constant(int64_t{count}), manifest.at});
  }
  if (settings.seed) manifest.seed = *settings.seed;
  std::vector<Shape> shapes;
  if (settings.shape) {
    shapes.push_back(*settings.shape);
  } else {
    for (size_t i = 0; i < manifest.matrix.size(); ++i) shapes.push_back(shape_at(manifest, i));
  }
  const reflect::EntryPoint* entry = manifest_entry_point(kernel.module, manifest, error);
  if (!entry) return false;
  // Each harness is made again when its turn comes rather than all held at once.
  auto harness_for = [&](const Shape& shape) {
    std::optional<Harness> harness = manifest_harness(*entry, kernel.module, manifest, shape, HarnessOptions{}, error);
    if (harness && (!specialize(settings, kernel.module, *harness, error) || !push(settings, *entry, *harness, error))) {
      return std::optional<Harness>{};
    }
    return harness;
  };
  for (const Shape& shape : shapes) {
    if (!harness_for(shape)) return false;
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    std::optional<Harness> harness = harness_for(shapes[i]);
    if (!harness) return false;
    KernelRun run{.entry = entry,
                  .manifest = &manifest,
                  .shape = &shapes[i],
                  .index = i,
                  .count = shapes.size(),
                  .seed = manifest.seed,
                  .harness = std::move(*harness)};
    if (!run_once(kernel, settings, run, report, error)) return false;
  }
  return true;
}

}  // namespace

bool run_kernel(const LoadedKernel& kernel, const KernelManifest* manifest, const RunSettings& settings,
                const std::function<void(const KernelRun&)>& report, std::string* error) {
  if (manifest) return run_manifest(kernel, *manifest, settings, report, error);
  const reflect::EntryPoint& entry = kernel.module.entry_points.front();
  HarnessOptions harness_options;
  harness_options.seed = settings.seed.value_or(1);
  harness_options.grid = settings.grid.value_or(std::array<uint32_t, 3>{1, 1, 1});
  std::vector<int64_t> sizes;
  for (const std::vector<SpecializationSetting>* given : {&settings.push_constants, &settings.uniforms}) {
    for (const SpecializationSetting& setting : *given) {
      if (const int64_t* integer = std::get_if<int64_t>(&setting.value)) sizes.push_back(*integer);
    }
  }
  harness_options.runtime_elements = runtime_elements_for(sizes);
  // Buffers sized from the indices the dispatch reaches, as an inferred
  // setup of --confirm sizes them: its replay sizes them so again.
  if (!sizes.empty()) {
    HarnessOptions light = harness_options;
    light.contents = false;
    std::optional<Harness> values = default_harness(entry, light, error);
    if (values && specialize(settings, kernel.module, *values, error) && push(settings, entry, *values, error)) {
      size_from_indices(kernel.spirv, kernel.target_env, kernel.origin, entry, *values, harness_options);
    }
  }
  std::optional<Harness> harness = default_harness(entry, harness_options, error);
  if (!harness || !specialize(settings, kernel.module, *harness, error) || !push(settings, entry, *harness, error)) {
    return false;
  }
  KernelRun run{.entry = &entry, .seed = harness_options.seed, .harness = std::move(*harness)};
  return run_once(kernel, settings, run, report, error);
}

}  // namespace klint::runner
