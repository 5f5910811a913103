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
  std::vector<ResourceResult> resources;  // what it may write of its other resources
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

// One run of another module (not instrumented) with the harness and at the
// subgroup size of `like`, a run of the kernel: its buffers, to compare.
Observation run_alongside(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                          const ObserveOptions& options, const Observation& like);

// A difference between the outputs of two runs, classified as the seeds'
// debugging walkthrough does.
struct OutputDifference {
  size_t buffer = 0;      // into Observation::buffers
  size_t first_word = 0;  // the first word that differs
  uint32_t part = 0;      // for halves: which half of it differs first (0: the lower)
  size_t words = 0;       // how many differ
  uint32_t a = 0, b = 0;  // the first differing word in each run
  std::string
      symptom;  // "never written", "NaN or Inf", "close but wrong (max ..., mean ...)", "completely wrong (...)"
};

// How a buffer's words read: as unsigned integers, as 32-bit floats, or as
// two 16-bit floats each.
enum class Words : uint8_t { Integers, Floats, Halves };

// Compares two runs' buffers word by word, each buffer as `words[buffer]`
// says; floats within a relative 1e-5 of each other count as equal, since a
// different subgroup size may sum in a different order, and halves within
// 2^-9 (two to four units in their last place), or both within `tolerance`
// where it is larger, or within `floor` of each other. A word that still
// holds what the harness put there is one the run never wrote.
std::optional<OutputDifference> compare(const Harness& harness, const Observation& a, const Observation& b,
                                        const std::vector<Words>& words, double tolerance = 0, double floor = 0);

// The relative difference two halves one rounding apart never exceed.
inline constexpr double kHalfTolerance = 1.0 / 512;
// Four steps of a half below its normal range (2^-24 each), where a
// difference is its last bits.
inline constexpr double kHalfFloor = 4.0 / (1 << 24);

// Whether a device name is lavapipe's (llvmpipe), whose subgroup size comes
// from LP_NATIVE_VECTOR_WIDTH.
bool is_lavapipe(const std::string& device);

// How a binding's words read: as its block's last member's type says
// (float, vecN, matN and arrays of them: floats; their 16-bit forms: halves).
Words words_of(const reflect::Binding& binding);

// Where two runs' outputs first differ and how: "word 3 is 0.5 and 0.25";
// for halves, the half that differs, counted in halves ("half 7 is 0.5 and
// 0.25").
std::string difference_text(const OutputDifference& d, Words words);

// A word as a float ("%g"), two halves ("0.5, -0.25", the lower first) or an
// unsigned integer.
std::string word_text(uint32_t word, Words words);

}  // namespace klint::runner
