// Setups made from the kernel (runner/infer_setup.h): the role of each
// push-constant member as its uses say, the values findings name, and the
// shapes and grid made from them. No run: these read the module only.
#include <gtest/gtest.h>

#include <algorithm>

#include "reflect/reflection.h"
#include "runner/infer_setup.h"
#include "tests/runner/kernels.h"
#include "tests/support/compile.h"
#include "validate/loaded_shader.h"

namespace klint::runner {
namespace {

struct Roles {
  std::vector<MemberRole> roles;
  reflect::EntryPoint entry;
};

Roles roles_of(const std::string& source) {
  std::string error;
  std::optional<reflect::ModuleReflection> reflection =
      reflect::reflect_module(testing::spirv_from_glsl(source), &error);
  std::unique_ptr<Module> module = klint::testing::module_from_glsl(source);
  if (!reflection || !module) {
    ADD_FAILURE() << error;
    return {};
  }
  return {infer_roles(*module, reflection->entry_points.front()), reflection->entry_points.front()};
}

const MemberRole* role(const Roles& roles, const std::string& member) {
  auto it = std::find_if(roles.roles.begin(), roles.roles.end(), [&](const MemberRole& r) { return r.member == member; });
  return it == roles.roles.end() ? nullptr : &*it;
}

// A row-wise kernel: one workgroup per row, the row's length in a member
// that bounds the local id and multiplies the row.
constexpr const char* kRowKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint rows; uint cols; float eps; float scale; uint mode; } p;
layout(std430, binding = 0) buffer X { float x[]; };
void main() {
    uint row = gl_WorkGroupID.x;
    uint col = gl_LocalInvocationID.x;
    if (row >= p.rows || col >= p.cols) return;
    float v = x[row * p.cols + col] + p.eps;
    if (p.mode == 1u) v = -v;
    x[row * p.cols + col] = v / p.scale;
}
)";

TEST(InferRoles, RowKernelHasACountOfRowsAndALengthOfEach) {
  Roles roles = roles_of(kRowKernel);
  const MemberRole* rows = role(roles, "rows");
  const MemberRole* cols = role(roles, "cols");
  const MemberRole* scale = role(roles, "scale");
  ASSERT_TRUE(rows && cols && scale);
  EXPECT_EQ(rows->kind, MemberRole::Kind::Count);
  EXPECT_EQ(rows->grid_axis, std::optional<size_t>(0));
  EXPECT_EQ(rows->per_workgroup, 1);
  EXPECT_EQ(cols->kind, MemberRole::Kind::Length);
  EXPECT_EQ(scale->kind, MemberRole::Kind::Scale);
  EXPECT_NE(scale->why.find("divides"), std::string::npos) << scale->why;
  // Added, or compared for equality: no size, and 0 does no harm.
  EXPECT_EQ(role(roles, "eps"), nullptr);
  EXPECT_EQ(role(roles, "mode"), nullptr);
}

TEST(InferRoles, AGlobalIdBoundCountsElementsAWorkgroupAtATime) {
  Roles roles = roles_of(R"(#version 450
layout(local_size_x = 128) in;
layout(push_constant) uniform Params { uint n; uint k; } p;
layout(std430, binding = 0) buffer X { float x[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n) return;
    float s = 0.0;
    for (uint j = 0u; j < p.k; ++j) s += x[j];
    x[i] = s;
}
)");
  const MemberRole* n = role(roles, "n");
  const MemberRole* k = role(roles, "k");
  ASSERT_TRUE(n && k);
  EXPECT_EQ(n->kind, MemberRole::Kind::Count);
  EXPECT_EQ(n->grid_axis, std::optional<size_t>(0));
  EXPECT_EQ(n->per_workgroup, 128);
  EXPECT_EQ(k->kind, MemberRole::Kind::Length);
  EXPECT_NE(k->why.find("bounds a loop"), std::string::npos) << k->why;
}

// A loop that strides over the grid's invocations.
constexpr const char* kGridStrideKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) buffer X { float x[]; };
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 64u) x[i] += 1.0;
}
)";

TEST(InferRoles, AGridStrideLoopCountsTheElementsItCovers) {
  Roles roles = roles_of(kGridStrideKernel);
  ASSERT_EQ(roles.roles.size(), 1u);
  EXPECT_EQ(roles.roles[0].kind, MemberRole::Kind::Count);
  EXPECT_EQ(roles.roles[0].per_workgroup, 64);
  EXPECT_TRUE(roles.roles[0].strided);
}

// 16-bit members are sizes and scales too: 4096 fits them.
TEST(InferRoles, SixteenBitMembersGetRoles) {
  Roles roles = roles_of(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint16_t count; float16_t seed; } p;
layout(std430, binding = 0) buffer X { float x[]; };
void main() {
    float s = 0.0;
    for (uint i = 0u; i < uint(p.count); i++) s += x[i] * float(p.seed);
    x[gl_GlobalInvocationID.x] = s;
}
)");
  const MemberRole* count = role(roles, "count");
  const MemberRole* seed = role(roles, "seed");
  ASSERT_TRUE(count && seed);
  EXPECT_EQ(count->kind, MemberRole::Kind::Length);
  EXPECT_EQ(count->type, "uint16_t");
  EXPECT_EQ(seed->kind, MemberRole::Kind::Scale);
}

