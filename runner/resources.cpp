#include "runner/resources.h"

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <fmt/core.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "runner/module_edits.h"

namespace klint::runner {
namespace {

using reflect::DescriptorType;
using reflect::ScalarKind;

// How a format's texels are made: `parts` numbers of `part_bytes` each, or
// one packed word.
enum class Encoding { Float, Half, Unorm, Snorm, Sint, Uint, Packed };

struct Format {
  VkFormat format;
  uint32_t parts;
  uint32_t part_bytes;
  Encoding encoding;
  const char* name;  // as GLSL's layout qualifier spells it
};

// By spv::ImageFormat, 1 (Rgba32f) to 41 (R64i).
constexpr Format kFormats[] = {
    {VK_FORMAT_R32G32B32A32_SFLOAT, 4, 4, Encoding::Float, "rgba32f"},
    {VK_FORMAT_R16G16B16A16_SFLOAT, 4, 2, Encoding::Half, "rgba16f"},
    {VK_FORMAT_R32_SFLOAT, 1, 4, Encoding::Float, "r32f"},
    {VK_FORMAT_R8G8B8A8_UNORM, 4, 1, Encoding::Unorm, "rgba8"},
    {VK_FORMAT_R8G8B8A8_SNORM, 4, 1, Encoding::Snorm, "rgba8_snorm"},
    {VK_FORMAT_R32G32_SFLOAT, 2, 4, Encoding::Float, "rg32f"},
    {VK_FORMAT_R16G16_SFLOAT, 2, 2, Encoding::Half, "rg16f"},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 1, 4, Encoding::Packed, "r11f_g11f_b10f"},
    {VK_FORMAT_R16_SFLOAT, 1, 2, Encoding::Half, "r16f"},
    {VK_FORMAT_R16G16B16A16_UNORM, 4, 2, Encoding::Unorm, "rgba16"},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 1, 4, Encoding::Packed, "rgb10_a2"},
    {VK_FORMAT_R16G16_UNORM, 2, 2, Encoding::Unorm, "rg16"},
    {VK_FORMAT_R8G8_UNORM, 2, 1, Encoding::Unorm, "rg8"},
    {VK_FORMAT_R16_UNORM, 1, 2, Encoding::Unorm, "r16"},
    {VK_FORMAT_R8_UNORM, 1, 1, Encoding::Unorm, "r8"},
    {VK_FORMAT_R16G16B16A16_SNORM, 4, 2, Encoding::Snorm, "rgba16_snorm"},
    {VK_FORMAT_R16G16_SNORM, 2, 2, Encoding::Snorm, "rg16_snorm"},
    {VK_FORMAT_R8G8_SNORM, 2, 1, Encoding::Snorm, "rg8_snorm"},
    {VK_FORMAT_R16_SNORM, 1, 2, Encoding::Snorm, "r16_snorm"},
    {VK_FORMAT_R8_SNORM, 1, 1, Encoding::Snorm, "r8_snorm"},
    {VK_FORMAT_R32G32B32A32_SINT, 4, 4, Encoding::Sint, "rgba32i"},
    {VK_FORMAT_R16G16B16A16_SINT, 4, 2, Encoding::Sint, "rgba16i"},
    {VK_FORMAT_R8G8B8A8_SINT, 4, 1, Encoding::Sint, "rgba8i"},
    {VK_FORMAT_R32_SINT, 1, 4, Encoding::Sint, "r32i"},
    {VK_FORMAT_R32G32_SINT, 2, 4, Encoding::Sint, "rg32i"},
    {VK_FORMAT_R16G16_SINT, 2, 2, Encoding::Sint, "rg16i"},
    {VK_FORMAT_R8G8_SINT, 2, 1, Encoding::Sint, "rg8i"},
    {VK_FORMAT_R16_SINT, 1, 2, Encoding::Sint, "r16i"},
    {VK_FORMAT_R8_SINT, 1, 1, Encoding::Sint, "r8i"},
    {VK_FORMAT_R32G32B32A32_UINT, 4, 4, Encoding::Uint, "rgba32ui"},
    {VK_FORMAT_R16G16B16A16_UINT, 4, 2, Encoding::Uint, "rgba16ui"},
    {VK_FORMAT_R8G8B8A8_UINT, 4, 1, Encoding::Uint, "rgba8ui"},
    {VK_FORMAT_R32_UINT, 1, 4, Encoding::Uint, "r32ui"},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, 1, 4, Encoding::Packed, "rgb10_a2ui"},
    {VK_FORMAT_R32G32_UINT, 2, 4, Encoding::Uint, "rg32ui"},
    {VK_FORMAT_R16G16_UINT, 2, 2, Encoding::Uint, "rg16ui"},
    {VK_FORMAT_R8G8_UINT, 2, 1, Encoding::Uint, "rg8ui"},
    {VK_FORMAT_R16_UINT, 1, 2, Encoding::Uint, "r16ui"},
    {VK_FORMAT_R8_UINT, 1, 1, Encoding::Uint, "r8ui"},
    {VK_FORMAT_R64_UINT, 1, 8, Encoding::Uint, "r64ui"},
    {VK_FORMAT_R64_SINT, 1, 8, Encoding::Sint, "r64i"},
};

