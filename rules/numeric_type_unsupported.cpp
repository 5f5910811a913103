#include "rules/rule.h"
#include "rules/support/device_features.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "numeric-type-unsupported",
    .category = Category::Portability,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .summary = "8-, 16- or 64-bit arithmetic or storage that a declared target device does not support",
    .doc = R"md(
## What it finds
A shader that computes with 8-, 16- or 64-bit types (`shaderInt8`,
`shaderFloat16`, `shaderInt16`, `shaderInt64`, `shaderFloat64`) or keeps 8- or
16-bit types in storage buffers (`storageBuffer8BitAccess`,
`storageBuffer16BitAccess`) that a target you declared does not offer. The
finding points at the first instruction that needs the feature and names the
targets without it.

The rule checks only targets you declare, with `--target` or `targets` in
klint.toml. Each feature is a capability the module declares, so the
application checks the device before it picks the shader; against klint's
default set of devices that is the host's business, not a finding.
`klint reflect` lists what a kernel needs. A feature no device report
verified for a target (null in its file) counts as present.

## Why it matters
A pipeline whose shader needs a feature the device lacks fails to create, or
is rejected by the validation layers. Vulkan guarantees none of these
features; a kernel written with `float16_t` for a desktop GPU does not run on a
device without `shaderFloat16`.

## Bad
```glsl
// klint --target vulkan-1.3-minimum
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    float16_t x = float16_t(data[gl_GlobalInvocationID.x]);
    data[gl_GlobalInvocationID.x] = float(x * float16_t(2.0));
}
```

## Fix
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    // mediump lets a device with 16-bit arithmetic use it, and needs no feature
    mediump float x = data[gl_GlobalInvocationID.x];
    data[gl_GlobalInvocationID.x] = x * 2.0;
}
```

## Exceptions
The rule checks what the shader declares it needs. A shader with a fallback
for devices without the feature must be compiled twice; lint the variant meant
for each device with its own `--target`.
)md",
};

class NumericTypeUnsupported final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }
  bool needs_workgroup_size() const override { return false; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    report_missing_features(module, options, shader_features(), report);
  }
};

KLINT_REGISTER_RULE(NumericTypeUnsupported);

}  // namespace
}  // namespace klint
