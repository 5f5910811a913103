#include "runner/device_resources.h"

#include <fmt/core.h>

#include <cstring>

#include "runner/resources.h"

namespace klint::runner {
namespace {

VkDescriptorType descriptor_type(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::StorageImage: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case ResourceKind::SampledImage: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case ResourceKind::CombinedImageSampler: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case ResourceKind::Sampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
    case ResourceKind::UniformTexelBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case ResourceKind::StorageTexelBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    case ResourceKind::UniformBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case ResourceKind::StorageBuffer:
    case ResourceKind::AddressedBuffer: break;
  }
  return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

bool is_image(ResourceKind kind) {
  return kind == ResourceKind::StorageImage || kind == ResourceKind::SampledImage ||
         kind == ResourceKind::CombinedImageSampler;
}

bool is_writable(ResourceKind kind) {
  return kind == ResourceKind::StorageImage || kind == ResourceKind::StorageTexelBuffer ||
         kind == ResourceKind::StorageBuffer || kind == ResourceKind::AddressedBuffer;
}

VkImageType image_type(uint32_t view_type) {
  switch (view_type) {
    case VK_IMAGE_VIEW_TYPE_1D:
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY: return VK_IMAGE_TYPE_1D;
    case VK_IMAGE_VIEW_TYPE_3D: return VK_IMAGE_TYPE_3D;
    default: return VK_IMAGE_TYPE_2D;
  }
}

std::string label(const ResourceSpec& spec) {
  return spec.kind == ResourceKind::AddressedBuffer ? spec.name
                                                    : fmt::format("binding {}.{} ({})", spec.set, spec.binding, spec.name);
}

VkBufferImageCopy whole(const ResourceSpec& spec) {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, spec.layers};
  region.imageExtent = {spec.extent[0], spec.extent[1], spec.extent[2]};
  return region;
}

}  // namespace

