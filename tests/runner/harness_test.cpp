// Harnesses made up from reflection: sizes, the seeded contents, what they
// say they guessed, and bindings they cannot give.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "reflect/reflection.h"
#include "runner/harness.h"
#include "tests/runner/kernels.h"

namespace klint::runner {
namespace {

reflect::EntryPoint entry_of(const std::string& source) {
  std::string error;
  std::optional<reflect::ModuleReflection> module = reflect::reflect_module(testing::spirv_from_glsl(source), &error);
  if (!module) {
    ADD_FAILURE() << error;
    return {};
  }
  return module->entry_points.front();
}

TEST(SplitMix64, MatchesTheReferenceSequence) {
  // The first outputs of the reference implementation (Vigna's splitmix64.c) from seed 0.
  SplitMix64 random(0);
  EXPECT_EQ(random.next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(random.next(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(random.next(), 0x06C45D188009454Full);
}

TEST(SplitMix64, FloatsStayWithinMinusOneAndOne) {
  SplitMix64 random(42);
  float low = 1, high = -1;
  for (int i = 0; i < 10000; ++i) {
    float value = random.next_float();
    ASSERT_GE(value, -1.0f);
    ASSERT_LE(value, 1.0f);
    low = std::min(low, value);
    high = std::max(high, value);
  }
  EXPECT_LT(low, -0.99f);
  EXPECT_GT(high, 0.99f);
}

const char* kKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint n; float scale; } push;
layout(set = 0, binding = 0) readonly buffer In { vec4 header; float values[]; } in_;
layout(set = 0, binding = 1) buffer Out { float results[100]; } out_;
layout(set = 1, binding = 0) uniform Params { vec2 range; } params;
void main() {
  uint i = gl_GlobalInvocationID.x;
  out_.results[i % 100] = in_.values[i] * push.scale + params.range.x + in_.header.x;
}
)";

TEST(DefaultHarness, SizesEachBufferFromItsBlock) {
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(kKernel), {}, &error);
  ASSERT_TRUE(harness) << error;
  ASSERT_EQ(harness->buffers.size(), 3u);
  const BufferSpec& in = harness->buffers[0];
  EXPECT_EQ(in.name, "in_");
  EXPECT_EQ(in.kind, BufferKind::Storage);
  EXPECT_EQ(in.data.size(), 16u + 64 * 1024);  // the header, then 64 KiB of floats
  EXPECT_EQ(harness->buffers[1].data.size(), 400u);
  EXPECT_EQ(harness->buffers[2].kind, BufferKind::Uniform);
  EXPECT_EQ(harness->buffers[2].set, 1u);
  EXPECT_EQ(harness->buffers[2].data.size(), 8u);
  EXPECT_EQ(harness->push_constants, std::vector<uint8_t>(8, 0));
  EXPECT_EQ(harness->grid, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_TRUE(harness->specialization.empty());
  const std::vector<std::string> guesses{
      "grid 1,1,1 workgroups",
      "binding 0.0 (in_): 16384 elements of its runtime array values",
      "buffer contents: every 32-bit word a float in [-1,1] from seed 1",
      "binding 0.1 (out_): only written, every word starts as the sentinel 0x7ff57ff5",
      "push constants: zero",
  };
  EXPECT_EQ(harness->guesses, guesses);
}

// out_ is only written: it starts as the sentinel and draws nothing from the
// sequence, so the push constants' first word follows in_'s last.
TEST(DefaultHarness, BuffersOnlyWrittenStartAsTheSentinel) {
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(kKernel), {}, &error);
  ASSERT_TRUE(harness) << error;
  const BufferSpec& in = harness->buffers[0];
  const BufferSpec& out = harness->buffers[1];
  EXPECT_FALSE(in.sentinel);
  EXPECT_TRUE(out.sentinel);
  EXPECT_FALSE(harness->buffers[2].sentinel);  // a uniform block is only read
  EXPECT_EQ(count_sentinel_words(out.data), 100u);
  EXPECT_EQ(count_sentinel_words(in.data), 0u);
  EXPECT_EQ(testing::word(out.data, 0), kSentinelWord);
  EXPECT_EQ(testing::word(out.data, 99), kSentinelWord);
  SplitMix64 random(1);
  for (size_t i = 0; i < in.data.size() / 4; ++i) random.next_float();
  const float params_first = random.next_float();
  float first;
  std::memcpy(&first, harness->buffers[2].data.data(), 4);
  EXPECT_EQ(first, params_first);
}

TEST(DefaultHarness, WriteonlyQualifierMakesASentinelBufferToo) {
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) writeonly buffer A { uint a[4]; };
layout(set = 0, binding = 1) buffer B { uint b[4]; };
layout(set = 0, binding = 2) buffer C { uint c[4]; };
void main() { a[0] = 1u; b[1] = b[0] + 1u; atomicAdd(c[0], 1u); }
)";
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(source), {}, &error);
  ASSERT_TRUE(harness) << error;
  ASSERT_EQ(harness->buffers.size(), 3u);
  EXPECT_TRUE(harness->buffers[0].sentinel);
  EXPECT_FALSE(harness->buffers[1].sentinel);  // read and written
  EXPECT_FALSE(harness->buffers[2].sentinel);  // an atomic reads what it adds to
  EXPECT_EQ(count_sentinel_words(harness->buffers[0].data), 4u);
  EXPECT_EQ(count_sentinel_words(harness->buffers[1].data), 0u);
}

