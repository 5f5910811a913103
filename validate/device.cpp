#include "validate/device.h"

#include "validate/vulkan_loader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace klint {
namespace {

std::string version_string(uint32_t version, bool with_patch) {
  std::string text =
      std::to_string(VK_API_VERSION_MAJOR(version)) + "." + std::to_string(VK_API_VERSION_MINOR(version));
  return with_patch ? text + "." + std::to_string(VK_API_VERSION_PATCH(version)) : text;
}

bool has_extension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

// One VkInstance with the entry points klint uses; destroyed with the object.
class Vulkan {
 public:
  Vulkan() = default;
  Vulkan(const Vulkan&) = delete;
  Vulkan& operator=(const Vulkan&) = delete;
  ~Vulkan() {
    if (instance_ && destroy_instance_) destroy_instance_(instance_, nullptr);
  }

  bool open(std::string* error) {
    PFN_vkGetInstanceProcAddr get = open_vulkan_loader(error);
    if (!get) return false;
    auto enumerate_version =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(get(nullptr, "vkEnumerateInstanceVersion"));
    auto enumerate_extensions = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
        get(nullptr, "vkEnumerateInstanceExtensionProperties"));
    auto create = reinterpret_cast<PFN_vkCreateInstance>(get(nullptr, "vkCreateInstance"));
    uint32_t loader_version = VK_API_VERSION_1_0;
    if (enumerate_version) enumerate_version(&loader_version);
    if (!create || !enumerate_extensions || loader_version < VK_API_VERSION_1_1) {
      *error = "the Vulkan loader supports only Vulkan 1.0; klint needs 1.1 to read device properties";
      return false;
    }

