// These tests need the Vulkan loader and Mesa's lavapipe, which tools/bootstrap
// installs here and in CI.
#include "validate/device.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "validate/targets.h"
#include "validate/vulkan_loader.h"

namespace klint {
namespace {

// Set before the first instance: lavapipe's subgroup size follows
// LP_NATIVE_VECTOR_WIDTH, and without XDG_RUNTIME_DIR Mesa warns on stderr.
void use_default_lavapipe() {
  setenv("XDG_RUNTIME_DIR", "/tmp", 0);
  unsetenv("LP_NATIVE_VECTOR_WIDTH");
}

std::optional<uint32_t> lavapipe_index() {
  std::string error;
  for (const DeviceInfo& device : list_devices(&error)) {
    if (device.name.find("llvmpipe") != std::string::npos) return device.index;
  }
  ADD_FAILURE() << "no llvmpipe device; " << (error.empty() ? "other devices were found" : error);
  return std::nullopt;
}

// A driver's error reads as its name: NVIDIA answered a pipeline it could
// not compile with VK_ERROR_UNKNOWN, which printed as "VkResult -13".
TEST(VulkanResultName, NamesTheErrorsADriverReturns) {
  EXPECT_EQ(vulkan_result_name(VK_ERROR_UNKNOWN), "VK_ERROR_UNKNOWN");
  EXPECT_EQ(vulkan_result_name(VK_ERROR_OUT_OF_POOL_MEMORY), "VK_ERROR_OUT_OF_POOL_MEMORY");
  EXPECT_EQ(vulkan_result_name(VK_ERROR_DEVICE_LOST), "VK_ERROR_DEVICE_LOST");
  EXPECT_EQ(vulkan_result_name(static_cast<VkResult>(-77)), "VkResult -77");
}

TEST(Device, ListDevicesFindsLavapipe) {
  use_default_lavapipe();
  std::string error;
  const std::vector<DeviceInfo> devices = list_devices(&error);
  ASSERT_FALSE(devices.empty()) << error;
  for (uint32_t i = 0; i < devices.size(); ++i) EXPECT_EQ(devices[i].index, i);
  auto lavapipe = std::find_if(devices.begin(), devices.end(),
                               [](const DeviceInfo& d) { return d.name.find("llvmpipe") != std::string::npos; });
  ASSERT_NE(lavapipe, devices.end());
  EXPECT_EQ(lavapipe->type, "cpu");
  EXPECT_EQ(lavapipe->vendor_id, 0x10005u);  // VK_VENDOR_ID_MESA
  EXPECT_NE(lavapipe->driver.find("llvmpipe"), std::string::npos) << lavapipe->driver;
  EXPECT_EQ(lavapipe->api_version.rfind("1.", 0), 0u) << lavapipe->api_version;
}

TEST(Device, LavapipeMatchesItsBuiltinTarget) {
  use_default_lavapipe();
  std::optional<uint32_t> index = lavapipe_index();
  ASSERT_TRUE(index);
  std::string error;
  std::optional<Target> live = target_from_device(*index, &error);
  ASSERT_TRUE(live) << error;
  const Target* builtin = find_target("lavapipe");
  ASSERT_NE(builtin, nullptr);

  EXPECT_EQ(live->name, "device:" + std::to_string(*index));
  EXPECT_NE(live->description.find("llvmpipe"), std::string::npos);
  EXPECT_EQ(live->vendor, "Mesa");
  EXPECT_EQ(live->vulkan_version, builtin->vulkan_version);
  EXPECT_EQ(live->max_compute_shared_memory_size, builtin->max_compute_shared_memory_size);
  EXPECT_EQ(live->subgroup_size.preferred, builtin->subgroup_size.preferred);
  // The rest of what Vulkan reports must match too: targets/lavapipe.json
  // claims to be this device.
  EXPECT_EQ(live->max_compute_work_group_invocations, builtin->max_compute_work_group_invocations);
  EXPECT_EQ(live->max_compute_work_group_size, builtin->max_compute_work_group_size);
  EXPECT_EQ(live->max_compute_work_group_count, builtin->max_compute_work_group_count);
  EXPECT_EQ(live->subgroup_size, builtin->subgroup_size);
  EXPECT_EQ(live->subgroup_supported_operations, builtin->subgroup_supported_operations);
  EXPECT_EQ(live->subgroup_supported_in_compute, builtin->subgroup_supported_in_compute);
  EXPECT_TRUE(live->features == builtin->features);
  // Vulkan says nothing about these.
  EXPECT_TRUE(live->occupancy == TargetOccupancy{});
  EXPECT_EQ(live->shared_memory_banks, 0u);
  EXPECT_FALSE(live->peak_bandwidth_gb_per_s);
  ASSERT_EQ(live->sources.size(), 1u);
  EXPECT_NE(live->sources[0].find("llvmpipe"), std::string::npos);
}

TEST(Device, LiveTargetSavesAsATargetFile) {
  use_default_lavapipe();
  std::optional<uint32_t> index = lavapipe_index();
  ASSERT_TRUE(index);
  std::string error;
  std::optional<Target> live = target_from_device(*index, &error);
  ASSERT_TRUE(live) << error;
  live->name = "my-lavapipe";  // "device:N" is not a name a file may use
  std::optional<Target> again = parse_target(target_to_json(*live), "my-lavapipe.json", &error);
  ASSERT_TRUE(again) << error;
  EXPECT_TRUE(*again == *live);
}

TEST(Device, OutOfRangeIndexIsAnError) {
  use_default_lavapipe();
  std::string error;
  const size_t count = list_devices(&error).size();
  ASSERT_GT(count, 0u) << error;
  EXPECT_FALSE(target_from_device(static_cast<uint32_t>(count), &error));
  EXPECT_EQ(error, "device " + std::to_string(count) + " is out of range: the Vulkan loader found " +
                       std::to_string(count) + (count == 1 ? " device" : " devices"));
}

}  // namespace
}  // namespace klint