// A declared format, or for Unknown (sampled images, texel buffers and
// storage images without one) four 32-bit parts of the sampled type: every
// read of fewer parts finds its own.
const Format& format_of(const reflect::ImageType& image, bool* guessed) {
  static constexpr Format kUnknown[] = {
      {VK_FORMAT_R32G32B32A32_SFLOAT, 4, 4, Encoding::Float, "rgba32f"},
      {VK_FORMAT_R32G32B32A32_SINT, 4, 4, Encoding::Sint, "rgba32i"},
      {VK_FORMAT_R32G32B32A32_UINT, 4, 4, Encoding::Uint, "rgba32ui"},
  };
  *guessed = image.format == 0 || image.format > std::size(kFormats);
  if (!*guessed) return kFormats[image.format - 1];
  return kUnknown[image.component == ScalarKind::Float ? 0 : image.component == ScalarKind::Int ? 1 : 2];
}

const Format* format_by_vk(uint32_t format) {
  for (const Format& f : kFormats) {
    if (static_cast<uint32_t>(f.format) == format) return &f;
  }
  return nullptr;
}

bool holds_sentinel(const Format& format) { return format.encoding != Encoding::Packed && format.part_bytes >= 2; }

void fill_part(uint8_t* part, const Format& format, SplitMix64& random) {
  switch (format.encoding) {
    case Encoding::Float: {
      const float value = random.next_float();
      std::memcpy(part, &value, 4);
      return;
    }
    case Encoding::Half: {
      const uint16_t value = to_half(random.next_float());
      std::memcpy(part, &value, 2);
      return;
    }
    case Encoding::Sint:
    case Encoding::Uint: {
      const uint64_t value = random.next() % 16;
      std::memcpy(part, &value, format.part_bytes);  // little-endian: the low bytes
      return;
    }
    case Encoding::Unorm:
    case Encoding::Snorm:
    case Encoding::Packed: {
      const uint64_t value = random.next();
      std::memcpy(part, &value, format.part_bytes);
      return;
    }
  }
}

void fill_sentinel(std::vector<uint8_t>& bytes, uint32_t part_bytes) {
  for (size_t offset = 0; offset + part_bytes <= bytes.size(); offset += part_bytes) {
    if (part_bytes == 2) {
      const uint16_t half = kSentinelWord & 0xFFFF;
      std::memcpy(&bytes[offset], &half, 2);
    } else {
      for (uint32_t word = 0; word < part_bytes; word += 4) std::memcpy(&bytes[offset + word], &kSentinelWord, 4);
    }
  }
}

std::vector<uint8_t> texels(const Format& format, uint64_t count, bool sentinel, SplitMix64& random) {
  std::vector<uint8_t> bytes(count * format.parts * format.part_bytes);
  if (sentinel) {
    fill_sentinel(bytes, format.part_bytes);
  } else {
    for (size_t offset = 0; offset < bytes.size(); offset += format.part_bytes) fill_part(&bytes[offset], format, random);
  }
  return bytes;
}