    // MoltenVK and other portability drivers are listed only on request.
    uint32_t count = 0;
    enumerate_extensions(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    enumerate_extensions(nullptr, &count, extensions.data());
    std::vector<const char*> enabled;
    VkInstanceCreateFlags flags = 0;
    if (has_extension(extensions, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
      enabled.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
      flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "klint";
    app.apiVersion = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.flags = flags;
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
    info.ppEnabledExtensionNames = enabled.data();
    VkResult result = create(&info, nullptr, &instance_);
    if (result != VK_SUCCESS) {
      instance_ = VK_NULL_HANDLE;
      *error = result == VK_ERROR_INCOMPATIBLE_DRIVER
                   ? "no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)"
                   : "vkCreateInstance failed: " + vulkan_result_name(result);
      return false;
    }
    load(get, destroy_instance_, "vkDestroyInstance");
    load(get, enumerate_physical_devices_, "vkEnumeratePhysicalDevices");
    load(get, get_properties_, "vkGetPhysicalDeviceProperties");
    load(get, get_properties2_, "vkGetPhysicalDeviceProperties2");
    load(get, get_features2_, "vkGetPhysicalDeviceFeatures2");
    load(get, enumerate_device_extensions_, "vkEnumerateDeviceExtensionProperties");
    if (!destroy_instance_ || !enumerate_physical_devices_ || !get_properties_ || !get_properties2_ ||
        !get_features2_ || !enumerate_device_extensions_) {
      *error = "the Vulkan loader lacks a Vulkan 1.1 entry point";
      return false;
    }
    return true;
  }

  std::vector<VkPhysicalDevice> physical_devices(std::string* error) const {
    uint32_t count = 0;
    VkResult result = enumerate_physical_devices_(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    if (result == VK_SUCCESS && count > 0) result = enumerate_physical_devices_(instance_, &count, devices.data());
    if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
      *error = "vkEnumeratePhysicalDevices failed: " + vulkan_result_name(result);
      return {};
    }
    devices.resize(count);
    if (devices.empty()) *error = "the Vulkan loader found no device";
    return devices;
  }

  std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice device) const {
    uint32_t count = 0;
    enumerate_device_extensions_(device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    enumerate_device_extensions_(device, nullptr, &count, extensions.data());
    extensions.resize(count);
    return extensions;
  }

  VkPhysicalDeviceProperties properties(VkPhysicalDevice device) const {
    VkPhysicalDeviceProperties properties{};
    get_properties_(device, &properties);
    return properties;
  }
  void properties2(VkPhysicalDevice device, VkPhysicalDeviceProperties2* chain) const {
    get_properties2_(device, chain);
  }
  void features2(VkPhysicalDevice device, VkPhysicalDeviceFeatures2* chain) const { get_features2_(device, chain); }

 private:
  template <typename Function>
  void load(PFN_vkGetInstanceProcAddr get, Function& function, const char* name) {
    function = reinterpret_cast<Function>(get(instance_, name));
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  PFN_vkDestroyInstance destroy_instance_ = nullptr;
  PFN_vkEnumeratePhysicalDevices enumerate_physical_devices_ = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties enumerate_device_extensions_ = nullptr;
  PFN_vkGetPhysicalDeviceProperties get_properties_ = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 get_properties2_ = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 get_features2_ = nullptr;
};

// Everything klint reads from one device. A structure is chained only where
// the device's version or an extension makes it valid to pass.
struct DeviceQuery {
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures extended_types{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES};
  bool has_subgroup = false;
  bool has_size_control = false;
  bool has_driver = false;

  DeviceQuery(const DeviceQuery&) = delete;  // the pNext chains point into this object
  DeviceQuery& operator=(const DeviceQuery&) = delete;

  DeviceQuery(const Vulkan& vk, VkPhysicalDevice device) {
    const uint32_t version = vk.properties(device).apiVersion;
    const std::vector<VkExtensionProperties> extensions = vk.device_extensions(device);
    auto supports = [&](uint32_t core, const char* extension) {
      return version >= core || has_extension(extensions, extension);
    };
    has_subgroup = version >= VK_API_VERSION_1_1;
    has_size_control = supports(VK_API_VERSION_1_3, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    has_driver = supports(VK_API_VERSION_1_2, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);

    void** next = &properties.pNext;
    auto chain = [&next](auto& structure) {
      *next = &structure;
      next = &structure.pNext;
    };
    if (has_subgroup) chain(subgroup);
    if (has_size_control) chain(size_control);
    if (has_driver) chain(driver);
    vk.properties2(device, &properties);

    next = &features.pNext;
    if (supports(VK_API_VERSION_1_1, VK_KHR_16BIT_STORAGE_EXTENSION_NAME)) chain(storage16);
    if (supports(VK_API_VERSION_1_2, VK_KHR_8BIT_STORAGE_EXTENSION_NAME)) chain(storage8);
    if (supports(VK_API_VERSION_1_2, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME)) chain(float16_int8);
    if (supports(VK_API_VERSION_1_2, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME)) chain(extended_types);
    vk.features2(device, &features);
  }

  const VkPhysicalDeviceProperties& basic() const { return properties.properties; }

  std::string driver_text() const {
    if (!has_driver) return "driver version " + std::to_string(basic().driverVersion);
    std::string text = driver.driverName;
    if (driver.driverInfo[0] != '\0') text += std::string(" ") + driver.driverInfo;
    return text;
  }
};

std::string device_type(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

// PCI vendor ids, and Khronos ids for vendors without one (VkVendorId).
std::string vendor_name(uint32_t id) {
  switch (id) {
    case 0x1002:
      return "AMD";
    case 0x106B:
      return "Apple";
    case 0x10DE:
      return "NVIDIA";
    case 0x13B5:
      return "Arm";
    case 0x5143:
      return "Qualcomm";
    case 0x8086:
      return "Intel";
    case VK_VENDOR_ID_MESA:
      return "Mesa";
    default: {
      char text[16];
      std::snprintf(text, sizeof text, "0x%04X", id);
      return text;
    }
  }
}

constexpr uint32_t kKnownSubgroupFeatures = kSubgroupBasic | kSubgroupVote | kSubgroupArithmetic | kSubgroupBallot |
                                            kSubgroupShuffle | kSubgroupShuffleRelative | kSubgroupClustered |
                                            kSubgroupQuad;

Target to_target(uint32_t index, const DeviceQuery& query) {
  const VkPhysicalDeviceProperties& basic = query.basic();
  const VkPhysicalDeviceLimits& limits = basic.limits;
  Target target;
  target.name = "device:" + std::to_string(index);
  target.description = std::string(basic.deviceName) + ", " + query.driver_text();
  target.vendor = vendor_name(basic.vendorID);
  target.vulkan_version = version_string(basic.apiVersion, false);
  target.max_compute_shared_memory_size = limits.maxComputeSharedMemorySize;
  target.max_compute_work_group_invocations = limits.maxComputeWorkGroupInvocations;
  std::copy_n(limits.maxComputeWorkGroupSize, 3, target.max_compute_work_group_size.begin());
  std::copy_n(limits.maxComputeWorkGroupCount, 3, target.max_compute_work_group_count.begin());

  if (query.has_subgroup) {
    const uint32_t size = query.subgroup.subgroupSize;
    target.subgroup_size = {size, size, size};
    if (query.has_size_control) {
      target.subgroup_size.min = query.size_control.minSubgroupSize;
      target.subgroup_size.max = query.size_control.maxSubgroupSize;
    }
    // Bits klint has no name for (rotate, NV partitioned) are dropped so the
    // target can be written out as JSON and read back.
    target.subgroup_supported_operations = query.subgroup.supportedOperations & kKnownSubgroupFeatures;
    target.subgroup_supported_in_compute = (query.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  } else {
    target.subgroup_size = {1, 1, 1};
    target.subgroup_supported_in_compute = false;
  }

  const VkPhysicalDeviceFeatures& core = query.features.features;
  target.features.shader_float16 = query.float16_int8.shaderFloat16;
  target.features.shader_float64 = core.shaderFloat64;
  target.features.shader_int8 = query.float16_int8.shaderInt8;
  target.features.shader_int16 = core.shaderInt16;
  target.features.shader_int64 = core.shaderInt64;
  target.features.storage_buffer_8bit_access = query.storage8.storageBuffer8BitAccess;
  target.features.storage_buffer_16bit_access = query.storage16.storageBuffer16BitAccess;
  target.features.subgroup_extended_types = query.extended_types.shaderSubgroupExtendedTypes;

  target.sources = {"Vulkan device " + std::to_string(index) + " (" + basic.deviceName + ", " + query.driver_text() +
                    ", Vulkan " + version_string(basic.apiVersion, true) + ") read through the Vulkan loader"};
  return target;
}

void set(std::string* error, std::string text) {
  if (error) *error = std::move(text);
}

}  // namespace

std::vector<DeviceInfo> list_devices(std::string* error) {
  std::string reason;
  Vulkan vk;
  std::vector<VkPhysicalDevice> devices;
  if (vk.open(&reason)) devices = vk.physical_devices(&reason);
  if (devices.empty()) {
    set(error, reason);
    return {};
  }
  std::vector<DeviceInfo> infos;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    DeviceQuery query(vk, devices[i]);
    const VkPhysicalDeviceProperties& basic = query.basic();
    infos.push_back({i, basic.deviceName, query.driver_text(), version_string(basic.apiVersion, true), basic.vendorID,
                     device_type(basic.deviceType)});
  }
  return infos;
}

std::optional<Target> target_from_device(uint32_t index, std::string* error) {
  std::string reason;
  Vulkan vk;
  std::vector<VkPhysicalDevice> devices;
  if (vk.open(&reason)) devices = vk.physical_devices(&reason);
  if (devices.empty()) {
    set(error, reason);
    return std::nullopt;
  }
  if (index >= devices.size()) {
    set(error, "device " + std::to_string(index) + " is out of range: the Vulkan loader found " +
                   std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices"));
    return std::nullopt;
  }
  return to_target(index, DeviceQuery(vk, devices[index]));
}

}  // namespace klint
