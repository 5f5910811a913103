#include "runner/harness.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

namespace klint::runner {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float SplitMix64::next_float() {
  return static_cast<float>(next() >> 40) / static_cast<float>(1 << 23) - 1.0f;
}

namespace {

void fill(std::vector<uint8_t>& bytes, SplitMix64& random) {
  for (size_t offset = 0; offset + 4 <= bytes.size(); offset += 4) {
    const float value = random.next_float();
    std::memcpy(bytes.data() + offset, &value, 4);
  }
}

bool ends_in_runtime_array(const reflect::BlockLayout& block) {
  return !block.members.empty() && block.members.back().type.ends_with("[]");
}

uint64_t invocations(const reflect::EntryPoint& entry, const std::array<uint32_t, 3>& grid) {
  uint64_t count = 1;
  for (size_t axis = 0; axis < 3; ++axis) {
    count *= grid[axis] * (entry.workgroup_size ? (*entry.workgroup_size)[axis].value : 1);
  }
  return count;
}

}  // namespace

std::optional<Harness> default_harness(const reflect::EntryPoint& entry, const HarnessOptions& options,
                                       std::string* error) {
  Harness harness;
  harness.grid = options.grid;
  harness.guesses.push_back(fmt::format("grid {},{},{} workgroups", options.grid[0], options.grid[1], options.grid[2]));
  SplitMix64 random(options.seed);
  for (const reflect::Binding& binding : entry.bindings) {
    const std::string name = fmt::format("binding {}.{} ({})", binding.set, binding.binding, binding.name);
    const bool storage = binding.type == reflect::DescriptorType::StorageBuffer;
    if ((!storage && binding.type != reflect::DescriptorType::UniformBuffer) || binding.array_size != 1 ||
        !binding.block) {
      *error = fmt::format("{} is {}: the runner binds single storage and uniform buffers only", name,
                           binding.array_size != 1 ? "an array of descriptors"
                                                   : "a " + std::string(reflect::to_string(binding.type)));
      return std::nullopt;
    }
    const reflect::BlockLayout& block = *binding.block;
    uint64_t size = block.size;
    if (ends_in_runtime_array(block)) {
      const uint32_t stride = block.members.back().array_stride.value_or(4);
      const uint64_t wanted =
          std::max(invocations(entry, options.grid) * 4, (options.runtime_array_bytes + stride - 1) / stride);
      const uint64_t elements = std::max<uint64_t>(std::min(wanted, options.max_runtime_array_bytes / stride), 1);
      size = block.members.back().offset + elements * stride;
      harness.guesses.push_back(fmt::format("{}: {} elements of its runtime array {}", name, elements,
                                            block.members.back().name));
    }
    size = std::max<uint64_t>((size + 3) / 4 * 4, 4);
    BufferSpec buffer{binding.set, binding.binding, storage ? BufferKind::Storage : BufferKind::Uniform,
                      binding.name, std::vector<uint8_t>(size)};
    fill(buffer.data, random);
    harness.buffers.push_back(std::move(buffer));
  }
  if (!harness.buffers.empty()) {
    harness.guesses.push_back(
        fmt::format("buffer contents: every 32-bit word a float in [-1,1] from seed {}", options.seed));
  }
  if (entry.push_constants) {
    harness.push_constants.resize((entry.push_constants->block.size + 3) / 4 * 4);
    fill(harness.push_constants, random);
    harness.guesses.push_back("push constants: every 32-bit word a float in [-1,1], after the buffers'");
  }
  return harness;
}

}  // namespace klint::runner
