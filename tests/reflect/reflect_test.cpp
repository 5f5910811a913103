// Reflection field by field: GLSL, HLSL and SPIR-V assembly inputs, the C++
// model, the exact table and JSON text, and the errors of run_reflect.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyzer/frontend.h"
#include "driver/reflect_command.h"
#include "reflect/format.h"
#include "reflect/reflection.h"
#include "tests/support/scratch.h"

namespace klint::reflect {
namespace {

const std::string kInputs = KLINT_SOURCE_DIR "/tests/reflect/inputs/";

ModuleReflection reflect_source(const std::string& path, const std::string& source, Language language) {
  SourceCache sources;
  CompiledShader compiled = compile(path, source, language, CompileOptions{}, sources);
  for (const Diagnostic& d : compiled.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  std::string error;
  std::optional<ModuleReflection> module = compiled.ok ? reflect_module(compiled.spirv, &error) : std::nullopt;
  if (!module) {
    ADD_FAILURE() << "not reflected: " << error;
    return {};
  }
  return *module;
}

ModuleReflection reflect_glsl(const std::string& source) { return reflect_source("test.comp", source, Language::Glsl); }

const Binding* find_binding(const EntryPoint& entry, uint32_t set, uint32_t binding) {
  for (const Binding& b : entry.bindings) {
    if (b.set == set && b.binding == binding) return &b;
  }
  ADD_FAILURE() << "no binding " << set << "." << binding;
  return nullptr;
}

void expect_member(const Member& member, const std::string& name, const std::string& type, uint32_t offset,
                   uint32_t size, std::optional<uint32_t> array_stride = std::nullopt,
                   std::optional<uint32_t> matrix_stride = std::nullopt) {
  SCOPED_TRACE(name);
  EXPECT_EQ(member.name, name);
  EXPECT_EQ(member.type, type);
  EXPECT_EQ(member.offset, offset);
  EXPECT_EQ(member.size, size);
  EXPECT_EQ(member.array_stride, array_stride);
  EXPECT_EQ(member.matrix_stride, matrix_stride);
  EXPECT_FALSE(member.row_major);
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Three SSBOs as declared and a fourth declared read-write but only read, a
// std140 UBO, push constants, spec constants (one behind the workgroup size),
// a shared array, a subgroup reduction, 8/16-bit storage and arithmetic,
// two barriers, one memoryBarrierShared, vec4 loads.
constexpr const char* kKitchenSink = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 3) in;
layout(constant_id = 3) const uint WG = 128;
layout(constant_id = 7) const float SCALE = 0.5;
layout(set = 0, binding = 0) readonly buffer Input { vec4 values[]; } src;
layout(set = 0, binding = 1) writeonly buffer Output { float results[]; } dst;
layout(set = 0, binding = 2) buffer Counters { uint total; uint hits[]; } counters;
layout(set = 0, binding = 3) buffer Lookup { float16_t halves[4]; uint8_t bytes[]; } lookup;
layout(set = 1, binding = 0) uniform Params { vec3 origin; float radius; mat4 transform; } params;
layout(push_constant) uniform Push { uint count; float gain; } push;
shared float tile[128];
void main() {
  uint i = gl_LocalInvocationID.x;
  uint g = gl_GlobalInvocationID.x;
  vec4 v = src.values[g];
  vec4 w = src.values[g + 1];
  float16_t half_sum = lookup.halves[i % 4] * float16_t(2.0);
  tile[i] = dot(v, w) * params.radius + float(half_sum) + float(lookup.bytes[g]);
  barrier();
  memoryBarrierShared();
  float sum = subgroupAdd(tile[i]);
  barrier();
  if (g < push.count) dst.results[g] = sum * SCALE * push.gain;
  counters.hits[g] = counters.total;
  atomicAdd(counters.total, 1u);
}
)";

TEST(ReflectGlsl, EntryPointWorkgroupAndBarriers) {
  ModuleReflection module = reflect_glsl(kKitchenSink);
  ASSERT_EQ(module.entry_points.size(), 1u);
  const EntryPoint& entry = module.entry_points[0];
  EXPECT_EQ(entry.name, "main");
  ASSERT_TRUE(entry.workgroup_size);
  // local_size_x_id = 3 names `WG = 128`, not glslang's own default of 1.
  EXPECT_EQ((*entry.workgroup_size)[0], (WorkgroupDimension{128, 3}));
  EXPECT_EQ((*entry.workgroup_size)[1], (WorkgroupDimension{1, std::nullopt}));
  EXPECT_EQ((*entry.workgroup_size)[2], (WorkgroupDimension{1, std::nullopt}));
  EXPECT_EQ(entry.barriers.workgroup, 2u);
  EXPECT_EQ(entry.barriers.memory, 1u);

  ASSERT_EQ(entry.workgroup_memory.variables.size(), 1u);
  const WorkgroupVariable& tile = entry.workgroup_memory.variables[0];
  EXPECT_EQ(tile.name, "tile");
  EXPECT_EQ(tile.type, "float[128]");
  EXPECT_EQ(tile.bytes, 512u);
  EXPECT_TRUE(tile.used);
  EXPECT_EQ(entry.workgroup_memory.total_bytes, 512u);
}

TEST(ReflectGlsl, StorageBuffersDeclaredAndUsedAccess) {
  ModuleReflection module = reflect_glsl(kKitchenSink);
  ASSERT_EQ(module.entry_points.size(), 1u);
  const EntryPoint& entry = module.entry_points[0];
  ASSERT_EQ(entry.bindings.size(), 5u);

  const Binding* src = find_binding(entry, 0, 0);
  ASSERT_TRUE(src);
  EXPECT_EQ(src->type, DescriptorType::StorageBuffer);
  EXPECT_EQ(src->name, "src");
  EXPECT_EQ(src->array_size, 1u);
  EXPECT_EQ(src->declared, Access::Read);
  EXPECT_EQ(src->access, Access::Read);
  EXPECT_EQ(src->loads, (MemoryOps{0, 2, 128}));
  EXPECT_EQ(src->stores, (MemoryOps{}));
  EXPECT_EQ(src->atomics, 0u);
  ASSERT_TRUE(src->block);
  EXPECT_EQ(src->block->type_name, "Input");
  EXPECT_EQ(src->block->size, 0u);
  ASSERT_EQ(src->block->members.size(), 1u);
  expect_member(src->block->members[0], "values", "vec4[]", 0, 0, 16);

  const Binding* dst = find_binding(entry, 0, 1);
  ASSERT_TRUE(dst);
  EXPECT_EQ(dst->name, "dst");
  EXPECT_EQ(dst->declared, Access::Write);
  EXPECT_EQ(dst->access, Access::Write);
  EXPECT_EQ(dst->loads, (MemoryOps{}));
  EXPECT_EQ(dst->stores, (MemoryOps{1, 0, 32}));
  ASSERT_TRUE(dst->block);
  EXPECT_EQ(dst->block->type_name, "Output");
  ASSERT_EQ(dst->block->members.size(), 1u);
  expect_member(dst->block->members[0], "results", "float[]", 0, 0, 4);

  const Binding* counters = find_binding(entry, 0, 2);
  ASSERT_TRUE(counters);
  EXPECT_EQ(counters->declared, Access::ReadWrite);
  EXPECT_EQ(counters->access, Access::ReadWrite);
  EXPECT_EQ(counters->loads, (MemoryOps{1, 0, 32}));
  EXPECT_EQ(counters->stores, (MemoryOps{1, 0, 32}));
  EXPECT_EQ(counters->atomics, 1u);
  ASSERT_TRUE(counters->block);
  EXPECT_EQ(counters->block->size, 4u);
  ASSERT_EQ(counters->block->members.size(), 2u);
  expect_member(counters->block->members[0], "total", "uint", 0, 4);
  expect_member(counters->block->members[1], "hits", "uint[]", 4, 0, 4);

  // Declared read-write, only read: the case a `readonly` would document.
  const Binding* lookup = find_binding(entry, 0, 3);
  ASSERT_TRUE(lookup);
  EXPECT_EQ(lookup->declared, Access::ReadWrite);
  EXPECT_EQ(lookup->access, Access::Read);
  EXPECT_EQ(lookup->loads, (MemoryOps{2, 0, 16}));
  EXPECT_EQ(lookup->stores, (MemoryOps{}));
  ASSERT_TRUE(lookup->block);
  EXPECT_EQ(lookup->block->size, 8u);
  ASSERT_EQ(lookup->block->members.size(), 2u);
  expect_member(lookup->block->members[0], "halves", "float16_t[4]", 0, 8, 2);
  expect_member(lookup->block->members[1], "bytes", "uint8_t[]", 8, 0, 1);
}

TEST(ReflectGlsl, UniformBufferStd140Layout) {
  ModuleReflection module = reflect_glsl(kKitchenSink);
  ASSERT_EQ(module.entry_points.size(), 1u);
  const Binding* params = find_binding(module.entry_points[0], 1, 0);
  ASSERT_TRUE(params);
  EXPECT_EQ(params->type, DescriptorType::UniformBuffer);
  EXPECT_EQ(params->name, "params");
  EXPECT_EQ(params->declared, Access::Read);
  EXPECT_EQ(params->access, Access::Read);
  EXPECT_EQ(params->loads, (MemoryOps{1, 0, 32}));
  ASSERT_TRUE(params->block);
  EXPECT_EQ(params->block->type_name, "Params");
  EXPECT_EQ(params->block->size, 80u);
  ASSERT_EQ(params->block->members.size(), 3u);
  // std140: the float packs into the vec3's fourth component; mat4 columns are 16 bytes apart.
  expect_member(params->block->members[0], "origin", "vec3", 0, 12);
  expect_member(params->block->members[1], "radius", "float", 12, 4);
  expect_member(params->block->members[2], "transform", "mat4", 16, 64, std::nullopt, 16);
}

TEST(ReflectGlsl, PushAndSpecializationConstants) {
  ModuleReflection module = reflect_glsl(kKitchenSink);
  ASSERT_EQ(module.entry_points.size(), 1u);
  const std::optional<PushConstants>& push = module.entry_points[0].push_constants;
  ASSERT_TRUE(push);
  EXPECT_EQ(push->name, "push");
  EXPECT_EQ(push->access, Access::Read);
  EXPECT_EQ(push->block.type_name, "Push");
  EXPECT_EQ(push->block.size, 8u);
  ASSERT_EQ(push->block.members.size(), 2u);
  expect_member(push->block.members[0], "count", "uint", 0, 4);
  expect_member(push->block.members[1], "gain", "float", 4, 4);

  // One entry per SpecId: glslang's unnamed duplicate of id 3 is folded into WG.
  ASSERT_EQ(module.specialization_constants.size(), 2u);
  const SpecializationConstant& wg = module.specialization_constants[0];
  EXPECT_EQ(wg.id, 3u);
  EXPECT_EQ(wg.name, "WG");
  EXPECT_EQ(wg.type, "uint");
  EXPECT_EQ(wg.default_value, ConstantValue(uint64_t{128}));
  const SpecializationConstant& scale = module.specialization_constants[1];
  EXPECT_EQ(scale.id, 7u);
  EXPECT_EQ(scale.name, "SCALE");
  EXPECT_EQ(scale.type, "float");
  EXPECT_EQ(scale.default_value, ConstantValue(0.5));
}

TEST(ReflectGlsl, CapabilitiesAndFeatures) {
  ModuleReflection module = reflect_glsl(kKitchenSink);
  for (const char* capability : {"Shader", "Float16", "GroupNonUniform", "GroupNonUniformArithmetic",
                                 "StorageBuffer16BitAccess", "StorageBuffer8BitAccess"}) {
    EXPECT_TRUE(contains(module.capabilities, capability)) << capability;
  }
  EXPECT_EQ(module.features.subgroup_operations, (std::vector<std::string>{"arithmetic", "basic"}));
  // glslang converts uint8_t to float through an 8-bit integer: Int8 too.
  EXPECT_EQ(module.features.arithmetic_types, (std::vector<std::string>{"float16", "int8"}));
  EXPECT_EQ(module.features.storage, (std::vector<std::string>{"storage-buffer-16bit", "storage-buffer-8bit"}));
  // SPIR-V 1.6 (Vulkan 1.3) has 8/16-bit storage in core: no OpExtension.
  EXPECT_TRUE(module.extensions.empty());
}

TEST(ReflectGlsl, ExtensionsOfOlderTargets) {
  SourceCache sources;
  CompileOptions options;
  options.target_env = TargetEnv::Vulkan1_1;  // SPIR-V 1.3: 16-bit storage is core, 8-bit not yet
  CompiledShader compiled = compile("test.comp", kKitchenSink, Language::Glsl, options, sources);
  ASSERT_TRUE(compiled.ok);
  std::string error;
  std::optional<ModuleReflection> module = reflect_module(compiled.spirv, &error);
  ASSERT_TRUE(module) << error;
  EXPECT_EQ(module->extensions, (std::vector<std::string>{"SPV_KHR_8bit_storage"}));
}

TEST(ReflectGlsl, ImagesSamplersAndTexelBuffers) {
  ModuleReflection module = reflect_glsl(R"(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D result;
layout(set = 0, binding = 1, r32f) uniform image2D scratch;
layout(set = 0, binding = 2) uniform sampler2D source;
layout(set = 0, binding = 3) uniform texture2D texture_only;
layout(set = 0, binding = 4) uniform sampler linear;
layout(set = 0, binding = 5) uniform samplerBuffer lut;
layout(set = 0, binding = 6, r32ui) uniform uimageBuffer histogram;
layout(set = 0, binding = 7) uniform sampler2D unused_textures[4];
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(scratch);
  vec4 c = texture(source, vec2(p) / vec2(size)) + texture(sampler2D(texture_only, linear), vec2(0.5));
  c += texelFetch(lut, p.x);
  imageAtomicAdd(histogram, p.x, 1u);
  imageStore(result, p, c);
}
)");
  ASSERT_EQ(module.entry_points.size(), 1u);
  const EntryPoint& entry = module.entry_points[0];
  struct Expected {
    uint32_t binding;
    DescriptorType type;
    const char* name;
    uint32_t count;
    Access declared;
    Access access;
  };
  const Expected expected[] = {
      {0, DescriptorType::StorageImage, "result", 1, Access::Write, Access::Write},
      // imageSize only: no memory is touched.
      {1, DescriptorType::StorageImage, "scratch", 1, Access::ReadWrite, Access::None},
      {2, DescriptorType::CombinedImageSampler, "source", 1, Access::Read, Access::Read},
      {3, DescriptorType::SampledImage, "texture_only", 1, Access::Read, Access::Read},
      {4, DescriptorType::Sampler, "linear", 1, Access::Read, Access::Read},
      {5, DescriptorType::UniformTexelBuffer, "lut", 1, Access::Read, Access::Read},
      {6, DescriptorType::StorageTexelBuffer, "histogram", 1, Access::ReadWrite, Access::ReadWrite},
      {7, DescriptorType::CombinedImageSampler, "unused_textures", 4, Access::Read, Access::None},
  };
  ASSERT_EQ(entry.bindings.size(), std::size(expected));
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.name);
    const Binding* b = find_binding(entry, 0, e.binding);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->type, e.type);
    EXPECT_EQ(b->name, e.name);
    EXPECT_EQ(b->array_size, e.count);
    EXPECT_EQ(b->declared, e.declared);
    EXPECT_EQ(b->access, e.access);
    EXPECT_FALSE(b->block);
  }
}