std::array<uint64_t, 3> global_size(const reflect::EntryPoint& entry, const std::array<uint32_t, 3>& grid) {
  std::array<uint64_t, 3> size{};
  for (size_t axis = 0; axis < 3; ++axis) {
    size[axis] = uint64_t{grid[axis]} * (entry.workgroup_size ? (*entry.workgroup_size)[axis].value : 1);
  }
  return size;
}

ResourceKind kind_of(DescriptorType type) {
  switch (type) {
    case DescriptorType::StorageImage: return ResourceKind::StorageImage;
    case DescriptorType::SampledImage: return ResourceKind::SampledImage;
    case DescriptorType::CombinedImageSampler: return ResourceKind::CombinedImageSampler;
    case DescriptorType::Sampler: return ResourceKind::Sampler;
    case DescriptorType::UniformTexelBuffer: return ResourceKind::UniformTexelBuffer;
    case DescriptorType::StorageTexelBuffer: return ResourceKind::StorageTexelBuffer;
    case DescriptorType::UniformBuffer: return ResourceKind::UniformBuffer;
    default: return ResourceKind::StorageBuffer;
  }
}

bool only_written_image(const reflect::Binding& binding) {
  return binding.declared == reflect::Access::Write || binding.access == reflect::Access::Write;
}

constexpr uint32_t kMaxImageSide = 4096;
constexpr uint32_t kRuntimeDescriptors = 16;
constexpr uint64_t kMinTexelBufferElements = 1024;
constexpr uint64_t kMaxTexelBufferElements = 65536;  // every device's maxTexelBufferElements is at least this

uint32_t side(uint64_t invocations) {
  return static_cast<uint32_t>(std::clamp<uint64_t>(invocations, 1, kMaxImageSide));
}

// An image covering the grid's invocations, a texel each.
void shape_image(const reflect::ImageType& image, const std::array<uint64_t, 3>& global, ResourceSpec& spec) {
  switch (image.dim) {
    case 0:  // 1D
      spec.view_type = image.arrayed ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D;
      spec.extent = {side(global[0]), 1, 1};
      spec.layers = image.arrayed ? side(global[1]) : 1;
      return;
    case 2:  // 3D
      spec.view_type = VK_IMAGE_VIEW_TYPE_3D;
      spec.extent = {side(global[0]), side(global[1]), side(global[2])};
      return;
    case 3: {  // Cube
      const uint32_t edge = side(std::max(global[0], global[1]));
      spec.view_type = image.arrayed ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE;
      spec.extent = {edge, edge, 1};
      spec.layers = 6 * (image.arrayed ? side(global[2]) : 1);
      return;
    }
    default:  // 2D, Rect
      spec.view_type = image.arrayed ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
      spec.extent = {side(global[0]), side(global[1]), 1};
      spec.layers = image.arrayed ? side(global[2]) : 1;
      return;
  }
}

std::string extent_text(const ResourceSpec& spec) {
  if (spec.kind == ResourceKind::UniformTexelBuffer || spec.kind == ResourceKind::StorageTexelBuffer) {
    return fmt::format("{} texels", spec.extent[0]);
  }
  std::string text = std::to_string(spec.extent[0]);
  if (spec.view_type != VK_IMAGE_VIEW_TYPE_1D && spec.view_type != VK_IMAGE_VIEW_TYPE_1D_ARRAY) {
    text += "x" + std::to_string(spec.extent[1]);
  }
  if (spec.view_type == VK_IMAGE_VIEW_TYPE_3D) text += "x" + std::to_string(spec.extent[2]);
  if (spec.view_type == VK_IMAGE_VIEW_TYPE_CUBE || spec.view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY) {
    text += " cube";
    if (spec.layers > 6) text += fmt::format(", {} layers", spec.layers);
  } else if (spec.layers > 1) {
    text += fmt::format(", {} layers", spec.layers);
  }
  return text;
}