// The sentinel reads as a NaN in every float width, none of them canonical.
// A run reads back only what the kernel may write: storage buffers it stores
// to or updates atomically, never a uniform block or a buffer it only reads.
TEST(DefaultHarness, OnlyBuffersTheKernelWritesCountAsWritten) {
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(kKernel), {}, &error);
  ASSERT_TRUE(harness) << error;
  ASSERT_EQ(harness->buffers.size(), 3u);
  EXPECT_FALSE(harness->buffers[0].written);  // readonly
  EXPECT_TRUE(harness->buffers[1].written);
  EXPECT_FALSE(harness->buffers[2].written);  // uniform
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { uint a[4]; };
layout(set = 0, binding = 1) buffer B { uint b[4]; };
layout(set = 0, binding = 2) buffer C { uint c[4]; };
void main() { a[1] = b[0]; atomicAdd(c[0], 1u); }
)";
  harness = default_harness(entry_of(source), {}, &error);
  ASSERT_TRUE(harness) << error;
  ASSERT_EQ(harness->buffers.size(), 3u);
  EXPECT_TRUE(harness->buffers[0].written);
  EXPECT_FALSE(harness->buffers[1].written);  // only read, though not declared readonly
  EXPECT_TRUE(harness->buffers[2].written);
}

// Blocks on one binding are views of one buffer: one buffer, as large as the
// largest view needs, filled as read when one view reads it, and never cut to
// an unused binding's size because one view goes unused.
TEST(DefaultHarness, BlocksOnOneBindingShareOneBufferSizedForTheLargest) {
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer Scalars { float s[]; };
layout(set = 0, binding = 0) readonly buffer Vectors { vec4 v[8192]; };
layout(set = 0, binding = 0) readonly buffer Unused { vec4 u[65536]; };
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };
layout(set = 0, binding = 1) writeonly buffer OutPairs { vec2 p[16384]; };
void main() { o[0] = s[0] + v[1].x; p[1] = vec2(1.0); }
)";
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(source), {}, &error);
  ASSERT_TRUE(harness) << error;
  ASSERT_EQ(harness->buffers.size(), 2u);
  const BufferSpec& in = harness->buffers[0];
  EXPECT_EQ(in.binding, 0u);
  EXPECT_EQ(in.data.size(), 16u * 8192);  // Vectors', not the unused view's 1 MiB
  EXPECT_FALSE(in.sentinel);
  EXPECT_FALSE(in.written);
  const BufferSpec& out = harness->buffers[1];
  EXPECT_EQ(out.binding, 1u);
  EXPECT_EQ(out.data.size(), 8u * 16384);  // OutPairs', more than Out's 64 KiB
  EXPECT_TRUE(out.sentinel);  // every view of it is only written
  EXPECT_TRUE(out.written);
  const std::vector<std::string> guesses{
      "grid 1,1,1 workgroups",
      "binding 0.0 (Scalars): 16384 elements of its runtime array s",
      "binding 0.1 (Out): 16384 elements of its runtime array o",
      "buffer contents: every 32-bit word a float in [-1,1] from seed 1",
      "binding 0.1 (Out): only written, every word starts as the sentinel 0x7ff57ff5",
  };
  EXPECT_EQ(harness->guesses, guesses);
}

