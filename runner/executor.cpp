#include "runner/executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string_view>

#include "runner/device_resources.h"
#include "runner/interface.h"
#include "runner/module_edits.h"
#include "runner/vulkan.h"
#include "validate/spirv_val.h"

namespace klint::runner {

SpecializationValue spec_u32(uint32_t id, uint32_t value) {
  SpecializationValue spec{id, std::vector<uint8_t>(4)};
  std::memcpy(spec.bytes.data(), &value, 4);
  return spec;
}

SpecializationValue spec_f32(uint32_t id, float value) {
  SpecializationValue spec{id, std::vector<uint8_t>(4)};
  std::memcpy(spec.bytes.data(), &value, 4);
  return spec;
}

namespace {

uint64_t round_up(uint64_t value, uint64_t alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

std::string where(const BufferSpec& buffer) {
  return "binding " + std::to_string(buffer.set) + "." + std::to_string(buffer.binding) +
         (buffer.name.empty() ? "" : " (" + buffer.name + ")");
}

// Every object of one run, destroyed in reverse order of creation whatever
// step failed.
struct Session {
  Vulkan vk;
  VkDevice device = VK_NULL_HANDLE;
  VkShaderModule shader = VK_NULL_HANDLE;
  std::vector<VkDescriptorSetLayout> set_layouts;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkBuffer> buffers;
  std::vector<VkDeviceMemory> memories;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  std::optional<DeviceResources> resources;  // images, samplers, texel buffers, arrays, addressed buffers

  ~Session() {
    if (!device) return;
    resources.reset();
    if (fence) vk.vkDestroyFence(device, fence, nullptr);
    if (command_pool) vk.vkDestroyCommandPool(device, command_pool, nullptr);
    if (pool) vk.vkDestroyDescriptorPool(device, pool, nullptr);
    for (VkBuffer buffer : buffers) vk.vkDestroyBuffer(device, buffer, nullptr);
    for (VkDeviceMemory memory : memories) vk.vkFreeMemory(device, memory, nullptr);
    if (pipeline) vk.vkDestroyPipeline(device, pipeline, nullptr);
    if (pipeline_layout) vk.vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    for (VkDescriptorSetLayout layout : set_layouts) vk.vkDestroyDescriptorSetLayout(device, layout, nullptr);
    if (shader) vk.vkDestroyShaderModule(device, shader, nullptr);
    vk.vkDestroyDevice(device, nullptr);
  }
};

struct Failure {
  ExecuteOutcome* outcome;
  bool operator()(const std::string& step, VkResult result) const {
    outcome->status = result == VK_ERROR_DEVICE_LOST ? ExecuteStatus::DeviceLost : ExecuteStatus::Failed;
    outcome->error = step + " failed: " + vulkan_result_name(result);
    return false;
  }
};

VkPhysicalDevice pick_device(Session& s, const ExecuteOptions& options, std::string* error) {
  uint32_t count = 0;
  s.vk.vkEnumeratePhysicalDevices(s.vk.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (count) s.vk.vkEnumeratePhysicalDevices(s.vk.instance, &count, devices.data());
  devices.resize(count);
  if (devices.empty()) {
    *error = "the Vulkan loader found no device";
    return VK_NULL_HANDLE;
  }
  if (options.device_index) {
    if (*options.device_index < devices.size()) return devices[*options.device_index];
    *error = "device " + std::to_string(*options.device_index) + " is out of range: the Vulkan loader found " +
             std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
    return VK_NULL_HANDLE;
  }
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties properties;
    s.vk.vkGetPhysicalDeviceProperties(device, &properties);
    if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) return device;
  }
  return devices[0];
}

// Enables every feature the device has, so that any kernel it can run gets
// created, except robust buffer access: it would hide the out-of-bounds writes
// the guards are there to catch.
struct Features {
  VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};