void DeviceResources::layout(const Harness& harness, const Declared& declared,
                             std::map<uint32_t, std::vector<VkDescriptorSetLayoutBinding>>& sets,
                             std::map<VkDescriptorType, uint32_t>& pool) {
  for (const ResourceSpec& spec : harness.resources) {
    if (spec.kind == ResourceKind::AddressedBuffer || !declared.count({spec.set, spec.binding})) continue;
    const VkDescriptorType type = descriptor_type(spec.kind);
    sets[spec.set].push_back({spec.binding, type, spec.count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    pool[type] += spec.count;
  }
}

DeviceResources::~DeviceResources() {
  for (const std::vector<Element>& elements : elements_) {
    for (const Element& e : elements) {
      if (e.view) vk_.vkDestroyImageView(device_, e.view, nullptr);
      if (e.image) vk_.vkDestroyImage(device_, e.image, nullptr);
      if (e.sampler) vk_.vkDestroySampler(device_, e.sampler, nullptr);
      if (e.buffer_view) vk_.vkDestroyBufferView(device_, e.buffer_view, nullptr);
      if (e.buffer) vk_.vkDestroyBuffer(device_, e.buffer, nullptr);
    }
  }
  for (VkDeviceMemory memory : memories_) vk_.vkFreeMemory(device_, memory, nullptr);
}

bool DeviceResources::allocate(const VkMemoryRequirements& requirements, bool host, bool addressed,
                               VkDeviceMemory* memory, std::string* error) {
  const VkMemoryPropertyFlags wanted =
      host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT : 0;
  uint32_t type = 0;
  while (type < memory_properties_.memoryTypeCount &&
         !((requirements.memoryTypeBits & (1u << type)) &&
           (memory_properties_.memoryTypes[type].propertyFlags & wanted) == wanted)) {
    ++type;
  }
  if (type == memory_properties_.memoryTypeCount) {
    *error = "the device has no memory type for a resource";
    return false;
  }
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.pNext = addressed ? &flags : nullptr;
  info.allocationSize = requirements.size;
  info.memoryTypeIndex = type;
  if (VkResult r = vk_.vkAllocateMemory(device_, &info, nullptr, memory); r != VK_SUCCESS) {
    *error = "vkAllocateMemory failed: " + vulkan_result_name(r);
    return false;
  }
  memories_.push_back(*memory);
  return true;
}

bool DeviceResources::make_buffer(uint64_t size, VkBufferUsageFlags usage, bool addressed,
                                  const std::vector<uint8_t>& data, Element& element, std::string* error) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<uint64_t>(size, 4);
  info.usage = usage | (addressed ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
  if (VkResult r = vk_.vkCreateBuffer(device_, &info, nullptr, &element.buffer); r != VK_SUCCESS) {
    element.buffer = VK_NULL_HANDLE;
    *error = "vkCreateBuffer failed: " + vulkan_result_name(r);
    return false;
  }
  VkMemoryRequirements requirements;
  vk_.vkGetBufferMemoryRequirements(device_, element.buffer, &requirements);
  VkDeviceMemory memory;
  if (!allocate(requirements, true, addressed, &memory, error)) return false;
  void* pointer = nullptr;
  if (VkResult r = vk_.vkBindBufferMemory(device_, element.buffer, memory, 0); r != VK_SUCCESS) {
    *error = "vkBindBufferMemory failed: " + vulkan_result_name(r);
    return false;
  }
  if (VkResult r = vk_.vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &pointer); r != VK_SUCCESS) {
    *error = "vkMapMemory failed: " + vulkan_result_name(r);
    return false;
  }
  element.mapped = static_cast<uint8_t*>(pointer);
  std::memcpy(element.mapped, data.data(), data.size());
  if (addressed) {
    VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    address.buffer = element.buffer;
    element.address = vk_.vkGetBufferDeviceAddress(device_, &address);
  }
  return true;
}

bool DeviceResources::make_image(const ResourceSpec& spec, const std::vector<uint8_t>& data, Element& element,
                                 std::string* error) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  const bool cube = spec.view_type == VK_IMAGE_VIEW_TYPE_CUBE || spec.view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
  info.flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
  info.imageType = image_type(spec.view_type);
  info.format = static_cast<VkFormat>(spec.format);
  info.extent = {spec.extent[0], spec.extent[1], spec.extent[2]};
  info.mipLevels = 1;
  info.arrayLayers = spec.layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = (spec.kind == ResourceKind::StorageImage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT) |
               VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (VkResult r = vk_.vkCreateImage(device_, &info, nullptr, &element.image); r != VK_SUCCESS) {
    element.image = VK_NULL_HANDLE;
    *error = fmt::format("vkCreateImage failed for {}: {}", label(spec), vulkan_result_name(r));
    return false;
  }
  VkMemoryRequirements requirements;
  vk_.vkGetImageMemoryRequirements(device_, element.image, &requirements);
  VkDeviceMemory memory;
  if (!allocate(requirements, false, false, &memory, error)) return false;
  if (VkResult r = vk_.vkBindImageMemory(device_, element.image, memory, 0); r != VK_SUCCESS) {
    *error = "vkBindImageMemory failed: " + vulkan_result_name(r);
    return false;
  }
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = element.image;
  view.viewType = static_cast<VkImageViewType>(spec.view_type);
  view.format = info.format;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, spec.layers};
  if (VkResult r = vk_.vkCreateImageView(device_, &view, nullptr, &element.view); r != VK_SUCCESS) {
    element.view = VK_NULL_HANDLE;
    *error = "vkCreateImageView failed: " + vulkan_result_name(r);
    return false;
  }
  // The staging buffer: the image's contents go in and come back through it.
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  return make_buffer(data.size(), usage, false, data, element, error);
}

