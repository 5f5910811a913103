// `klint run` and `klint --confirm` on kernels that declare more than single
// storage and uniform buffers: images, samplers, texel buffers, arrays of
// descriptors and buffer_reference pointers, used or not. Each runs with
// resources made from reflection, says what it guessed, and reports what the
// kernel wrote into them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/support/run.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using testing::KlintRun;
using testing::run_klint;

class BindCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("klint-bind-cli-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  KlintRun run(const std::string& name, const std::string& text, std::vector<std::string> args = {"run"}) {
    std::ofstream(dir_ / name) << text;
    args.push_back(name);
    return run_klint(args, dir_.string());
  }
  fs::path dir_;
};

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// A sampled image read through a separate sampler, a combined image sampler,
// and a storage image the kernel only writes: it starts as the sentinel and
// comes back texel by texel, row by row.
TEST_F(BindCli, GlslReadsSampledImagesAndWritesAStorageImage) {
  KlintRun r = run("images.comp", R"(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D src;
layout(set = 0, binding = 1) uniform sampler nearest_sampler;
layout(set = 0, binding = 2) uniform sampler2D combined;
layout(set = 0, binding = 3, rgba32f) writeonly uniform image2D dst;
layout(set = 0, binding = 4) writeonly buffer Out { float v[64]; } o;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 a = texelFetch(sampler2D(src, nearest_sampler), p, 0);
  vec4 b = texture(combined, (vec2(p) + 0.5) / 8.0);
  o.v[p.y * 8 + p.x] = a.x + b.y;
  imageStore(dst, p, vec4(p.x, p.y, 0, 1));
}
)");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "guessed: binding 0.0 (src): 8x8 rgba32f (no format declared), a texel per invocation of the grid\n");
  EXPECT_HAS(r.out, "guessed: binding 0.1 (nearest_sampler): a sampler with nearest filtering, clamped to the edge\n");
  EXPECT_HAS(r.out, "guessed: binding 0.3 (dst): only written, every part of every texel starts as the sentinel\n");
  EXPECT_HAS(r.out, "binding 0.4 o (storage-buffer, 256 bytes): 0 of 64 words never written; first: ");
  EXPECT_HAS(r.out, "binding 0.3 dst (storage-image 8x8 rgba32f): 0 of 64 texels never written; "
                    "first: (0,0,0,1) (1,0,0,1) (2,0,0,1) (3,0,0,1) ...\n");
  EXPECT_HAS(r.out, "verdict: completed\n");
}

// The same in HLSL (register numbers are bindings); the storage image is
// larger than the grid writes, so that texels never written show as "-".
TEST_F(BindCli, HlslSamplesATextureAndWritesPartOfAStorageImage) {
  KlintRun r = run("images.hlsl", R"(Texture2D<float4> Input : register(t0);
SamplerState Nearest : register(s1);
RWTexture2D<float4> Output : register(u2);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  float4 a = Input.SampleLevel(Nearest, (float2(id.xy) + 0.5) / 8.0, 0);
  if (id.x >= 2) Output[id.xy] = float4(id.x, id.y, a.x * 0.0, 1.0);
}
)");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "guessed: binding 0.0 (Input): 8x8 rgba32f (no format declared)");
  EXPECT_HAS(r.out, "binding 0.2 Output (storage-image 8x8 rgba32f): 16 of 64 texels never written; "
                    "first: - - (2,0,0,1) (3,0,0,1) ...\n");
}

