// The verdict on a finding about scratch memory, from the statistics a
// device's compiler reports for the kernel's pipeline: the devices here are
// stood in for, with statistics as RADV, ANV and a device that reports none
// give them. That lavapipe reports none is checked by the confirm fixtures.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "runner/pipeline_statistics.h"

namespace klint::runner {
namespace {

Diagnostic finding_at(uint32_t line) {
  Diagnostic d;
  d.location.file = "k.comp";
  d.location.line = line;
  return d;
}

IsolatedRun capture(std::vector<PipelineStatistic> statistics, bool offered = true) {
  IsolatedRun run;
  run.verdict = Verdict::Completed;
  run.execution.device = "AMD Radeon (RADV)";
  run.execution.statistics_offered = offered;
  run.execution.statistics = std::move(statistics);
  return run;
}

PipelineStatistic statistic(std::string name, double value) {
  return {"Compute Shader", std::move(name), "what it counts", value, fmt::format("{:g}", value)};
}

TEST(PipelineStatistics, ScratchMemoryConfirmsTheKernelsOneFinding) {
  const Confirmation c = statistics_verdict(
      finding_at(7), 1, capture({statistic("VGPRs", 64), statistic("Spilled VGPRs", 0), statistic("Scratch size", 1024)}));
  EXPECT_EQ(c.status, Confirmation::Status::Confirmed);
  EXPECT_EQ(c.summary, "on AMD Radeon (RADV): Scratch size 1024");
  ASSERT_EQ(c.witness.size(), 1u);
  EXPECT_EQ(c.witness[0].location.line, 7u);
  EXPECT_EQ(c.witness[0].message, "the compiler keeps memory outside registers for this kernel: Scratch size 1024");
  // Every statistic is listed, the registers too.
  EXPECT_NE(std::find(c.details.begin(), c.details.end(), "statistic: Compute Shader: VGPRs = 64 (what it counts)"),
            c.details.end());
}

TEST(PipelineStatistics, NoScratchIsNotReproduced) {
  const Confirmation c =
      statistics_verdict(finding_at(7), 1, capture({statistic("Spilled VGPRs", 0), statistic("Scratch size", 0)}));
  EXPECT_EQ(c.status, Confirmation::Status::NotReproduced);
  EXPECT_EQ(c.summary, "on AMD Radeon (RADV) the compiler keeps the kernel in registers: Spilled VGPRs 0, Scratch size 0");
}

// The statistics are the kernel's: with two arrays flagged, neither is
// confirmed by them.
TEST(PipelineStatistics, ScratchWithSeveralFindingsConfirmsNone) {
  const Confirmation c = statistics_verdict(finding_at(7), 2, capture({statistic("Scratch Memory Size", 2048)}));
  EXPECT_EQ(c.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(c.summary, "on AMD Radeon (RADV), Scratch Memory Size 2048 for the kernel, which has 2 arrays flagged: no "
                       "statistic says which of them is in scratch memory");
  EXPECT_TRUE(c.witness.empty());
}

TEST(PipelineStatistics, ADeviceWithoutStatisticsSaysNothing) {
  IsolatedRun run = capture({}, false);
  run.execution.device = "llvmpipe (LLVM 15.0.6, 256 bits)";
  const Confirmation c = statistics_verdict(finding_at(7), 1, run);
  EXPECT_EQ(c.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(c.summary, "llvmpipe (LLVM 15.0.6, 256 bits) reports no pipeline statistics "
                       "(VK_KHR_pipeline_executable_properties), so nothing shows where its compiler keeps the array");
}

TEST(PipelineStatistics, StatisticsThatNameNoScratchSayNothing) {
  const Confirmation c =
      statistics_verdict(finding_at(7), 1, capture({statistic("Instruction Count", 120), statistic("Cycle Count", 9)}));
  EXPECT_EQ(c.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(c.summary, "AMD Radeon (RADV)'s statistics name no scratch memory or spills: Instruction Count, Cycle Count");
}

TEST(PipelineStatistics, APipelineThatCannotBeMadeIsNotRunnable) {
  IsolatedRun run;
  run.verdict = Verdict::Failed;
  run.message = "vkCreateComputePipelines: VK_ERROR_OUT_OF_HOST_MEMORY";
  const Confirmation c = statistics_verdict(finding_at(7), 1, run);
  EXPECT_EQ(c.status, Confirmation::Status::NotRunnable);
  EXPECT_EQ(c.summary, "the pipeline could not be made: vkCreateComputePipelines: VK_ERROR_OUT_OF_HOST_MEMORY");
}

TEST(PipelineStatistics, ScratchStatisticsAreNamedForSpillsScratchAndLocalMemory) {
  for (const char* name : {"Spilled SGPRs", "Spill count", "Scratch size", "Scratch Memory Size", "Local memory size",
                           "Private memory", "Stack size"}) {
    EXPECT_TRUE(is_scratch_statistic(statistic(name, 0))) << name;
  }
  for (const char* name : {"VGPRs", "Register count", "Shared memory size", "LDS size", "Binary size", "Fill count"}) {
    EXPECT_FALSE(is_scratch_statistic(statistic(name, 0))) << name;
  }
}

}  // namespace
}  // namespace klint::runner
