#include "runner/device_limits.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "analyzer/isolation.h"
#include "rules/rule.h"
#include "validate/device.h"
#include "validate/targets.h"

namespace klint::runner {

namespace {

// The devices' targets, read in a child process as the runs are: a driver
// that crashes or hangs while it is asked takes the child alone, and the
// process that forks the runs never loads one. A frame of the targets as
// klint-target-1 documents, each ended by a zero byte, after one line of
// error ("" when every device answered).
std::vector<Target> read_devices(std::string* why) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    *why = fmt::format("pipe: {}", std::strerror(errno));
    return {};
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    *why = fmt::format("fork: {}", std::strerror(errno));
    return {};
  }
  if (pid == 0) {
    close(fds[0]);
    std::string error;
    std::string documents;
    for (const DeviceInfo& device : list_devices(&error)) {
      std::string failed;
      if (std::optional<Target> target = target_from_device(device.index, &failed)) {
        target->name = fmt::format("device-{}", device.index);  // a file's name: "device:N" is not one
        documents += target_to_json(*target);
        documents += '\0';
      } else if (error.empty()) {
        error = failed;
      }
    }
    const std::string text = error.substr(0, error.find('\n')) + "\n" + documents;
    _exit(isolation::write_frame(fds[1], std::vector<uint8_t>(text.begin(), text.end())) ? 0 : 3);
  }
  close(fds[1]);
  constexpr double kSeconds = 30;
  const isolation::Clock::time_point deadline = isolation::deadline_in(kSeconds);
  isolation::Frame frame = isolation::read_frame(fds[0], deadline);
  close(fds[0]);
  if (frame.end != isolation::ReadEnd::Complete || !isolation::wait_until(pid, deadline)) {
    isolation::kill_and_reap(pid);
    *why = "asking the Vulkan devices for their limits did not finish";
    return {};
  }
  const std::string text(frame.bytes.begin(), frame.bytes.end());
  const size_t line = text.find('\n');
  *why = text.substr(0, line);
  std::vector<Target> devices;
  for (size_t at = line == std::string::npos ? text.size() : line + 1; at < text.size();) {
    const size_t end = std::min(text.find('\0', at), text.size());
    std::string error;
    if (std::optional<Target> target = parse_target(std::string_view(text).substr(at, end - at), "device", &error)) {
      target->name = "device:" + target->name.substr(target->name.find('-') + 1);
      devices.push_back(std::move(*target));
    } else if (why->empty()) {
      *why = error;
    }
    at = end + 1;
  }
  return devices;
}

}  // namespace

const std::vector<Target>& devices_at_hand(std::string* error) {
  static std::once_flag once;
  static std::vector<Target> devices;
  static std::string why;
  std::call_once(once, [] { devices = read_devices(&why); });
  if (devices.empty() && error) *error = why.empty() ? "no Vulkan device" : why;
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