TEST(InferRoles, AKernelWithoutPushConstantsHasNoRoles) {
  EXPECT_TRUE(roles_of(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer X { float x[]; };
void main() { x[gl_GlobalInvocationID.x] *= 2.0; }
)").roles.empty());
}

// An image size kept in a uniform block, nested in a struct, and compared
// as a vector with the global id: each part is a count along its own axis,
// covered by workgroups of the workgroup's size along it.
TEST(InferRoles, UniformBlockMembersComparedAsAVectorAreCountsPerAxis) {
  Roles roles = roles_of(R"(#version 450
layout(local_size_x = 8, local_size_y = 4) in;
struct Frame { float exposure; int width; int height; int unused; };
layout(set = 0, binding = 3) uniform Constants { Frame frame; };
layout(push_constant) uniform P { uint stride; } p;
layout(std430, binding = 0) buffer X { float x[]; };
void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(pixel, ivec2(frame.width, frame.height)))) return;
    x[pixel.y * p.stride + pixel.x] *= frame.exposure;
}
)");
  ASSERT_EQ(roles.roles.size(), 4u);
  EXPECT_EQ(roles.roles[0].member, "stride");  // the push constants first
  EXPECT_FALSE(roles.roles[0].uniform);
  const MemberRole* width = role(roles, "width");
  const MemberRole* height = role(roles, "height");
  const MemberRole* exposure = role(roles, "exposure");
  ASSERT_TRUE(width && height && exposure);
  EXPECT_EQ(width->kind, MemberRole::Kind::Count);
  EXPECT_EQ(width->grid_axis, std::optional<size_t>(0));
  EXPECT_EQ(width->per_workgroup, 8);
  EXPECT_EQ(height->kind, MemberRole::Kind::Count);
  EXPECT_EQ(height->grid_axis, std::optional<size_t>(1));
  EXPECT_EQ(height->per_workgroup, 4);
  EXPECT_EQ(width->uniform, (std::optional<std::pair<uint32_t, uint32_t>>{{0u, 3u}}));
  EXPECT_EQ(width->path, (std::vector<std::string>{"frame", "width"}));
  EXPECT_EQ(width->offset, 4u);
  EXPECT_EQ(exposure->kind, MemberRole::Kind::Scale);
  EXPECT_EQ(role(roles, "unused"), nullptr);
  // The manifest writes them into the uniform block, not the push constants.
  std::optional<KernelManifest> manifest = inferred_manifest(roles.roles, {}, roles.entry, "k.comp");
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->uniforms.size(), 3u);
  EXPECT_EQ(manifest->uniforms[1].name, "frame.width");
  ASSERT_EQ(manifest->push_constants.size(), 1u);
  const std::vector<std::string> lines = describe_inferred(roles.roles, {}, shape_at(*manifest, 0));
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "uniform 0.3 frame.width = 1 (a count: it bounds an id made of the workgroup id at line 9)"),
            lines.end())
      << ::testing::PrintToString(lines);
}

// HLSL's constant buffer: the same roles from `any(id.xy >= uint2(W, H))`.
TEST(InferRoles, ConstantBufferMembersOfHlslGetRolesToo) {
  const std::string source = R"(cbuffer Frame : register(b0) { float Exposure; uint Width; uint Height; };
RWStructuredBuffer<float> Out : register(u1);
[numthreads(16, 2, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (any(id.xy >= uint2(Width, Height))) return;
    Out[id.y * Width + id.x] = Exposure;
}
)";
  SourceCache sources;
  LoadedShader shader = load_shader(ShaderInput{"frame.hlsl", source, Language::Hlsl}, CompileOptions{}, sources, {});
  ASSERT_TRUE(shader.valid && shader.module);
  std::string error;
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(shader.module_words(), &error);
  ASSERT_TRUE(reflection) << error;
  Roles roles{infer_roles(*shader.module, reflection->entry_points.front()), reflection->entry_points.front()};
  const MemberRole* width = role(roles, "Width");
  const MemberRole* height = role(roles, "Height");
  ASSERT_TRUE(width && height);
  EXPECT_EQ(width->kind, MemberRole::Kind::Count);
  EXPECT_EQ(width->per_workgroup, 16);
  EXPECT_EQ(height->grid_axis, std::optional<size_t>(1));
  EXPECT_EQ(height->per_workgroup, 2);
}

