// A device klint checks shaders against: its Vulkan limits, subgroup support,
// occupancy figures and peak throughput. Targets are data: one JSON file per
// target under targets/ (schema in docs/targets.md), built into the binary,
// or read live from a Vulkan device.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace klint {

// VkSubgroupFeatureFlagBits, bit for bit.
enum SubgroupFeature : uint32_t {
  kSubgroupBasic = 0x1,
  kSubgroupVote = 0x2,
  kSubgroupArithmetic = 0x4,
  kSubgroupBallot = 0x8,
  kSubgroupShuffle = 0x10,
  kSubgroupShuffleRelative = 0x20,
  kSubgroupClustered = 0x40,
  kSubgroupQuad = 0x80,
};

struct SubgroupSizes {
  uint32_t min = 0;
  uint32_t max = 0;
  uint32_t preferred = 0;  // what a pipeline gets without VK_EXT_subgroup_size_control
  // The compiler picks the width per shader within min..max whatever
  // `preferred` says (Intel's SIMD8/16/32), so no fixed width can be judged.
  bool varies_per_shader = false;

  friend bool operator==(const SubgroupSizes&, const SubgroupSizes&) = default;
};

// Shader features of VkPhysicalDeviceVulkan11/12Features and friends that a
// compute shader's types and instructions need.
// Each is true or false where a device report or vendor document says, and
// nullopt where nothing verified it: rules report only known absence.
struct TargetFeatures {
  std::optional<bool> shader_float16;
  std::optional<bool> shader_float64;
  std::optional<bool> shader_int8;
  std::optional<bool> shader_int16;
  std::optional<bool> shader_int64;
  std::optional<bool> storage_buffer_8bit_access;
  std::optional<bool> storage_buffer_16bit_access;
  std::optional<bool> subgroup_extended_types;  // subgroup operations on 8/16/64-bit types

  friend bool operator==(const TargetFeatures&, const TargetFeatures&) = default;
};

// How many workgroups one compute unit keeps resident, which hides latency.
struct TargetOccupancy {
  uint64_t shared_memory_per_compute_unit = 0;   // bytes shared by resident workgroups
  uint32_t max_workgroups_per_compute_unit = 0;
  uint32_t max_invocations_per_compute_unit = 0;
  // Vendor tiers where residency is documented by shared memory use rather
  // than derived (Apple: <= 8 KiB: 4, <= 16 KiB: 2, <= 32 KiB: 1). Ascending.
  struct Tier {
    uint64_t max_shared_memory = 0;
    uint32_t workgroups = 0;

    friend bool operator==(const Tier&, const Tier&) = default;
  };
  std::vector<Tier> tiers;
  // Below this many resident workgroups, latency shows.
  uint32_t min_workgroups_to_hide_latency = 2;

  friend bool operator==(const TargetOccupancy&, const TargetOccupancy&) = default;
};

struct Target {
  std::string name;          // the id users pass to --target, kebab-case
  std::string description;   // e.g. "NVIDIA Ampere (GA10x), desktop driver"
  std::string vendor;
  std::string vulkan_version;  // "1.3": the environment spirv-val checks against

  uint64_t max_compute_shared_memory_size = 0;
  // 0 (null in a target file) where no source gives the limit: no rule
  // reports on it.
  uint32_t max_compute_work_group_invocations = 0;
  std::array<uint32_t, 3> max_compute_work_group_size{};
  std::array<uint32_t, 3> max_compute_work_group_count{};

  SubgroupSizes subgroup_size;
  uint32_t subgroup_supported_operations = 0;  // SubgroupFeature bits
  bool subgroup_supported_in_compute = true;
  TargetFeatures features;

  TargetOccupancy occupancy;
  uint32_t shared_memory_banks = 0;
  uint32_t shared_memory_bank_width = 0;  // bytes

  std::optional<double> peak_bandwidth_gb_per_s;
  std::optional<double> peak_fp32_tflops;
  std::optional<double> peak_fp16_tflops;

  std::vector<std::string> sources;  // where the numbers come from
  // Which numbers are uncertain or were chosen conservatively, and why; empty
  // when every number is read from a source.
  std::string notes;

  friend bool operator==(const Target&, const Target&) = default;
};

}  // namespace klint
