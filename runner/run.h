// `klint run`: runs a kernel on a Vulkan device in a child process, once per
// shape of its [[kernel]] manifest or once with a harness made up from its
// reflection; plainly, instrumented for shadow memory, or with value probes;
// and checks its outputs against the manifest's reference and expected files.
// What each run did goes to the caller, which reports it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/module.h"
#include "reflect/reflection.h"
#include "runner/executor.h"
#include "runner/instrument.h"
#include "runner/isolate.h"
#include "runner/manifest.h"
#include "runner/probe.h"
#include "runner/reference.h"
#include "runner/shadow.h"

namespace klint::runner {

// A kernel to run: loaded (validate/loaded_shader.h) and reflected by the caller.
struct LoadedKernel {
  std::vector<uint32_t> spirv;
  reflect::ModuleReflection module;
  ModuleOrigin origin;
  // What `spirv`, and the reference of RunSettings, were validated in; what
  // the runner instruments is validated in it too.
  spv_target_env target_env = SPV_ENV_VULKAN_1_3;
  // The bindings separate_registers moved (runner/resources.h), said with
  // every run's guesses.
  std::vector<std::string> moved;
};

// A specialization constant set by its constant_id or name.
struct SpecializationSetting {
  std::string key;
  Number value;
};

struct RunSettings {
  std::optional<uint32_t> device;  // nullopt: the CPU device (lavapipe), else device 0
  double timeout_seconds = 10;
  // Over the manifest's, as the command line is over klint.toml.
  std::optional<std::array<uint32_t, 3>> grid;  // nullopt: the manifest's, else 1,1,1
  std::optional<uint64_t> seed;                 // nullopt: the manifest's, else 1
  std::optional<Shape> shape;                   // one shape of the manifest; nullopt: its every shape
  // Set over the manifest's; every constant left gets its declared default.
  std::vector<SpecializationSetting> specialization;
  std::string specialization_label;  // names them in errors, e.g. "--specialization 'N=4'"
  // Push-constant members by name, set over the manifest's or the zeros of a
  // harness made up from reflection; without a manifest, runtime arrays also
  // grow to cover what the integers given reach (runtime_elements_for).
  std::vector<SpecializationSetting> push_constants;
  std::string push_constants_label;  // e.g. "--push-constants 'cols=63'"
  // Scalar members of uniform blocks by path ("global.width"), written over
  // the buffer's seeded contents.
  std::vector<SpecializationSetting> uniforms;
  std::string uniforms_label;  // e.g. "--uniforms 'global.width=17'"
  bool shadow = false;               // run instrumented: races, unwritten reads, indices out of range
  std::vector<ProbeRequest> probes;  // placed with probe_kernel beforehand
  // The manifest's reference shader, loaded and validated by the caller; nullptr where it does not load.
  const std::vector<uint32_t>* reference = nullptr;
};

// What one run did.
struct KernelRun {
  const reflect::EntryPoint* entry = nullptr;
  const KernelManifest* manifest = nullptr;  // nullptr: the harness was made up from reflection
  const Shape* shape = nullptr;              // of the manifest; nullptr without one
  size_t index = 0;                          // of the shapes run
  size_t count = 1;
  uint64_t seed = 1;
  Harness harness;  // the kernel's own buffers, without klint's log
  IsolatedRun run;  // never Verdict::Failed: such a run fails run_kernel
  // With RunSettings::shadow and a completed run: the log's races, unwritten
  // reads and indices out of range; and, apart, what it observed that is no
  // problem in itself (loads two workgroups repeat, evidence for --confirm).
  const Instrumented* instrumented = nullptr;
  std::optional<ShadowReport> shadow;
  std::vector<ShadowFinding> observed;
  // With probes: the kernel that recorded them; its log is the last buffer of run.execution.
  const ProbedKernel* probed = nullptr;
  // The manifest's reference and expected outputs, for a completed run. An
  // error there fails run_kernel after this run is reported.
  OutputChecks checks;
};

// Runs `kernel` with `manifest` (nullptr: a harness made up from reflection)
// and hands each run to `report`, in the order of the shapes. Every harness
// is made before the first run, so that a manifest that does not fit stops
// before any run. Fails with one line when a harness cannot be made, the
// kernel cannot be instrumented or run at all, or an output cannot be
// checked; the runs before it were reported.
bool run_kernel(const LoadedKernel& kernel, const KernelManifest* manifest, const RunSettings& settings,
                const std::function<void(const KernelRun&)>& report, std::string* error);

}  // namespace klint::runner
