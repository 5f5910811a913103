// The Vulkan loader, opened at run time instead of being linked, so that klint
// starts and lints on machines without Vulkan; only device queries and runs
// need it.
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include <string>

namespace klint {

// The loader's vkGetInstanceProcAddr, or null with a one-line reason. Opened
// once per process and never closed: drivers register exit handlers that must
// not outlive their code.
PFN_vkGetInstanceProcAddr open_vulkan_loader(std::string* reason);

// "VK_ERROR_DEVICE_LOST", or "VkResult N" for codes without a name here.
std::string vulkan_result_name(VkResult result);

}  // namespace klint
