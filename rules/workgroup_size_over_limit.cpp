#include "rules/rule.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "workgroup-size-over-limit",
    .category = Category::Portability,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::DeviceLimit,
    .summary = "workgroup with more invocations, or a larger dimension, than a target device allows",
    .doc = R"md(
## What it finds
A compute entry point whose workgroup size exceeds a target's
`maxComputeWorkGroupInvocations` (the product of the three dimensions) or
`maxComputeWorkGroupSize` (each dimension on its own). Sizes given by
specialization constants are checked at their defaults. The finding names
every failing target and its limit. Against targets you declare (`--target`,
or `targets` in klint.toml) it is an error; against klint's default devices it
is a warning, with a note that Vulkan guarantees 128 invocations: the default
set holds SwiftShader, a conformant device that offers no more, so any larger
workgroup is named there. A target whose limit no source gives (Arm Mali's,
today) is not reported on.

## Why it matters
Pipeline creation fails on a device whose limits the workgroup exceeds. The
Vulkan minimum is 128 invocations; a kernel written for 1024-invocation
workgroups on a desktop GPU does not run on a device that offers fewer.

## Bad
```glsl
// klint --target vulkan-1.3-minimum
layout(local_size_x = 32, local_size_y = 32) in;   // 1024 invocations
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationIndex] = 0.0; }
```

## Fix
```glsl
layout(local_size_x = 16, local_size_y = 8) in;    // 128 invocations: fits every Vulkan device
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationIndex] = 0.0; }
```

## Exceptions
A workgroup size from a specialization constant is judged at its default; a
pipeline that specializes it to a smaller size passes where this rule warned,
and the rule cannot see the values an application will choose.
)md",
};

std::string size_text(const std::array<WorkgroupDimension, 3>& size) {
  return fmt::format("{}x{}x{}", size[0].value, size[1].value, size[2].value);
}

Location workgroup_size_location(const Module& module, const EntryPoint& entry) {
  for (const char* word : {"local_size_x", "local_size_x_id", "numthreads"}) {
    if (auto found = module.source_line(word)) return *found;
  }
  return module.location(entry.function->definition);
}

class WorkgroupSizeOverLimit final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function || !entry.workgroup_size) continue;
      const auto& size = *entry.workgroup_size;
      uint64_t invocations = size[0].value * size[1].value * size[2].value;
      std::vector<std::pair<const Target*, uint64_t>> too_many;
      std::vector<std::pair<const Target*, std::string>> too_large;
      for (const Target* target : options.targets) {
        // A limit no source gives (0) is never reported on.
        if (target->max_compute_work_group_invocations != 0 && invocations > target->max_compute_work_group_invocations) {
          too_many.emplace_back(target, target->max_compute_work_group_invocations);
        }
        const auto& max = target->max_compute_work_group_size;
        if (max[0] != 0 && (size[0].value > max[0] || size[1].value > max[1] || size[2].value > max[2])) {
          too_large.emplace_back(target, fmt::format("{}x{}x{}", max[0], max[1], max[2]));
        }
      }
      if (too_many.empty() && too_large.empty()) continue;
      std::string message =
          too_many.empty()
              ? fmt::format("workgroup size {} exceeds the largest dimensions of {}", size_text(size),
                            failing_targets(too_large, [](const std::string& max) { return "at most " + max; }))
              : fmt::format("workgroup of {} invocations ({}) exceeds the limit of {}", invocations, size_text(size),
                            failing_targets(too_many, [](uint64_t max) { return fmt::format("{} invocations", max); }));
      auto diagnostic = report.at(workgroup_size_location(module, entry), std::move(message));
      if (!too_many.empty() && !too_large.empty()) {
        diagnostic.note(workgroup_size_location(module, entry),
                        fmt::format("its dimensions also exceed those of {}",
                                    failing_targets(too_large, [](const std::string& max) { return "at most " + max; })));
      }
      for (size_t i = 0; i < 3; ++i) {
        if (size[i].spec_id) {
          diagnostic.note(workgroup_size_location(module, entry),
                          fmt::format("dimension {} comes from specialization constant {} (default {})", "xyz"[i],
                                      *size[i].spec_id, size[i].value));
        }
      }
      judge_limit(diagnostic, options, workgroup_size_location(module, entry),
                  "128 invocations, and 128x128x64");
      diagnostic.fix_title("use a smaller workgroup and let each invocation do more work");
    }
  }
};

KLINT_REGISTER_RULE(WorkgroupSizeOverLimit);

}  // namespace
}  // namespace klint
