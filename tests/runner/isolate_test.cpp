// Runs in a child process: results come back whole, and a kernel that never
// ends, a child that crashes or exits early becomes a verdict, with no child
// left behind.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <cstdlib>

#include "runner/isolate.h"
#include "tests/runner/kernels.h"

namespace klint::runner {
namespace {

using testing::spirv_from_glsl;
using testing::word;

// No child of this process is left, running or unreaped.
void expect_no_children() {
  int status = 0;
  errno = 0;
  EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

Harness words_buffer(uint32_t words) {
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Storage, "data", std::vector<uint8_t>(4 * words, 0)});
  return harness;
}

// What any child answers alike: one forked (the library's default) and a
// worker, klint itself started afresh (RunIsolation), as klint's runs are.
class IsolateEitherWay : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) set_run_isolation({{KLINT_BINARY, "--run-worker"}});
  }
  void TearDown() override { set_run_isolation({}); }
};
INSTANTIATE_TEST_SUITE_P(Child, IsolateEitherWay, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "Worker" : "Forked"; });

TEST_P(IsolateEitherWay, CompletedRunBringsBackBuffersAndGuards) {
  const char* source = R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint values[24]; } data;
void main() { data.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 2u; }
)";
  IsolatedRun run = run_isolated(spirv_from_glsl(source), "main", words_buffer(24), {});
  ASSERT_EQ(run.verdict, Verdict::Completed) << run.message;
  EXPECT_EQ(run.message, "completed");
  EXPECT_EQ(run.execution.device, testing::default_device_name());
  ASSERT_EQ(run.execution.buffers.size(), 1u);
  ASSERT_EQ(run.execution.buffers[0].data.size(), 4u * 24);
  for (uint32_t i = 0; i < 24; ++i) EXPECT_EQ(word(run.execution.buffers[0].data, i), 2 * i);
  ASSERT_EQ(run.execution.guard_violations.size(), 1u);
  EXPECT_EQ(run.execution.guard_violations[0].name, "data");
  EXPECT_EQ(run.execution.guard_violations[0].first, 4 * 24);
  EXPECT_EQ(run.execution.guard_violations[0].last, 4 * 32 - 1);
  expect_no_children();
}

// The timeout is the dispatch's: the time before it (the driver compiling a
// large instrumented kernel, here a child slow to start) has its own clock.
TEST(Isolate, TheTimeoutStartsAtTheDispatch) {
  const char* source = R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer Data { uint x[]; };
void main() { x[gl_GlobalInvocationID.x] = 3u; }
)";
  IsolateOptions options;
  options.timeout_seconds = 1;
  options.in_child = [] { std::this_thread::sleep_for(std::chrono::milliseconds(2500)); };
  IsolatedRun run = run_isolated(spirv_from_glsl(source), "main", words_buffer(8), options);
  ASSERT_EQ(run.verdict, Verdict::Completed) << run.message;
  EXPECT_EQ(word(run.execution.buffers[0].data, 7), 3u);
  expect_no_children();
}

