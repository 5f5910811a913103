// What a module needs of a device beyond what Vulkan guarantees: classes of
// subgroup operations, and arithmetic and storage of 8-, 16- and 64-bit types.
// Each is a capability the module declares, so its host checks the device
// before it picks the shader; subgroup-feature-unsupported and
// numeric-type-unsupported report them only against targets the user
// declared (docs/portability.md).
#pragma once

#include <functional>
#include <vector>

#include "rules/rule.h"

namespace klint {

// One thing a shader may need and a target may lack.
struct DeviceFeature {
  const char* description;
  // Known absence only: a feature no report verified (nullopt in the target)
  // counts as present.
  std::function<bool(const Target&)> supported;
  // Whether the module needs it: it declares the capability, or (for features
  // no capability names) some instruction needs it.
  std::function<bool(const Module&)> needed;
  std::function<bool(const Module&, const ir::Instruction&)> uses;  // the instruction that needs it
};

// Subgroup operation classes, and subgroup operations on 8-, 16- and 64-bit types.
const std::vector<DeviceFeature>& subgroup_features();
// shaderFloat16, shaderFloat64, shaderInt8/16/64, 8- and 16-bit storage.
const std::vector<DeviceFeature>& shader_features();

// One finding per feature the module needs and a declared target lacks, at
// the first instruction that needs it.
void report_missing_features(const Module& module, const RuleOptions& options,
                             const std::vector<DeviceFeature>& features, Reporter& report);

}  // namespace klint
