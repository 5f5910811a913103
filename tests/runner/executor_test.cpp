// The executor on lavapipe: values, push constants, specialization, guards
// and the errors of bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "runner/executor.h"
#include "runner/isolate.h"
#include "tests/runner/kernels.h"

namespace klint::runner {
namespace {

// execute() in a child process. Under ASan, lavapipe's one-time allocations
// would be reported as leaks of this process: the loader unloads the driver,
// and with the fast unwinding that tests/CMakeLists.txt sets for this suite
// tools/lsan.supp cannot name their frames. A child leaves with _exit instead.
ExecuteOutcome execute_in_child(const std::vector<uint32_t>& spirv, const std::string& entry_point,
                                const Harness& harness, const ExecuteOptions& options) {
  IsolateOptions isolate;
  isolate.execute = options;
  IsolatedRun run = run_isolated(spirv, entry_point, harness, isolate);
  ExecuteOutcome outcome;
  outcome.status = run.verdict == Verdict::Completed    ? ExecuteStatus::Completed
                   : run.verdict == Verdict::DeviceLost ? ExecuteStatus::DeviceLost
                                                        : ExecuteStatus::Failed;
  if (run.verdict != Verdict::Completed) outcome.error = run.message;
  outcome.execution = std::move(run.execution);
  return outcome;
}

using testing::spirv_from_glsl;
using testing::word;

const char* kTwice = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint values[]; } out_;
void main() { out_.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 2u; }
)";

Harness one_buffer(uint32_t bytes, uint32_t set = 0, uint32_t binding = 0) {
  Harness harness;
  harness.buffers.push_back({set, binding, BufferKind::Storage, "out_", std::vector<uint8_t>(bytes, 0xEE)});
  return harness;
}

TEST(Executor, WritesEveryInvocationsValue) {
  Harness harness = one_buffer(4 * 256);
  harness.grid = {3, 1, 1};
  ExecuteOutcome outcome = execute_in_child(spirv_from_glsl(kTwice), "main", harness, {});
  ASSERT_EQ(outcome.status, ExecuteStatus::Completed) << outcome.error;
  EXPECT_EQ(outcome.execution.device, testing::default_device_name());
  ASSERT_EQ(outcome.execution.buffers.size(), 1u);
  const std::vector<uint8_t>& data = outcome.execution.buffers[0].data;
  ASSERT_EQ(data.size(), 4u * 256);
  for (uint32_t i = 0; i < 192; ++i) ASSERT_EQ(word(data, i), i * 2) << "word " << i;
  for (uint32_t i = 192; i < 256; ++i) ASSERT_EQ(word(data, i), 0xEEEEEEEEu) << "word " << i << " was not written";
  EXPECT_TRUE(outcome.execution.guard_violations.empty());
}

TEST(Executor, PushConstantsAndSpecializationReachTheKernel) {
  const char* source = R"(#version 450
layout(local_size_x = 4) in;
layout(constant_id = 7) const uint kScale = 1u;
layout(push_constant) uniform Push { uint base; float bias; } push;
layout(set = 1, binding = 2) buffer Out { float biased[4]; uint values[4]; } out_;
layout(set = 1, binding = 0) uniform In { uint add; } in_;
void main() {
  uint i = gl_LocalInvocationID.x;
  out_.values[i] = push.base + i * kScale + in_.add;
  out_.biased[i] = push.bias * float(i);
}
)";
  Harness harness = one_buffer(32, 1, 2);
  harness.buffers.push_back({1, 0, BufferKind::Uniform, "in_", testing::words({5, 0, 0, 0})});
  harness.push_constants = testing::words({1000, 0});
  const float bias = 0.5f;
  std::memcpy(harness.push_constants.data() + 4, &bias, 4);
  harness.specialization.push_back(spec_u32(7, 10));
  ExecuteOutcome outcome = execute_in_child(spirv_from_glsl(source), "main", harness, {});
  ASSERT_EQ(outcome.status, ExecuteStatus::Completed) << outcome.error;
  const std::vector<uint8_t>& data = outcome.execution.buffers[0].data;
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(word(data, 4 + i), 1000 + i * 10 + 5) << "values[" << i << "]";
    float biased;
    std::memcpy(&biased, data.data() + 4 * i, 4);
    EXPECT_EQ(biased, 0.5f * i) << "biased[" << i << "]";
  }
}

TEST(Executor, WritesPastTheBufferHitTheGuardAfterIt) {
  // 64 invocations write into a block of 16 words: 48 words past its end.
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint values[16]; } out_;
void main() { out_.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 2u; }
)";
  Harness harness = one_buffer(64);
  ExecuteOutcome outcome = execute_in_child(spirv_from_glsl(source), "main", harness, {});
  ASSERT_EQ(outcome.status, ExecuteStatus::Completed) << outcome.error;
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(word(outcome.execution.buffers[0].data, i), i * 2);
  ASSERT_EQ(outcome.execution.guard_violations.size(), 1u);
  const GuardViolation& guard = outcome.execution.guard_violations[0];
  EXPECT_EQ(guard.set, 0u);
  EXPECT_EQ(guard.binding, 0u);
  EXPECT_EQ(guard.name, "out_");
  EXPECT_FALSE(guard.before);
  // Words 16..63 hold 32..126: every byte differs from the pattern.
  EXPECT_EQ(guard.first, 64);
  EXPECT_EQ(guard.last, 4 * 64 - 1);
  EXPECT_EQ(guard.changed, 4u * 48);
}