TEST(Sentinel, IsANonCanonicalNanAsFloatHalfAndDouble) {
  float single;
  std::memcpy(&single, &kSentinelWord, 4);
  EXPECT_TRUE(std::isnan(single));
  EXPECT_NE(kSentinelWord, 0x7FC00000u);
  EXPECT_NE(kSentinelWord, 0xFFC00000u);
  EXPECT_NE(kSentinelWord, 0x7FFFFFFFu);
  for (uint32_t half : {kSentinelWord & 0xFFFF, kSentinelWord >> 16}) {
    EXPECT_EQ(half & 0x7C00, 0x7C00u) << std::hex << half;  // exponent all ones
    EXPECT_NE(half & 0x03FF, 0u) << std::hex << half;       // mantissa not zero: NaN, not infinity
    EXPECT_NE(half, 0x7E00u);
  }
  const uint64_t wide = (uint64_t{kSentinelWord} << 32) | kSentinelWord;
  double real;
  std::memcpy(&real, &wide, 8);
  EXPECT_TRUE(std::isnan(real));
}

TEST(DefaultHarness, RuntimeArraysGrowWithTheGrid) {
  HarnessOptions options;
  options.grid = {100, 2, 1};  // 12800 invocations, 4 floats each: more than 64 KiB
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(kKernel), options, &error);
  ASSERT_TRUE(harness) << error;
  EXPECT_EQ(harness->buffers[0].data.size(), 16u + 4 * 4 * 12800);
  EXPECT_EQ(harness->guesses[0], "grid 100,2,1 workgroups");
  options.grid = {65535, 65535, 1};  // but not beyond 64 MiB
  harness = default_harness(entry_of(kKernel), options, &error);
  ASSERT_TRUE(harness) << error;
  EXPECT_EQ(harness->buffers[0].data.size(), 16u + 64 * 1024 * 1024);
}

TEST(DefaultHarness, ContentsFollowTheSeed) {
  const reflect::EntryPoint entry = entry_of(kKernel);
  std::string error;
  HarnessOptions options;
  std::optional<Harness> one = default_harness(entry, options, &error);
  std::optional<Harness> again = default_harness(entry, options, &error);
  options.seed = 2;
  std::optional<Harness> two = default_harness(entry, options, &error);
  ASSERT_TRUE(one && again && two) << error;
  EXPECT_EQ(one->buffers[0].data, again->buffers[0].data);
  EXPECT_EQ(one->push_constants, again->push_constants);
  EXPECT_NE(one->buffers[0].data, two->buffers[0].data);
  // The first word is splitmix64's first float from seed 1.
  SplitMix64 random(1);
  float first;
  std::memcpy(&first, one->buffers[0].data.data(), 4);
  EXPECT_EQ(first, random.next_float());
}

// Without contents a harness still tells its setup (grid, push constants,
// specialization) but makes no buffer or resource.
TEST(DefaultHarness, WithoutContentsItMakesNoBuffers) {
  const reflect::EntryPoint entry = entry_of(kKernel);
  std::string error;
  HarnessOptions options;
  options.grid = {3, 1, 1};
  std::optional<Harness> full = default_harness(entry, options, &error);
  options.contents = false;
  std::optional<Harness> light = default_harness(entry, options, &error);
  ASSERT_TRUE(full && light) << error;
  EXPECT_FALSE(full->buffers.empty());
  EXPECT_TRUE(light->buffers.empty());
  EXPECT_TRUE(light->resources.empty());
  EXPECT_EQ(light->grid, full->grid);
  EXPECT_EQ(light->push_constants, full->push_constants);
}

