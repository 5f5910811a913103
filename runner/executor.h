// Runs one compute kernel once on a Vulkan device and reads back every buffer
// it was given: the ground truth that a finding can be checked against.
#pragma once

#include <spirv-tools/libspirv.h>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace klint::runner {

enum class BufferKind { Storage, Uniform };

struct BufferSpec {
  uint32_t set = 0;
  uint32_t binding = 0;
  BufferKind kind = BufferKind::Storage;
  std::string name;           // for reports only
  std::vector<uint8_t> data;  // the initial contents; its size is the size the shader sees
  bool sentinel = false;      // every word starts as kSentinelWord (runner/harness.h): the kernel only writes it
  bool written = true;        // the kernel may write it (ExecuteOptions::read_back_unwritten)
};

// A binding other than one storage or uniform buffer, or a buffer the kernel
// reaches through a device address (runner/resources.h makes them).
enum class ResourceKind {
  StorageImage,
  SampledImage,
  CombinedImageSampler,
  Sampler,
  UniformTexelBuffer,
  StorageTexelBuffer,
  StorageBuffer,    // in an array of descriptors
  UniformBuffer,    // in an array of descriptors
  AddressedBuffer,  // no descriptor: its device address is written where `address` says
};

struct ResourceSpec {
  uint32_t set = 0;
  uint32_t binding = 0;
  ResourceKind kind = ResourceKind::StorageImage;
  std::string name;    // for reports only
  uint32_t count = 1;  // descriptors in the binding, each its own resource
  // Images and texel buffers: a VkFormat and its bytes per texel. Images: a
  // VkImageViewType, the extent of level 0 and the array layers.
  uint32_t format = 0;
  uint32_t texel_bytes = 0;
  std::string format_name;  // for reports, e.g. "rgba32f"
  uint32_t view_type = 0;
  std::array<uint32_t, 3> extent{1, 1, 1};
  uint32_t layers = 1;
  // The initial contents of each element: texels row by row, layer by layer;
  // a buffer's bytes; nothing for samplers.
  std::vector<std::vector<uint8_t>> data;
  bool sentinel = false;  // the kernel only writes it: it starts as the sentinel
  bool written = true;    // the kernel may write it: read back and reported after the run
  // AddressedBuffer: the address goes into the push constants (buffer < 0)
  // or into harness.buffers[buffer], at byte `offset`.
  int64_t address_buffer = -1;
  uint32_t address_offset = 0;
};

struct SpecializationValue {
  uint32_t id = 0;             // the SpecId (constant_id)
  std::vector<uint8_t> bytes;  // 4 for bool (VkBool32), int and float; 8 for 64-bit types
};
SpecializationValue spec_u32(uint32_t id, uint32_t value);
SpecializationValue spec_f32(uint32_t id, float value);

// The (set, binding) pairs a module declares resource variables at.
using Declared = std::set<std::pair<uint32_t, uint32_t>>;

// Everything one dispatch needs besides the kernel. `guesses` says, one line
// each, which parts were made up rather than given (runner/harness.h).
struct Harness {
  std::vector<BufferSpec> buffers;
  std::vector<ResourceSpec> resources;  // every binding that is not one storage or uniform buffer
  std::vector<uint8_t> push_constants;  // empty: the kernel has none
  std::vector<SpecializationValue> specialization;  // absent ids keep the module's defaults
  std::array<uint32_t, 3> grid{1, 1, 1};            // workgroups dispatched
  std::vector<std::string> guesses;
  // Each shape variable of a manifest (runner/manifest.h) and its value, as
  // printed; empty for a harness made up from reflection alone.
  std::vector<std::pair<std::string, std::string>> shape;
};

// Bytes around each buffer, filled with kGuardPattern. A guard byte that
// changed is a write out of bounds. Rounded up to the device's offset
// alignment where larger. The descriptor's offset skips the guard before; its
// range takes in the guard after a fixed-size block, so that drivers which
// drop stores past the range (lavapipe) still let it land, but not after a
// runtime array, whose length() the range gives (docs/runner.md).
constexpr uint32_t kGuardBytes = 256;
constexpr uint8_t kGuardPattern = 0xA5;