bool DeviceResources::create(VkPhysicalDevice physical, const Harness& harness, const Declared& declared,
                             bool device_addresses, std::string* error) {
  harness_ = &harness;
  vk_.vkGetPhysicalDeviceMemoryProperties(physical, &memory_properties_);
  for (const ResourceSpec& spec : harness.resources) {
    const bool bound = spec.kind == ResourceKind::AddressedBuffer || declared.count({spec.set, spec.binding});
    elements_.emplace_back(bound ? spec.count : 0);
    if (!bound) continue;
    if (spec.format) {
      VkFormatProperties properties;
      vk_.vkGetPhysicalDeviceFormatProperties(physical, static_cast<VkFormat>(spec.format), &properties);
      const bool texel_buffer =
          spec.kind == ResourceKind::UniformTexelBuffer || spec.kind == ResourceKind::StorageTexelBuffer;
      const VkFormatFeatureFlags has = texel_buffer ? properties.bufferFeatures : properties.optimalTilingFeatures;
      const VkFormatFeatureFlags needs =
          spec.kind == ResourceKind::StorageImage         ? VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT
          : spec.kind == ResourceKind::UniformTexelBuffer ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
          : spec.kind == ResourceKind::StorageTexelBuffer ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
                                                          : VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
      if ((has & needs) != needs) {
        *error = fmt::format("{}: the device cannot use {} for a {}", label(spec), spec.format_name,
                             to_string(spec.kind));
        return false;
      }
    }
    if (spec.kind == ResourceKind::AddressedBuffer && (!device_addresses || !vk_.vkGetBufferDeviceAddress)) {
      *error = fmt::format("{}: the device has no buffer device addresses", label(spec));
      return false;
    }
    for (uint32_t i = 0; i < spec.count; ++i) {
      Element& element = elements_.back()[i];
      static const std::vector<uint8_t> kNone;
      const std::vector<uint8_t>& data = i < spec.data.size() ? spec.data[i] : kNone;
      bool ok = true;
      switch (spec.kind) {
        case ResourceKind::StorageImage:
        case ResourceKind::SampledImage:
        case ResourceKind::CombinedImageSampler:
          ok = make_image(spec, data, element, error);
          break;
        case ResourceKind::UniformTexelBuffer:
        case ResourceKind::StorageTexelBuffer: {
          const bool storage = spec.kind == ResourceKind::StorageTexelBuffer;
          ok = make_buffer(data.size(),
                           storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                           false, data, element, error);
          if (!ok) break;
          VkBufferViewCreateInfo view{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
          view.buffer = element.buffer;
          view.format = static_cast<VkFormat>(spec.format);
          view.range = VK_WHOLE_SIZE;
          if (VkResult r = vk_.vkCreateBufferView(device_, &view, nullptr, &element.buffer_view); r != VK_SUCCESS) {
            element.buffer_view = VK_NULL_HANDLE;
            *error = "vkCreateBufferView failed: " + vulkan_result_name(r);
            ok = false;
          }
          break;
        }
        case ResourceKind::StorageBuffer:
        case ResourceKind::UniformBuffer:
          ok = make_buffer(data.size(),
                           spec.kind == ResourceKind::StorageBuffer ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                                                                    : VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                           false, data, element, error);
          break;
        case ResourceKind::AddressedBuffer:
          ok = make_buffer(data.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, data, element, error);
          break;
        case ResourceKind::Sampler:
          break;
      }
      if (!ok) return false;
      if (spec.kind == ResourceKind::Sampler || spec.kind == ResourceKind::CombinedImageSampler) {
        VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        sampler.magFilter = VK_FILTER_NEAREST;
        sampler.minFilter = VK_FILTER_NEAREST;
        sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        if (VkResult r = vk_.vkCreateSampler(device_, &sampler, nullptr, &element.sampler); r != VK_SUCCESS) {
          element.sampler = VK_NULL_HANDLE;
          *error = "vkCreateSampler failed: " + vulkan_result_name(r);
          return false;
        }
      }
    }
  }
  return true;
}

void DeviceResources::write_addresses(std::vector<uint8_t>& push, const std::vector<uint8_t*>& buffers) const {
  for (size_t k = 0; k < harness_->resources.size(); ++k) {
    const ResourceSpec& spec = harness_->resources[k];
    if (spec.kind != ResourceKind::AddressedBuffer) continue;
    const uint64_t address = elements_[k].front().address;
    if (spec.address_buffer < 0) {
      if (spec.address_offset + 8 <= push.size()) std::memcpy(&push[spec.address_offset], &address, 8);
    } else if (static_cast<size_t>(spec.address_buffer) < buffers.size()) {
      const BufferSpec& buffer = harness_->buffers[spec.address_buffer];
      if (spec.address_offset + 8 <= buffer.data.size()) {
        std::memcpy(buffers[spec.address_buffer] + spec.address_offset, &address, 8);
      }
    }
  }
}

void DeviceResources::write_descriptors(const std::vector<VkDescriptorSet>& sets) const {
  // Every info stays where it is until the update: reserved up front.
  size_t total = 0;
  for (const ResourceSpec& spec : harness_->resources) total += spec.count;
  std::vector<VkDescriptorImageInfo> images;
  std::vector<VkDescriptorBufferInfo> buffers;
  std::vector<VkBufferView> views;
  images.reserve(total);
  buffers.reserve(total);
  views.reserve(total);
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t k = 0; k < harness_->resources.size(); ++k) {
    const ResourceSpec& spec = harness_->resources[k];
    if (spec.kind == ResourceKind::AddressedBuffer || spec.set >= sets.size() || elements_[k].empty()) continue;
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = sets[spec.set];
    write.dstBinding = spec.binding;
    write.descriptorCount = spec.count;
    write.descriptorType = descriptor_type(spec.kind);
    for (const Element& e : elements_[k]) {
      switch (spec.kind) {
        case ResourceKind::UniformTexelBuffer:
        case ResourceKind::StorageTexelBuffer:
          if (!write.pTexelBufferView) write.pTexelBufferView = views.data() + views.size();
          views.push_back(e.buffer_view);
          break;
        case ResourceKind::StorageBuffer:
        case ResourceKind::UniformBuffer:
          if (!write.pBufferInfo) write.pBufferInfo = buffers.data() + buffers.size();
          buffers.push_back({e.buffer, 0, VK_WHOLE_SIZE});
          break;
        default:
          if (!write.pImageInfo) write.pImageInfo = images.data() + images.size();
          images.push_back({e.sampler, e.view, VK_IMAGE_LAYOUT_GENERAL});
          break;
      }
    }
    writes.push_back(write);
  }
  if (!writes.empty()) vk_.vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
}