// A buffer of float16_t holds two halves in [-1,1] per word, both from one
// draw: the buffer after it holds what it would after as many bytes of floats.
TEST(DefaultHarness, HalfBuffersHoldHalvesAndLeaveTheNextBuffersContents) {
  auto kernel = [](const char* element, int count) {
    return fmt::format(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A {{ {} a[{}]; }};
layout(set = 0, binding = 1) buffer B {{ float b[64]; }};
void main() {{ b[gl_LocalInvocationIndex] += float(a[gl_LocalInvocationIndex]); }}
)",
                       element, count);
  };
  std::string error;
  std::optional<Harness> halves = default_harness(entry_of(kernel("float16_t", 128)), HarnessOptions{}, &error);
  std::optional<Harness> floats = default_harness(entry_of(kernel("float", 64)), HarnessOptions{}, &error);
  ASSERT_TRUE(halves && floats) << error;
  ASSERT_EQ(halves->buffers.size(), 2u);
  ASSERT_EQ(halves->buffers[0].data.size(), 256u);
  float low = 1, high = -1;
  for (size_t offset = 0; offset < 256; offset += 2) {
    uint16_t bits;
    std::memcpy(&bits, halves->buffers[0].data.data() + offset, 2);
    const float value = from_half(bits);
    ASSERT_TRUE(std::isfinite(value)) << offset;
    ASSERT_LE(std::fabs(value), 1.0f) << offset;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  EXPECT_LT(low, -0.5f);
  EXPECT_GT(high, 0.5f);
  EXPECT_EQ(halves->buffers[1].data, floats->buffers[1].data) << "one draw per word in both";
  EXPECT_NE(std::find(halves->guesses.begin(), halves->guesses.end(),
                      "binding 0.0 (A): every 16-bit half of a word a float16_t in [-1,1]"),
            halves->guesses.end());
}

// An image is a resource of its declared format, a texel per invocation of
// the grid; one the kernel only writes starts as the sentinel.
TEST(DefaultHarness, ImagesGetAResourceOfTheirFormat) {
  const char* source = R"(#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 3, r32f) uniform image2D picture;
void main() { imageStore(picture, ivec2(gl_GlobalInvocationID.xy), vec4(1)); }
)";
  std::string error;
  HarnessOptions options;
  options.grid = {2, 1, 1};
  std::optional<Harness> harness = default_harness(entry_of(source), options, &error);
  ASSERT_TRUE(harness) << error;
  EXPECT_TRUE(harness->buffers.empty());
  ASSERT_EQ(harness->resources.size(), 1u);
  const ResourceSpec& picture = harness->resources[0];
  EXPECT_EQ(picture.kind, ResourceKind::StorageImage);
  EXPECT_EQ(picture.format_name, "r32f");
  EXPECT_EQ(picture.extent, (std::array<uint32_t, 3>{8, 2, 1}));
  EXPECT_TRUE(picture.sentinel);
  ASSERT_EQ(picture.data.size(), 1u);
  EXPECT_EQ(picture.data[0].size(), 8u * 2u * 4u);
  EXPECT_EQ(count_sentinel_words(picture.data[0]), 16u);
}

// An image the kernel never uses is never bound: it gets its shape and no
// texels, which each run would otherwise copy to the worker that runs it.
TEST(DefaultHarness, AnImageTheKernelNeverUsesGetsNoTexels) {
  const char* source = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D unused[3];
layout(set = 0, binding = 1, r32f) uniform image2D picture;
void main() { imageStore(picture, ivec2(gl_GlobalInvocationID.xy), vec4(1)); }
)";
  std::string error;
  std::optional<Harness> harness = default_harness(entry_of(source), {}, &error);
  ASSERT_TRUE(harness) << error;
  ASSERT_EQ(harness->resources.size(), 2u);
  const ResourceSpec& unused = harness->resources[0].binding == 0 ? harness->resources[0] : harness->resources[1];
  const ResourceSpec& picture = harness->resources[0].binding == 1 ? harness->resources[0] : harness->resources[1];
  EXPECT_EQ(unused.count, 3u);
  EXPECT_GT(unused.extent[0], 0u);
  ASSERT_EQ(unused.data.size(), 3u);
  for (const std::vector<uint8_t>& element : unused.data) EXPECT_TRUE(element.empty());
  ASSERT_EQ(picture.data.size(), 1u);
  EXPECT_FALSE(picture.data[0].empty());
}

}  // namespace
}  // namespace klint::runner
