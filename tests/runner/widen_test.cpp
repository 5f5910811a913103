// The copy of a kernel that sums its 16-bit accumulators in 32 bits
// (runner/widen.h), made from the accumulators the half-precision rule
// names: what it widens, what it leaves at 16 bits, that the result is valid
// SPIR-V, and what it refuses. No run: tests/rules/half-precision-accumulator
// holds the runs (Rules/Confirm).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/ir/module.h"
#include "rules/rule.h"
#include "runner/widen.h"
#include "tests/support/compile.h"
#include "validate/spirv_val.h"

namespace klint::runner {
namespace {

using spv::Op;

struct Kernel {
  std::unique_ptr<Module> module;
  std::vector<uint32_t> words;
  std::vector<size_t> accumulators;  // of the rule's first finding
  bool matrix = false;               // one of its accumulators is a cooperative matrix
};

Kernel kernel(const std::string& source) {
  Kernel k;
  k.module = klint::testing::module_from_glsl(source);
  if (!k.module) return k;
  k.words = ir::encode(k.module->ir());
  RuleSelection selection;
  selection.select.push_back(RuleRegistry::find("half-precision-accumulator"));
  std::vector<Diagnostic> found = run_rules(*k.module, selection, RuleOptions{});
  if (found.empty()) {
    ADD_FAILURE() << "no half-precision-accumulator finding";
    return k;
  }
  k.accumulators = half_accumulators(k.words, found.front().instructions, &k.matrix);
  return k;
}

// The width of each float arithmetic opcode's results in a module: opcode,
// width → how many.
std::map<std::pair<Op, uint32_t>, int> arithmetic(const std::vector<uint32_t>& words) {
  std::optional<ir::Module> m = ir::decode(words, nullptr);
  std::map<uint32_t, uint32_t> width;  // float or vector type: its component's width
  std::map<std::pair<Op, uint32_t>, int> out;
  if (!m) return out;
  for (const ir::Instruction& i : m->globals) {
    if (i.opcode() == Op::OpTypeFloat) width[i.result_id()] = i.word(1);
    if (i.opcode() == Op::OpTypeVector && width.count(i.word(1))) width[i.result_id()] = width[i.word(1)];
  }
  m->for_each_instruction([&](const ir::Instruction& i) {
    const Op op = i.opcode();
    if ((op == Op::OpFAdd || op == Op::OpFMul || op == Op::OpPhi || op == Op::OpFConvert || op == Op::OpDot ||
         op == Op::OpCopyObject) &&
        width.count(i.type_id())) {
      ++out[{op, width[i.type_id()]}];
    }
  });
  return out;
}

void expect_valid(const std::vector<uint32_t>& words) {
  for (const ValidationMessage& m : validate_spirv(words, SPV_ENV_VULKAN_1_3)) ADD_FAILURE() << m.message;
}

constexpr const char* kDotProduct = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { float16_t x[]; };
layout(binding = 1) writeonly buffer Y { float16_t y[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint row = gl_GlobalInvocationID.x;
    float16_t acc = float16_t(0.0);
    for (uint i = 0; i < n; ++i) acc += x[row * n + i] * x[i];
    y[row] = acc;
}
)";

// The sum runs in 32 bits; the product of two halves stays a 16-bit
// multiply, converted up where the sum reads it; the sum is converted down
// once, for the 16-bit store.
TEST(Widen, ASumCarriedByAPhiRunsIn32BitsAndItsTermsStayHalves) {
  Kernel k = kernel(kDotProduct);
  ASSERT_EQ(k.accumulators.size(), 1u);
  std::string error;
  std::optional<std::vector<uint32_t>> wide = widen_accumulators(k.words, k.accumulators, &error);
  ASSERT_TRUE(wide) << error;
  expect_valid(*wide);
  const auto before = arithmetic(k.words);
  const auto after = arithmetic(*wide);
  EXPECT_EQ(before.count({Op::OpFAdd, 32}), 0u);
  EXPECT_EQ(after.at({Op::OpFAdd, 32}), before.at({Op::OpFAdd, 16}));
  EXPECT_EQ(after.count({Op::OpFAdd, 16}), 0u);
  EXPECT_EQ(after.at({Op::OpFMul, 16}), before.at({Op::OpFMul, 16}));
  EXPECT_EQ(after.count({Op::OpFMul, 32}), 0u);
  // Up: the initial 0 and the product; down: the store's.
  EXPECT_EQ(after.at({Op::OpFConvert, 32}), 2);
  EXPECT_GE(after.at({Op::OpFConvert, 16}), 1);
}

// A 32-bit output reads the widened sum itself: the kernel's own conversion
// to float becomes a copy of it.
TEST(Widen, AConversionToFloatOfTheSumReadsTheWidenedSum) {
  Kernel k = kernel(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { f16vec4 x[]; };
layout(binding = 1) writeonly buffer Y { vec4 y[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint row = gl_GlobalInvocationID.x;
    f16vec4 sum = f16vec4(0.0);
    for (uint i = 0; i < n; ++i) sum = fma(x[row * n + i], x[i], sum);
    y[row] = vec4(sum);
}
)");
  ASSERT_EQ(k.accumulators.size(), 1u);
  std::string error;
  std::optional<std::vector<uint32_t>> wide = widen_accumulators(k.words, k.accumulators, &error);
  ASSERT_TRUE(wide) << error;
  expect_valid(*wide);
  const auto before = arithmetic(k.words);
  const auto after = arithmetic(*wide);
  EXPECT_EQ(before.count({Op::OpCopyObject, 32}), 0u);
  EXPECT_EQ(after.at({Op::OpCopyObject, 32}), 1);
  EXPECT_EQ(after.at({Op::OpFConvert, 32}), before.at({Op::OpFConvert, 32}) - 1 + 3)
      << "the output's conversion goes; the initial value and the two factors of fma convert up";
  EXPECT_EQ(after.at({Op::OpPhi, 32}), 1);
  EXPECT_EQ(after.count({Op::OpPhi, 16}), 0u);
}

// Sums kept in a local array, then stored: `{}` is how.
std::string local_array_kernel(const char* stored) {
  return fmt::format(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X {{ float16_t x[]; }};
layout(binding = 1) writeonly buffer Y {{ float16_t y[]; }};
layout(push_constant) uniform P {{ uint n; }};
void main() {{
    uint row = gl_GlobalInvocationID.x;
    float16_t sums[4];
    for (uint j = 0; j < 4; ++j) sums[j] = float16_t(0.0);
    for (uint i = 0; i < n; ++i)
        for (uint j = 0; j < 4; ++j) sums[j] += x[(row * n + i) * 4 + j];
    {}
}}
)",
                     stored);
}

// A sum kept in a local array: the array becomes one of floats, and the
// loads and stores of its elements 32-bit.
TEST(Widen, ASumKeptInALocalArrayGetsAnArrayOfFloats) {
  Kernel k = kernel(local_array_kernel("for (uint j = 0; j < 4; ++j) y[row * 4 + j] = sums[j];"));
  ASSERT_EQ(k.accumulators.size(), 1u);
  std::string error;
  std::optional<std::vector<uint32_t>> wide = widen_accumulators(k.words, k.accumulators, &error);
  ASSERT_TRUE(wide) << error;
  expect_valid(*wide);
  const auto before = arithmetic(k.words);
  const auto after = arithmetic(*wide);
  EXPECT_EQ(after.at({Op::OpFAdd, 32}), before.at({Op::OpFAdd, 16}));
  EXPECT_EQ(after.count({Op::OpFAdd, 16}), 0u);
}

// An array read or written whole is not an element the copy can convert.
TEST(Widen, AnAccumulatorArrayCopiedWholeIsRefusedWithItsReason) {
  Kernel k = kernel(local_array_kernel(
      "float16_t copy[4] = sums; for (uint j = 0; j < 4; ++j) y[row * 4 + j] = copy[(j + row) % 4];"));
  ASSERT_EQ(k.accumulators.size(), 1u);
  std::string error;
  EXPECT_FALSE(widen_accumulators(k.words, k.accumulators, &error));
  EXPECT_EQ(error, "the accumulator is loaded whole, not by element");
}

// A sum in a relaxed-precision float: 32 bits, which a device may compute in 16.
constexpr const char* kRelaxedSum = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    mediump float acc = 0.0;
    for (uint i = 0; i < n; ++i) acc += x[gl_GlobalInvocationID.x * n + i];
    y[gl_GlobalInvocationID.x] = acc;
}
)";

