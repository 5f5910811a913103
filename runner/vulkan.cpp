#include "runner/vulkan.h"

#include <algorithm>

namespace klint::runner {

Vulkan::~Vulkan() {
  if (instance && vkDestroyInstance) vkDestroyInstance(instance, nullptr);
}

bool Vulkan::open(std::string* error) {
  PFN_vkGetInstanceProcAddr get = open_vulkan_loader(error);
  if (!get) return false;
  auto enumerate_version =
      reinterpret_cast<PFN_vkEnumerateInstanceVersion>(get(nullptr, "vkEnumerateInstanceVersion"));
  auto create = reinterpret_cast<PFN_vkCreateInstance>(get(nullptr, "vkCreateInstance"));
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (enumerate_version) enumerate_version(&loader_version);
  if (!create || loader_version < VK_API_VERSION_1_1) {
    *error = "the Vulkan loader supports only Vulkan 1.0; running kernels needs 1.1";
    return false;
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "klint run";
  app.apiVersion = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkResult result = create(&info, nullptr, &instance);
  if (result != VK_SUCCESS) {
    instance = VK_NULL_HANDLE;
    *error = "vkCreateInstance failed: " + vulkan_result_name(result);
    return false;
  }
  api_version = app.apiVersion;
#define KLINT_RUNNER_LOAD(name)                                                   \
  name = reinterpret_cast<PFN_##name>(get(instance, #name));                      \
  if (!name) {                                                                    \
    *error = "the Vulkan loader lacks " #name;                                    \
    return false;                                                                 \
  }
  KLINT_RUNNER_VULKAN_FUNCTIONS(KLINT_RUNNER_LOAD)
#undef KLINT_RUNNER_LOAD
#define KLINT_RUNNER_LOAD_OPTIONAL(name) name = reinterpret_cast<PFN_##name>(get(instance, #name));
  KLINT_RUNNER_OPTIONAL_VULKAN_FUNCTIONS(KLINT_RUNNER_LOAD_OPTIONAL)
#undef KLINT_RUNNER_LOAD_OPTIONAL
  return true;
}

}  // namespace klint::runner