bool make_image_like(const reflect::Binding& binding, const std::array<uint64_t, 3>& global, SplitMix64& random,
                     ResourceSpec& spec, std::vector<std::string>& guesses, std::string* error) {
  if (!binding.image) {
    *error = fmt::format("{}: reflection gives no image type", binding_label(binding));
    return false;
  }
  const reflect::ImageType& image = *binding.image;
  if (image.multisampled) {
    *error = fmt::format("{} is a multisampled image: the runner binds single-sample images only",
                         binding_label(binding));
    return false;
  }
  bool guessed_format = false;
  const Format& format = format_of(image, &guessed_format);
  spec.format = static_cast<uint32_t>(format.format);
  spec.texel_bytes = format.parts * format.part_bytes;
  spec.format_name = format.name;
  const bool texel_buffer = image.dim == 5;
  uint64_t count = 0;
  if (texel_buffer) {
    count = std::clamp(global[0] * global[1] * global[2] * 4, kMinTexelBufferElements, kMaxTexelBufferElements);
    spec.extent = {static_cast<uint32_t>(count), 1, 1};
  } else {
    shape_image(image, global, spec);
    count = uint64_t{spec.extent[0]} * spec.extent[1] * spec.extent[2] * spec.layers;
  }
  const bool writable = spec.kind == ResourceKind::StorageImage || spec.kind == ResourceKind::StorageTexelBuffer;
  spec.sentinel = writable && only_written_image(binding) && holds_sentinel(format);
  for (uint32_t element = 0; element < spec.count; ++element) {
    // A binding the kernel never uses is not bound (docs/runner.md): it
    // gets no texels, and draws nothing from the sequence.
    spec.data.push_back(binding.access == reflect::Access::None ? std::vector<uint8_t>()
                                                                : texels(format, count, spec.sentinel, random));
  }
  std::string what = fmt::format("{}: {}{} {}{}", binding_label(binding),
                                 spec.count > 1 ? fmt::format("{} of them, each ", spec.count) : "", extent_text(spec),
                                 format.name, guessed_format ? " (no format declared)" : "");
  if (!texel_buffer) what += ", a texel per invocation of the grid";
  if (binding.access == reflect::Access::None) what += "; the kernel never uses it";
  guesses.push_back(what);
  if (writable && only_written_image(binding)) {
    guesses.push_back(spec.sentinel ? fmt::format("{}: only written, every part of every texel starts as the "
                                                  "sentinel",
                                                  binding_label(binding))
                                    : fmt::format("{}: only written, but {} holds no sentinel: it starts as random "
                                                  "bits",
                                                  binding_label(binding), format.name));
  }
  return true;
}

bool make_buffer_array(const reflect::Binding& binding, const reflect::EntryPoint& entry, const HarnessOptions& options,
                       SplitMix64& random, ResourceSpec& spec, std::vector<std::string>& guesses, std::string* error) {
  uint64_t size = binding.block ? binding.block->size : 0;
  if (binding.block && ends_in_runtime_array(*binding.block)) {
    const reflect::Member& array = binding.block->members.back();
    const uint32_t stride = array.array_stride.value_or(4);
    // Each element of the array its share of what one buffer would get.
    HarnessOptions shared = options;
    shared.runtime_array_bytes = std::max<uint64_t>(options.runtime_array_bytes / spec.count, 256);
    shared.max_runtime_array_bytes = std::max<uint64_t>(options.max_runtime_array_bytes / spec.count, 256);
    const uint64_t elements = guessed_runtime_elements(entry, options.grid, shared, stride);
    size = array.offset + elements * stride;
    guesses.push_back(fmt::format("{}: {} elements of the runtime array {} in each buffer", binding_label(binding),
                                  elements, array.name));
  }
  reflect::Binding single = binding;
  single.array_size = 1;
  for (uint32_t element = 0; element < spec.count; ++element) {
    std::optional<BufferSpec> buffer = make_buffer(single, size, random, error);
    if (!buffer) return false;
    spec.sentinel = buffer->sentinel;
    spec.data.push_back(std::move(buffer->data));
  }
  return true;
}

void add_addressed(const std::string& where, int64_t buffer, const std::vector<reflect::Member>& members,
                   const HarnessOptions& options, SplitMix64& random, Harness& harness) {
  for (const reflect::Member& member : members) {
    if (!member.pointer) continue;
    ResourceSpec spec;
    spec.kind = ResourceKind::AddressedBuffer;
    spec.name = fmt::format("{}.{} -> {}", where, member.name, member.type);
    spec.address_buffer = buffer;
    spec.address_offset = member.offset;
    std::vector<uint8_t> bytes(std::max<uint64_t>(options.runtime_array_bytes, 4) / 4 * 4);
    for (size_t offset = 0; offset < bytes.size(); offset += 4) {
      const float value = random.next_float();
      std::memcpy(&bytes[offset], &value, 4);
    }
    spec.data.push_back(std::move(bytes));
    harness.guesses.push_back(fmt::format("{}: a buffer of {} bytes of its own, every word a float in [-1,1]",
                                          spec.name, spec.data.front().size()));
    harness.resources.push_back(std::move(spec));
  }
}

}  // namespace

