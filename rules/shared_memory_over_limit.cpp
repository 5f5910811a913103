#include <algorithm>

#include "analyzer/workgroup_memory.h"
#include "rules/rule.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "shared-memory-over-limit",
    .category = Category::Portability,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::DeviceLimit,
    .summary = "workgroup (shared) memory of an entry point exceeds the device limit",
    .doc = R"md(
## What it finds
A compute entry point whose workgroup variables (GLSL `shared`, HLSL
`groupshared`) add up to more bytes than a target device allows
(`maxComputeSharedMemorySize`). Every selected target is checked (`--target`,
by default the portable set in docs/targets.md) and the finding names the
targets that fail with each one's limit. `--max-shared-memory BYTES` checks
one explicit limit instead. Against targets you declare (`--target`, or
`targets` in klint.toml) or an explicit limit the finding is an error; against
klint's default devices it is a warning, with a note that Vulkan guarantees
16 KiB. Variables are counted at their natural size:
arrays as count times element, structs as the sum of their members.

## Why it matters
A pipeline whose shader declares more workgroup memory than the device has
fails to create (or, on some drivers, silently corrupts memory). The kernel
works on the desktop GPU it was written on and breaks on the next device:
Vulkan guarantees 16 KiB, and SwiftShader (a conformant CPU device) offers
no more; 32 KiB is the limit on Apple GPUs, Arm Mali, Qualcomm Adreno and
lavapipe, where NVIDIA offers 48 KiB and AMD 64 KiB.

## Bad
```glsl
layout(local_size_x = 128) in;
shared float tile[100][100];   // 40,000 bytes: over 32 KiB
void main() { tile[gl_LocalInvocationID.x % 100][0] = 0.0; }
```

## Fix
```glsl
layout(local_size_x = 128) in;
shared float tile[64][64];     // 16,384 bytes: what every Vulkan device offers
void main() { tile[gl_LocalInvocationID.x % 64][0] = 0.0; }
```

## Exceptions
Only variables the entry point uses (or lists in its interface) count.
Workgroup memory whose size comes from specialization constants is counted at
their default values; a pipeline that specializes them differently may fit
or fail where the defaults do not.
)md",
};

std::string bytes_text(uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  return fmt::format("{} bytes ({:.1f} KiB)", bytes, bytes / 1024.0);
}

// The limits the total breaks: the explicit one, or each target's.
std::string broken_limits(uint64_t total, const RuleOptions& options) {
  if (options.max_shared_memory) {
    return total > *options.max_shared_memory ? fmt::format("the limit of {}", bytes_text(*options.max_shared_memory))
                                              : "";
  }
  std::vector<std::pair<const Target*, uint64_t>> failures;
  for (const Target* target : options.targets) {
    if (total > target->max_compute_shared_memory_size) failures.emplace_back(target, target->max_compute_shared_memory_size);
  }
  if (failures.empty()) return "";
  return "the limit of " + failing_targets(failures, [](uint64_t limit) { return fmt::format("{} bytes", limit); });
}

class SharedMemoryOverLimit final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }
  bool needs_workgroup_size() const override { return false; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      WorkgroupMemory memory = workgroup_memory(module, entry);
      std::string limits = broken_limits(memory.total, options);
      if (limits.empty()) continue;
      // At the largest array, the one a fix would shrink first.
      const Location at = memory.variables.empty() ? module.location(entry.function->definition)
                                                   : module.declaration(memory.variables.front().id);
      auto diagnostic = report.at(at,
                                  fmt::format("entry point '{}' uses {} of workgroup memory, over {}", entry.name,
                                              bytes_text(memory.total), limits));
      constexpr size_t kLargestShown = 3;
      for (size_t i = 0; i < std::min(memory.variables.size(), kLargestShown); ++i) {
        const WorkgroupVariable& variable = memory.variables[i];
        diagnostic.note(module.declaration(variable.id),
                        fmt::format("'{}' takes {}{}", module.variable_name(variable.id), bytes_text(variable.bytes),
                                    variable.aliased ? ", in the memory the explicit-layout blocks share" : ""));
      }
      if (!options.max_shared_memory) {
        judge_limit(diagnostic, options, at, "16384 bytes");
      }
      diagnostic.fix_title("use smaller tiles, or reuse one buffer in stages separated by barriers");
    }
  }
};

KLINT_REGISTER_RULE(SharedMemoryOverLimit);

}  // namespace
}  // namespace klint
