#include "runner/pipeline_statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "validate/occupancy.h"

namespace klint::runner {

IsolatedRun capture_statistics(const std::vector<uint32_t>& spirv, const std::string& entry_point,
                               const Harness& harness, const ConfirmOptions& options) {
  IsolateOptions isolate;
  isolate.timeout_seconds = options.timeout_seconds;
  isolate.execute.device_index = options.device_index;
  isolate.execute.capture_statistics = true;
  return run_isolated(spirv, entry_point, harness, isolate);
}

namespace {

// Whether the statistic's name, in any case, holds one of `words`.
bool named_for(const PipelineStatistic& statistic, std::initializer_list<std::string_view> words) {
  std::string name = statistic.name;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::any_of(words.begin(), words.end(), [&](std::string_view word) { return name.find(word) != name.npos; });
}

}  // namespace

bool is_scratch_statistic(const PipelineStatistic& statistic) {
  return named_for(statistic, {"spill", "scratch", "local memory", "private memory", "stack"});
}

bool is_shared_memory_statistic(const PipelineStatistic& statistic) {
  return named_for(statistic, {"shared memory", "lds"});
}

namespace {

std::string statistic_text(const PipelineStatistic& s) { return fmt::format("{} {}", s.name, s.text); }

// What a capture that completed says of itself: the device, whether it gave
// statistics, and each of them.
std::vector<std::string> capture_details(const Execution& e) {
  std::vector<std::string> details{
      e.statistics_offered
          ? fmt::format("pipeline made on {} with its statistics captured (VK_KHR_pipeline_executable_properties); "
                        "nothing was dispatched",
                        e.device)
          : fmt::format("pipeline made on {}; nothing was dispatched", e.device)};
  for (const PipelineStatistic& s : e.statistics) {
    details.push_back(fmt::format("statistic: {}: {} = {} ({})", s.executable, s.name, s.text, s.description));
  }
  if (!e.statistics_offered) details.push_back("no statistics: a GPU whose driver reports them can show it (`--device N`)");
  return details;
}

// The verdict where the capture alone decides it: not runnable when the
// pipeline could not be made, inconclusive when the device offers no
// statistics (so nothing shows `unseen`); else nullopt, and `c` holds the
// capture's details.
std::optional<Confirmation> without_statistics(const IsolatedRun& capture, std::string_view unseen,
                                               Confirmation& c) {
  if (capture.verdict != Verdict::Completed) {
    return Confirmation{Confirmation::Status::NotRunnable, "the pipeline could not be made: " + capture.message, {}, {}};
  }
  const Execution& e = capture.execution;
  c.details = capture_details(e);
  if (e.statistics_offered) return std::nullopt;
  c.status = Confirmation::Status::Inconclusive;
  c.summary = fmt::format("{} reports no pipeline statistics (VK_KHR_pipeline_executable_properties), so nothing "
                          "shows {}",
                          e.device, unseen);
  return c;
}

}  // namespace

Confirmation statistics_verdict(const Diagnostic& finding, size_t of_rule, const IsolatedRun& capture) {
  Confirmation c;
  if (std::optional<Confirmation> decided = without_statistics(capture, "where its compiler keeps the array", c)) {
    return *decided;
  }
  const Execution& e = capture.execution;
  std::vector<const PipelineStatistic*> scratch;
  std::vector<const PipelineStatistic*> used;
  std::vector<std::string> names;
  for (const PipelineStatistic& s : e.statistics) {
    names.push_back(s.name);
    if (!is_scratch_statistic(s)) continue;
    scratch.push_back(&s);
    if (s.value > 0) used.push_back(&s);
  }
  auto listed = [](const std::vector<const PipelineStatistic*>& statistics) {
    std::vector<std::string> out;
    for (const PipelineStatistic* s : statistics) out.push_back(statistic_text(*s));
    return fmt::format("{}", fmt::join(out, ", "));
  };
  if (scratch.empty()) {
    c.status = Confirmation::Status::Inconclusive;
    c.summary = fmt::format("{}'s statistics name no scratch memory or spills: {}", e.device,
                            names.empty() ? "it reported none" : fmt::format("{}", fmt::join(names, ", ")));
    return c;
  }
  if (used.empty()) {
    c.status = Confirmation::Status::NotReproduced;
    c.summary = fmt::format("on {} the compiler keeps the kernel in registers: {}", e.device, listed(scratch));
    return c;
  }
  if (of_rule > 1) {
    c.status = Confirmation::Status::Inconclusive;
    c.summary = fmt::format("on {}, {} for the kernel, which has {} arrays flagged: no statistic says which of them "
                            "is in scratch memory",
                            e.device, listed(used), of_rule);
    return c;
  }
  c.status = Confirmation::Status::Confirmed;
  c.summary = fmt::format("on {}: {}", e.device, listed(used));
  c.witness.push_back(Note{finding.location, fmt::format("the compiler keeps memory outside registers for this "
                                                         "kernel: {}",
                                                         listed(used))});
  return c;
}

Confirmation occupancy_verdict(const Diagnostic& finding, const IsolatedRun& capture, uint64_t counted,
                               uint64_t invocations, std::span<const Target* const> targets) {
  Confirmation c;
  if (std::optional<Confirmation> decided =
          without_statistics(capture, "how much workgroup memory its compiler allocates", c)) {
    return *decided;
  }
  const Execution& e = capture.execution;
  c.status = Confirmation::Status::Inconclusive;
  auto shared = std::find_if(e.statistics.begin(), e.statistics.end(), is_shared_memory_statistic);
  if (shared == e.statistics.end()) {
    std::vector<std::string> names;
    for (const PipelineStatistic& s : e.statistics) names.push_back(s.name);
    c.summary = fmt::format("{}'s statistics name no shared memory: {}", e.device,
                            names.empty() ? "it reported none" : fmt::format("{}", fmt::join(names, ", ")));
    return c;
  }
  const uint64_t allocated = shared->value;
  c.details.push_back(fmt::format("the residency is klint's model of each target (docs/targets.md) at the {} bytes "
                                  "{}'s compiler allocates, where klint counted {}; another compiler may allocate "
                                  "otherwise",
                                  allocated, e.device, counted));
  if (std::none_of(targets.begin(), targets.end(),
                   [](const Target* t) { return estimate_occupancy(*t, 1, 1).has_value(); })) {
    c.summary = fmt::format("on {}: its compiler allocates {} bytes of workgroup memory ({}), and no target linted "
                            "against has occupancy figures to judge them by",
                            e.device, allocated, shared->name);
    return c;
  }
  std::vector<std::pair<const Target*, uint32_t>> starved;
  for (const Target* target : targets) {
    // More than the target's limit where klint counted less: none fits.
    const uint64_t limit = target->max_compute_shared_memory_size;
    if (allocated > limit && counted <= limit) {
      starved.emplace_back(target, 0);
    } else if (std::optional<uint32_t> resident = starved_by_shared_memory(*target, allocated, invocations)) {
      starved.emplace_back(target, *resident);
    }
  }
  if (starved.empty()) {
    c.status = Confirmation::Status::NotReproduced;
    c.summary = fmt::format("on {}: its compiler allocates {} bytes of workgroup memory ({}), where klint counted {}: "
                            "at that size every target keeps enough workgroups resident",
                            e.device, allocated, shared->name, counted);
    return c;
  }
  c.status = Confirmation::Status::Confirmed;
  c.summary = fmt::format("on {}: its compiler allocates {} bytes of workgroup memory ({}), which let only {} stay "
                          "resident per compute unit",
                          e.device, allocated, shared->name, residency_text(starved));
  c.witness.push_back(Note{finding.location, fmt::format("the compiled kernel takes {} bytes of workgroup memory "
                                                         "per workgroup of {} invocations",
                                                         allocated, invocations)});
  return c;
}

}  // namespace klint::runner
