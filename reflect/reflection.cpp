// Resources, layouts, specialization constants and capabilities come from
// SPIRV-Cross; how the code uses them comes from usage.cpp. Only this file
// includes SPIRV-Cross (see reflection.h for why).
#include "reflect/reflection.h"

#include <fmt/core.h>
#include <spirv_cross/spirv_cross.hpp>

#include <algorithm>
#include <charconv>
#include <exception>
#include <map>
#include <tuple>

#include "reflect/usage.h"

namespace klint::reflect {
namespace {

using spirv_cross::Compiler;
using spirv_cross::Resource;
using spirv_cross::SPIRType;

struct Context {
  const Compiler& compiler;
  const ModuleUsage& usage;
};

std::string scalar_or_vector_name(const SPIRType& type) {
  struct Spelling {
    const char* scalar;
    const char* vector;  // prefix of vecN
  };
  Spelling spelling{"?", "?vec"};
  switch (type.basetype) {
    case SPIRType::Boolean: spelling = {"bool", "bvec"}; break;
    case SPIRType::SByte: spelling = {"int8_t", "i8vec"}; break;
    case SPIRType::UByte: spelling = {"uint8_t", "u8vec"}; break;
    case SPIRType::Short: spelling = {"int16_t", "i16vec"}; break;
    case SPIRType::UShort: spelling = {"uint16_t", "u16vec"}; break;
    case SPIRType::Int: spelling = {"int", "ivec"}; break;
    case SPIRType::UInt: spelling = {"uint", "uvec"}; break;
    case SPIRType::Int64: spelling = {"int64_t", "i64vec"}; break;
    case SPIRType::UInt64: spelling = {"uint64_t", "u64vec"}; break;
    case SPIRType::Half: spelling = {"float16_t", "f16vec"}; break;
    case SPIRType::Float: spelling = {"float", "vec"}; break;
    case SPIRType::Double: spelling = {"double", "dvec"}; break;
    case SPIRType::Image: return "image";
    case SPIRType::SampledImage: return "sampler";
    case SPIRType::Sampler: return "sampler";
    case SPIRType::AccelerationStructure: return "accelerationStructureEXT";
    default: return "?";
  }
  if (type.columns > 1) {
    std::string prefix = type.basetype == SPIRType::Half     ? "f16mat"
                         : type.basetype == SPIRType::Double ? "dmat"
                                                             : "mat";
    return type.columns == type.vecsize ? fmt::format("{}{}", prefix, type.columns)
                                        : fmt::format("{}{}x{}", prefix, type.columns, type.vecsize);
  }
  return type.vecsize > 1 ? fmt::format("{}{}", spelling.vector, type.vecsize) : spelling.scalar;
}

// Dimension `i` of an array type (SPIRV-Cross keeps them innermost first); 0
// for a runtime array, nullopt when sized by a constant klint cannot evaluate.
std::optional<uint64_t> array_dimension(const Context& context, const SPIRType& type, size_t i) {
  if (type.array_size_literal[i]) return type.array[i];
  auto length = context.usage.array_lengths.find(type.array[i]);
  if (length == context.usage.array_lengths.end()) return std::nullopt;
  return length->second;
}

// GLSL spelling. Array and pointer types keep `self` of the type they are
// built on, so a struct's name and member decorations are found through it.
std::string type_name(const Context& context, const SPIRType& type) {
  std::string name;
  if (type.basetype == SPIRType::Struct) {
    name = context.compiler.get_name(type.self);
    if (name.empty()) name = context.compiler.get_fallback_name(type.self);
  } else {
    name = scalar_or_vector_name(type);
  }
  for (size_t i = type.array.size(); i-- > 0;) {
    auto dimension = array_dimension(context, type, i);
    name += !dimension ? "[?]" : *dimension == 0 ? "[]" : fmt::format("[{}]", *dimension);
  }
  return name;
}

std::vector<Member> members_of(const Context& context, const SPIRType& block) {
  const Compiler& compiler = context.compiler;
  std::vector<Member> members;
  for (uint32_t i = 0; i < block.member_types.size(); ++i) {
    const SPIRType& type = compiler.get_type(block.member_types[i]);
    Member member;
    member.name = compiler.get_member_name(block.self, i);
    if (member.name.empty()) member.name = compiler.get_fallback_member_name(i);
    member.type = type_name(context, type);
    // The type_struct_member_* queries throw when a decoration is missing.
    if (compiler.has_member_decoration(block.self, i, spv::DecorationOffset)) {
      member.offset = compiler.type_struct_member_offset(block, i);
      member.size = static_cast<uint32_t>(compiler.get_declared_struct_member_size(block, i));
    }
    if (!type.array.empty() && compiler.has_decoration(block.member_types[i], spv::DecorationArrayStride)) {
      member.array_stride = compiler.type_struct_member_array_stride(block, i);
    }
    if (type.columns > 1 && compiler.has_member_decoration(block.self, i, spv::DecorationMatrixStride)) {
      member.matrix_stride = compiler.type_struct_member_matrix_stride(block, i);
      member.row_major = compiler.has_member_decoration(block.self, i, spv::DecorationRowMajor);
    }
    // A buffer_reference member points at a block, maybe its own: its layout
    // is that block's, not this one's.
    if (type.basetype == SPIRType::Struct && !type.pointer) member.members = members_of(context, type);
    member.pointer = type.pointer && type.storage == spv::StorageClassPhysicalStorageBuffer && type.array.empty();
    members.push_back(std::move(member));
  }
  return members;
}

BlockLayout block_layout(const Context& context, const Resource& resource) {
  const SPIRType& type = context.compiler.get_type(resource.base_type_id);
  BlockLayout block;
  block.type_name = context.compiler.get_name(resource.base_type_id);
  if (block.type_name.empty()) block.type_name = context.compiler.get_fallback_name(resource.base_type_id);
  block.size = static_cast<uint32_t>(context.compiler.get_declared_struct_size(type));
  block.members = members_of(context, type);
  return block;
}

std::string variable_name(const Compiler& compiler, const Resource& resource) {
  std::string name = compiler.get_name(resource.id);
  if (name.empty()) name = resource.name;
  if (name.empty()) name = compiler.get_fallback_name(resource.id);
  return name;
}

Access allowed(bool readable, bool writable) {
  if (readable && writable) return Access::ReadWrite;
  if (readable) return Access::Read;
  if (writable) return Access::Write;
  return Access::None;
}

Access declared_access(const Compiler& compiler, const Resource& resource, DescriptorType type) {
  switch (type) {
    case DescriptorType::StorageBuffer: {
      spirv_cross::Bitset flags = compiler.get_buffer_block_flags(resource.id);
      return allowed(!flags.get(spv::DecorationNonReadable), !flags.get(spv::DecorationNonWritable));
    }
    case DescriptorType::StorageImage:
    case DescriptorType::StorageTexelBuffer: {
      const spirv_cross::Bitset& flags = compiler.get_decoration_bitset(resource.id);
      return allowed(!flags.get(spv::DecorationNonReadable), !flags.get(spv::DecorationNonWritable));
    }
    default:
      return Access::Read;
  }
}

uint32_t descriptor_count(const Context& context, const Resource& resource) {
  const SPIRType& type = context.compiler.get_type(resource.type_id);
  uint64_t count = 1;
  for (size_t i = 0; i < type.array.size(); ++i) count *= array_dimension(context, type, i).value_or(0);
  return static_cast<uint32_t>(count);
}

// SPIRV-Cross lists texel buffers with the images of their kind.
DescriptorType descriptor_type(const SPIRType& type, DescriptorType listed_as) {
  bool texel_buffer = (type.basetype == SPIRType::Image || type.basetype == SPIRType::SampledImage) &&
                      type.image.dim == spv::DimBuffer;
  if (!texel_buffer) return listed_as;
  return listed_as == DescriptorType::StorageImage ? DescriptorType::StorageTexelBuffer
                                                   : DescriptorType::UniformTexelBuffer;
}

void add_bindings(const Context& context, const EntryUsage& entry, const spirv_cross::SmallVector<Resource>& resources,
                  DescriptorType listed_as, std::vector<Binding>& out) {
  const Compiler& compiler = context.compiler;
  for (const Resource& resource : resources) {
    const DescriptorType type = descriptor_type(compiler.get_type(resource.base_type_id), listed_as);
    Binding binding;
    binding.set = compiler.get_decoration(resource.id, spv::DecorationDescriptorSet);
    binding.binding = compiler.get_decoration(resource.id, spv::DecorationBinding);
    binding.type = type;
    binding.name = variable_name(compiler, resource);
    binding.array_size = descriptor_count(context, resource);
    binding.declared = declared_access(compiler, resource, type);
    if (auto used = entry.variables.find(resource.id); used != entry.variables.end()) {
      binding.access = used->second.access();
      if (type == DescriptorType::StorageBuffer || type == DescriptorType::UniformBuffer) {
        binding.loads = used->second.loads;
        binding.stores = used->second.stores;
        binding.atomics = used->second.atomics;
      }
    }
    if (type == DescriptorType::StorageBuffer || type == DescriptorType::UniformBuffer) {
      binding.block = block_layout(context, resource);
    }
    if (const SPIRType& base = compiler.get_type(resource.base_type_id);
        base.basetype == SPIRType::Image || base.basetype == SPIRType::SampledImage) {
      const SPIRType& sampled = compiler.get_type(base.image.type);
      binding.image = ImageType{static_cast<uint32_t>(base.image.dim), base.image.arrayed, base.image.depth,
                                base.image.ms, static_cast<uint32_t>(base.image.format),
                                sampled.basetype == SPIRType::Int    ? ScalarKind::Int
                                : sampled.basetype == SPIRType::UInt ? ScalarKind::Uint
                                                                     : ScalarKind::Float};
    }
    out.push_back(std::move(binding));
  }
}

std::vector<Binding> bindings(const Context& context, const EntryUsage& entry,
                              const spirv_cross::ShaderResources& resources) {
  std::vector<Binding> out;
  add_bindings(context, entry, resources.storage_buffers, DescriptorType::StorageBuffer, out);
  add_bindings(context, entry, resources.uniform_buffers, DescriptorType::UniformBuffer, out);
  add_bindings(context, entry, resources.storage_images, DescriptorType::StorageImage, out);
  add_bindings(context, entry, resources.sampled_images, DescriptorType::CombinedImageSampler, out);
  add_bindings(context, entry, resources.separate_images, DescriptorType::SampledImage, out);
  add_bindings(context, entry, resources.separate_samplers, DescriptorType::Sampler, out);
  add_bindings(context, entry, resources.acceleration_structures, DescriptorType::AccelerationStructure, out);
  add_bindings(context, entry, resources.subpass_inputs, DescriptorType::InputAttachment, out);
  std::sort(out.begin(), out.end(), [](const Binding& a, const Binding& b) {
    return std::tie(a.set, a.binding, a.name) < std::tie(b.set, b.binding, b.name);
  });
  return out;
}

// A module has at most one push-constant block per entry point; prefer the
// one this entry point uses.
std::optional<PushConstants> push_constants(const Context& context, const EntryUsage& entry,
                                            const spirv_cross::ShaderResources& resources) {
  const Resource* chosen = nullptr;
  for (const Resource& resource : resources.push_constant_buffers) {
    if (!chosen || (entry.variables.count(resource.id) && !entry.variables.count(chosen->id))) chosen = &resource;
  }
  if (!chosen) return std::nullopt;
  PushConstants out;
  out.name = variable_name(context.compiler, *chosen);
  if (auto used = entry.variables.find(chosen->id); used != entry.variables.end()) out.access = used->second.access();
  out.block = block_layout(context, *chosen);
  return out;
}

WorkgroupMemory workgroup_memory(const Context& context, const EntryUsage& entry) {
  WorkgroupMemory out;
  uint64_t aliased_bytes = 0;  // explicit-layout blocks share one memory: the largest counts
  for (const WorkgroupUse& use : entry.workgroup_variables) {
    WorkgroupVariable variable;
    variable.name = context.compiler.get_name(use.variable_id);
    if (variable.name.empty()) variable.name = context.compiler.get_fallback_name(use.variable_id);
    variable.type = type_name(context, context.compiler.get_type_from_variable(use.variable_id));
    variable.bytes = use.bytes;
    variable.used = use.used;
    if (use.used && use.bytes) {
      if (use.aliased) {
        aliased_bytes = std::max(aliased_bytes, *use.bytes);
      } else {
        out.total_bytes += *use.bytes;
      }
    }
    out.variables.push_back(std::move(variable));
  }
  out.total_bytes += aliased_bytes;
  return out;
}

// Floats keep the digits they were written with: 0.1f is 0.1, not 0.100000001.
double shortest_double(float value) {
  std::string text = fmt::format("{}", value);
  double out = value;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out;
}

ConstantValue constant_value(const spirv_cross::SPIRConstant& constant, const SPIRType& type) {
  switch (type.basetype) {
    case SPIRType::Boolean: return constant.scalar() != 0;
    case SPIRType::SByte: return int64_t{constant.scalar_i8()};
    case SPIRType::Short: return int64_t{constant.scalar_i16()};
    case SPIRType::Int: return int64_t{constant.scalar_i32()};
    case SPIRType::Int64: return constant.scalar_i64();
    case SPIRType::UByte: return uint64_t{constant.scalar_u8()};
    case SPIRType::UShort: return uint64_t{constant.scalar_u16()};
    case SPIRType::UInt: return uint64_t{constant.scalar()};
    case SPIRType::UInt64: return constant.scalar_u64();
    case SPIRType::Half: return shortest_double(constant.scalar_f16());
    case SPIRType::Float: return shortest_double(constant.scalar_f32());
    case SPIRType::Double: return constant.scalar_f64();
    default: return uint64_t{constant.scalar()};
  }
}

// glslang gives `layout(local_size_x_id = N)` an unnamed constant of its own
// (default 1) that shares SpecId N with the user's named one: one entry per
// SpecId, the named constant's default winning, as klint's workgroup size does.
std::vector<SpecializationConstant> specialization_constants(const Context& context) {
  const Compiler& compiler = context.compiler;
  std::map<uint32_t, SpecializationConstant> by_id;
  for (const spirv_cross::SpecializationConstant& c : compiler.get_specialization_constants()) {
    const spirv_cross::SPIRConstant& constant = compiler.get_constant(c.id);
    const SPIRType& type = compiler.get_type(constant.constant_type);
    SpecializationConstant out{c.constant_id, compiler.get_name(c.id), type_name(context, type),
                               constant_value(constant, type)};
    auto [it, inserted] = by_id.emplace(c.constant_id, out);
    if (!inserted && it->second.name.empty() && !out.name.empty()) it->second = out;
  }
  std::vector<SpecializationConstant> out;
  for (auto& [id, constant] : by_id) out.push_back(std::move(constant));
  return out;
}

Features features(const spirv_cross::SmallVector<spv::Capability>& capabilities) {
  Features out;
  for (spv::Capability capability : capabilities) {
    switch (capability) {
      case spv::CapabilityGroupNonUniform: out.subgroup_operations.push_back("basic"); break;
      case spv::CapabilityGroupNonUniformVote: out.subgroup_operations.push_back("vote"); break;
      case spv::CapabilityGroupNonUniformArithmetic: out.subgroup_operations.push_back("arithmetic"); break;
      case spv::CapabilityGroupNonUniformBallot: out.subgroup_operations.push_back("ballot"); break;
      case spv::CapabilityGroupNonUniformShuffle: out.subgroup_operations.push_back("shuffle"); break;
      case spv::CapabilityGroupNonUniformShuffleRelative: out.subgroup_operations.push_back("shuffle-relative"); break;
      case spv::CapabilityGroupNonUniformClustered: out.subgroup_operations.push_back("clustered"); break;
      case spv::CapabilityGroupNonUniformQuad: out.subgroup_operations.push_back("quad"); break;
      case spv::CapabilityGroupNonUniformPartitionedNV: out.subgroup_operations.push_back("partitioned"); break;
      case spv::CapabilityInt8: out.arithmetic_types.push_back("int8"); break;
      case spv::CapabilityInt16: out.arithmetic_types.push_back("int16"); break;
      case spv::CapabilityInt64: out.arithmetic_types.push_back("int64"); break;
      case spv::CapabilityFloat16: out.arithmetic_types.push_back("float16"); break;
      case spv::CapabilityFloat64: out.arithmetic_types.push_back("float64"); break;
      case spv::CapabilityStorageBuffer8BitAccess: out.storage.push_back("storage-buffer-8bit"); break;
      case spv::CapabilityUniformAndStorageBuffer8BitAccess: out.storage.push_back("uniform-and-storage-buffer-8bit"); break;
      case spv::CapabilityStoragePushConstant8: out.storage.push_back("push-constant-8bit"); break;
      case spv::CapabilityStorageBuffer16BitAccess: out.storage.push_back("storage-buffer-16bit"); break;
      case spv::CapabilityUniformAndStorageBuffer16BitAccess: out.storage.push_back("uniform-and-storage-buffer-16bit"); break;
      case spv::CapabilityStoragePushConstant16: out.storage.push_back("push-constant-16bit"); break;
      case spv::CapabilityStorageInputOutput16: out.storage.push_back("input-output-16bit"); break;
      default: break;
    }
  }
  for (auto* list : {&out.subgroup_operations, &out.arithmetic_types, &out.storage}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  return out;
}

std::optional<ModuleReflection> reflect_unguarded(const std::vector<uint32_t>& spirv, std::string* error) {
  std::optional<ModuleUsage> usage = analyze_usage(spirv, error);
  if (!usage) return std::nullopt;
  Compiler compiler(spirv);
  const Context context{compiler, *usage};

  ModuleReflection out;
  for (const EntryUsage& entry : usage->entry_points) {
    if (entry.execution_model != spv::ExecutionModelGLCompute) continue;
    compiler.set_entry_point(entry.name, spv::ExecutionModelGLCompute);
    spirv_cross::ShaderResources resources = compiler.get_shader_resources();
    EntryPoint reflected;
    reflected.name = entry.name;
    reflected.workgroup_size = entry.workgroup_size;
    reflected.bindings = bindings(context, entry, resources);
    reflected.push_constants = push_constants(context, entry, resources);
    reflected.workgroup_memory = workgroup_memory(context, entry);
    reflected.barriers = entry.barriers;
    out.entry_points.push_back(std::move(reflected));
  }
  if (out.entry_points.empty()) {
    *error = "no compute entry point";
    return std::nullopt;
  }
  out.specialization_constants = specialization_constants(context);
  for (spv::Capability capability : compiler.get_declared_capabilities()) {
    out.capabilities.push_back(capability_name(capability));
  }
  for (const std::string& extension : compiler.get_declared_extensions()) out.extensions.push_back(extension);
  out.features = features(compiler.get_declared_capabilities());
  return out;
}

}  // namespace

std::string_view to_string(DescriptorType type) {
  switch (type) {
    case DescriptorType::StorageBuffer: return "storage-buffer";
    case DescriptorType::UniformBuffer: return "uniform-buffer";
    case DescriptorType::StorageImage: return "storage-image";
    case DescriptorType::SampledImage: return "sampled-image";
    case DescriptorType::CombinedImageSampler: return "combined-image-sampler";
    case DescriptorType::Sampler: return "sampler";
    case DescriptorType::UniformTexelBuffer: return "uniform-texel-buffer";
    case DescriptorType::StorageTexelBuffer: return "storage-texel-buffer";
    case DescriptorType::AccelerationStructure: return "acceleration-structure";
    case DescriptorType::InputAttachment: return "input-attachment";
  }
  return "unknown";
}

std::string_view to_string(Access access) {
  switch (access) {
    case Access::None: return "none";
    case Access::Read: return "read";
    case Access::Write: return "write";
    case Access::ReadWrite: return "read-write";
  }
  return "none";
}

std::optional<ModuleReflection> reflect_module(const std::vector<uint32_t>& spirv, std::string* error) {
  // SPIRV-Cross reports malformed input by throwing CompilerError.
  try {
    return reflect_unguarded(spirv, error);
  } catch (const std::exception& e) {
    *error = e.what();
  } catch (...) {
    *error = "unknown failure in SPIRV-Cross";
  }
  return std::nullopt;
}

}  // namespace klint::reflect