// Uniform and storage texel buffers, in both languages: the storage one only
// written, so it starts as the sentinel.
TEST_F(BindCli, TexelBuffersRunInGlslAndHlsl) {
  KlintRun glsl = run("texel.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer lut;
layout(set = 0, binding = 1, r32ui) writeonly uniform uimageBuffer counts;
layout(set = 0, binding = 2) writeonly buffer Out { float v[64]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o.v[i] = texelFetch(lut, int(i)).x;
  imageStore(counts, int(i), uvec4(i * 3u));
}
)");
  EXPECT_EQ(glsl.exit_code, 0) << glsl.out << glsl.err;
  EXPECT_HAS(glsl.out, "guessed: binding 0.0 (lut): 1024 texels rgba32f (no format declared)\n");
  EXPECT_HAS(glsl.out, "binding 0.1 counts (storage-texel-buffer 1024 texels r32ui): 960 of 1024 texels never "
                       "written; first: 0 3 6 9 ...\n");
  KlintRun hlsl = run("texel.hlsl", R"(Buffer<float4> Lut : register(t0);
RWBuffer<uint> Counts : register(u1);
RWStructuredBuffer<float> Out : register(u2);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  Out[id.x] = Lut[id.x].x;
  Counts[id.x] = id.x * 3;
}
)");
  EXPECT_EQ(hlsl.exit_code, 0) << hlsl.out << hlsl.err;
  EXPECT_HAS(hlsl.out, "binding 0.1 Counts (storage-texel-buffer 1024 texels r32ui): 960 of 1024 texels never "
                       "written; first: 0 3 6 9 ...\n");
}

// Arrays of descriptors: each element its own resource, a runtime array 16
// of them, indexed per invocation.
TEST_F(BindCli, ArraysOfDescriptorsGetAResourcePerElement) {
  KlintRun glsl = run("arrays.comp", R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D textures[4];
layout(set = 0, binding = 1) readonly buffer Data { float v[]; } data[];
layout(set = 0, binding = 2, r32f) writeonly uniform image2D planes[2];
layout(set = 0, binding = 3) writeonly buffer Out { float v[64]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o.v[i] = texelFetch(textures[nonuniformEXT(i % 4u)], ivec2(0), 0).x + data[nonuniformEXT(i % 3u)].v[i];
  imageStore(planes[1], ivec2(i, 0), vec4(float(i)));
}
)");
  EXPECT_EQ(glsl.exit_code, 0) << glsl.out << glsl.err;
  EXPECT_HAS(glsl.out, "guessed: binding 0.0 (textures): 4 of them, each 64x1 rgba32f (no format declared)");
  EXPECT_HAS(glsl.out, "guessed: binding 0.1 (data): 16 descriptors in its runtime array, each its own "
                       "storage-buffer\n");
  EXPECT_HAS(glsl.out, "binding 0.2[0] planes (storage-image 64x1 r32f): 64 of 64 texels never written; "
                       "first: - - - - ...\n");
  EXPECT_HAS(glsl.out, "binding 0.2[1] planes (storage-image 64x1 r32f): 0 of 64 texels never written; "
                       "first: 0 1 2 3 ...\n");
  // Read only: not reported.
  EXPECT_EQ(glsl.out.find("binding 0.1[0]"), std::string::npos) << glsl.out;

  // Four textures of distinct seeded texels: what each invocation read
  // repeats every four words.
  KlintRun hlsl = run("arrays.hlsl", R"(Texture2D<float4> Textures[4] : register(t0);
RWStructuredBuffer<float> Out : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = Textures[id.x % 4].Load(int3(0, 0, 0)).x; }
)");
  EXPECT_EQ(hlsl.exit_code, 0) << hlsl.out << hlsl.err;
  EXPECT_HAS(hlsl.out, "guessed: binding 0.0 (Textures): 4 of them, each 64x1 rgba32f");
  const size_t first = hlsl.out.find("first: ");
  ASSERT_NE(first, std::string::npos) << hlsl.out;
  std::istringstream words(hlsl.out.substr(first + 7));
  std::vector<std::string> values(8);
  for (std::string& value : values) words >> value;
  EXPECT_EQ(std::vector(values.begin(), values.begin() + 4), std::vector(values.begin() + 4, values.end()));
  EXPECT_NE(values[0], values[1]);
}

