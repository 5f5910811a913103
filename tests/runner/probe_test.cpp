// Value probes (runner/probe.h): which instruction a probe records, modules
// that stay valid, and the records a run leaves, OpPhi results, vectors and
// bools included.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstring>

#include "reflect/reflection.h"
#include "runner/harness.h"
#include "runner/isolate.h"
#include "runner/probe.h"
#include "runner/shadow.h"
#include "tests/runner/kernels.h"
#include "validate/spirv_val.h"

namespace klint::runner {
namespace {

using testing::spirv_from_glsl;

const char* kKernel = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
shared uint tile[4];
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 v = vec2(float(i), x[i]);
    if (x[i] > 0.0 && x[i + 1] > 0.0) {
        tile[i] = i;
    }
    bool odd = i % 2 == 1;
    barrier();
    o[i] = odd ? uint(v.x) : tile[i];
}
)";

ProbeRequest at(uint32_t line, std::string name = "") {
  return ProbeRequest{"test.comp", line, name, "test.comp:" + std::to_string(line)};
}

std::optional<Instrumented> instrument_probes(const std::string& source, std::vector<ProbeRequest> probes,
                                              std::string* error, bool accesses = false) {
  InstrumentOptions options;
  options.probes = std::move(probes);
  options.accesses = accesses;
  std::optional<Instrumented> instrumented = instrument(spirv_from_glsl(source), {"test.comp", {}}, options, error);
  if (instrumented) {
    for (const ValidationMessage& m : validate_spirv(instrumented->spirv, SPV_ENV_VULKAN_1_3)) {
      ADD_FAILURE() << "instrumented module is invalid: " << m.message;
    }
  }
  return instrumented;
}

std::string error_of(uint32_t line, std::string name = "") {
  std::string error;
  EXPECT_FALSE(instrument_probes(kKernel, {at(line, name)}, &error));
  return error;
}

TEST(ProbeSelect, ChoosesTheLastStoreOrTheNamedValue) {
  std::string error;
  std::optional<Instrumented> in =
      instrument_probes(kKernel, {at(7), at(8), at(9), at(12, "odd"), at(14, "v"), at(14)}, &error);
  ASSERT_TRUE(in) << error;
  ASSERT_EQ(in->probes.size(), 6u);
  EXPECT_EQ(in->probes[0].what, "the value stored to i");
  EXPECT_EQ(in->probes[0].value, ValueType::Uint);
  EXPECT_EQ(in->probes[1].what, "the value stored to v");
  EXPECT_EQ(in->probes[1].value, ValueType::Float);
  EXPECT_EQ(in->probes[1].components, 2u);
  // Line 9 stores nothing: its last value is the && of both conditions.
  EXPECT_EQ(in->probes[2].what, "the result of OpPhi");
  EXPECT_EQ(in->probes[2].value, ValueType::Bool);
  EXPECT_EQ(in->probes[3].what, "the value stored to odd");
  EXPECT_EQ(in->probes[3].value, ValueType::Bool);
  EXPECT_EQ(in->probes[4].what, "the value of v as the line reads it");
  EXPECT_EQ(in->probes[4].value, ValueType::Float);
  EXPECT_EQ(in->probes[4].components, 1u);  // v.x: a load through an access chain
  EXPECT_EQ(in->probes[5].what, "the value stored to Out");
  EXPECT_EQ(in->probes[5].value, ValueType::Uint);
  for (const ProbeSite& site : in->probes) EXPECT_EQ(site.location.line, site.request.line) << site.what;
  EXPECT_EQ(in->workgroup_size, (std::array<uint32_t, 3>{4, 1, 1}));
}

TEST(ProbeSelect, UnmatchedProbesSayWhatTheLineHolds) {
  EXPECT_EQ(error_of(8, "w"), "no value named 'w' at test.comp:8; names there: i, v");
  EXPECT_EQ(error_of(13, "w"), "no value named 'w' at test.comp:13; the line names no variable");
  EXPECT_EQ(error_of(13), "no value to probe at test.comp:13: the line computes no 32-bit scalar or vector");
  EXPECT_EQ(error_of(5), "no code at test.comp:5: nothing on that line runs");
  EXPECT_EQ(error_of(5, "w"), "no value named 'w' at test.comp:5: no code is on that line");
  std::string error;
  ProbeRequest elsewhere = at(7);
  elsewhere.file = "other.comp";
  EXPECT_FALSE(instrument_probes(kKernel, {elsewhere}, &error));
  EXPECT_EQ(error, "no code at other.comp:7: nothing on that line runs");
}