bool is_plain_buffer(const reflect::Binding& binding) {
  return (binding.type == DescriptorType::StorageBuffer || binding.type == DescriptorType::UniformBuffer) &&
         binding.array_size == 1 && binding.block;
}

std::string_view to_string(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::StorageImage: return "storage-image";
    case ResourceKind::SampledImage: return "sampled-image";
    case ResourceKind::CombinedImageSampler: return "combined-image-sampler";
    case ResourceKind::Sampler: return "sampler";
    case ResourceKind::UniformTexelBuffer: return "uniform-texel-buffer";
    case ResourceKind::StorageTexelBuffer: return "storage-texel-buffer";
    case ResourceKind::StorageBuffer: return "storage-buffer";
    case ResourceKind::UniformBuffer: return "uniform-buffer";
    case ResourceKind::AddressedBuffer: return "buffer-reference";
  }
  return "?";
}

bool distinct_bindings(const reflect::EntryPoint& entry, std::string* error) {
  for (size_t i = 0; i < entry.bindings.size(); ++i) {
    const reflect::Binding& first = entry.bindings[i];
    std::string names = fmt::format("{} {}", first.name, reflect::to_string(first.type));
    size_t j = i + 1;
    bool alike = true;  // buffers of one kind alias one descriptor, as Vulkan allows
    for (; j < entry.bindings.size() && entry.bindings[j].set == first.set &&
           entry.bindings[j].binding == first.binding;
         ++j) {
      names += fmt::format(", {} {}", entry.bindings[j].name, reflect::to_string(entry.bindings[j].type));
      alike &= entry.bindings[j].type == first.type && entry.bindings[j].array_size == first.array_size &&
               (first.type == reflect::DescriptorType::StorageBuffer || first.type == reflect::DescriptorType::UniformBuffer);
    }
    if (j > i + 1 && !alike) {
      *error = fmt::format("binding {}.{} is declared {} times ({}): one pipeline cannot bind them; give each its "
                           "own binding (for HLSL registers, [[vk::binding]] or the compiler's binding shifts)",
                           first.set, first.binding, j - i, names);
      return false;
    }
  }
  return true;
}

std::optional<std::vector<std::string>> separate_registers(std::vector<uint32_t>& spirv,
                                                           reflect::ModuleReflection& reflection, std::string* error) {
  std::vector<std::string> moves;
  const Declarations d = declarations(spirv);
  if (!d.hlsl || reflection.entry_points.empty()) return moves;
  std::vector<uint32_t> edited = spirv;
  // The highest binding of each set, over every entry point.
  std::map<uint32_t, uint32_t> highest;
  for (const reflect::EntryPoint& entry : reflection.entry_points) {
    for (const reflect::Binding& b : entry.bindings) highest[b.set] = std::max(highest[b.set], b.binding);
  }
  const reflect::EntryPoint& entry = reflection.entry_points.front();
  std::map<std::pair<uint32_t, uint32_t>, std::vector<const reflect::Binding*>> shared;
  for (const reflect::Binding& b : entry.bindings) shared[{b.set, b.binding}].push_back(&b);
  for (const auto& [where, group] : shared) {
    std::map<reflect::DescriptorType, uint32_t> moved_to;  // each class but the first's new binding
    for (const reflect::Binding* b : group) {
      if (b->type == group.front()->type) continue;
      auto [to, fresh] = moved_to.try_emplace(b->type, 0);
      if (fresh) to->second = ++highest[where.first];
      // The variables that stand for it: at this set and binding, named as
      // reflection names it (the variable, or its block's type).
      std::vector<uint32_t> variables;
      for (const auto& [variable, pointer] : d.variable_types) {
        auto binding = d.bindings.find(variable);
        auto set = d.sets.find(variable);
        if (binding == d.bindings.end() || spirv[binding->second] != where.second ||
            (set == d.sets.end() ? 0 : set->second) != where.first) {
          continue;
        }
        uint32_t type = d.pointees.count(pointer) ? d.pointees.at(pointer) : 0;
        while (d.elements.count(type)) type = d.elements.at(type);
        auto own = d.names.find(variable);
        auto typed = d.names.find(type);
        if ((own != d.names.end() && own->second == b->name) || (typed != d.names.end() && typed->second == b->name)) {
          variables.push_back(variable);
        }
      }
      if (variables.size() != 1) {
        *error = fmt::format("binding {}.{} is declared {} times and '{}' cannot be told apart to move it", where.first,
                             where.second, group.size(), b->name);
        return std::nullopt;
      }
      edited[d.bindings.at(variables.front())] = to->second;
      moves.push_back(fmt::format("binding {}.{} ({}, {}) moved to {}.{}: HLSL registers of {} classes share the "
                                  "binding unless the compiler shifts them apart, as the kernel's build must",
                                  where.first, where.second, b->name, reflect::to_string(b->type), where.first,
                                  to->second, group.size()));
    }
  }
  if (moves.empty()) return moves;
  std::optional<reflect::ModuleReflection> again = reflect::reflect_module(edited, error);
  if (!again) return std::nullopt;
  spirv = std::move(edited);
  reflection = std::move(*again);
  return moves;
}