// A buffer_reference in the push constants points at a seeded buffer of its own.
TEST_F(BindCli, BufferReferenceInPushConstantsPointsAtASeededBuffer) {
  KlintRun r = run("pointer.comp", R"(#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Floats { float v[]; };
layout(push_constant) uniform Push { uint n; Floats src; } pc;
layout(set = 0, binding = 0) writeonly buffer Out { float v[64]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o.v[i] = abs(pc.src.v[i]) <= 1.0 ? 2.0 : 3.0;
  pc.src.v[i] = 5.0;
}
)");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "guessed: push constants.src -> Floats: a buffer of 65536 bytes of its own, every word a float "
                    "in [-1,1]\n");
  EXPECT_HAS(r.out, "binding 0.0 o (storage-buffer, 256 bytes): 0 of 64 words never written; first: 2 2 2 2 2 2 2 2 "
                    "...\n");
  EXPECT_HAS(r.out, "push constants.src -> Floats (buffer-reference, 65536 bytes): 64 of 16384 words changed; "
                    "first: 5 5 5 5 ...\n");
}

// Bindings the kernel never uses get a resource, and never make it unrunnable.
TEST_F(BindCli, UnusedBindingsGetAResourceAndTheKernelRuns) {
  KlintRun glsl = run("unused.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D unused_image;
layout(set = 0, binding = 1) uniform sampler2D unused_sampler[3];
layout(set = 1, binding = 0) uniform samplerBuffer unused_texels;
layout(set = 0, binding = 2) writeonly buffer Out { uint v[64]; } o;
void main() { o.v[gl_GlobalInvocationID.x] = 7u; }
)");
  EXPECT_EQ(glsl.exit_code, 0) << glsl.out << glsl.err;
  EXPECT_HAS(glsl.out, "guessed: binding 0.0 (unused_image): 64x1 rgba8, a texel per invocation of the grid; the "
                       "kernel never uses it\n");
  EXPECT_HAS(glsl.out, "binding 0.2 o (storage-buffer, 256 bytes): 0 of 64 words never written; first: 7 7 7 7");
  // Their contents are never read, so none is drawn from the seed.
  EXPECT_EQ(glsl.out.find("image and texel contents"), std::string::npos) << glsl.out;
  KlintRun hlsl = run("unused.hlsl", R"(Texture2D<float4> Unused : register(t0);
RWStructuredBuffer<uint> Out : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = 7; }
)");
  EXPECT_EQ(hlsl.exit_code, 0) << hlsl.out << hlsl.err;
  EXPECT_HAS(hlsl.out, "verdict: completed\n");
}

// A renderer's shared header declares more textures than a device allows one
// stage (lavapipe: 32 samplers, 64 storage images); a kernel that uses none
// of them runs without them, where binding them all crashed the driver.
TEST_F(BindCli, UnusedBindingsPastTheDevicesLimitsAreLeftOut) {
  KlintRun glsl = run("many.comp", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D unused_textures[160];
layout(set = 0, binding = 1, rgba8) uniform readonly image2D unused_images[80];
layout(set = 0, binding = 2) writeonly buffer Out { uint v[64]; } o;
void main() { o.v[gl_GlobalInvocationID.x] = 7u; }
)");
  EXPECT_EQ(glsl.exit_code, 0) << glsl.out << glsl.err;
  EXPECT_HAS(glsl.out, "binding 0.2 o (storage-buffer, 256 bytes): 0 of 64 words never written; first: 7 7 7 7");
  EXPECT_HAS(glsl.out, "verdict: completed\n");
  std::string many;
  for (int k = 0; k < 40; ++k) many += "Texture2D<float4> Unused" + std::to_string(k) + " : register(t" + std::to_string(k) + ");\n";
  KlintRun hlsl = run("many.hlsl", many + R"(RWStructuredBuffer<uint> Out : register(u40);
SamplerState Samplers[48] : register(s41);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = 7; }
)");
  EXPECT_EQ(hlsl.exit_code, 0) << hlsl.out << hlsl.err;
  EXPECT_HAS(hlsl.out, "verdict: completed\n");
}

