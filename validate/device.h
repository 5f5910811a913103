// Reads the Vulkan devices of this machine into Targets, so a shader can be
// checked against the GPU it will run on (`klint --target device:0`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validate/target.h"

namespace klint {

struct DeviceInfo {
  uint32_t index = 0;       // position in vkEnumeratePhysicalDevices' order
  std::string name;         // VkPhysicalDeviceProperties::deviceName
  std::string driver;       // driver name and info, e.g. "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)"
  std::string api_version;  // "1.3.230"
  uint32_t vendor_id = 0;
  std::string type;  // "discrete-gpu", "integrated-gpu", "virtual-gpu", "cpu", "other"
};

// Every device the Vulkan loader finds. Empty with a one-line reason in
// `error` when there is no loader, no driver or no device.
std::vector<DeviceInfo> list_devices(std::string* error);

// The device's limits, subgroup properties and shader features as a Target
// named "device:<index>". Vulkan says nothing about occupancy, shared memory
// banks or peak throughput, so those stay 0 or empty.
std::optional<Target> target_from_device(uint32_t index, std::string* error);

}  // namespace klint
