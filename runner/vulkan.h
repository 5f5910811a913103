// The Vulkan entry points the executor calls, loaded through the loader that
// klint opens at run time (validate/vulkan_loader.h).
#pragma once

#include <string>

#include "validate/vulkan_loader.h"

namespace klint::runner {

#define KLINT_RUNNER_VULKAN_FUNCTIONS(X)   \
  X(vkDestroyInstance)                     \
  X(vkEnumeratePhysicalDevices)            \
  X(vkGetPhysicalDeviceProperties)         \
  X(vkGetPhysicalDeviceProperties2)        \
  X(vkGetPhysicalDeviceFeatures2)          \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)   \
  X(vkEnumerateDeviceExtensionProperties)  \
  X(vkCreateDevice)                        \
  X(vkDestroyDevice)                       \
  X(vkGetDeviceQueue)                      \
  X(vkCreateShaderModule)                  \
  X(vkDestroyShaderModule)                 \
  X(vkCreateDescriptorSetLayout)           \
  X(vkDestroyDescriptorSetLayout)          \
  X(vkCreatePipelineLayout)                \
  X(vkDestroyPipelineLayout)               \
  X(vkCreateComputePipelines)              \
  X(vkDestroyPipeline)                     \
  X(vkCreateBuffer)                        \
  X(vkDestroyBuffer)                       \
  X(vkGetBufferMemoryRequirements)         \
  X(vkAllocateMemory)                      \
  X(vkFreeMemory)                          \
  X(vkBindBufferMemory)                    \
  X(vkMapMemory)                           \
  X(vkUnmapMemory)                         \
  X(vkCreateDescriptorPool)                \
  X(vkDestroyDescriptorPool)               \
  X(vkAllocateDescriptorSets)              \
  X(vkUpdateDescriptorSets)                \
  X(vkCreateCommandPool)                   \
  X(vkDestroyCommandPool)                  \
  X(vkAllocateCommandBuffers)              \
  X(vkBeginCommandBuffer)                  \
  X(vkEndCommandBuffer)                    \
  X(vkCmdBindPipeline)                     \
  X(vkCmdBindDescriptorSets)               \
  X(vkCmdPushConstants)                    \
  X(vkCmdDispatch)                         \
  X(vkCmdPipelineBarrier)                  \
  X(vkCreateFence)                         \
  X(vkDestroyFence)                        \
  X(vkQueueSubmit)                         \
  X(vkWaitForFences)                       \
  X(vkResetFences)                         \
  X(vkGetPhysicalDeviceFormatProperties)   \
  X(vkCreateImage)                         \
  X(vkDestroyImage)                        \
  X(vkGetImageMemoryRequirements)          \
  X(vkBindImageMemory)                     \
  X(vkCreateImageView)                     \
  X(vkDestroyImageView)                    \
  X(vkCreateSampler)                       \
  X(vkDestroySampler)                      \
  X(vkCreateBufferView)                    \
  X(vkDestroyBufferView)                   \
  X(vkCmdCopyBufferToImage)                \
  X(vkCmdCopyImageToBuffer)

// Entry points a loader older than Vulkan 1.2 may lack, and those of
// extensions: null then.
#define KLINT_RUNNER_OPTIONAL_VULKAN_FUNCTIONS(X) \
  X(vkGetBufferDeviceAddress)                     \
  X(vkGetPipelineExecutablePropertiesKHR)         \
  X(vkGetPipelineExecutableStatisticsKHR)

// One instance and the functions above; the instance is destroyed with it.
struct Vulkan {
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t api_version = 0;  // the instance's; a device is used at no higher version
#define KLINT_RUNNER_DECLARE(name) PFN_##name name = nullptr;
  KLINT_RUNNER_VULKAN_FUNCTIONS(KLINT_RUNNER_DECLARE)
  KLINT_RUNNER_OPTIONAL_VULKAN_FUNCTIONS(KLINT_RUNNER_DECLARE)
#undef KLINT_RUNNER_DECLARE

  Vulkan() = default;
  Vulkan(const Vulkan&) = delete;
  Vulkan& operator=(const Vulkan&) = delete;
  ~Vulkan();

  // Creates a Vulkan 1.1+ instance; false with a one-line reason.
  bool open(std::string* error);
};

}  // namespace klint::runner