TEST(NamedValues, TakesTheSizedMembersAFindingNames) {
  const std::vector<MemberRole> roles{{"cols", MemberRole::Kind::Length, "", std::nullopt, 1},
                                      {"scale", MemberRole::Kind::Scale, "", std::nullopt, 1}};
  Diagnostic finding;
  finding.message = "data race on 'tile', when p.cols = 63 and gl_LocalInvocationID.x = 5";
  finding.notes.push_back(Note{{}, "with scale = 2 and cols = 0"});
  const Diagnostic* findings[] = {&finding};
  const auto named = named_values(findings, roles);
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0], (std::pair<std::string, int64_t>{"cols", 63}));
}

TEST(InferredManifest, NamedValuesComeFirstThenTheRowMatrix) {
  Roles roles = roles_of(kRowKernel);
  std::optional<KernelManifest> manifest = inferred_manifest(roles.roles, {{"cols", 63}}, roles.entry, "row.comp");
  ASSERT_TRUE(manifest);
  EXPECT_TRUE(manifest->inferred);
  EXPECT_EQ(manifest->variables, (std::vector<std::string>{"rows", "cols"}));
  ASSERT_EQ(manifest->matrix.size(), 9u);  // the named shape, then the seeds' eight
  EXPECT_EQ(describe_shape(shape_at(*manifest, 0)), "rows=64 cols=63");
  EXPECT_EQ(describe_shape(shape_at(*manifest, 1)), "rows=1 cols=1");
  EXPECT_EQ(describe_shape(shape_at(*manifest, 7)), "rows=64 cols=1024");
  // The scale is 1, the rows' workgroups cover them (at least 2, at most 64).
  auto push = std::find_if(manifest->push_constants.begin(), manifest->push_constants.end(),
                           [](const ManifestSetting& s) { return s.name == "scale"; });
  ASSERT_NE(push, manifest->push_constants.end());
  std::string error;
  EXPECT_EQ(to_string(*push->value.evaluate({}, &error)), "1");
  ASSERT_EQ(manifest->grid.size(), 3u);
  for (auto [rows, workgroups] : {std::pair{1, 2}, std::pair{4, 4}, std::pair{1000, 64}}) {
    std::optional<Number> x = manifest->grid[0].value.evaluate({{"rows", int64_t{rows}}, {"cols", int64_t{1}}}, &error);
    ASSERT_TRUE(x) << error;
    EXPECT_EQ(std::get<int64_t>(*x), workgroups) << rows;
  }
}

TEST(InferredManifest, OneKindOfSizeTriesSizesAroundTheWorkgroup) {
  const std::vector<MemberRole> roles{{"n", MemberRole::Kind::Count, "", size_t{0}, 64}};
  reflect::EntryPoint entry;
  entry.workgroup_size = std::array<reflect::WorkgroupDimension, 3>{};
  (*entry.workgroup_size)[0].value = 64;
  (*entry.workgroup_size)[1].value = 1;
  (*entry.workgroup_size)[2].value = 1;
  std::optional<KernelManifest> manifest = inferred_manifest(roles, {}, entry, "k.comp");
  ASSERT_TRUE(manifest);
  std::vector<std::string> shapes;
  for (size_t i = 0; i < manifest->matrix.size(); ++i) shapes.push_back(describe_shape(shape_at(*manifest, i)));
  EXPECT_EQ(shapes, (std::vector<std::string>{"n=65", "n=63", "n=33", "n=1"}));
}

// A count the loop strides over: the shapes around the workgroup fit in the
// grid, so a last one passes twice what its grid (covering half of it) runs.
TEST(InferredManifest, AStridedCountGetsAShapeItsLoopRunsTwiceOver) {
  Roles roles = roles_of(kGridStrideKernel);
  std::optional<KernelManifest> manifest = inferred_manifest(roles.roles, {}, roles.entry, "k.comp");
  ASSERT_TRUE(manifest);
  std::vector<std::string> shapes;
  for (size_t i = 0; i < manifest->matrix.size(); ++i) shapes.push_back(describe_shape(shape_at(*manifest, i)));
  EXPECT_EQ(shapes, (std::vector<std::string>{"n=65", "n=63", "n=33", "n=1", "n=257"}));
  std::string error;
  for (auto [n, workgroups] : {std::pair{65, 2}, std::pair{257, 3}, std::pair{100000, 64}}) {
    std::optional<Number> x = manifest->grid[0].value.evaluate({{"n", int64_t{n}}}, &error);
    ASSERT_TRUE(x) << error;
    EXPECT_EQ(std::get<int64_t>(*x), workgroups) << n;  // 257 elements, 192 invocations: some run it twice
  }
}

TEST(RuntimeElements, CoverTheLargestProductOfTwoSizes) {
  EXPECT_EQ(runtime_elements_for({}), 0u);
  EXPECT_EQ(runtime_elements_for({4, 256, 3}), 1024u);
  EXPECT_EQ(runtime_elements_for({5000}), 5000u);
  EXPECT_EQ(runtime_elements_for({1 << 20, 1 << 20}), kMostSizedElements);
}

}  // namespace
}  // namespace klint::runner
