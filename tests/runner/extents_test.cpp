// Buffers sized from the indices a dispatch reaches (runner/extents.h): one
// past the largest index of each storage buffer's runtime array, bounded over
// the setup's push constants, grid and workgroup, in GLSL and HLSL; none for
// an array some index of which comes from memory or a loop klint cannot bound.
// No run: these read the module only.
#include <gtest/gtest.h>

#include <map>

#include "reflect/reflection.h"
#include "runner/extents.h"
#include "runner/manifest.h"
#include "validate/loaded_shader.h"

namespace klint::runner {
namespace {

struct Kernel {
  LoadedShader shader;
  reflect::EntryPoint entry;
};

Kernel load(const std::string& source, Language language = Language::Glsl) {
  SourceCache sources;
  Kernel kernel{load_shader(ShaderInput{language == Language::Hlsl ? "test.hlsl" : "test.comp", source, language},
                            CompileOptions{}, sources, LoadOptions{}),
                {}};
  for (const Diagnostic& d : kernel.shader.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  if (!kernel.shader.module) {
    ADD_FAILURE() << "no module";
    return kernel;
  }
  std::string error;
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(kernel.shader.module_words(), &error);
  if (!reflection) {
    ADD_FAILURE() << error;
    return kernel;
  }
  kernel.entry = reflection->entry_points.front();
  return kernel;
}

// A dispatch of `grid` with these push constants, the others 0.
Harness setup_of(const Kernel& kernel, std::array<uint32_t, 3> grid, const std::map<std::string, int64_t>& values) {
  Harness setup;
  setup.grid = grid;
  if (kernel.entry.push_constants) setup.push_constants.assign(kernel.entry.push_constants->block.size, 0);
  for (const auto& [name, value] : values) {
    std::string error;
    EXPECT_TRUE(set_push_constant(kernel.entry, name, Number{value}, setup, &error)) << error;
  }
  return setup;
}

std::string key(uint32_t set, uint32_t binding) { return std::to_string(set) + "." + std::to_string(binding); }

// The elements each binding gets, as "set.binding", for that dispatch.
std::map<std::string, uint64_t> extents(const Kernel& kernel, std::array<uint32_t, 3> grid,
                                        const std::map<std::string, int64_t>& push_constants) {
  std::map<std::string, uint64_t> out;
  if (!kernel.shader.module) return out;
  for (const Extent& e : index_extents(*kernel.shader.module, kernel.entry, setup_of(kernel, grid, push_constants))) {
    out[key(e.set, e.binding)] = e.elements;
  }
  return out;
}

using Extents = std::map<std::string, uint64_t>;

TEST(IndexExtents, ARowTimesItsLengthPlusTheLocalIdReachesTheLastRowsEnd) {
  const Kernel kernel = load(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint rows; uint cols; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
void main() {
    uint row = gl_WorkGroupID.x;
    uint col = gl_LocalInvocationID.x;
    if (row >= p.rows || col >= p.cols) return;
    y[row] = x[row * p.cols + col];
}
)");
  // Rows 0..3 of 256 columns, the local id up to 63.
  EXPECT_EQ(extents(kernel, {4, 1, 1}, {{"rows", 4}, {"cols", 256}}), (Extents{{"0.0", 3 * 256 + 63 + 1}, {"0.1", 4}}));
  EXPECT_EQ(extents(kernel, {1, 1, 1}, {{"rows", 1}, {"cols", 1}}), (Extents{{"0.0", 64}, {"0.1", 1}}));
}

TEST(IndexExtents, ALoopCounterIsBoundedByTheTestThatEndsItsLoopPlusOneStep) {
  const Kernel kernel = load(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() {
    for (uint k = gl_LocalInvocationID.x; k < p.n; k += 64u) {
        y[gl_WorkGroupID.x * p.n + k] += x[k];
    }
    for (uint s = 32u; s > 0u; s >>= 1) y[s] += 1.0;
}
)");
  // k < 100 inside the loop: at most 99, and 99 + 64 where the test fails.
  EXPECT_EQ(extents(kernel, {2, 1, 1}, {{"n", 100}}), (Extents{{"0.0", 164}, {"0.1", 100 + 163 + 1}}));
}

TEST(IndexExtents, DivisionsShiftsMasksAndMinimaAreBounded) {
  const Kernel kernel = load(R"(#version 450
layout(local_size_x = 32, local_size_y = 2) in;
layout(push_constant) uniform Params { uint n; uint blocks; } p;
layout(std430, binding = 0) buffer X { vec4 x[]; };
void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 32u;
    uint block = min(i / 4u, p.blocks - 1u);
    x[(i >> 3) + (i & 7u) * 16u + p.n % 5u] = x[block * 2u + 200u];
}
)");
  // One workgroup: i up to 63; (63 >> 3) + 7 * 16 + 4 = 123; min(15, 9) * 2 + 200 = 218.
  EXPECT_EQ(extents(kernel, {1, 1, 1}, {{"n", 9}, {"blocks", 10}}), (Extents{{"0.0", 219}}));
  // blocks - 1 wraps around to the largest uint: the minimum is i / 4, up to 15.
  EXPECT_EQ(extents(kernel, {1, 1, 1}, {{"n", 9}, {"blocks", 0}}), (Extents{{"0.0", 231}}));
}

TEST(IndexExtents, HlslStructuredBuffersAreSizedFromTheirIndices) {
  const Kernel kernel = load(R"(
struct Params { uint rows; uint cols; };
[[vk::push_constant]] ConstantBuffer<Params> p;
StructuredBuffer<float> x : register(t0);
RWStructuredBuffer<float2> y : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 local : SV_GroupThreadID) {
    if (group.x >= p.rows) return;
    float s = 0.0;
    for (uint c = local.x; c < p.cols; c += 64) s += x[group.x * p.cols + c];
    y[group.x * 64 + local.x] = float2(s, s);
}
)",
                             Language::Hlsl);
  // c at most 127 inside (cols = 128), 191 where the test fails; rows 0..2.
  EXPECT_EQ(extents(kernel, {3, 1, 1}, {{"rows", 3}, {"cols", 128}}),
            (Extents{{"0.0", 2 * 128 + 191 + 1}, {"0.1", 2 * 64 + 63 + 1}}));
}

