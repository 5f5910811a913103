#include "runner/device_limits.h"

#include <fmt/format.h>

#include <mutex>

#include "rules/rule.h"
#include "validate/device.h"

namespace klint::runner {

const std::vector<Target>& devices_at_hand(std::string* error) {
  static std::once_flag once;
  static std::vector<Target> devices;
  static std::string why;
  std::call_once(once, [] {
    for (const DeviceInfo& device : list_devices(&why)) {
      std::string failed;
      if (std::optional<Target> target = target_from_device(device.index, &failed)) {
        devices.push_back(std::move(*target));
      } else if (why.empty()) {
        why = failed;
      }
    }
  });
  if (devices.empty() && error) *error = why;
  return devices;
}

Confirmation device_limit_verdict(const Diagnostic& finding, const Module& module, const std::vector<Target>& devices,
                                  const std::string& no_devices) {
  Confirmation c;
  if (!finding.rule) return c;
  if (devices.empty()) {
    c.summary = "no Vulkan device at hand to read limits from: " + no_devices;
    c.details.push_back("no run: the limits come from the devices klint can open");
    return c;
  }
  RuleSelection only;
  only.select.push_back(finding.rule);
  std::vector<std::string> asked;
  for (const Target& device : devices) {
    RuleOptions options;
    options.targets = {&device};
    options.targets_declared = true;
    asked.push_back(fmt::format("{} ({})", device.name, device.description));
    for (const Diagnostic& again : run_rules(module, only, options)) {
      if (again.rule != finding.rule || again.location.file != finding.location.file ||
          again.location.line != finding.location.line) {
        continue;
      }
      c.status = Confirmation::Status::Confirmed;
      c.summary = fmt::format("on {} ({}): {}", device.name, device.description, again.message);
      c.witness = again.notes;
      c.details.push_back(fmt::format("read from {}'s own limits (VkPhysicalDeviceLimits), as `--target {}` lints; "
                                      "no pipeline was created past them, which Vulkan leaves undefined",
                                      device.name, device.name));
      return c;
    }
  }
  c.status = Confirmation::Status::Inconclusive;
  c.summary = fmt::format("no device at hand has a limit it exceeds: asked {}", fmt::join(asked, ", "));
  c.details.push_back("no run: the finding's rule, run against each device's own limits, finds nothing");
  return c;
}

}  // namespace klint::runner
