// Harnesses from a [[kernel]] manifest: buffer sizes, push-constant bytes at
// their offsets, specialization constants, the grid, sentinels, what is still
// guessed, and names the kernel does not have.
#include "runner/manifest.h"

#include <gtest/gtest.h>

#include <cstring>

#include "driver/config_file.h"
#include "tests/runner/kernels.h"
#include "tests/support/scratch.h"

namespace klint::runner {
namespace {

const char* kKernel = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint BLOCK = 64;
layout(constant_id = 1) const float SCALE = 1.0;
layout(constant_id = 2) const bool FAST = false;
layout(constant_id = 3) const int BIAS = 0;
layout(push_constant) uniform Push {
  uint n;           // 0
  float eps;        // 4
  int k;            // 8
  float16_t h;      // 12
  double d;         // 16
  uint64_t big;     // 24
  vec2 range;       // 32
  uint unnamed;     // 40
} push;
layout(set = 0, binding = 0) readonly buffer In { vec4 header; float values[]; } in_;
layout(set = 0, binding = 1) writeonly buffer Out { float results[]; } out_;
layout(set = 0, binding = 2) buffer Counts { uint counts[]; };
layout(set = 1, binding = 0) uniform Params { vec2 range; } params;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float extra = float(push.h) + float(push.d) + float(push.big) + push.range.x + float(push.unnamed) + float(push.k);
  out_.results[i] = in_.values[i] * SCALE + float(BLOCK + uint(BIAS)) + params.range.x + push.eps + extra +
                    (FAST ? 1.0 : 0.0);
  counts[i % push.n] += 1u;
}
)";

class ManifestHarness : public klint::testing::ScratchCwdTest {
 protected:
  void SetUp() override {
    ScratchCwdTest::SetUp();
    write("k.comp", "// compiled from kKernel, not read\n");
    std::string error;
    std::optional<reflect::ModuleReflection> module =
        reflect::reflect_module(testing::spirv_from_glsl(kKernel), &error);
    ASSERT_TRUE(module) << error;
    module_ = *module;
  }

  // The manifest of a klint.toml holding `table` after `file = "k.comp"`.
  KernelManifest manifest(const std::string& table) {
    std::string error;
    std::optional<ConfigFile> config =
        parse_config("[[kernel]]\nfile = \"k.comp\"\n" + table, path("klint.toml"), &error);
    EXPECT_TRUE(config) << error;
    if (!config || config->kernels.empty()) return {};
    return config->kernels.front();
  }

  std::optional<Harness> harness(const std::string& table, const Shape& shape, std::string* error) {
    return manifest_harness(module_.entry_points.front(), module_, manifest(table), shape, HarnessOptions{}, error);
  }

  Harness good(const std::string& table, const Shape& shape = {}) {
    std::string error;
    std::optional<Harness> made = harness(table, shape, &error);
    EXPECT_TRUE(made) << error;
    return made.value_or(Harness{});
  }

  std::string error_for(const std::string& table, const Shape& shape = {}) {
    std::string error;
    EXPECT_FALSE(harness(table, shape, &error)) << table;
    return error;
  }

  reflect::ModuleReflection module_;
};

const Shape kShape{{"rows", int64_t{4}}, {"cols", int64_t{256}}};
constexpr const char* kVariables = "variables = [\"rows\", \"cols\"]\n";

