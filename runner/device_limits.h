// The evidence for a finding about a device limit (RunEvidence::DeviceLimit):
// the finding's rule run again against the limits each Vulkan device at hand
// reports, as `klint --target device:N` would lint. A device whose own limit
// the kernel exceeds confirms it; where none has, the verdict says which
// devices were asked and that none has so low a limit.
#pragma once

#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "runner/confirm.h"
#include "validate/target.h"

namespace klint::runner {

// The devices this process can open, as targets (validate/device.h), read
// once, in a child process; empty where there is no loader or no device, and
// `error` says why.
const std::vector<Target>& devices_at_hand(std::string* error);

Confirmation device_limit_verdict(const Diagnostic& finding, const Module& module, const std::vector<Target>& devices,
                                  const std::string& no_devices);

}  // namespace klint::runner