// Changed guard bytes of one buffer, one side. Offsets are relative to the
// start of what the shader sees: negative before it, size and up after it.
struct GuardViolation {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::string name;
  bool before = false;
  int64_t first = 0;  // first and last changed byte
  int64_t last = 0;
  uint32_t changed = 0;  // bytes that differ from the pattern
};

struct BufferResult {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::string name;
  std::vector<uint8_t> data;  // after the dispatch; empty for one not read back (read_back_unwritten)
};

// What a resource the kernel can write holds after the dispatch: storage
// images, storage texel buffers, storage buffers in arrays and addressed buffers.
struct ResourceResult {
  size_t resource = 0;  // index in Harness::resources
  std::vector<std::vector<uint8_t>> data;  // per element, laid out as ResourceSpec::data
};

// One statistic the device's compiler reports for an executable of the
// pipeline (VK_KHR_pipeline_executable_properties): "Scratch size" = 1024.
struct PipelineStatistic {
  std::string executable;  // the executable's name, e.g. "Compute Shader"
  std::string name;
  std::string description;
  double value = 0;  // booleans as 0 and 1
  std::string text;  // the value as the driver gave it: an integer exactly
};

struct Execution {
  std::string device;                 // the device's name
  std::vector<BufferResult> buffers;  // in the harness's order
  std::vector<ResourceResult> resources;  // in the harness's order, writable ones only
  std::vector<GuardViolation> guard_violations;
  uint64_t dispatch_nanoseconds = 0;  // from vkQueueSubmit to the fence, wall clock
  // The subgroup sizes a pipeline may require of the device (Vulkan 1.3's
  // subgroup size control), 0 when it cannot require one.
  uint32_t min_subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  // ExecuteOptions::capture_statistics: whether the device offers pipeline
  // statistics, and what its compiler reported for the kernel.
  bool statistics_offered = false;
  std::vector<PipelineStatistic> statistics;
};

struct ExecuteOptions {
  std::optional<uint32_t> device_index;  // nullopt: the first CPU device (lavapipe), else device 0
  // A subgroup size the pipeline requires (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo);
  // 0 leaves it to the device. A size the device cannot give fails the run.
  uint32_t required_subgroup_size = 0;
  // The target environment the shader was loaded and validated in. Words the
  // runner made (instrumented) are validated again in it before a driver sees
  // them; the loaded shader's own words (`validated`) are not.
  spv_target_env target_env = SPV_ENV_VULKAN_1_3;
  bool validated = false;
  // Called once the pipeline exists and the resources hold their contents,
  // just before the dispatch is submitted: runner/isolate.h starts the
  // dispatch's clock there.
  std::function<void()> before_dispatch;
  // Whether buffers the kernel never writes (BufferSpec::written) are read
  // back too. Off, each comes back with no data: it holds what the harness
  // gave it, and for real kernels that is most of the bytes (matrices,
  // weights) a run would otherwise copy back through the isolating pipe.
  bool read_back_unwritten = true;
  // Creates the pipeline with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
  // where the device offers VK_KHR_pipeline_executable_properties, reads what
  // its compiler reports (Execution::statistics), and returns Completed
  // without making resources or dispatching.
  bool capture_statistics = false;
};

enum class ExecuteStatus { Completed, Failed, DeviceLost };

struct ExecuteOutcome {
  ExecuteStatus status = ExecuteStatus::Failed;
  std::string error;  // one line, for Failed and DeviceLost
  Execution execution;  // for Completed
};

// Creates a compute pipeline for `entry_point` of `spirv` with the harness's
// specialization, binds one descriptor per buffer, dispatches harness.grid
// once and waits for it. An invalid module, a missing entry point, a binding
// the harness lacks or any Vulkan failure comes back as Failed with the
// reason; nothing throws. It runs in the calling process: a kernel that hangs
// or a driver that crashes takes the caller with it (runner/isolate.h does not).
ExecuteOutcome execute(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                       const ExecuteOptions& options);

}  // namespace klint::runner