template <class T>
T at(const std::vector<uint8_t>& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

TEST_F(ManifestHarness, SizesNamedRuntimeArraysAndGuessesTheRest) {
  Harness h = good(std::string(kVariables) + "buffers = { in_ = \"rows * cols\", \"0.1\" = \"cols + 1\" }\n"
                                              "grid = [\"rows\", 2]\n",
                   kShape);
  ASSERT_EQ(h.buffers.size(), 4u);
  EXPECT_EQ(h.buffers[0].data.size(), 16u + 4 * 1024);  // the header, then rows * cols floats
  EXPECT_EQ(h.buffers[1].data.size(), 4u * 257);
  // Counts is not named: 64 KiB of elements, as default_harness guesses.
  EXPECT_EQ(h.buffers[2].data.size(), 65536u);
  EXPECT_EQ(h.buffers[3].data.size(), 8u);  // a fixed-size uniform block, as declared
  EXPECT_EQ(h.grid, (std::array<uint32_t, 3>{4, 2, 1}));
  EXPECT_EQ(h.shape, (std::vector<std::pair<std::string, std::string>>{{"rows", "4"}, {"cols", "256"}}));
  const std::vector<std::string> guesses{
      "binding 0.2 (Counts): 16384 elements of its runtime array counts",
      "buffer contents: every 32-bit word a float in [-1,1] from seed 1",
      "binding 0.1 (out_): only written, every word starts as the sentinel 0x7ff57ff5",
      "push constants: 0 for n, eps, k, h, d, big, range, unnamed (not in the manifest)",
  };
  EXPECT_EQ(h.guesses, guesses);
  EXPECT_TRUE(h.specialization.empty());
}

TEST_F(ManifestHarness, BlockTypeNamesAndZeroElements) {
  Harness h = good("buffers = { In = 0, Out = 3 }\ngrid = [2]\n");
  EXPECT_EQ(h.buffers[0].data.size(), 16u);  // the fixed part only
  EXPECT_EQ(h.buffers[1].data.size(), 12u);
  EXPECT_EQ(h.grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_TRUE(h.shape.empty());
}

TEST_F(ManifestHarness, SentinelsAndSeededContents) {
  Harness h = good("buffers = { in_ = 4, out_ = 5, Counts = 2 }\nseed = 7\n");
  EXPECT_FALSE(h.buffers[0].sentinel);
  EXPECT_TRUE(h.buffers[1].sentinel);
  EXPECT_FALSE(h.buffers[2].sentinel);  // read and written
  EXPECT_EQ(count_sentinel_words(h.buffers[1].data), 5u);
  EXPECT_EQ(count_sentinel_words(h.buffers[0].data), 0u);
  // in_, then Counts, then Params draw from seed 7 in binding order; out_ draws nothing.
  SplitMix64 random(7);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(at<float>(h.buffers[0].data, 4 * i), random.next_float()) << i;
  EXPECT_EQ(at<float>(h.buffers[2].data, 0), random.next_float());
  EXPECT_EQ(at<float>(h.buffers[2].data, 4), random.next_float());
  EXPECT_EQ(at<float>(h.buffers[3].data, 0), random.next_float());
}

TEST_F(ManifestHarness, PushConstantsAtTheirOffsetsInTheirTypes) {
  Harness h = good(std::string(kVariables) +
                       "push-constants = { n = \"cols\", eps = 1e-5, k = \"-rows\", h = 0.5, d = \"1.0 / rows\", "
                       "big = 0x100000000 }\n",
                   kShape);
  ASSERT_EQ(h.push_constants.size(), 44u);
  EXPECT_EQ(at<uint32_t>(h.push_constants, 0), 256u);
  EXPECT_EQ(at<float>(h.push_constants, 4), 1e-5f);
  EXPECT_EQ(at<int32_t>(h.push_constants, 8), -4);
  EXPECT_EQ(at<uint16_t>(h.push_constants, 12), 0x3800);  // 0.5 in binary16
  EXPECT_EQ(at<uint16_t>(h.push_constants, 14), 0u);
  EXPECT_EQ(at<double>(h.push_constants, 16), 0.25);
  EXPECT_EQ(at<uint64_t>(h.push_constants, 24), 0x100000000ull);
  for (size_t offset = 32; offset < 44; offset += 4) EXPECT_EQ(at<uint32_t>(h.push_constants, offset), 0u);
  EXPECT_EQ(h.guesses.back(), "push constants: 0 for range, unnamed (not in the manifest)");
}

TEST_F(ManifestHarness, HalfPrecisionRoundsToNearestEven) {
  const std::vector<std::pair<std::string, uint16_t>> cases{
      {"1", 0x3C00},        {"-2", 0xC000},      {"65504", 0x7BFF},   {"70000", 0x7C00},
      {"1.0009765625", 0x3C01}, {"1.00048828125", 0x3C00},  // halfway to an odd mantissa: stays even
      {"5.960464477539063e-08", 0x0001},  // the smallest subnormal
      {"0", 0x0000},
  };
  for (const auto& [value, bits] : cases) {
    Harness h = good("push-constants = { h = " + value + " }\n");
    EXPECT_EQ(at<uint16_t>(h.push_constants, 12), bits) << value;
  }
}

TEST_F(ManifestHarness, SpecializationByIdAndNameInTheConstantsTypes) {
  Harness h = good(std::string(kVariables) +
                       "specialization = { 0 = \"cols / 2\", SCALE = 0.5, FAST = true, BIAS = \"-rows\" }\n",
                   kShape);
  ASSERT_EQ(h.specialization.size(), 4u);
  EXPECT_EQ(h.specialization[0].id, 0u);
  EXPECT_EQ(h.specialization[0].bytes.size(), 4u);
  EXPECT_EQ(at<uint32_t>(h.specialization[0].bytes, 0), 128u);
  EXPECT_EQ(h.specialization[1].id, 1u);
  EXPECT_EQ(at<float>(h.specialization[1].bytes, 0), 0.5f);
  EXPECT_EQ(h.specialization[2].id, 2u);
  EXPECT_EQ(at<uint32_t>(h.specialization[2].bytes, 0), 1u);  // VkBool32
  EXPECT_EQ(h.specialization[3].id, 3u);
  EXPECT_EQ(at<int32_t>(h.specialization[3].bytes, 0), -4);
}

TEST_F(ManifestHarness, SetSpecializationReplacesAValueAndRefusesWhatDoesNotFit) {
  Harness h = good("specialization = { BLOCK = 32 }\n");
  std::string error;
  ASSERT_TRUE(set_specialization(module_, "0", int64_t{16}, h, &error)) << error;
  ASSERT_TRUE(set_specialization(module_, "SCALE", 2.0, h, &error)) << error;
  ASSERT_EQ(h.specialization.size(), 2u);
  EXPECT_EQ(h.specialization[0].id, 0u);
  EXPECT_EQ(at<uint32_t>(h.specialization[0].bytes, 0), 16u);
  EXPECT_EQ(at<float>(h.specialization[1].bytes, 0), 2.0f);
  EXPECT_FALSE(set_specialization(module_, "BLOK", int64_t{1}, h, &error));
  EXPECT_EQ(error, "no specialization constant 'BLOK' (did you mean 'BLOCK'?); it has 0 (BLOCK), 1 (SCALE), 2 (FAST), "
                   "3 (BIAS)");
  EXPECT_FALSE(set_specialization(module_, "BLOCK", int64_t{-1}, h, &error));
  EXPECT_TRUE(error.starts_with("specialization constant 'BLOCK' is a uint: ")) << error;
}

// A workgroup dimension a specialization constant sets is what the harness
// gives that constant, else its default; fixed dimensions stay as declared.
TEST(WorkgroupSize, FollowsTheConstantsThatSetIt) {
  std::string error;
  std::optional<reflect::ModuleReflection> module = reflect::reflect_module(
      testing::spirv_from_glsl("#version 450\nlayout(local_size_x_id = 3, local_size_y = 2) in;\n"
                               "layout(constant_id = 3) const uint WIDTH = 64;\nvoid main() {}\n"),
      &error);
  ASSERT_TRUE(module) << error;
  const reflect::EntryPoint& entry = module->entry_points.front();
  Harness h;
  EXPECT_EQ(workgroup_size(entry, h), (std::array<uint32_t, 3>{64, 2, 1}));
  set_workgroup_size(entry, 0, 16, h);
  set_workgroup_size(entry, 1, 8, h);  // fixed by the module: nothing to set
  EXPECT_EQ(workgroup_size(entry, h), (std::array<uint32_t, 3>{16, 2, 1}));
  ASSERT_EQ(h.specialization.size(), 1u);
  EXPECT_EQ(h.specialization[0].id, 3u);
  set_workgroup_size(entry, 0, 32, h);
  ASSERT_EQ(h.specialization.size(), 1u);
  EXPECT_EQ(workgroup_size(entry, h)[0], 32u);
}

TEST_F(ManifestHarness, NamesTheKernelLacksAreErrorsWithSuggestions) {
  const std::string v(kVariables);
  struct Case {
    std::string table;
    std::string error;
  };
  const std::vector<Case> cases{
      {"buffers = { in = 4 }\n",
       "klint.toml:3:13: main has no binding 'in' (did you mean 'in_'?); it has in_ (0.0), out_ (0.1), Counts (0.2), "
       "params (1.0)"},
      {"buffers = { \"2.0\" = 4 }\n",
       "klint.toml:3:13: main has no binding '2.0'; it has in_ (0.0), out_ (0.1), Counts (0.2), params (1.0)"},
      {"buffers = { params = 4 }\n",
       "klint.toml:3:13: binding 1.0 (params) has no runtime array: its block is 8 bytes, as declared"},
      {"buffers = { in_ = 4, \"0.0\" = 5 }\n", "klint.toml:3:22: binding 0.0 (in_) is sized twice in 'buffers'"},
      {"expected = { out = \"o.bin\" }\n",
       "klint.toml:3:14: main has no binding 'out' (did you mean 'out_'?); it has in_ (0.0), out_ (0.1), Counts "
       "(0.2), params (1.0)"},
      {"push-constants = { epss = 1 }\n",
       "klint.toml:3:20: the push constants of main have no member 'epss' (did you mean 'eps'?)"},
      {"push-constants = { range = 1 }\n",
       "klint.toml:3:20: push constant 'range' is a vec2: the manifest sets scalar members only"},
      {"push-constants = { n = -1 }\n", "klint.toml:3:24: push constant 'n' is a uint: -1 is out of its range"},
      {"push-constants = { k = 0x80000000 }\n",
       "klint.toml:3:24: push constant 'k' is an int: 2147483648 is out of its range"},
      {"push-constants = { n = 1.5 }\n", "klint.toml:3:24: push constant 'n' is a uint: 1.5 is not an integer"},
      {"specialization = { BLOCKS = 1 }\n",
       "klint.toml:3:20: no specialization constant 'BLOCKS' (did you mean 'BLOCK'?); it has 0 (BLOCK), 1 (SCALE), "
       "2 (FAST), 3 (BIAS)"},
      {"specialization = { 7 = 1 }\n",
       "klint.toml:3:20: no specialization constant with constant_id '7'; it has 0 (BLOCK), 1 (SCALE), 2 (FAST), "
       "3 (BIAS)"},
      {"specialization = { 0 = 1, BLOCK = 2 }\n", "klint.toml:3:27: specialization constant 0 is set twice"},
      {"specialization = { BLOCK = -1 }\n",
       "klint.toml:3:28: specialization constant 'BLOCK' is a uint: -1 is out of its range"},
      {"entry-point = \"mian\"\n", ""},  // checked by manifest_entry_point, below
      {v + "grid = [\"rows - 4\"]\n", "klint.toml:4:9: 'rows - 4' is 0 for shape rows=4 cols=256: workgroups must be "
                                      "an integer from 1 to 4294967295"},
      {v + "buffers = { in_ = \"rows - 5\" }\n",
       "klint.toml:4:19: 'rows - 5' is -1 for shape rows=4 cols=256: elements of binding 0.0 (in_) must be an "
       "integer, 0 or more"},
      {v + "buffers = { in_ = \"cols / (rows - 4)\" }\n",
       "klint.toml:4:19: division by zero in 'cols / (rows - 4)' for shape rows=4 cols=256"},
      {v + "push-constants = { eps = \"1 % (rows - rows)\" }\n",
       "klint.toml:4:26: division by zero in '1 % (rows - rows)' for shape rows=4 cols=256"},
      {"buffers = { in_ = 0x100000000 }\n",
       "klint.toml:3:19: 4294967296 elements of binding 0.0 (in_) are more than a descriptor's 4 GiB range"},
  };
  for (const Case& c : cases) {
    if (c.error.empty()) continue;
    EXPECT_EQ(error_for(c.table, c.table.starts_with("variables") ? kShape : Shape{}), c.error) << c.table;
  }
  std::string error;
  EXPECT_FALSE(manifest_entry_point(module_, manifest("entry-point = \"mian\"\n"), &error));
  EXPECT_EQ(error, "klint.toml:3:15: k.comp has no compute entry point 'mian' (did you mean 'main'?)");
  EXPECT_EQ(manifest_entry_point(module_, manifest(""), &error), &module_.entry_points.front());
}

TEST_F(ManifestHarness, KernelsWithoutPushConstantsRefuseThem) {
  std::string error;
  std::optional<reflect::ModuleReflection> module = reflect::reflect_module(
      testing::spirv_from_glsl("#version 450\nlayout(local_size_x = 1) in;\n"
                               "layout(binding = 0) buffer B { uint b[]; };\nvoid main() { b[0] = 1u; }\n"),
      &error);
  ASSERT_TRUE(module) << error;
  EXPECT_FALSE(manifest_harness(module->entry_points.front(), *module, manifest("push-constants = { n = 1 }\n"), {},
                                {}, &error));
  EXPECT_EQ(error, "klint.toml:3:20: main has no push constants");
  std::optional<Harness> h =
      manifest_harness(module->entry_points.front(), *module, manifest(""), {}, {}, &error);
  ASSERT_TRUE(h) << error;
  EXPECT_EQ(h->guesses, (std::vector<std::string>{
                            "grid 1,1,1 workgroups (the manifest gives no grid)",
                            "binding 0.0 (B): 16384 elements of its runtime array b",
                            "binding 0.0 (B): only written, every word starts as the sentinel 0x7ff57ff5",
                        }));
}

// What klint writes into a klint.toml (reproducers, --show-config) reads back
// as the same text: quotes and backslashes escaped, control characters too.
TEST(TomlString, EscapesWhatTomlForbids) {
  EXPECT_EQ(toml_string("shared inc"), "\"shared inc\"");
  EXPECT_EQ(toml_string("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\u000ad\\u0009e\"");
}

}  // namespace
}  // namespace klint::runner
