#include "runner/harness.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runner/resources.h"

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

uint16_t to_half(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
  if (exponent <= 0) return sign;
  if (exponent >= 31) return sign | 0x7C00;
  return static_cast<uint16_t>(sign | (exponent << 10) | ((bits >> 13) & 0x3FF));
}

float from_half(uint16_t half) {
  const uint32_t sign = (half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1F;
  const uint32_t mantissa = half & 0x3FF;
  uint32_t bits = sign;
  if (exponent == 31) {
    bits |= 0x7F800000 | (mantissa << 13);
  } else if (exponent != 0) {
    bits |= ((exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    return (sign ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(mantissa), -24);
  }
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

namespace {

// Each word a float in [-1, 1]; for 16-bit floats, each half of it one, both
// from one draw, so that the buffers after it get the values they would get.
void fill(std::vector<uint8_t>& bytes, SplitMix64& random, bool halves) {
  for (size_t offset = 0; offset + 4 <= bytes.size(); offset += 4) {
    if (halves) {
      const uint64_t draw = random.next();
      const float unit = static_cast<float>(1 << 23);
      const uint16_t parts[2] = {to_half(static_cast<float>(draw >> 40) / unit - 1.0f),
                                 to_half(static_cast<float>((draw >> 16) & 0xFFFFFF) / unit - 1.0f)};
      std::memcpy(bytes.data() + offset, parts, 4);
      continue;
    }
    const float value = random.next_float();
    std::memcpy(bytes.data() + offset, &value, 4);
  }
}

uint64_t invocations(const reflect::EntryPoint& entry, const std::array<uint32_t, 3>& grid) {
  uint64_t count = 1;
  for (size_t axis = 0; axis < 3; ++axis) {
    count *= grid[axis] * (entry.workgroup_size ? (*entry.workgroup_size)[axis].value : 1);
  }
  return count;
}

}  // namespace

size_t count_sentinel_words(const std::vector<uint8_t>& data) {
  size_t count = 0;
  for (size_t offset = 0; offset + 4 <= data.size(); offset += 4) {
    uint32_t word;
    std::memcpy(&word, data.data() + offset, 4);
    count += word == kSentinelWord;
  }
  return count;
}

bool only_written(const reflect::Binding& binding) {
  return binding.type == reflect::DescriptorType::StorageBuffer &&
         (binding.declared == reflect::Access::Write || binding.access == reflect::Access::Write);
}

bool holds_halves(const reflect::Binding& binding) {
  if (!binding.block || binding.block->members.empty()) return false;
  const std::string& type = binding.block->members.back().type;
  return type.starts_with("float16_t") || type.starts_with("f16vec") || type.starts_with("f16mat");
}

bool may_write(const reflect::Binding& binding) {
  return binding.access == reflect::Access::Write || binding.access == reflect::Access::ReadWrite;
}

bool ends_in_runtime_array(const reflect::BlockLayout& block) {
  return !block.members.empty() && block.members.back().type.ends_with("[]");
}

uint64_t guessed_runtime_elements(const reflect::EntryPoint& entry, const std::array<uint32_t, 3>& grid,
                                  const HarnessOptions& options, uint32_t stride) {
  const uint64_t wanted = std::max({invocations(entry, grid) * 4, (options.runtime_array_bytes + stride - 1) / stride,
                                   options.runtime_elements});
  return std::max<uint64_t>(std::min(wanted, options.max_runtime_array_bytes / stride), 1);
}

uint64_t runtime_array_elements(const reflect::EntryPoint& entry, const reflect::Binding& binding,
                                const std::array<uint32_t, 3>& grid, const HarnessOptions& options,
                                std::vector<std::string>& guesses) {
  const reflect::Member& array = binding.block->members.back();
  const uint32_t stride = std::max<uint32_t>(array.array_stride.value_or(4), 1);
  auto extent = std::find_if(options.extents.begin(), options.extents.end(), [&](const Extent& e) {
    return e.set == binding.set && e.binding == binding.binding;
  });
  if (extent == options.extents.end()) {
    const uint64_t elements = guessed_runtime_elements(entry, grid, options, stride);
    guesses.push_back(
        fmt::format("{}: {} elements of its runtime array {}", binding_label(binding), elements, array.name));
    return elements;
  }
  const uint64_t elements = std::clamp<uint64_t>(extent->elements, 1, options.max_runtime_array_bytes / stride);
  guesses.push_back(fmt::format("{}: {} elements of its runtime array {}, one past the largest index the kernel "
                                "reaches in this setup",
                                binding_label(binding), elements, array.name));
  return elements;
}

uint64_t runtime_elements_for(const std::vector<int64_t>& sizes) {
  uint64_t most = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 1) continue;
    const uint64_t a = std::min(static_cast<uint64_t>(sizes[i]), kMostSizedElements);
    most = std::max(most, a);
    for (size_t j = i + 1; j < sizes.size(); ++j) {
      if (sizes[j] >= 1) most = std::max(most, std::min(a * std::min(static_cast<uint64_t>(sizes[j]), kMostSizedElements), kMostSizedElements));
    }
  }
  return std::min(most, kMostSizedElements);
}

std::string binding_label(const reflect::Binding& binding) {
  return fmt::format("binding {}.{} ({})", binding.set, binding.binding, binding.name);
}

std::optional<BufferSpec> make_buffer(const reflect::Binding& binding, uint64_t size, SplitMix64& random,
                                      std::string* error, uint64_t index_values) {
  const bool storage = binding.type == reflect::DescriptorType::StorageBuffer;
  if ((!storage && binding.type != reflect::DescriptorType::UniformBuffer) || binding.array_size != 1 ||
      !binding.block) {
    *error = fmt::format("{} is {}: the runner binds single storage and uniform buffers only", binding_label(binding),
                         binding.array_size != 1 ? "an array of descriptors"
                                                 : "a " + std::string(reflect::to_string(binding.type)));
    return std::nullopt;
  }
  size = std::max<uint64_t>((size + 3) / 4 * 4, 4);
  BufferSpec buffer{binding.set, binding.binding, storage ? BufferKind::Storage : BufferKind::Uniform, binding.name,
                    std::vector<uint8_t>(size), only_written(binding)};
  if (buffer.sentinel) {
    for (size_t offset = 0; offset < size; offset += 4) std::memcpy(buffer.data.data() + offset, &kSentinelWord, 4);
  } else if (index_values) {
    for (size_t offset = 0; offset + 4 <= size; offset += 4) {
      const uint32_t index = static_cast<uint32_t>(random.next() % index_values);
      std::memcpy(buffer.data.data() + offset, &index, 4);
    }
  } else {
    fill(buffer.data, random, holds_halves(binding));
  }
  return buffer;
}

void describe_contents(const std::vector<BufferSpec>& buffers, uint64_t seed, std::vector<std::string>& guesses) {
  if (std::any_of(buffers.begin(), buffers.end(), [](const BufferSpec& b) { return !b.sentinel; })) {
    guesses.push_back(fmt::format("buffer contents: every 32-bit word a float in [-1,1] from seed {}", seed));
  }
  for (const BufferSpec& buffer : buffers) {
    if (buffer.sentinel) {
      guesses.push_back(fmt::format("binding {}.{} ({}): only written, every word starts as the sentinel 0x{:08x}",
                                    buffer.set, buffer.binding, buffer.name, kSentinelWord));
    }
  }
}

uint64_t buffer_bytes_to_give(const reflect::Binding& binding, uint64_t size, std::vector<std::string>& guesses) {
  if (binding.access != reflect::Access::None || size <= kUnusedBufferBytes) return size;
  guesses.push_back(fmt::format("{}: never used by the kernel, so {} of its {} bytes", binding_label(binding),
                                kUnusedBufferBytes, size));
  return kUnusedBufferBytes;
}

bool add_buffers(const reflect::EntryPoint& entry, const std::vector<uint64_t>& bytes, const std::vector<bool>& given,
                 SplitMix64& random, Harness& harness, std::string* error,
                 const std::vector<IndexBuffer>& index_buffers) {
  const std::vector<reflect::Binding>& bindings = entry.bindings;
  auto used = [](const reflect::Binding& b) { return b.access != reflect::Access::None; };
  for (size_t i = 0; i < bindings.size();) {
    if (!is_plain_buffer(bindings[i])) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < bindings.size() && bindings[end].set == bindings[i].set &&
           bindings[end].binding == bindings[i].binding && is_plain_buffer(bindings[end])) {
      ++end;
    }
    // What the views the kernel uses, or a manifest sized, ask for; else
    // what they all ask for, cut as for any binding the kernel never uses.
    uint64_t size = 0, unused_size = 0;
    bool needed = false, written = false;
    const reflect::Binding* filled = nullptr;  // a view used, one that is read where one is
    for (size_t k = i; k < end; ++k) {
      const reflect::Binding& b = bindings[k];
      if (used(b) || given[k]) {
        needed = true;
        size = std::max(size, bytes[k]);
      }
      unused_size = std::max(unused_size, bytes[k]);
      written |= may_write(b);
      if (used(b) && (!filled || (only_written(*filled) && !only_written(b)))) filled = &b;
    }
    if (!filled) filled = &bindings[i];
    if (!needed) size = buffer_bytes_to_give(bindings[i], unused_size, harness.guesses);
    auto indices = std::find_if(index_buffers.begin(), index_buffers.end(), [&](const IndexBuffer& b) {
      return b.set == filled->set && b.binding == filled->binding;
    });
    const uint64_t index_values = indices != index_buffers.end() && !only_written(*filled) ? indices->values : 0;
    std::optional<BufferSpec> buffer = make_buffer(*filled, size, random, error, index_values);
    if (!buffer) return false;
    if (index_values) {
      harness.guesses.push_back(fmt::format("{}: {}, so every word an integer in [0, {})", binding_label(*filled),
                                            indices->why, index_values));
    }
    if (!buffer->sentinel && holds_halves(*filled)) {
      harness.guesses.push_back(fmt::format("{}: every 16-bit half of a word a float16_t in [-1,1]",
                                            binding_label(*filled)));
    }
    buffer->written = buffer->kind == BufferKind::Storage && written;
    harness.buffers.push_back(std::move(*buffer));
    i = end;
  }
  return true;
}

std::optional<Harness> default_harness(const reflect::EntryPoint& entry, const HarnessOptions& options,
                                       std::string* error) {
  Harness harness;
  harness.grid = options.grid;
  harness.guesses.push_back(fmt::format("grid {},{},{} workgroups", options.grid[0], options.grid[1], options.grid[2]));
  SplitMix64 random(options.seed);
  std::vector<uint64_t> bytes(entry.bindings.size());
  for (size_t i = 0; i < entry.bindings.size(); ++i) {
    const reflect::Binding& binding = entry.bindings[i];
    if (!is_plain_buffer(binding)) continue;  // add_resources, below
    bytes[i] = binding.block->size;
    if (ends_in_runtime_array(*binding.block)) {
      const reflect::Member& array = binding.block->members.back();
      const uint64_t elements = runtime_array_elements(entry, binding, options.grid, options, harness.guesses);
      bytes[i] = array.offset + elements * array.array_stride.value_or(4);
    }
  }
  if (options.contents &&
      !add_buffers(entry, bytes, std::vector<bool>(entry.bindings.size()), random, harness, error,
                   options.index_buffers)) {
    return std::nullopt;
  }
  describe_contents(harness.buffers, options.seed, harness.guesses);
  if (entry.push_constants) {
    // Zero, not random: push constants are mostly sizes and counts, and a
    // count made of a float's bits runs a loop for billions of iterations.
    harness.push_constants.assign((entry.push_constants->block.size + 3) / 4 * 4, 0);
    harness.guesses.push_back("push constants: zero");
  }
  if (options.contents && !add_resources(entry, options, random, harness, error)) return std::nullopt;
  return harness;
}

}  // namespace klint::runner
