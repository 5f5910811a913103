// A harness made up from reflection alone, for running a kernel that comes
// without one: every part of it is a guess, and says so in Harness::guesses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "reflect/reflection.h"
#include "runner/executor.h"

namespace klint::runner {

struct HarnessOptions {
  uint64_t seed = 1;
  std::array<uint32_t, 3> grid{1, 1, 1};
  // A buffer ending in a runtime array gets at least this many bytes of it,
  // and 4 elements per invocation of the grid where that is more, up to
  // max_runtime_array_bytes.
  uint64_t runtime_array_bytes = 64 * 1024;
  uint64_t max_runtime_array_bytes = 64 * 1024 * 1024;
};

// splitmix64 (Steele, Lea and Flood 2014; the seeder of xoshiro): one 64-bit
// state, a fixed increment and a mixing function. Small enough to restate in
// docs/runner.md, so that any tool can reproduce a run's input from its seed.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  // A float in [-1, 1] from the top 24 bits, which a float holds exactly.
  float next_float();

 private:
  uint64_t state_;
};

// One buffer per storage or uniform buffer binding, sized from its block
// (runtime arrays as HarnessOptions says), push constants of the block's size,
// every 32-bit word of both filled with next_float() in binding order then
// push constants, specialization constants left at their defaults. Fails
// with a reason for bindings the executor cannot give (images, samplers,
// arrays of descriptors).
std::optional<Harness> default_harness(const reflect::EntryPoint& entry, const HarnessOptions& options,
                                       std::string* error);

}  // namespace klint::runner
