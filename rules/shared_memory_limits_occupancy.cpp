#include <fmt/format.h>

#include <map>

#include "analyzer/workgroup_memory.h"
#include "rules/rule.h"
#include "validate/occupancy.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "shared-memory-limits-occupancy",
    .category = Category::Performance,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::Occupancy,
    .summary = "workgroup memory alone keeps too few workgroups resident to hide memory latency",
    .doc = R"md(
## What it finds
A compute entry point whose workgroup memory, on its own, lets fewer
workgroups stay resident on one compute unit of a target than that target
needs to hide memory latency (usually 2), while the other bounds (the
vendor's cap on resident workgroups, invocations per compute unit) would allow
more. Only fitting kernels are checked: one over the limit is
`shared-memory-over-limit`.

The estimate follows each target's figures (docs/targets.md): shared memory per
compute unit divided by the workgroup's, or a vendor's tiers where a target
file gives them with a source. The workgroup's is what its arrays take: an
array the kernel declares and never uses is dropped by compilers (NVIDIA's
reports 0 bytes for it), and not counted. Registers bound residency too but are unknown
before the driver compiles the shader, so the real occupancy can be lower
still, never higher.

## Why it matters
While one workgroup waits for memory, the compute unit runs another. With a
single resident workgroup nothing hides the wait and bandwidth-bound kernels
run at a fraction of peak. An Apple M1 core has about 60 KiB of threadgroup
memory (measured), so a kernel using 32 KiB runs one threadgroup per core.

## Bad
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[8192];       // 32 KiB: one workgroup per Apple M1 core
void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[255 - gl_LocalInvocationID.x];
}
```

## Fix
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[2048];       // 8 KiB: seven workgroups per core
void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[255 - gl_LocalInvocationID.x];
}
```

## Exceptions
Compute-bound kernels that reuse a large tile many times (a tiled matmul) may
be faster with fewer resident workgroups; silence the rule for them. Targets
without occupancy figures (the Vulkan minimum, a device read live) are not
checked. `klint --confirm --device N` asks the device's compiler how much
workgroup memory it allocates (the pipeline's statistics) and runs the
targets' model again at that size: an array the kernel declares but never
uses is dropped by NVIDIA's compiler, and the finding is then "not
reproduced".
)md",
};

std::string workgroups_text(uint32_t n) { return fmt::format("{} workgroup{}", n, n == 1 ? "" : "s"); }

class SharedMemoryLimitsOccupancy final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      // What a compiler allocates: an array declared and never used is dropped.
      WorkgroupMemory memory = workgroup_memory(module, entry);
      std::erase_if(memory.variables, [](const WorkgroupVariable& v) { return !v.referenced; });
      if (memory.referenced == 0) continue;
      uint64_t invocations = 1;
      if (entry.workgroup_size) {
        for (const WorkgroupDimension& d : *entry.workgroup_size) invocations *= d.value;
      }
      std::vector<std::pair<const Target*, uint32_t>> starved;
      for (const Target* target : options.targets) {
        std::optional<uint32_t> resident = starved_by_shared_memory(*target, memory.referenced, invocations);
        if (resident) starved.emplace_back(target, *resident);
      }
      if (starved.empty()) continue;
      std::map<uint32_t, std::vector<std::string>> by_need;
      for (const auto& [target, resident] : starved) {
        by_need[target->occupancy.min_workgroups_to_hide_latency].push_back(target->name);
      }
      const std::string residency = residency_text(starved);
      // At the largest array, the one a fix would shrink first.
      const Location at = memory.variables.empty() ? module.location(entry.function->definition)
                                                   : module.declaration(memory.variables.front().id);
      auto diagnostic = report.at(at,
                                  fmt::format("{} bytes of workgroup memory let only {} stay resident per compute unit",
                                              memory.referenced, residency));
      for (const auto& [need, names] : by_need) {
        diagnostic.note(at, fmt::format("{} {} {} resident to hide memory latency", fmt::join(names, ", "),
                                    names.size() == 1 ? "needs" : "need", workgroups_text(need)));
      }
      if (!memory.variables.empty()) {
        const WorkgroupVariable& largest = memory.variables.front();
        diagnostic.note(module.declaration(largest.id),
                        fmt::format("'{}' takes {} bytes{}", module.variable_name(largest.id), largest.bytes,
                                    largest.aliased ? ", in the memory the explicit-layout blocks share" : ""));
      }
      diagnostic.fix_title("use smaller tiles, or reuse one buffer in stages, to fit more workgroups");
    }
  }
};

KLINT_REGISTER_RULE(SharedMemoryLimitsOccupancy);

}  // namespace
}  // namespace klint
