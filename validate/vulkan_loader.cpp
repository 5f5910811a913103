#include "validate/vulkan_loader.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#include <utility>

namespace klint {

PFN_vkGetInstanceProcAddr open_vulkan_loader(std::string* reason) {
  static const auto loaded = []() -> std::pair<PFN_vkGetInstanceProcAddr, std::string> {
#if defined(_WIN32)
    HMODULE library = LoadLibraryA("vulkan-1.dll");
    if (!library) return {nullptr, "cannot load the Vulkan loader (vulkan-1.dll)"};
    auto symbol = reinterpret_cast<void*>(GetProcAddress(library, "vkGetInstanceProcAddr"));
#else
#if defined(__APPLE__)
    const char* names[] = {"libvulkan.1.dylib", "libMoltenVK.dylib"};
#else
    const char* names[] = {"libvulkan.so.1", "libvulkan.so"};
#endif
    void* library = nullptr;
    for (const char* name : names) {
      if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!library) return {nullptr, std::string("cannot load the Vulkan loader (") + names[0] + ")"};
    void* symbol = dlsym(library, "vkGetInstanceProcAddr");
#endif
    if (!symbol) return {nullptr, "the Vulkan loader has no vkGetInstanceProcAddr"};
    return {reinterpret_cast<PFN_vkGetInstanceProcAddr>(symbol), ""};
  }();
  *reason = loaded.second;
  return loaded.first;
}

std::string vulkan_result_name(VkResult result) {
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_INVALID_SHADER_NV:
      return "VK_ERROR_INVALID_SHADER_NV";
    case VK_ERROR_MEMORY_MAP_FAILED:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL:
      return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_UNKNOWN:
      return "VK_ERROR_UNKNOWN";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_FRAGMENTATION:
      return "VK_ERROR_FRAGMENTATION";
    case VK_PIPELINE_COMPILE_REQUIRED:
      return "VK_PIPELINE_COMPILE_REQUIRED";
    default:
      return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

}  // namespace klint