// The log after a run of one workgroup, and the inputs x it started with.
struct ProbedRun {
  std::vector<uint8_t> log;
  std::vector<float> x;
};

ProbedRun run_probes(const Instrumented& in) {
  std::string error;
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(spirv_from_glsl(kKernel), &error);
  EXPECT_TRUE(reflection) << error;
  if (!reflection) return {};
  std::optional<Harness> harness = default_harness(reflection->entry_points[0], {}, &error);
  EXPECT_TRUE(harness) << error;
  if (!harness) return {};
  harness->buffers.push_back(log_buffer(in));
  IsolatedRun result = run_isolated(in.spirv, "main", *harness, {});
  EXPECT_EQ(result.verdict, Verdict::Completed) << result.message;
  if (result.verdict != Verdict::Completed) return {};
  ProbedRun run{result.execution.buffers.back().data, std::vector<float>(5)};
  std::memcpy(run.x.data(), harness->buffers[0].data.data(), 5 * sizeof(float));
  return run;
}

TEST(ProbeRun, RecordsPhisVectorsAndBools) {
  std::string error;
  std::optional<Instrumented> in = instrument_probes(kKernel, {at(8), at(9), at(12)}, &error);
  ASSERT_TRUE(in) << error;
  const ProbedRun run = run_probes(*in);
  const std::vector<float>& x = run.x;
  ASSERT_EQ(x.size(), 5u);
  const ProbeLog log = read_probes(*in, run.log);
  EXPECT_FALSE(log.truncated);
  ASSERT_EQ(log.records.size(), 12u);  // three probes, four invocations, one execution each
  std::array<int, 3 * 4> seen{};
  for (const ProbeRecord& r : log.records) {
    ASSERT_LT(r.probe, 3u);
    ASSERT_LT(r.invocation, 4u);
    EXPECT_EQ(r.workgroup, 0u);
    EXPECT_EQ(r.iteration, 0u);
    ++seen[r.probe * 4 + r.invocation];
    const uint32_t i = r.invocation;
    const std::string text = probe_value_text(in->probes[r.probe], r);
    switch (r.probe) {
      case 0:
        EXPECT_EQ(text, fmt::format("({:g},{:g})", float(i), x[i]));
        break;
      case 1:
        EXPECT_EQ(r.components[0], x[i] > 0.0f && x[i + 1] > 0.0f ? 1u : 0u) << i;
        EXPECT_EQ(text, x[i] > 0.0f && x[i + 1] > 0.0f ? "true" : "false");
        break;
      case 2:
        EXPECT_EQ(text, i % 2 == 1 ? "true" : "false");
        break;
    }
  }
  for (int count : seen) EXPECT_EQ(count, 1);
}

// Probes and shadow accesses share one log; the shadow reader skips probe
// records, and the module stays valid with both.
TEST(ProbeRun, CombinesWithAccessLogging) {
  std::string error;
  std::optional<Instrumented> in = instrument_probes(kKernel, {at(7), at(10)}, &error, true);
  ASSERT_TRUE(in) << error;
  EXPECT_FALSE(in->sites.empty());
  EXPECT_EQ(in->probes[1].what, "the value stored to tile");
  const ProbedRun run = run_probes(*in);
  const ProbeLog log = read_probes(*in, run.log);
  size_t reached = 0;
  for (const ProbeRecord& r : log.records) {
    EXPECT_EQ(r.components[0], r.invocation);
    reached += r.probe == 1;
  }
  EXPECT_EQ(log.records.size() - reached, 4u);
  const ShadowReport shadow = read_log(*in, run.log);
  EXPECT_EQ(shadow.accesses, log.logged);
  EXPECT_GT(shadow.accesses, log.records.size());
}

}  // namespace
}  // namespace klint::runner