// A race on shared memory in a kernel that samples a texture and writes a
// storage image: it was "not runnable" while the runner bound buffers only.
// Two blocks of one kind on one binding alias one buffer, as Vulkan allows
// (a kernel reading its input as floats and as packed halves); a buffer the
// kernel never touches is bound, but with 64 KiB, not the 200 MB its block
// declares. Kinds that differ on one binding cannot be bound: one line says so.
TEST_F(BindCli, AliasedBuffersShareABindingAndUnusedOnesStaySmall) {
  KlintRun r = run("aliased.comp", R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 0) readonly buffer APacked { uint packed[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };
layout(binding = 2) buffer Huge { float x[25165824]; float y[25165824]; } huge;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = a[i] + float(packed[i] & 1u);
}
)");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "guessed: binding 0.2 (huge): never used by the kernel, so 65536 of its 201326592 bytes\n");
  EXPECT_HAS(r.out, "verdict: completed\n");
  KlintRun mixed = run("mixed.comp", R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 0) buffer Out { float o[]; };
void main() { o[gl_GlobalInvocationID.x] = texelFetch(tex, ivec2(0), 0).x; }
)");
  EXPECT_EQ(mixed.exit_code, 2) << mixed.out << mixed.err;
  EXPECT_HAS(mixed.err, "binding 0.0 is declared 2 times");
}

// HLSL registers of three classes at index 0 all compile to binding 0.0;
// the run gives each class a binding of its own, as a build's register
// shifts would, and says so. The race behind them is then confirmed.
TEST_F(BindCli, HlslRegistersOfSeveralClassesOnOneBindingGetOneEach) {
  const std::string kernel = R"(Texture2D<float4> Input : register(t0);
RWTexture2D<float4> Output : register(u0);
cbuffer Params : register(b0) { uint Width; };
groupshared float Row[64];
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint i : SV_GroupIndex) {
    Row[i] = Input.Load(int3(id.xy, 0)).x;
    Output[id.xy] = float4(Row[(i + 1) % 64], 0, 0, 1);
}
)";
  KlintRun r = run("registers.hlsl", kernel);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "guessed: binding 0.0 (Output, storage-image) moved to 0.1: HLSL registers of 3 classes share "
                    "the binding unless the compiler shifts them apart, as the kernel's build must\n");
  EXPECT_HAS(r.out, "guessed: binding 0.0 (Params, uniform-buffer) moved to 0.2: ");
  EXPECT_HAS(r.out, "verdict: completed\n");
  KlintRun confirm = run("registers2.hlsl", kernel, {"--no-cache", "--confirm", "--select", "shared-memory-race"});
  EXPECT_EQ(confirm.exit_code, 1) << confirm.out << confirm.err;
  EXPECT_HAS(confirm.out, "  confirmed: at subgroup size ");
  EXPECT_HAS(confirm.out, "moved to 0.1");
}

TEST_F(BindCli, RaceInAKernelWithImagesIsConfirmed) {
  const char* glsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D lut;
layout(set = 0, binding = 1, rgba32f) writeonly uniform image2D result;
shared float tile[64];
void main() {
  uint i = gl_LocalInvocationID.x;
  tile[i] = texelFetch(lut, ivec2(i, 0), 0).x;
  imageStore(result, ivec2(i, 0), vec4(tile[(i + 1u) % 64u]));
}
)";
  KlintRun g = run("race.comp", glsl, {"--confirm"});
  EXPECT_HAS(g.out, "  confirmed: ");
  EXPECT_HAS(g.out, "race on tile[");
  const char* hlsl = R"(Texture2D<float4> Lut : register(t0);
RWTexture2D<float4> Result : register(u1);
groupshared float Tile[64];
[numthreads(64, 1, 1)]
void main(uint3 id : SV_GroupThreadID) {
  Tile[id.x] = Lut.Load(int3(id.x, 0, 0)).x;
  Result[uint2(id.x, 0)] = Tile[(id.x + 1) % 64];
}
)";
  KlintRun h = run("race.hlsl", hlsl, {"--confirm"});
  EXPECT_HAS(h.out, "  confirmed: ");
  EXPECT_HAS(h.out, "race on Tile[");
}

}  // namespace
}  // namespace klint
