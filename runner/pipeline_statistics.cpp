#include "runner/pipeline_statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace klint::runner {

IsolatedRun capture_statistics(const std::vector<uint32_t>& spirv, const std::string& entry_point,
                               const Harness& harness, const ConfirmOptions& options) {
  IsolateOptions isolate;
  isolate.timeout_seconds = options.timeout_seconds;
  isolate.execute.device_index = options.device_index;
  isolate.execute.capture_statistics = true;
  return run_isolated(spirv, entry_point, harness, isolate);
}

bool is_scratch_statistic(const PipelineStatistic& statistic) {
  std::string name = statistic.name;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  constexpr std::array<std::string_view, 5> kWords{"spill", "scratch", "local memory", "private memory", "stack"};
  return std::any_of(kWords.begin(), kWords.end(), [&](std::string_view word) { return name.find(word) != name.npos; });
}

namespace {

std::string statistic_text(const PipelineStatistic& s) { return fmt::format("{} {}", s.name, s.text); }

}  // namespace

Confirmation statistics_verdict(const Diagnostic& finding, size_t of_rule, const IsolatedRun& capture) {
  Confirmation c;
  if (capture.verdict != Verdict::Completed) {
    c.status = Confirmation::Status::NotRunnable;
    c.summary = "the pipeline could not be made: " + capture.message;
    return c;
  }
  const Execution& e = capture.execution;
  c.details.push_back(e.statistics_offered ? fmt::format("pipeline made on {} with its statistics captured "
                                                         "(VK_KHR_pipeline_executable_properties); nothing was "
                                                         "dispatched",
                                                         e.device)
                                           : fmt::format("pipeline made on {}; nothing was dispatched", e.device));
  if (!e.statistics_offered) {
    c.status = Confirmation::Status::Inconclusive;
    c.summary = fmt::format("{} reports no pipeline statistics (VK_KHR_pipeline_executable_properties), so nothing "
                            "shows where its compiler keeps the array",
                            e.device);
    c.details.push_back("no statistics: a GPU whose driver reports them can show it (`--device N`)");
    return c;
  }
  std::vector<const PipelineStatistic*> scratch;
  std::vector<const PipelineStatistic*> used;
  std::vector<std::string> names;
  for (const PipelineStatistic& s : e.statistics) {
    c.details.push_back(fmt::format("statistic: {}: {} = {} ({})", s.executable, s.name, s.text, s.description));
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

}  // namespace klint::runner