TEST(ReflectGlsl, NestedStructsAndSpecSizedSharedMemory) {
  ModuleReflection module = reflect_glsl(R"(#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint BM = 16;
layout(constant_id = 1) const uint BK = 8;
layout(constant_id = 2) const bool FAST = true;
layout(constant_id = 4) const int BIAS = -3;
struct Particle { vec3 position; float mass; };
layout(set = 0, binding = 0) buffer Particles { Particle items[]; };
shared float tile[BM * BK];
shared float never_used[4];
void main() {
  Particle p = items[gl_GlobalInvocationID.x];
  tile[gl_LocalInvocationID.x] = p.mass + float(BIAS);
  if (FAST) items[gl_GlobalInvocationID.x].position = vec3(tile[0]);
}
)");
  ASSERT_EQ(module.entry_points.size(), 1u);
  const EntryPoint& entry = module.entry_points[0];
  const Binding* particles = find_binding(entry, 0, 0);
  ASSERT_TRUE(particles);
  EXPECT_EQ(particles->name, "Particles");  // no instance name: the block's
  EXPECT_EQ(particles->loads, (MemoryOps{0, 1, 128}));  // the whole struct in one load
  EXPECT_EQ(particles->stores, (MemoryOps{0, 1, 96}));
  ASSERT_TRUE(particles->block);
  ASSERT_EQ(particles->block->members.size(), 1u);
  const Member& items = particles->block->members[0];
  expect_member(items, "items", "Particle[]", 0, 0, 16);
  ASSERT_EQ(items.members.size(), 2u);
  expect_member(items.members[0], "position", "vec3", 0, 12);
  expect_member(items.members[1], "mass", "float", 12, 4);

  ASSERT_EQ(entry.workgroup_memory.variables.size(), 2u);
  EXPECT_EQ(entry.workgroup_memory.variables[0].type, "float[128]");  // BM * BK at their defaults
  EXPECT_EQ(entry.workgroup_memory.variables[0].bytes, 512u);
  EXPECT_EQ(entry.workgroup_memory.variables[1].name, "never_used");
  EXPECT_FALSE(entry.workgroup_memory.variables[1].used);
  EXPECT_EQ(entry.workgroup_memory.total_bytes, 512u);

  ASSERT_EQ(module.specialization_constants.size(), 4u);
  EXPECT_EQ(module.specialization_constants[2].name, "FAST");
  EXPECT_EQ(module.specialization_constants[2].type, "bool");
  EXPECT_EQ(module.specialization_constants[2].default_value, ConstantValue(true));
  EXPECT_EQ(module.specialization_constants[3].id, 4u);
  EXPECT_EQ(module.specialization_constants[3].type, "int");
  EXPECT_EQ(module.specialization_constants[3].default_value, ConstantValue(int64_t{-3}));
}

