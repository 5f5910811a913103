// Runs the executor in a child process, so that a kernel that never ends or a
// driver that crashes costs a verdict instead of the caller.
#pragma once

#include <functional>
#include <string>
#include <utility>
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
  // Set in the child's environment before the driver loads: lavapipe reads
  // LP_NATIVE_VECTOR_WIDTH there.
  std::vector<std::pair<std::string, std::string>> environment;
  // Tests only: called in a forked child before it executes, to stand in for
  // a crashing or slow driver. A run with one is forked, never a worker.
  std::function<void()> in_child;
};

// How a run gets its child. With no command (the library's default, and the
// tests' that call the runner directly) the caller forks and the child
// executes. With one, the child is that program, started afresh (klint itself
// with `--run-worker`): it reads the run from a file on descriptor 3 and
// answers as a forked child would, on 4 and 5. A process that forks while its
// other threads lint may leave a lock held in the child, the allocator's among
// them (GCC 12's AddressSanitizer takes no lock around fork), and that child
// then waits forever; a fresh program holds none.
struct RunIsolation {
  std::vector<std::string> command;
};
void set_run_isolation(RunIsolation isolation);

// The worker's side: reads the run from `request`, answers on `out` and
// `ready`; the exit status is the child's.
int run_isolated_worker(int request, int out, int ready);

constexpr double kPipelineSeconds = 120;

struct IsolatedRun {
  Verdict verdict = Verdict::Failed;
  std::string message;  // the verdict in words, e.g. "timed out after 2 s", "crashed (signal 11)"
  Execution execution;  // for Completed
};

// Starts a child (RunIsolation), executes there and reads its result through
// a pipe until the timeout, then kills it (SIGKILL) and reaps it: no child
// outlives the call.
IsolatedRun run_isolated(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                         const IsolateOptions& options);

}  // namespace klint::runner