void DeviceResources::record_upload(VkCommandBuffer commands) const {
  std::vector<VkImageMemoryBarrier> to_general;
  for (size_t k = 0; k < harness_->resources.size(); ++k) {
    if (!is_image(harness_->resources[k].kind)) continue;
    for (const Element& e : elements_[k]) {
      VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barrier.image = e.image;
      barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, harness_->resources[k].layers};
      to_general.push_back(barrier);
    }
  }
  if (to_general.empty()) return;
  vk_.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                           0, nullptr, static_cast<uint32_t>(to_general.size()), to_general.data());
  for (size_t k = 0; k < harness_->resources.size(); ++k) {
    const ResourceSpec& spec = harness_->resources[k];
    if (!is_image(spec.kind)) continue;
    const VkBufferImageCopy region = whole(spec);
    for (const Element& e : elements_[k]) {
      vk_.vkCmdCopyBufferToImage(commands, e.buffer, e.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    }
  }
  VkMemoryBarrier to_shader{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_shader.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_shader.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vk_.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                           &to_shader, 0, nullptr, 0, nullptr);
}

void DeviceResources::record_download(VkCommandBuffer commands) const {
  bool any = false;
  for (const ResourceSpec& spec : harness_->resources) any |= spec.kind == ResourceKind::StorageImage;
  if (!any) return;
  VkMemoryBarrier to_transfer{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_transfer.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vk_.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                           &to_transfer, 0, nullptr, 0, nullptr);
  for (size_t k = 0; k < harness_->resources.size(); ++k) {
    const ResourceSpec& spec = harness_->resources[k];
    if (spec.kind != ResourceKind::StorageImage) continue;
    const VkBufferImageCopy region = whole(spec);
    for (const Element& e : elements_[k]) {
      vk_.vkCmdCopyImageToBuffer(commands, e.image, VK_IMAGE_LAYOUT_GENERAL, e.buffer, 1, &region);
    }
  }
}

void DeviceResources::read_back(Execution& execution) const {
  for (size_t k = 0; k < harness_->resources.size(); ++k) {
    const ResourceSpec& spec = harness_->resources[k];
    if (!is_writable(spec.kind) || !spec.written) continue;
    ResourceResult result{k, {}};
    for (size_t i = 0; i < elements_[k].size(); ++i) {
      const uint8_t* bytes = elements_[k][i].mapped;
      const size_t size = i < spec.data.size() ? spec.data[i].size() : 0;
      result.data.emplace_back(bytes, bytes + size);
    }
    execution.resources.push_back(std::move(result));
  }
}

}  // namespace klint::runner