TEST(ReflectGlsl, BufferReferencesAreScalarLoadsAndNotExpanded) {
  ModuleReflection module = reflect_glsl(R"(#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node { Node next; float value; };
layout(set = 0, binding = 0) buffer Roots { Node head; } roots;
void main() { roots.head.next.value = 1.0; }
)");
  ASSERT_EQ(module.entry_points.size(), 1u);
  const Binding* roots = find_binding(module.entry_points[0], 0, 0);
  ASSERT_TRUE(roots);
  EXPECT_EQ(roots->access, Access::Read);  // the write goes through the pointer, to other memory
  EXPECT_EQ(roots->loads, (MemoryOps{1, 0, 64}));
  ASSERT_TRUE(roots->block);
  ASSERT_EQ(roots->block->members.size(), 1u);
  expect_member(roots->block->members[0], "head", "Node", 0, 8);
  EXPECT_TRUE(roots->block->members[0].members.empty());  // Node holds a Node: not expanded
}

TEST(ReflectHlsl, StructuredBuffersCbufferAndGroupshared) {
  ModuleReflection module = reflect_source("test.hlsl", R"(
RWStructuredBuffer<float4> output : register(u0);
StructuredBuffer<float> input : register(t1, space1);
cbuffer Params : register(b2) { float scale; uint count; float3 offset; };
groupshared float cache[64];
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
  cache[gi] = input[tid.x] * scale;
  GroupMemoryBarrierWithGroupSync();
  if (tid.x < count) output[tid.x] = float4(cache[63 - gi] + offset, 1.0);
}
)",
                                             Language::Hlsl);
  ASSERT_EQ(module.entry_points.size(), 1u);
  const EntryPoint& entry = module.entry_points[0];
  ASSERT_TRUE(entry.workgroup_size);
  EXPECT_EQ((*entry.workgroup_size)[0], (WorkgroupDimension{64, std::nullopt}));
  EXPECT_EQ(entry.barriers.workgroup, 1u);
  EXPECT_EQ(entry.barriers.memory, 0u);

  const Binding* output = find_binding(entry, 0, 0);
  ASSERT_TRUE(output);
  EXPECT_EQ(output->type, DescriptorType::StorageBuffer);
  EXPECT_EQ(output->name, "output");
  EXPECT_EQ(output->declared, Access::ReadWrite);  // RW: the declaration allows both
  EXPECT_EQ(output->access, Access::Write);
  EXPECT_EQ(output->stores, (MemoryOps{0, 1, 128}));
  ASSERT_TRUE(output->block);
  ASSERT_EQ(output->block->members.size(), 1u);
  EXPECT_EQ(output->block->members[0].type, "vec4[]");
  EXPECT_EQ(output->block->members[0].array_stride, 16u);

  const Binding* input = find_binding(entry, 1, 1);
  ASSERT_TRUE(input);
  EXPECT_EQ(input->type, DescriptorType::StorageBuffer);
  EXPECT_EQ(input->declared, Access::Read);
  EXPECT_EQ(input->access, Access::Read);
  EXPECT_EQ(input->loads, (MemoryOps{1, 0, 32}));

  const Binding* params = find_binding(entry, 0, 2);
  ASSERT_TRUE(params);
  EXPECT_EQ(params->type, DescriptorType::UniformBuffer);
  EXPECT_EQ(params->name, "Params");
  ASSERT_TRUE(params->block);
  ASSERT_EQ(params->block->members.size(), 3u);
  // HLSL packing: float3 does not straddle a 16-byte register.
  expect_member(params->block->members[0], "scale", "float", 0, 4);
  expect_member(params->block->members[1], "count", "uint", 4, 4);
  expect_member(params->block->members[2], "offset", "vec3", 16, 12);

  ASSERT_EQ(entry.workgroup_memory.variables.size(), 1u);
  EXPECT_EQ(entry.workgroup_memory.variables[0].name, "cache");
  EXPECT_EQ(entry.workgroup_memory.variables[0].type, "float[64]");
  EXPECT_EQ(entry.workgroup_memory.total_bytes, 256u);
}