// Lavapipe compiles a kernel at its first dispatch, not when the pipeline is
// made: the executor dispatches no workgroups first, so that the compile of a
// long kernel (seconds here, 40 s for an instrumented ggml kernel) is not
// taken for the run.
TEST(Isolate, TheDriversCompileAtTheFirstDispatchIsNotTheRun) {
  std::string source = "#version 450\nlayout(local_size_x = 8) in;\n"
                       "layout(binding = 0) buffer Data { uint x[]; };\n"
                       "void main() {\n  uint v = gl_GlobalInvocationID.x;\n";
  for (int i = 0; i < 8000; ++i) source += fmt::format("  v = (v * 1664525u + {}u) ^ (v >> {}u);\n", i, i % 31 + 1);
  source += "  x[gl_GlobalInvocationID.x] = v;\n}\n";
  IsolateOptions options;
  options.timeout_seconds = 1;
  options.in_child = [] { setenv("MESA_SHADER_CACHE_DISABLE", "true", 1); };
  IsolatedRun run = run_isolated(spirv_from_glsl(source), "main", words_buffer(8), options);
  ASSERT_EQ(run.verdict, Verdict::Completed) << run.message;
  EXPECT_LT(run.execution.dispatch_nanoseconds, 1'000'000'000u);
  expect_no_children();
}

TEST_P(IsolateEitherWay, EndlessKernelTimesOutAndIsKilled) {
  const char* source = testing::kEndlessKernel;
  IsolateOptions options;
  options.timeout_seconds = 2;
  const auto start = std::chrono::steady_clock::now();
  Harness harness = words_buffer(4);
  harness.grid = {65535, 65535, 1};
  IsolatedRun run = run_isolated(spirv_from_glsl(source), "main", harness, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.verdict, Verdict::TimedOut) << run.message;
  EXPECT_EQ(run.message, "timed out after 2 s");
  EXPECT_GE(seconds, 2.0);
  // Far less than the kernel would run (hours), with room for a GPU driver
  // to tear down the killed child's context: 5 s on an H100.
  EXPECT_LT(seconds, 20.0);
  expect_no_children();
}

TEST(Isolate, ChildKilledBySignalIsACrash) {
  IsolateOptions options;
  options.in_child = [] { std::abort(); };
  IsolatedRun run = run_isolated(spirv_from_glsl("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n"),
                                 "main", {}, options);
  EXPECT_EQ(run.verdict, Verdict::Crashed);
  EXPECT_TRUE(run.message.starts_with("crashed (signal 6, ")) << run.message;
  expect_no_children();
}

TEST(Isolate, ChildThatExitsWithoutAResultFails) {
  IsolateOptions options;
  options.in_child = [] { _exit(7); };
  IsolatedRun run = run_isolated({}, "main", {}, options);
  EXPECT_EQ(run.verdict, Verdict::Failed);
  EXPECT_EQ(run.message, "the child exited with status 7");
  expect_no_children();
}

TEST_P(IsolateEitherWay, ExecutorErrorsComeBackAsFailed) {
  IsolatedRun run = run_isolated({0x07230203, 1, 2, 3}, "main", words_buffer(4), {});
  EXPECT_EQ(run.verdict, Verdict::Failed);
  EXPECT_TRUE(run.message.starts_with("invalid SPIR-V: ")) << run.message;
  expect_no_children();
}

// The same runs through a worker: klint itself, started afresh, as klint's
// own runs are (runner/isolate.h, RunIsolation).
class IsolateWorker : public ::testing::Test {
 protected:
  void SetUp() override { set_run_isolation({{KLINT_BINARY, "--run-worker"}}); }
  void TearDown() override { set_run_isolation({}); }
};

// Push constants, a specialization constant, the grid, a uniform and a
// storage buffer reach the kernel, and the worker's outcome is the forked
// child's, byte for byte.
TEST_F(IsolateWorker, EverythingTheHarnessGivesReachesTheKernelAsInAForkedChild) {
  const char* source = R"(#version 450
layout(local_size_x = 4) in;
layout(constant_id = 0) const uint kScale = 1u;
layout(push_constant) uniform Push { uint add; } pc;
layout(set = 0, binding = 0) uniform Params { uint base; } params;
layout(set = 0, binding = 1) buffer Out { uint values[]; } out_;
void main() {
  uint i = gl_GlobalInvocationID.x;
  out_.values[i] = params.base + pc.add + kScale * i;
}
)";
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Uniform, "Params", {100, 0, 0, 0}, false, false});
  harness.buffers.push_back({0, 1, BufferKind::Storage, "Out", std::vector<uint8_t>(4 * 12, 0)});
  harness.push_constants = {20, 0, 0, 0};
  harness.specialization.push_back(spec_u32(0, 3));
  harness.grid = {3, 1, 1};
  IsolateOptions options;
  options.environment.emplace_back("LP_NATIVE_VECTOR_WIDTH", "256");
  const std::vector<uint32_t> spirv = spirv_from_glsl(source);
  IsolatedRun run = run_isolated(spirv, "main", harness, options);
  ASSERT_EQ(run.verdict, Verdict::Completed) << run.message;
  ASSERT_EQ(run.execution.buffers.size(), 2u);
  for (uint32_t i = 0; i < 12; ++i) EXPECT_EQ(word(run.execution.buffers[1].data, i), 120 + 3 * i);
  if (run.execution.device.find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(run.execution.min_subgroup_size, 8u);
  }
  expect_no_children();

  set_run_isolation({});
  IsolatedRun forked = run_isolated(spirv, "main", harness, options);
  ASSERT_EQ(forked.verdict, Verdict::Completed) << forked.message;
  ASSERT_EQ(forked.execution.buffers.size(), run.execution.buffers.size());
  for (size_t b = 0; b < run.execution.buffers.size(); ++b) {
    EXPECT_EQ(forked.execution.buffers[b].data, run.execution.buffers[b].data) << b;
  }
  EXPECT_EQ(forked.execution.guard_violations.size(), run.execution.guard_violations.size());
  EXPECT_EQ(forked.execution.min_subgroup_size, run.execution.min_subgroup_size);
}

TEST_F(IsolateWorker, AWorkerThatCannotStartFailsWithItsReason) {
  set_run_isolation({{"/nonexistent/klint", "--run-worker"}});
  IsolatedRun run = run_isolated(spirv_from_glsl("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n"),
                                 "main", {}, {});
  EXPECT_EQ(run.verdict, Verdict::Failed);
  EXPECT_EQ(run.message, "cannot start the run worker /nonexistent/klint: No such file or directory");
  expect_no_children();
}

}  // namespace
}  // namespace klint::runner