bool add_resources(const reflect::EntryPoint& entry, const HarnessOptions& options, SplitMix64& random,
                   Harness& harness, std::string* error) {
  if (!distinct_bindings(entry, error)) return false;
  const std::array<uint64_t, 3> global = global_size(entry, harness.grid);
  HarnessOptions sized = options;
  sized.grid = harness.grid;
  for (const reflect::Binding& binding : entry.bindings) {
    if (is_plain_buffer(binding)) continue;
    if (binding.type == DescriptorType::AccelerationStructure || binding.type == DescriptorType::InputAttachment) {
      *error = fmt::format("{} is {}: the runner cannot bind it", binding_label(binding),
                           binding.type == DescriptorType::InputAttachment ? "an input attachment"
                                                                            : "an acceleration structure");
      return false;
    }
    ResourceSpec spec;
    spec.set = binding.set;
    spec.binding = binding.binding;
    spec.kind = kind_of(binding.type);
    spec.name = binding.name;
    spec.count = binding.array_size == 0 ? kRuntimeDescriptors : binding.array_size;
    spec.written = may_write(binding);
    if (binding.array_size == 0) {
      harness.guesses.push_back(fmt::format("{}: {} descriptors in its runtime array, each its own {}",
                                            binding_label(binding), kRuntimeDescriptors, to_string(spec.kind)));
    }
    const bool ok =
        spec.kind == ResourceKind::Sampler ? true
        : spec.kind == ResourceKind::StorageBuffer || spec.kind == ResourceKind::UniformBuffer
            ? make_buffer_array(binding, entry, sized, random, spec, harness.guesses, error)
            : make_image_like(binding, global, random, spec, harness.guesses, error);
    if (!ok) return false;
    if (spec.kind == ResourceKind::Sampler || spec.kind == ResourceKind::CombinedImageSampler) {
      harness.guesses.push_back(fmt::format("{}: a sampler with nearest filtering, clamped to the edge",
                                            binding_label(binding)));
    }
    harness.resources.push_back(std::move(spec));
  }
  if (entry.push_constants) add_addressed("push constants", -1, entry.push_constants->block.members, options, random, harness);
  int64_t buffer = 0;
  for (const reflect::Binding& binding : entry.bindings) {
    if (!is_plain_buffer(binding)) continue;
    add_addressed(binding_label(binding), buffer++, binding.block->members, options, random, harness);
  }
  auto used = [&](const ResourceSpec& r) {
    return std::any_of(entry.bindings.begin(), entry.bindings.end(), [&](const reflect::Binding& b) {
      return b.set == r.set && b.binding == r.binding && b.access != reflect::Access::None;
    });
  };
  if (std::any_of(harness.resources.begin(), harness.resources.end(), [&](const ResourceSpec& r) {
        return !r.sentinel && r.kind != ResourceKind::Sampler && r.format != 0 && used(r);
      })) {
    harness.guesses.push_back(fmt::format("image and texel contents: floats in [-1,1] for float formats, integers "
                                          "in [0,16) for integer ones, random bits for the others, from seed {}",
                                          options.seed));
  }
  return true;
}