TEST(ReflectSpirvAssembly, HandWrittenModule) {
  std::ostringstream out, err;
  ASSERT_EQ(run_reflect({kInputs + "scale.spvasm"}, CompileOptions{}, {}, ReflectFormat::Json, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  nlohmann::json document = nlohmann::json::parse(out.str());
  ASSERT_EQ(document["files"].size(), 1u);
  const nlohmann::json& entry = document["files"][0]["entry_points"][0];
  EXPECT_EQ(entry["name"], "main");
  EXPECT_EQ(entry["workgroup_size"], nlohmann::json::parse(R"({"x":{"value":32},"y":{"value":1},"z":{"value":1}})"));
  EXPECT_EQ(entry["barriers"], nlohmann::json::parse(R"({"memory":0,"workgroup":1})"));
  const nlohmann::json& values = entry["bindings"][0];
  EXPECT_EQ(values["set"], 2);
  EXPECT_EQ(values["binding"], 7);
  EXPECT_EQ(values["name"], "values");
  EXPECT_EQ(values["declared"], "read-write");
  EXPECT_EQ(values["access"], "read-write");
  EXPECT_EQ(values["loads"], nlohmann::json::parse(R"({"scalar":1,"vector":0,"widest_bits":32})"));
  EXPECT_EQ(values["stores"], nlohmann::json::parse(R"({"scalar":1,"vector":0,"widest_bits":32})"));
  EXPECT_EQ(values["block"]["members"][0]["type"], "float[]");
  EXPECT_EQ(entry["workgroup_memory"]["variables"][0],
            nlohmann::json::parse(R"({"bytes":128,"name":"stage","type":"float[32]","used":true})"));
  EXPECT_EQ(document["files"][0]["capabilities"], nlohmann::json::parse(R"(["Shader"])"));
}

TEST(ReflectSpirvAssembly, AccessIsPerEntryPoint) {
  std::ostringstream out, err;
  ASSERT_EQ(run_reflect({kInputs + "two_kernels.spvasm"}, CompileOptions{}, {}, ReflectFormat::Json, out, err), 0)
      << err.str();
  const nlohmann::json document = nlohmann::json::parse(out.str());
  const nlohmann::json& entries = document["files"][0]["entry_points"];
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["name"], "produce");
  EXPECT_EQ(entries[0]["workgroup_size"]["x"]["value"], 16);
  // From SPIR-V 1.4 an entry point's interface lists every variable it uses:
  // `result`, not in the list of `produce`, is not one of its bindings.
  ASSERT_EQ(entries[0]["bindings"].size(), 1u);
  EXPECT_EQ(entries[0]["bindings"][0]["access"], "write");
  ASSERT_EQ(entries[1]["bindings"].size(), 2u);
  EXPECT_EQ(entries[1]["name"], "consume");
  EXPECT_EQ(entries[1]["bindings"][0]["access"], "read");
  EXPECT_EQ(entries[1]["bindings"][1]["access"], "write");
}

constexpr const char* kSmall = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { vec4 items[]; } data;
layout(push_constant) uniform Push { uint count; } push;
layout(constant_id = 1) const float GAIN = 2.0;
shared vec4 tile[64];
void main() {
  uint i = gl_LocalInvocationID.x;
  tile[i] = data.items[gl_GlobalInvocationID.x];
  barrier();
  if (gl_GlobalInvocationID.x < push.count) data.items[gl_GlobalInvocationID.x] = tile[63 - i] * GAIN;
}
)";