TEST(IndexExtents, AnIndexFromMemoryOrALoopThatEndsOnDataLeavesTheGuess) {
  const Kernel kernel = load(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer Ids { uint ids[]; };
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) buffer Y { float y[]; };
layout(std430, binding = 3) buffer Z { float z[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[ids[i]];
    uint k = 0u;
    while (z[k] > 0.0) k += 1u;
    z[k] = 1.0;
}
)");
  EXPECT_EQ(extents(kernel, {1, 1, 1}, {{"n", 4}}), (Extents{{"0.0", 64}, {"0.2", 64}}));
}

TEST(IndexExtents, AWorkgroupOtherThanTheModulesDefaultGetsNone) {
  const Kernel kernel = load(R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WIDTH = 64;
layout(std430, binding = 0) buffer X { float x[]; };
void main() { x[gl_GlobalInvocationID.x] = 1.0; }
)");
  EXPECT_EQ(extents(kernel, {2, 1, 1}, {}), (Extents{{"0.0", 128}}));
  Harness setup;
  setup.grid = {2, 1, 1};
  set_workgroup_size(kernel.entry, 0, 32, setup);
  EXPECT_TRUE(index_extents(*kernel.shader.module, kernel.entry, setup).empty());
}

using Indices = std::map<std::string, std::pair<uint64_t, std::string>>;

// The integers each index buffer gets, as "set.binding": below this, and why.
Indices index_buffers(const Kernel& kernel, std::array<uint32_t, 3> grid,
                      const std::map<std::string, int64_t>& values) {
  Indices out;
  if (!kernel.shader.module) return out;
  HarnessOptions options;
  options.grid = grid;
  size_from_indices(*kernel.shader.module, kernel.entry, setup_of(kernel, grid, values), options);
  for (const IndexBuffer& b : options.index_buffers) out[key(b.set, b.binding)] = {b.values, b.why};
  return out;
}

// A gather: row ids times the row length index a buffer whose size klint
// guesses (16384 floats); ids into a shared tile; and words that are
// unpacked by a mask or a shift before they index, which hold data.
TEST(IndexBuffers, WordsTakenWholeAsIndicesStayInsideTheirArrays) {
  const Kernel kernel = load(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint cols; } p;
layout(std430, binding = 0) readonly buffer Ids { uint ids[]; };
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };
layout(std430, binding = 3) readonly buffer Slots { int slots[]; };
layout(std430, binding = 4) readonly buffer Packed { uint packed[]; };
const float lut[16] = float[16](0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
shared float tile[64];
void main() {
    uint row = gl_WorkGroupID.x;
    uint col = gl_LocalInvocationID.x;
    tile[col] = x[col];
    barrier();
    uint q = packed[row * 64u + col];
    y[row * p.cols + col] = x[ids[row] * p.cols + col] + tile[slots[col] + 1] + lut[q & 15u] + lut[q >> 28];
}
)");
  EXPECT_EQ(index_buffers(kernel, {2, 1, 1}, {{"cols", 256}}),
            (Indices{{"0.0", {16384 / 256, "its words index 'x' at line 17"}},
                     {"0.3", {64, "its words index 'tile' at line 17"}}}));
}

TEST(IndexBuffers, HlslStructuredBuffersOfIndicesStayInsideTheirArrays) {
  const Kernel kernel = load(R"(
StructuredBuffer<uint> ids : register(t0);
RWStructuredBuffer<float> y : register(u1);
groupshared float tile[32];
[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 local : SV_GroupThreadID) {
    tile[local.x] = y[id.x];
    GroupMemoryBarrierWithGroupSync();
    y[id.x] = tile[ids[id.x]];
}
)",
                             Language::Hlsl);
  EXPECT_EQ(index_buffers(kernel, {2, 1, 1}, {}), (Indices{{"0.0", {32, "its words index 'tile' at line 9"}}}));
}

}  // namespace
}  // namespace klint::runner