TexelCount count_texels(const ResourceSpec& spec, size_t element, const std::vector<uint8_t>& after) {
  const std::vector<uint8_t>& before = spec.data[element];
  const size_t unit = spec.texel_bytes ? spec.texel_bytes : 4;
  TexelCount count{0, std::min(before.size(), after.size()) / unit};
  for (size_t i = 0; i < count.total; ++i) {
    const bool same = std::memcmp(&before[i * unit], &after[i * unit], unit) == 0;
    // A sentinel resource started as the sentinel everywhere: a texel still
    // the same is one never written.
    count.counted += spec.sentinel ? same : !same;
  }
  return count;
}

std::vector<std::string> describe_result(const ResourceSpec& spec, const ResourceResult& result) {
  constexpr size_t kShown = 4;
  std::vector<std::string> lines;
  const Format* format = format_by_vk(spec.format);
  const bool buffer = !format;
  for (size_t element = 0; element < result.data.size() && element < spec.data.size(); ++element) {
    const std::vector<uint8_t>& after = result.data[element];
    const TexelCount count = count_texels(spec, element, after);
    const char* unit = buffer ? "words" : "texels";
    std::string counted = spec.sentinel ? fmt::format("{} of {} {} never written", count.counted, count.total, unit)
                                        : fmt::format("{} of {} {} changed", count.counted, count.total, unit);
    std::string first;
    const size_t texel = buffer ? 4 : spec.texel_bytes;
    for (size_t i = 0; i < std::min(count.total, kShown); ++i) {
      const uint8_t* bytes = &after[i * texel];
      if (spec.sentinel && std::memcmp(bytes, &spec.data[element][i * texel], texel) == 0) {
        first += " -";
        continue;
      }
      std::vector<std::string> parts;
      const uint32_t part_count = buffer ? 1 : format->parts;
      for (uint32_t p = 0; p < part_count; ++p) {
        const uint8_t* part = bytes + p * (buffer ? 4 : format->part_bytes);
        const Encoding encoding = buffer ? Encoding::Float : format->encoding;
        const uint32_t part_bytes = buffer ? 4 : format->part_bytes;
        uint64_t raw = 0;
        std::memcpy(&raw, part, part_bytes);
        if (encoding == Encoding::Float) {
          float value;
          std::memcpy(&value, part, 4);
          parts.push_back(fmt::format("{:g}", value));
        } else if (encoding == Encoding::Half) {
          parts.push_back(fmt::format("{:g}", from_half(static_cast<uint16_t>(raw))));
        } else if (encoding == Encoding::Uint) {
          parts.push_back(std::to_string(raw));
        } else if (encoding == Encoding::Sint) {
          const int shift = 64 - 8 * static_cast<int>(part_bytes);
          parts.push_back(std::to_string(static_cast<int64_t>(raw << shift) >> shift));
        } else {
          parts.push_back(fmt::format("0x{:0{}x}", raw, 2 * part_bytes));
        }
      }
      std::string shown;
      for (const std::string& part : parts) shown += (shown.empty() ? "" : ",") + part;
      first += parts.size() > 1 ? " (" + shown + ")" : " " + shown;
    }
    const std::string index = spec.count > 1 ? fmt::format("[{}]", element) : "";
    const std::string what =
        buffer ? fmt::format("{}, {} bytes", to_string(spec.kind), after.size())
               : fmt::format("{} {} {}", to_string(spec.kind), extent_text(spec), spec.format_name);
    const std::string where = spec.kind == ResourceKind::AddressedBuffer
                                  ? spec.name
                                  : fmt::format("binding {}.{}{} {}", spec.set, spec.binding, index, spec.name);
    lines.push_back(fmt::format("{} ({}): {}; first:{}{}", where, what, counted, first,
                                count.total > kShown ? " ..." : ""));
  }
  return lines;
}

}  // namespace klint::runner