constexpr const char* kSmallTable = R"(small.comp: entry point main
  workgroup size    64 x 1 x 1
  workgroup memory  1024 bytes
  barriers          1 workgroup, 0 memory

  bindings
    set  binding  type            name  count  declared    access      loads               stores              atomics
    0    0        storage-buffer  data  1      read-write  read-write  1 vector (128-bit)  1 vector (128-bit)  -

  set 0 binding 0 data: block Data, 0 bytes + 16 per element
    offset  size  type    name   layout
    0       0     vec4[]  items  array stride 16

  push constants push (read): block Push, 4 bytes
    offset  size  type  name   layout
    0       4     uint  count

  workgroup variables
    name  type      bytes  used
    tile  vec4[64]  1024   yes

small.comp: module
  capabilities         Shader
  extensions           -
  subgroup operations  -
  arithmetic types     -
  8/16-bit storage     -

  specialization constants
    id  name  type   default
    1   GAIN  float  2.0
)";

constexpr const char* kSmallJson = R"({
  "files": [
    {
      "capabilities": [
        "Shader"
      ],
      "entry_points": [
        {
          "barriers": {
            "memory": 0,
            "workgroup": 1
          },
          "bindings": [
            {
              "access": "read-write",
              "array_size": 1,
              "atomics": 0,
              "binding": 0,
              "block": {
                "members": [
                  {
                    "array_stride": 16,
                    "name": "items",
                    "offset": 0,
                    "size": 0,
                    "type": "vec4[]"
                  }
                ],
                "size": 0,
                "type_name": "Data"
              },
              "declared": "read-write",
              "loads": {
                "scalar": 0,
                "vector": 1,
                "widest_bits": 128
              },
              "name": "data",
              "set": 0,
              "stores": {
                "scalar": 0,
                "vector": 1,
                "widest_bits": 128
              },
              "type": "storage-buffer"
            }
          ],
          "name": "main",
          "occupancy": [],
          "push_constants": {
            "access": "read",
            "block": {
              "members": [
                {
                  "name": "count",
                  "offset": 0,
                  "size": 4,
                  "type": "uint"
                }
              ],
              "size": 4,
              "type_name": "Push"
            },
            "name": "push"
          },
          "workgroup_memory": {
            "total_bytes": 1024,
            "variables": [
              {
                "bytes": 1024,
                "name": "tile",
                "type": "vec4[64]",
                "used": true
              }
            ]
          },
          "workgroup_size": {
            "x": {
              "value": 64
            },
            "y": {
              "value": 1
            },
            "z": {
              "value": 1
            }
          }
        }
      ],
      "extensions": [],
      "features": {
        "arithmetic_types": [],
        "storage": [],
        "subgroup_operations": []
      },
      "path": "small.comp",
      "specialization_constants": [
        {
          "default": 2.0,
          "id": 1,
          "name": "GAIN",
          "type": "float"
        }
      ]
    }
  ],
  "schema": "klint-reflect-1"
}
)";

