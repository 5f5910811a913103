// Runs the executor in a child process, so that a kernel that never ends or a
// driver that crashes costs a verdict instead of the caller.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runner/executor.h"

namespace klint::runner {

enum class Verdict {
  Completed,   // the dispatch finished; buffers and guards were read back
  Failed,      // the executor gave up with a reason (bad module, no device, Vulkan error)
  TimedOut,    // still running at the deadline; killed
  Crashed,     // the child died by a signal
  DeviceLost,  // Vulkan reported VK_ERROR_DEVICE_LOST
};

struct IsolateOptions {
  // The dispatch's limit, from its submission. Creating the instance, the
  // device and the pipeline (the driver compiling the kernel, long for a large
  // instrumented one) has its own, the larger of this and
  // kPipelineSeconds.
  double timeout_seconds = 10;
  ExecuteOptions execute;
  // Called in the child before it executes; tests use it to stand in for a
  // crashing driver.
  std::function<void()> in_child;
};

constexpr double kPipelineSeconds = 120;

struct IsolatedRun {
  Verdict verdict = Verdict::Failed;
  std::string message;  // the verdict in words, e.g. "timed out after 2 s", "crashed (signal 11)"
  Execution execution;  // for Completed
};

// Forks, executes in the child and reads its result through a pipe until the
// timeout, then kills it (SIGKILL) and reaps it: no child outlives the call.
IsolatedRun run_isolated(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                         const IsolateOptions& options);

}  // namespace klint::runner
