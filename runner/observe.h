// Runs a kernel instrumented (runner/instrument.h), once per subgroup size the
// device can be given, and keeps what each run showed: its verdict, the
// shadow-memory findings and the buffers it left. What a finding needs to be
// confirmed is read from these observations (runner/confirm.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reflect/reflection.h"
#include "runner/executor.h"
#include "runner/instrument.h"
#include "runner/isolate.h"
#include "runner/shadow.h"

namespace klint::runner {

struct Observation {
  // The subgroup size the run was given (lavapipe's LP_NATIVE_VECTOR_WIDTH / 32),
  // 0 when the device chose it.
  uint32_t subgroup_size = 0;
  Verdict verdict = Verdict::Failed;
  std::string message;  // the verdict in words
  std::string device;
  uint32_t min_subgroup_size = 0;  // what the device's subgroup size control offers; 0: none
  uint32_t max_subgroup_size = 0;
  ShadowReport shadow;
  std::vector<BufferResult> buffers;  // the kernel's own buffers, in the harness's order
  std::vector<GuardViolation> guard_violations;
};

struct ObserveOptions {
  double timeout_seconds = 10;
  std::optional<uint32_t> device_index;
  // Subgroup sizes to try on lavapipe, each a separate run. Other devices run
  // once at the size they choose, then, when this lists more than one size,
  // at every size from their minimum to their maximum that Vulkan 1.3's
  // subgroup size control lets a pipeline require.
  std::vector<uint32_t> subgroup_sizes{4, 8, 16};
  InstrumentOptions instrument;
  // The environment the kernel was loaded in; the instrumented one is validated in it.
  spv_target_env target_env = SPV_ENV_VULKAN_1_3;
};

struct Observations {
  Instrumented instrumented;
  std::vector<Observation> runs;
};

// Instruments the module and runs it. Fails with a reason when it cannot be
// instrumented; a run that fails, times out or crashes is an observation.
std::optional<Observations> observe(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin,
                                    const std::string& entry_point, const Harness& harness,
                                    const ObserveOptions& options, std::string* error);

// Runs the sizes of `options` that `o` has no run at yet, with the module `o`
// instrumented. Only lavapipe is given sizes one by one; another device ran
// the size it picks and, once more than one size is asked for, every size it
// can be required to run at.
void observe_more(Observations& o, const std::string& entry_point, const Harness& harness,
                  const ObserveOptions& options);

// A difference between the outputs of two runs, classified as the seeds'
// debugging walkthrough does.
struct OutputDifference {
  size_t buffer = 0;      // into Observation::buffers
  size_t first_word = 0;  // the first word that differs
  size_t words = 0;       // how many differ
  uint32_t a = 0, b = 0;  // the first differing word in each run
  std::string
      symptom;  // "never written", "NaN or Inf", "close but wrong (max ..., mean ...)", "completely wrong (...)"
};

// Compares two runs' buffers word by word; floats (`is_float[buffer]`) within
// a relative 1e-5 of each other count as equal, since a different subgroup
// size may sum in a different order. A word that still holds what the harness
// put there is one the run never wrote.
std::optional<OutputDifference> compare(const Harness& harness, const Observation& a, const Observation& b,
                                        const std::vector<bool>& is_float);

// Whether a device name is lavapipe's (llvmpipe), whose subgroup size comes
// from LP_NATIVE_VECTOR_WIDTH.
bool is_lavapipe(const std::string& device);

// Whether a binding's words are floats: its block's last member is a float
// type (float, vecN, matN and arrays of them).
bool holds_floats(const reflect::Binding& binding);

// A word as a float ("%g") or an unsigned integer.
std::string word_text(uint32_t word, bool is_float);

}  // namespace klint::runner