TEST(ReflectFormat, TableGolden) {
  std::ostringstream out;
  write_table(out, {{"small.comp", reflect_glsl(kSmall)}});
  EXPECT_EQ(out.str(), kSmallTable);
}

TEST(ReflectFormat, JsonGolden) {
  std::ostringstream out;
  write_json(out, {{"small.comp", reflect_glsl(kSmall)}});
  EXPECT_EQ(out.str(), kSmallJson);
}

// The first fenced block of `language` in a Markdown text.
std::string fenced_block(const std::string& markdown, const std::string& language) {
  size_t start = markdown.find("```" + language + "\n");
  if (start == std::string::npos) return {};
  start += language.size() + 4;
  return markdown.substr(start, markdown.find("```", start) - start);
}

TEST(ReflectFormat, DocsExampleIsWhatKlintPrints) {
  std::ifstream file(KLINT_SOURCE_DIR "/docs/reflect.md");
  std::stringstream markdown;
  markdown << file.rdbuf();
  EXPECT_EQ(fenced_block(markdown.str(), "glsl"), kSmall);
  EXPECT_EQ(fenced_block(markdown.str(), "text"), kSmallTable);
  EXPECT_EQ(fenced_block(markdown.str(), "json"), kSmallJson);
}

class ReflectCommand : public testing::ScratchDirTest {
 protected:
  int reflect(const std::vector<std::string>& paths, ReflectFormat format = ReflectFormat::Table) {
    out_.str("");
    err_.str("");
    return run_reflect(paths, CompileOptions{}, {}, format, out_, err_);
  }

  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(ReflectCommand, ReflectsEveryFileIntoOneJsonDocument) {
  std::string small = write("small.comp", kSmall);
  ASSERT_EQ(reflect({small, kInputs + "scale.spvasm"}, ReflectFormat::Json), 0) << err_.str();
  nlohmann::json document = nlohmann::json::parse(out_.str());
  EXPECT_EQ(document["schema"], "klint-reflect-1");
  ASSERT_EQ(document["files"].size(), 2u);
  // Files come sorted by path, whichever directory the tree lives in.
  std::vector<std::string> expected{small, kInputs + "scale.spvasm"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(document["files"][0]["path"], expected[0]);
  EXPECT_EQ(document["files"][1]["path"], expected[1]);
}

TEST_F(ReflectCommand, CompileErrorExitsOneWithTheCompilersLine) {
  std::string bad = write("bad.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  undeclared = 1;\n}\n");
  std::string good = write("good.comp", kSmall);
  EXPECT_EQ(reflect({bad, good}), 1);
  EXPECT_EQ(err_.str().rfind(bad + ":4: error: ", 0), 0u) << err_.str();
  EXPECT_NE(err_.str().find("'undeclared'"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("[compile-error]\n"), std::string::npos) << err_.str();
  EXPECT_NE(out_.str().find("good.comp: entry point main"), std::string::npos);  // the other file still reflected
}

TEST_F(ReflectCommand, NonComputeEntryPointIsAnError) {
  EXPECT_EQ(reflect({kInputs + "vertex.spvasm"}), 1);
  EXPECT_EQ(err_.str(), kInputs + "vertex.spvasm: error: not a compute shader (vertex stage): klint reflects compute "
                                  "kernels only\n");
  std::string vert = write("shader.vert", "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  EXPECT_EQ(reflect({vert}), 1);
  EXPECT_EQ(err_.str(), vert + ": error: not a compute shader (vertex stage): klint reflects compute kernels only\n");
}

TEST_F(ReflectCommand, UnreadableInputExitsTwo) {
  std::string good = write("good.comp", kSmall);
  EXPECT_EQ(reflect({path("missing.comp").string(), good}, ReflectFormat::Json), 2);
  EXPECT_NE(err_.str().find("missing.comp"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(out_.str())["files"].size(), 1u);
}

TEST_F(ReflectCommand, InvalidSpirvIsReportedNotThrown) {
  // Assembles, but fails validation: a store of a float through a uint pointer.
  std::string bad = write("bad.spvasm", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%func = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
%ptr = OpTypePointer Private %uint
%var = OpVariable %ptr Private
%main = OpFunction %void None %func
%entry = OpLabel
OpStore %var %float_1
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(reflect({bad}), 1);
  EXPECT_NE(err_.str().find("[invalid-spirv]"), std::string::npos) << err_.str();
}

TEST(ReflectModule, GarbageIsAnErrorNotAnException) {
  std::string error;
  EXPECT_FALSE(reflect_module({0x07230203, 0x00010000, 0, 5, 0, 0xFFFFFFFF}, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(reflect_module({}, &error));
}

}  // namespace
}  // namespace klint::reflect
