// What a compute kernel binds and needs, read from its SPIR-V as compiled (not
// normalized, so names and unused resources survive): descriptors with their
// block layouts and the access the code really makes, push constants,
// specialization constants, workgroup size and memory, barriers, capabilities.
//
// This header includes neither SPIRV-Cross nor SPIRV-Headers: both define
// namespace spv behind the same include guard with incompatible enums, so the
// code that reads SPIRV-Cross (reflection.cpp) and the code that walks klint's
// IR (usage.cpp) live in separate translation units and meet here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace klint::reflect {

enum class DescriptorType {
  StorageBuffer,
  UniformBuffer,
  StorageImage,
  SampledImage,
  CombinedImageSampler,
  Sampler,
  UniformTexelBuffer,
  StorageTexelBuffer,
  AccelerationStructure,
  InputAttachment,
};
// "storage-buffer", "combined-image-sampler", ...
std::string_view to_string(DescriptorType type);

// How memory is read or written. For `declared` it is what the qualifiers
// allow (readonly: Read, writeonly: Write, both: None, neither: ReadWrite); for
// `access` what the entry point's code does.
enum class Access { None, Read, Write, ReadWrite };
std::string_view to_string(Access access);  // "none", "read", "write", "read-write"

// Loads or stores through one variable, by the width of the value moved. A
// scalar moves one number; a vector, matrix, array or struct moves more in one
// instruction.
struct MemoryOps {
  uint32_t scalar = 0;
  uint32_t vector = 0;
  uint32_t widest_bits = 0;  // 0 when there are none
  friend bool operator==(const MemoryOps&, const MemoryOps&) = default;
};

// A member of a block as laid out in memory. `type` is spelled as in GLSL
// ("float", "vec4", "uint8_t", "mat4", "float16_t[]", "Particle[16]").
struct Member {
  std::string name;
  std::string type;
  uint32_t offset = 0;
  uint32_t size = 0;  // bytes; a runtime array counts 0 elements
  std::optional<uint32_t> array_stride;   // arrays only
  std::optional<uint32_t> matrix_stride;  // matrices and arrays of them only
  bool row_major = false;
  // A buffer_reference (PhysicalStorageBuffer pointer), not an array of
  // them: 8 bytes holding a device address. `type` names the block it points at.
  bool pointer = false;
  std::vector<Member> members;  // for structs
};

struct BlockLayout {
  std::string type_name;  // the block type, e.g. "Data" of `buffer Data { ... } data;`
  uint32_t size = 0;      // declared size; a trailing runtime array counts 0 elements
  std::vector<Member> members;
};

// What an image or texel buffer binding declares of its image type.
enum class ScalarKind { Float, Int, Uint };
struct ImageType {
  uint32_t dim = 1;  // spv::Dim: 0 1D, 1 2D, 2 3D, 3 Cube, 5 Buffer
  bool arrayed = false;
  bool depth = false;
  bool multisampled = false;
  uint32_t format = 0;  // spv::ImageFormat; 0 Unknown
  ScalarKind component = ScalarKind::Float;  // of the sampled type
};

struct Binding {
  uint32_t set = 0;
  uint32_t binding = 0;
  DescriptorType type = DescriptorType::StorageBuffer;
  std::string name;  // the variable, or the block type when the block has no instance name
  uint32_t array_size = 1;  // descriptors in the binding; 0 for a runtime (unbounded) array
  Access declared = Access::ReadWrite;
  Access access = Access::None;
  std::optional<BlockLayout> block;  // storage and uniform buffers
  std::optional<ImageType> image;    // images, combined image samplers and texel buffers
  // Storage and uniform buffers only: every load and store through the
  // binding, atomics counted apart.
  MemoryOps loads;
  MemoryOps stores;
  uint32_t atomics = 0;
};

struct PushConstants {
  std::string name;
  Access access = Access::None;
  BlockLayout block;
};

// The default of a specialization constant, in the constant's own type.
using ConstantValue = std::variant<bool, int64_t, uint64_t, double>;

struct SpecializationConstant {
  uint32_t id = 0;  // SpecId, what VkSpecializationMapEntry::constantID names
  std::string name;
  std::string type;  // "uint", "float", "bool", ...
  ConstantValue default_value = uint64_t{0};
};

struct WorkgroupDimension {
  uint64_t value = 1;                // the specialization constant's default when spec_id is set
  std::optional<uint32_t> spec_id;
  bool default_declared = true;      // false: no constant_id declaration, the compiler assumed 1
  friend bool operator==(const WorkgroupDimension&, const WorkgroupDimension&) = default;
};

struct WorkgroupVariable {
  std::string name;
  std::string type;
  std::optional<uint64_t> bytes;  // klint's shared-memory-over-limit size; nullopt if unknown
  bool used = false;              // referenced by code the entry point runs
};

struct WorkgroupMemory {
  std::vector<WorkgroupVariable> variables;  // in module order
  uint64_t total_bytes = 0;                  // of the used variables
};

struct Barriers {
  uint32_t workgroup = 0;  // OpControlBarrier with Workgroup execution scope
  uint32_t memory = 0;     // OpMemoryBarrier
};

// How an entry point sits on one target: whether its workgroup fits, and how
// many workgroups a compute unit keeps resident (validate/occupancy.h).
struct Residency {
  std::string target;
  bool fits = true;                          // workgroup memory and size within the target's limits
  std::optional<uint32_t> resident_workgroups;  // nullopt: the target has no occupancy figures
  std::string limited_by;                    // what bounds residency, e.g. "shared memory"
};

struct EntryPoint {
  std::string name;
  std::optional<std::array<WorkgroupDimension, 3>> workgroup_size;
  std::vector<Binding> bindings;  // sorted by set, binding, name
  std::optional<PushConstants> push_constants;
  WorkgroupMemory workgroup_memory;
  Barriers barriers;
  std::vector<Residency> occupancy;  // per target, filled by the caller that knows the targets
};

// Device features a module's capabilities ask for, sorted by name.
struct Features {
  // VkSubgroupFeatureFlagBits in kebab-case: "basic", "vote", "arithmetic",
  // "ballot", "shuffle", "shuffle-relative", "clustered", "quad", "partitioned".
  std::vector<std::string> subgroup_operations;
  // Arithmetic on narrow or wide types: "int8", "int16", "int64", "float16", "float64".
  std::vector<std::string> arithmetic_types;
  // 8/16-bit types in interface memory: "storage-buffer-8bit",
  // "uniform-and-storage-buffer-8bit", "push-constant-8bit",
  // "storage-buffer-16bit", "uniform-and-storage-buffer-16bit",
  // "push-constant-16bit", "input-output-16bit".
  std::vector<std::string> storage;
};

struct ModuleReflection {
  std::vector<EntryPoint> entry_points;  // compute entry points, in module order
  std::vector<SpecializationConstant> specialization_constants;  // by id
  std::vector<std::string> capabilities;  // as declared, e.g. "GroupNonUniformArithmetic"
  std::vector<std::string> extensions;    // as declared, e.g. "SPV_KHR_8bit_storage"
  Features features;
};

// Reflects a module. Fails with a reason, never throws, when SPIRV-Cross
// cannot parse it or it has no compute entry point.
std::optional<ModuleReflection> reflect_module(const std::vector<uint32_t>& spirv, std::string* error);

}  // namespace klint::reflect