// The guard after a runtime array stays outside the descriptor's range, so
// the array's length is the harness's size.
TEST(Executor, RuntimeArrayLengthIsTheBufferSize) {
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint count; uint values[]; } out_;
void main() { out_.count = uint(out_.values.length()); }
)";
  ExecuteOutcome outcome = execute_in_child(spirv_from_glsl(source), "main", one_buffer(4 * 10), {});
  ASSERT_EQ(outcome.status, ExecuteStatus::Completed) << outcome.error;
  EXPECT_EQ(word(outcome.execution.buffers[0].data, 0), 9u);
}

TEST(Executor, KernelWithinItsBufferLeavesTheGuardsAlone) {
  Harness harness = one_buffer(4 * 64);
  ExecuteOutcome outcome = execute_in_child(spirv_from_glsl(kTwice), "main", harness, {});
  ASSERT_EQ(outcome.status, ExecuteStatus::Completed) << outcome.error;
  EXPECT_TRUE(outcome.execution.guard_violations.empty());
}

TEST(Executor, GarbageIsAnErrorNotACrash) {
  std::vector<uint32_t> garbage{0x07230203, 0x00010000, 0, 99, 0, 0xDEADBEEF, 0x12345678};
  ExecuteOutcome outcome = execute_in_child(garbage, "main", one_buffer(64), {});
  EXPECT_EQ(outcome.status, ExecuteStatus::Failed);
  EXPECT_TRUE(outcome.error.starts_with("invalid SPIR-V: ")) << outcome.error;
  outcome = execute_in_child({}, "main", one_buffer(64), {});
  EXPECT_EQ(outcome.status, ExecuteStatus::Failed);
  EXPECT_FALSE(outcome.error.empty());
}

TEST(Executor, HarnessMustMatchTheKernel) {
  const std::vector<uint32_t> spirv = spirv_from_glsl(kTwice);
  ExecuteOutcome outcome = execute_in_child(spirv, "other", one_buffer(64), {});
  EXPECT_EQ(outcome.error, "no compute entry point named 'other'");
  outcome = execute_in_child(spirv, "main", one_buffer(64, 0, 1), {});
  EXPECT_EQ(outcome.error, "the harness has no buffer for binding 0.0 (out_)");
  Harness uniform = one_buffer(64);
  uniform.buffers[0].kind = BufferKind::Uniform;
  outcome = execute_in_child(spirv, "main", uniform, {});
  EXPECT_EQ(outcome.error, "the harness gives binding 0.0 (out_) the wrong kind of buffer");
  outcome = execute_in_child(spirv, "main", one_buffer(6), {});
  EXPECT_EQ(outcome.error, "binding 0.0 (out_) has 6 bytes: buffers need a positive multiple of 4");
  Harness no_grid = one_buffer(64);
  no_grid.grid = {0, 1, 1};
  outcome = execute_in_child(spirv, "main", no_grid, {});
  EXPECT_TRUE(outcome.error.starts_with("grid dimension 0 is outside 1..")) << outcome.error;
  EXPECT_EQ(outcome.status, ExecuteStatus::Failed);
}

TEST(Executor, DeviceOutOfRangeIsAnError) {
  ExecuteOutcome outcome = execute_in_child(spirv_from_glsl(kTwice), "main", one_buffer(256), {.device_index = 1000});
  EXPECT_EQ(outcome.status, ExecuteStatus::Failed);
  EXPECT_TRUE(outcome.error.starts_with("device 1000 is out of range: the Vulkan loader found ")) << outcome.error;
}

}  // namespace
}  // namespace klint::runner

namespace klint::runner {
namespace {

// Vulkan 1.3's subgroup size control: the device says which sizes a pipeline
// may require (lavapipe: only its own), a size in that range is the one the
// kernel sees, and a size outside it fails the run with the range.
TEST(Executor, ASubgroupSizeTheDeviceOffersCanBeRequired) {
  const std::vector<uint32_t> spirv = testing::spirv_from_glsl(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint values[]; } out_;
void main() { out_.values[gl_GlobalInvocationID.x] = gl_SubgroupSize; }
)");
  Harness harness = one_buffer(4 * 64);
  ExecuteOutcome plain = execute_in_child(spirv, "main", harness, {});
  ASSERT_EQ(plain.status, ExecuteStatus::Completed) << plain.error;
  const uint32_t low = plain.execution.min_subgroup_size, high = plain.execution.max_subgroup_size;
  if (low == 0) GTEST_SKIP() << "the device has no subgroup size control for compute shaders";
  ASSERT_LE(low, high);
  ExecuteOptions options;
  for (uint32_t size = low; size <= high; size *= 2) {
    options.required_subgroup_size = size;
    ExecuteOutcome required = execute_in_child(spirv, "main", harness, options);
    ASSERT_EQ(required.status, ExecuteStatus::Completed) << required.error;
    EXPECT_EQ(testing::word(required.execution.buffers[0].data, 0), size);
    EXPECT_EQ(testing::word(required.execution.buffers[0].data, 63), size);
  }
  options.required_subgroup_size = high * 2;
  ExecuteOutcome too_wide = execute_in_child(spirv, "main", harness, options);
  EXPECT_EQ(too_wide.status, ExecuteStatus::Failed);
  EXPECT_NE(too_wide.error.find(fmt::format("the device cannot run subgroups of {}: it offers {} to {}", high * 2,
                                            low, high)),
            std::string::npos)
      << too_wide.error;
}

}  // namespace
}  // namespace klint::runner