// A relaxed-precision float is 32 bits already: nothing to widen.
TEST(Widen, ARelaxedPrecisionAccumulatorIsNoneToWiden) {
  Kernel k = kernel(kRelaxedSum);
  EXPECT_TRUE(k.accumulators.empty());
  std::string error;
  EXPECT_FALSE(widen_accumulators(k.words, {}, &error));
  EXPECT_EQ(error, "no 16-bit float accumulator to widen");
}

// A cooperative matrix of halves is an accumulator the copy does not widen,
// and klint tells it from a relaxed-precision float.
TEST(Widen, ACooperativeMatrixAccumulatorIsNoneToWidenAndSaysSo) {
  Kernel k = kernel(R"(#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) buffer C { float16_t c[]; };
layout(push_constant) uniform P { uint k; };
void main() {
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> acc = fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>(0.0);
    for (uint i = 0; i < k; ++i) {
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> x, y;
        coopMatLoadNV(x, a, i * 256, 16, false);
        coopMatLoadNV(y, a, i * 256 + 4096, 16, false);
        acc = coopMatMulAddNV(x, y, acc);
    }
    coopMatStoreNV(acc, c, 0, 16, false);
}
)");
  EXPECT_TRUE(k.accumulators.empty());
  EXPECT_TRUE(k.matrix);
  EXPECT_FALSE(kernel(kRelaxedSum).matrix);
}

}  // namespace
}  // namespace klint::runner
