// The Vulkan objects behind Harness::resources for one dispatch: images with
// their views and staging buffers, samplers, texel buffers and their views,
// the buffers of descriptor arrays and buffers reached by device address.
// The executor (runner/executor.cpp) drives it step by step.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner/executor.h"
#include "runner/vulkan.h"

namespace klint::runner {

class DeviceResources {
 public:
  // The descriptor set layout bindings of the harness's resources that the
  // module run declares, and how many descriptors of each type the pool needs.
  static void layout(const Harness& harness, const Declared& declared,
                     std::map<uint32_t, std::vector<VkDescriptorSetLayoutBinding>>& sets,
                     std::map<VkDescriptorType, uint32_t>& pool);

  DeviceResources(const Vulkan& vk, VkDevice device) : vk_(vk), device_(device) {}
  DeviceResources(const DeviceResources&) = delete;
  DeviceResources& operator=(const DeviceResources&) = delete;
  ~DeviceResources();

  // Creates every resource with its initial contents; images get theirs
  // through a staging buffer, copied by record_upload. A resource on a
  // binding the module run does not declare gets nothing (and no descriptor).
  // Fails with a reason when the device cannot use a format as the kernel
  // needs, lacks device addresses, or Vulkan fails.
  bool create(VkPhysicalDevice physical, const Harness& harness, const Declared& declared, bool device_addresses,
              std::string* error);
  // Writes each addressed buffer's device address where the harness says:
  // into `push`, or into the plain buffer whose bytes start at buffers[i].
  void write_addresses(std::vector<uint8_t>& push, const std::vector<uint8_t*>& buffers) const;
  void write_descriptors(const std::vector<VkDescriptorSet>& sets) const;
  // Before the dispatch: every image to the general layout, with its contents.
  void record_upload(VkCommandBuffer commands) const;
  // After it: storage images back into their staging buffers. A barrier to
  // the host must follow.
  void record_download(VkCommandBuffer commands) const;
  // What the writable resources hold, into execution.resources.
  void read_back(Execution& execution) const;

 private:
  struct Element {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;  // the resource's own, or an image's staging buffer
    VkBufferView buffer_view = VK_NULL_HANDLE;
    uint8_t* mapped = nullptr;  // the buffer's bytes
    uint64_t address = 0;
  };

  bool make_buffer(uint64_t size, VkBufferUsageFlags usage, bool addressed, const std::vector<uint8_t>& data,
                   Element& element, std::string* error);
  bool make_image(const ResourceSpec& spec, const std::vector<uint8_t>& data, Element& element, std::string* error);
  bool allocate(const VkMemoryRequirements& requirements, bool host, bool addressed, VkDeviceMemory* memory,
                std::string* error);

  const Vulkan& vk_;
  VkDevice device_;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  const Harness* harness_ = nullptr;
  std::vector<std::vector<Element>> elements_;  // per resource, per element
  std::vector<VkDeviceMemory> memories_;
};

}  // namespace klint::runner