  Features(const Features&) = delete;  // the pNext chain points into this object
  Features(const Vulkan& vk, VkPhysicalDevice device, uint32_t version) {
    if (version >= VK_API_VERSION_1_2) {
      core.pNext = &v11;
      v11.pNext = &v12;
    }
    if (version >= VK_API_VERSION_1_3) v12.pNext = &v13;
    vk.vkGetPhysicalDeviceFeatures2(device, &core);
    core.features.robustBufferAccess = VK_FALSE;
    v13.robustImageAccess = VK_FALSE;
  }
};

// Whether the device offers pipeline statistics, and the loader their calls.
bool offers_statistics(const Vulkan& vk, VkPhysicalDevice device) {
  if (!vk.vkGetPipelineExecutablePropertiesKHR || !vk.vkGetPipelineExecutableStatisticsKHR) return false;
  uint32_t count = 0;
  if (vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
  const bool listed = std::any_of(extensions.begin(), extensions.end(), [](const VkExtensionProperties& e) {
    return std::string_view(e.extensionName) == VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  });
  if (!listed) return false;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR feature{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feature};
  vk.vkGetPhysicalDeviceFeatures2(device, &features);
  return feature.pipelineExecutableInfo == VK_TRUE;
}

// Every statistic of every executable of the pipeline. NVIDIA's driver
// (580.159) fills only the low 32 bits of a 64-bit statistic: on an H200,
// "Local Memory Size" came back as 2^36 + 128 for a kernel with one array of
// 128 bytes and 16 registers, the register count in the upper half. Its
// 64-bit values are read as their low 32 bits.
constexpr uint32_t kNvidiaVendor = 0x10DE;
std::vector<PipelineStatistic> read_statistics(const Vulkan& vk, VkDevice device, VkPipeline pipeline,
                                               uint32_t vendor) {
  const bool low_half = vendor == kNvidiaVendor;
  std::vector<PipelineStatistic> out;
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t count = 0;
  if (vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &count, nullptr) != VK_SUCCESS) return out;
  std::vector<VkPipelineExecutablePropertiesKHR> executables(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  if (vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &count, executables.data()) != VK_SUCCESS) return out;
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    which.pipeline = pipeline;
    which.executableIndex = e;
    uint32_t n = 0;
    if (vk.vkGetPipelineExecutableStatisticsKHR(device, &which, &n, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> statistics(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (vk.vkGetPipelineExecutableStatisticsKHR(device, &which, &n, statistics.data()) != VK_SUCCESS) continue;
    for (uint32_t i = 0; i < n; ++i) {
      const VkPipelineExecutableStatisticKHR& s = statistics[i];
      PipelineStatistic statistic{executables[e].name, s.name, s.description, 0, ""};
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          statistic.value = s.value.b32 ? 1 : 0;
          statistic.text = s.value.b32 ? "true" : "false";
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: {
          const int64_t value = low_half ? static_cast<int32_t>(s.value.i64 & 0xFFFFFFFF) : s.value.i64;
          statistic.value = static_cast<double>(value);
          statistic.text = std::to_string(value);
          break;
        }
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: {
          const uint64_t value = low_half ? s.value.u64 & 0xFFFFFFFF : s.value.u64;
          statistic.value = static_cast<double>(value);
          statistic.text = std::to_string(value);
          break;
        }
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
          statistic.value = s.value.f64;
          statistic.text = fmt::format("{:g}", s.value.f64);
          break;
        default:
          continue;
      }
      out.push_back(std::move(statistic));
    }
  }
  return out;
}

}  // namespace

ExecuteOutcome execute(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                       const ExecuteOptions& options) {
  ExecuteOutcome outcome;
  Failure fail{&outcome};
  // Drivers trust the module: spirv-val first, so that garbage is an error
  // rather than a crash inside the compiler.
  const std::vector<ValidationMessage> messages =
      options.validated ? std::vector<ValidationMessage>{} : validate_spirv(spirv, options.target_env);
  for (const ValidationMessage& message : messages) {
    if (!message.is_error) continue;
    outcome.error = "invalid SPIR-V: " + message.message.substr(0, message.message.find('\n'));
    return outcome;
  }
  std::vector<bool> runtime_sized(harness.buffers.size(), false);
  if (!check_interface(spirv, entry_point, harness, &runtime_sized, &outcome.error)) return outcome;
  for (const BufferSpec& buffer : harness.buffers) {
    if (buffer.data.empty() || buffer.data.size() % 4 != 0) {
      outcome.error = where(buffer) + " has " + std::to_string(buffer.data.size()) +
                      " bytes: buffers need a positive multiple of 4";
      return outcome;
    }
  }

  Session s;
  if (!s.vk.open(&outcome.error)) return outcome;
  VkPhysicalDevice physical = pick_device(s, options, &outcome.error);
  if (!physical) return outcome;
  VkPhysicalDeviceProperties properties;
  s.vk.vkGetPhysicalDeviceProperties(physical, &properties);
  const VkPhysicalDeviceLimits& limits = properties.limits;
  outcome.execution.device = properties.deviceName;
  if (harness.push_constants.size() > limits.maxPushConstantsSize) {
    outcome.error = std::to_string(harness.push_constants.size()) + " bytes of push constants exceed the device's " +
                    std::to_string(limits.maxPushConstantsSize);
    return outcome;
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (harness.grid[axis] == 0 || harness.grid[axis] > limits.maxComputeWorkGroupCount[axis]) {
      outcome.error = "grid dimension " + std::to_string(harness.grid[axis]) + " is outside 1.." +
                      std::to_string(limits.maxComputeWorkGroupCount[axis]) + " on this device";
      return outcome;
    }
  }

  uint32_t family_count = 0;
  s.vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  s.vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
  uint32_t family = 0;
  while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
  if (family == family_count) {
    outcome.error = "the device has no compute queue";
    return outcome;
  }

  const uint32_t version = std::min(properties.apiVersion, s.vk.api_version);
  Features features(s.vk, physical, version);
  if (version >= VK_API_VERSION_1_3 && features.v13.subgroupSizeControl) {
    VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    VkPhysicalDeviceProperties2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v13};
    s.vk.vkGetPhysicalDeviceProperties2(physical, &all);
    if (v13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) {
      outcome.execution.min_subgroup_size = v13.minSubgroupSize;
      outcome.execution.max_subgroup_size = v13.maxSubgroupSize;
    }
  }
  if (const uint32_t size = options.required_subgroup_size) {
    const Execution& e = outcome.execution;
    if (size < e.min_subgroup_size || size > e.max_subgroup_size || (size & (size - 1)) != 0) {
      outcome.error = e.max_subgroup_size ? fmt::format("the device cannot run subgroups of {}: it offers {} to {}",
                                                        size, e.min_subgroup_size, e.max_subgroup_size)
                                          : fmt::format("the device cannot run subgroups of {}: it has no subgroup "
                                                        "size control for compute shaders", size);
      return outcome;
    }
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &features.core;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  // Pipeline statistics, where asked for and offered: the extension and its
  // feature, at the end of the features' chain.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  const char* statistics_extension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  outcome.execution.statistics_offered = options.capture_statistics && offers_statistics(s.vk, physical);
  if (outcome.execution.statistics_offered) {
    executable_info.pipelineExecutableInfo = VK_TRUE;
    VkBaseOutStructure* last = reinterpret_cast<VkBaseOutStructure*>(&features.core);
    while (last->pNext) last = last->pNext;
    last->pNext = reinterpret_cast<VkBaseOutStructure*>(&executable_info);
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &statistics_extension;
  }
  if (VkResult r = s.vk.vkCreateDevice(physical, &device_info, nullptr, &s.device); r != VK_SUCCESS) {
    s.device = VK_NULL_HANDLE;
    fail("vkCreateDevice", r);
    return outcome;
  }
  VkQueue queue;
  s.vk.vkGetDeviceQueue(s.device, family, 0, &queue);

  // The device runs the module without the resources it never reaches, and
  // the pipeline binds only those it still declares.
  const std::vector<uint32_t> run = without_unused_resources(spirv);
  const Declared declared = declared_bindings(run);
  VkShaderModuleCreateInfo shader_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  shader_info.codeSize = run.size() * sizeof(uint32_t);
  shader_info.pCode = run.data();
  if (VkResult r = s.vk.vkCreateShaderModule(s.device, &shader_info, nullptr, &s.shader); r != VK_SUCCESS) {
    fail("vkCreateShaderModule", r);
    return outcome;
  }

  // One layout per set up to the highest one used, empty where the kernel
  // skips a set number.
  std::map<uint32_t, std::vector<VkDescriptorSetLayoutBinding>> sets;
  std::map<VkDescriptorType, uint32_t> pool_counts;
  for (const BufferSpec& buffer : harness.buffers) {
    if (!declared.count({buffer.set, buffer.binding})) continue;
    const VkDescriptorType type =
        buffer.kind == BufferKind::Storage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    pool_counts[type]++;
    sets[buffer.set].push_back({buffer.binding, type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  }
  DeviceResources::layout(harness, declared, sets, pool_counts);
  const uint32_t set_count = sets.empty() ? 0 : sets.rbegin()->first + 1;
  for (uint32_t set = 0; set < set_count; ++set) {
    VkDescriptorSetLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    layout_info.bindingCount = static_cast<uint32_t>(sets[set].size());
    layout_info.pBindings = sets[set].data();
    VkDescriptorSetLayout layout;
    if (VkResult r = s.vk.vkCreateDescriptorSetLayout(s.device, &layout_info, nullptr, &layout); r != VK_SUCCESS) {
      fail("vkCreateDescriptorSetLayout", r);
      return outcome;
    }
    s.set_layouts.push_back(layout);
  }
  VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                 static_cast<uint32_t>(round_up(harness.push_constants.size(), 4))};
  VkPipelineLayoutCreateInfo pipeline_layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pipeline_layout_info.setLayoutCount = set_count;
  pipeline_layout_info.pSetLayouts = s.set_layouts.data();
  pipeline_layout_info.pushConstantRangeCount = push_range.size ? 1 : 0;
  pipeline_layout_info.pPushConstantRanges = &push_range;
  if (VkResult r = s.vk.vkCreatePipelineLayout(s.device, &pipeline_layout_info, nullptr, &s.pipeline_layout);
      r != VK_SUCCESS) {
    fail("vkCreatePipelineLayout", r);
    return outcome;
  }

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint8_t> spec_data;
  for (const SpecializationValue& value : harness.specialization) {
    entries.push_back({value.id, static_cast<uint32_t>(spec_data.size()), value.bytes.size()});
    spec_data.insert(spec_data.end(), value.bytes.begin(), value.bytes.end());
  }
  VkSpecializationInfo spec_info{static_cast<uint32_t>(entries.size()), entries.data(), spec_data.size(),
                                 spec_data.data()};
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = s.shader;
  pipeline_info.stage.pName = entry_point.c_str();
  pipeline_info.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec_info;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  required.requiredSubgroupSize = options.required_subgroup_size;
  if (options.required_subgroup_size) pipeline_info.stage.pNext = &required;
  pipeline_info.layout = s.pipeline_layout;
  if (outcome.execution.statistics_offered) pipeline_info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  if (VkResult r = s.vk.vkCreateComputePipelines(s.device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &s.pipeline);
      r != VK_SUCCESS) {
    s.pipeline = VK_NULL_HANDLE;
    fail("vkCreateComputePipelines", r);
    return outcome;
  }
  if (options.capture_statistics) {
    if (outcome.execution.statistics_offered) {
      outcome.execution.statistics = read_statistics(s.vk, s.device, s.pipeline, properties.vendorID);
    }
    outcome.status = ExecuteStatus::Completed;
    return outcome;
  }

  VkPhysicalDeviceMemoryProperties memory_properties;
  s.vk.vkGetPhysicalDeviceMemoryProperties(physical, &memory_properties);
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::vector<uint8_t*> mapped;
  std::vector<uint64_t> guard_sizes;
  std::vector<uint64_t> total_sizes;
  std::vector<uint64_t> ranges;
  for (size_t i = 0; i < harness.buffers.size(); ++i) {
    const BufferSpec& buffer = harness.buffers[i];
    const bool storage = buffer.kind == BufferKind::Storage;
    const uint64_t alignment =
        storage ? limits.minStorageBufferOffsetAlignment : limits.minUniformBufferOffsetAlignment;
    const uint64_t max_range = storage ? limits.maxStorageBufferRange : limits.maxUniformBufferRange;
    if (buffer.data.size() > max_range) {
      outcome.error = where(buffer) + " has " + std::to_string(buffer.data.size()) +
                      " bytes, more than the device's range of " + std::to_string(max_range);
      return outcome;
    }
    const uint64_t guard = round_up(kGuardBytes, alignment);
    const uint64_t total = guard + round_up(buffer.data.size(), alignment) + guard;
    // Drivers that bound every access by the descriptor's range (lavapipe
    // does) drop a write past it before it reaches the guard. A range larger
    // than a fixed-size block is valid and changes nothing the shader can
    // observe, so it takes in the guard after the buffer; a runtime array's
    // length() is computed from the range, so that range stays exact.
    const uint64_t open_range = total - guard;
    ranges.push_back(runtime_sized[i] || open_range > max_range ? buffer.data.size() : open_range);
    guard_sizes.push_back(guard);
    total_sizes.push_back(total);
    VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.size = total;
    buffer_info.usage = storage ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    VkBuffer handle;
    if (VkResult r = s.vk.vkCreateBuffer(s.device, &buffer_info, nullptr, &handle); r != VK_SUCCESS) {
      fail("vkCreateBuffer", r);
      return outcome;
    }
    s.buffers.push_back(handle);
    VkMemoryRequirements requirements;
    s.vk.vkGetBufferMemoryRequirements(s.device, handle, &requirements);
    uint32_t type = 0;
    while (type < memory_properties.memoryTypeCount &&
           !((requirements.memoryTypeBits & (1u << type)) &&
             (memory_properties.memoryTypes[type].propertyFlags & host) == host)) {
      ++type;
    }
    if (type == memory_properties.memoryTypeCount) {
      outcome.error = "the device has no host-visible coherent memory for " + where(buffer);
      return outcome;
    }
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = type;
    VkDeviceMemory memory;
    if (VkResult r = s.vk.vkAllocateMemory(s.device, &allocate, nullptr, &memory); r != VK_SUCCESS) {
      fail("vkAllocateMemory", r);
      return outcome;
    }
    s.memories.push_back(memory);
    void* pointer = nullptr;
    if (VkResult r = s.vk.vkBindBufferMemory(s.device, handle, memory, 0); r != VK_SUCCESS) {
      fail("vkBindBufferMemory", r);
      return outcome;
    }
    if (VkResult r = s.vk.vkMapMemory(s.device, memory, 0, VK_WHOLE_SIZE, 0, &pointer); r != VK_SUCCESS) {
      fail("vkMapMemory", r);
      return outcome;
    }
    auto* bytes = static_cast<uint8_t*>(pointer);
    std::memset(bytes, kGuardPattern, total);
    std::memcpy(bytes + guard, buffer.data.data(), buffer.data.size());
    mapped.push_back(bytes);
  }

  s.resources.emplace(s.vk, s.device);
  if (!s.resources->create(physical, harness, declared, features.v12.bufferDeviceAddress, &outcome.error)) {
    return outcome;
  }
  std::vector<uint8_t*> plain;
  for (size_t i = 0; i < mapped.size(); ++i) plain.push_back(mapped[i] + guard_sizes[i]);
  std::vector<uint8_t> push(push_range.size, 0);
  std::copy(harness.push_constants.begin(), harness.push_constants.end(), push.begin());
  s.resources->write_addresses(push, plain);

  std::vector<VkDescriptorPoolSize> pool_sizes;
  for (const auto& [type, count] : pool_counts) pool_sizes.push_back({type, count});
  std::vector<VkDescriptorSet> descriptor_sets(set_count);
  if (set_count) {
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = set_count;
    pool_info.poolSizeCount = static_cast<uint32_t>(pool_sizes.size());
    pool_info.pPoolSizes = pool_sizes.data();
    if (VkResult r = s.vk.vkCreateDescriptorPool(s.device, &pool_info, nullptr, &s.pool); r != VK_SUCCESS) {
      fail("vkCreateDescriptorPool", r);
      return outcome;
    }
    VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    set_info.descriptorPool = s.pool;
    set_info.descriptorSetCount = set_count;
    set_info.pSetLayouts = s.set_layouts.data();
    if (VkResult r = s.vk.vkAllocateDescriptorSets(s.device, &set_info, descriptor_sets.data()); r != VK_SUCCESS) {
      fail("vkAllocateDescriptorSets", r);
      return outcome;
    }
    std::vector<VkDescriptorBufferInfo> infos(harness.buffers.size());
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t i = 0; i < harness.buffers.size(); ++i) {
      const BufferSpec& buffer = harness.buffers[i];
      if (!declared.count({buffer.set, buffer.binding})) continue;
      infos[i] = {s.buffers[i], guard_sizes[i], ranges[i]};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = descriptor_sets[buffer.set];
      write.dstBinding = buffer.binding;
      write.descriptorCount = 1;
      write.descriptorType = buffer.kind == BufferKind::Storage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                                : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      write.pBufferInfo = &infos[i];
      writes.push_back(write);
    }
    s.vk.vkUpdateDescriptorSets(s.device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    s.resources->write_descriptors(descriptor_sets);
  }

  VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool_info.queueFamilyIndex = family;
  if (VkResult r = s.vk.vkCreateCommandPool(s.device, &command_pool_info, nullptr, &s.command_pool);
      r != VK_SUCCESS) {
    fail("vkCreateCommandPool", r);
    return outcome;
  }
  VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  command_info.commandPool = s.command_pool;
  command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  command_info.commandBufferCount = 2;
  VkCommandBuffer command_buffers[2];
  if (VkResult r = s.vk.vkAllocateCommandBuffers(s.device, &command_info, command_buffers); r != VK_SUCCESS) {
    fail("vkAllocateCommandBuffers", r);
    return outcome;
  }
  VkCommandBuffer warm = command_buffers[0], commands = command_buffers[1];
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  auto bind = [&](VkCommandBuffer buffer) {
    s.vk.vkCmdBindPipeline(buffer, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipeline);
    if (set_count) {
      s.vk.vkCmdBindDescriptorSets(buffer, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipeline_layout, 0, set_count,
                                   descriptor_sets.data(), 0, nullptr);
    }
    if (push_range.size) {
      s.vk.vkCmdPushConstants(buffer, s.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_range.size,
                              push.data());
    }
  };
  // A dispatch of no workgroups first, on its own: lavapipe compiles a
  // kernel at its first dispatch, not when the pipeline is made, and the
  // timeout is for the kernel's run.
  s.vk.vkBeginCommandBuffer(warm, &begin);
  bind(warm);
  s.vk.vkCmdDispatch(warm, 0, 0, 0);
  s.vk.vkBeginCommandBuffer(commands, &begin);
  s.resources->record_upload(commands);
  bind(commands);
  s.vk.vkCmdDispatch(commands, harness.grid[0], harness.grid[1], harness.grid[2]);
  s.resources->record_download(commands);
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  s.vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
  for (VkCommandBuffer buffer : command_buffers) {
    if (VkResult r = s.vk.vkEndCommandBuffer(buffer); r != VK_SUCCESS) {
      fail("vkEndCommandBuffer", r);
      return outcome;
    }
  }

  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = s.vk.vkCreateFence(s.device, &fence_info, nullptr, &s.fence); r != VK_SUCCESS) {
    fail("vkCreateFence", r);
    return outcome;
  }
  // Submits one command buffer and waits for it, with no timeout: a kernel
  // that never ends is the isolating parent's to kill.
  auto submit_and_wait = [&](VkCommandBuffer buffer) {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &buffer;
    if (VkResult r = s.vk.vkQueueSubmit(queue, 1, &submit, s.fence); r != VK_SUCCESS) {
      fail("vkQueueSubmit", r);
      return false;
    }
    if (VkResult r = s.vk.vkWaitForFences(s.device, 1, &s.fence, VK_TRUE, UINT64_MAX); r != VK_SUCCESS) {
      fail("vkWaitForFences", r);
      return false;
    }
    return true;
  };
  if (!submit_and_wait(warm)) return outcome;
  if (VkResult r = s.vk.vkResetFences(s.device, 1, &s.fence); r != VK_SUCCESS) {
    fail("vkResetFences", r);
    return outcome;
  }
  const auto submitted = std::chrono::steady_clock::now();
  if (options.before_dispatch) options.before_dispatch();
  if (!submit_and_wait(commands)) return outcome;
  outcome.execution.dispatch_nanoseconds = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - submitted).count());

  for (size_t i = 0; i < harness.buffers.size(); ++i) {
    const BufferSpec& buffer = harness.buffers[i];
    const uint8_t* middle = mapped[i] + guard_sizes[i];
    outcome.execution.buffers.push_back({buffer.set, buffer.binding, buffer.name,
                                         buffer.written || options.read_back_unwritten
                                             ? std::vector<uint8_t>(middle, middle + buffer.data.size())
                                             : std::vector<uint8_t>{}});
    GuardViolation sides[2] = {{buffer.set, buffer.binding, buffer.name, true, 0, 0, 0},
                               {buffer.set, buffer.binding, buffer.name, false, 0, 0, 0}};
    auto check = [&](GuardViolation& side, int64_t from, int64_t to) {
      for (int64_t offset = from; offset < to; ++offset) {
        if (middle[offset] == kGuardPattern) continue;
        if (side.changed++ == 0) side.first = offset;
        side.last = offset;
      }
    };
    // The padding up to the offset alignment counts as guard after the buffer.
    const auto size = static_cast<int64_t>(buffer.data.size());
    check(sides[0], -static_cast<int64_t>(guard_sizes[i]), 0);
    check(sides[1], size, static_cast<int64_t>(total_sizes[i] - guard_sizes[i]));
    for (const GuardViolation& side : sides) {
      if (side.changed) outcome.execution.guard_violations.push_back(side);
    }
  }
  s.resources->read_back(outcome.execution);
  outcome.status = ExecuteStatus::Completed;
  return outcome;
}

}  // namespace klint::runner
