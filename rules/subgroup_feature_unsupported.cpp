#include "rules/rule.h"
#include "rules/support/device_features.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "subgroup-feature-unsupported",
    .category = Category::Portability,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .summary = "subgroup operation class that a declared target device does not support",
    .doc = R"md(
## What it finds
A shader that uses a class of subgroup operations (basic, vote, arithmetic,
ballot, shuffle, shuffle relative, clustered, quad) that a target you declared
does not list in `subgroupSupportedOperations`, or subgroup operations on 8-,
16- or 64-bit types without `shaderSubgroupExtendedTypes`. The finding points
at the first instruction that needs the feature and names the targets without
it.

The rule checks only targets you declare, with `--target` or `targets` in
klint.toml. Each class is a capability the module declares, so the
application checks the device before it picks the shader; against klint's
default set of devices that is the host's business, not a finding.
`klint reflect` lists what a kernel needs.

## Why it matters
A pipeline whose shader needs a feature the device lacks fails to create, or
is rejected by the validation layers: the kernel that runs on a desktop GPU
does not run on the phone or laptop it ships to. Vulkan requires only basic
subgroup operations in compute shaders.

## Bad
```glsl
// klint --target lavapipe
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    // sums of 4 neighbouring lanes: lavapipe has no clustered operations
    data[gl_GlobalInvocationID.x] = subgroupClusteredAdd(data[gl_GlobalInvocationID.x], 4);
}
```

## Fix
```glsl
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    // the same sums from shuffles, which every target offers
    float x = data[gl_GlobalInvocationID.x];
    x += subgroupShuffleXor(x, 1u);
    x += subgroupShuffleXor(x, 2u);
    data[gl_GlobalInvocationID.x] = x;
}
```

## Exceptions
The rule checks what the shader declares it needs. A shader that takes a
fallback path when a feature is missing must be compiled twice; lint the
variant meant for each device with its own `--target`. Arithmetic and storage
of 8-, 16- and 64-bit types are numeric-type-unsupported's.
)md",
};

class SubgroupFeatureUnsupported final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }
  bool needs_workgroup_size() const override { return false; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    report_missing_features(module, options, subgroup_features(), report);
  }
};

KLINT_REGISTER_RULE(SubgroupFeatureUnsupported);

}  // namespace
}  // namespace klint
