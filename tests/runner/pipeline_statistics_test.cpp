// The verdict on a finding about scratch memory or about occupancy, from the
// statistics a device's compiler reports for the kernel's pipeline: the
// devices here are stood in for, with statistics as RADV, ANV, NVIDIA and a
// device that reports none give them. That lavapipe reports none is checked
// by the confirm fixtures.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "runner/pipeline_statistics.h"
#include "validate/targets.h"

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

// Occupancy: the workgroup memory the compiler allocates, through each
// target's model. apple-m1 has 61440 bytes per core and needs 2 workgroups
// resident; a 256-invocation workgroup of 32768 bytes keeps one.
std::vector<const Target*> apple_and_hopper() { return {find_target("apple-m1"), find_target("nvidia-hopper")}; }

IsolatedRun nvidia(uint64_t shared_bytes) {
  IsolatedRun run = capture({statistic("Register Count", 16), statistic("Shared Memory Size", shared_bytes)});
  run.execution.device = "NVIDIA H200";
  return run;
}

TEST(OccupancyStatistics, WhatTheCompilerAllocatesStarvesATargetConfirms) {
  const std::vector<const Target*> targets = apple_and_hopper();
  ASSERT_TRUE(targets[0] && targets[1]);
  const Confirmation c = occupancy_verdict(finding_at(5), nvidia(32768), 32768, 256, targets);
  EXPECT_EQ(c.status, Confirmation::Status::Confirmed);
  EXPECT_EQ(c.summary, "on NVIDIA H200: its compiler allocates 32768 bytes of workgroup memory (Shared Memory Size), "
                       "which let only 1 workgroup on apple-m1 stay resident per compute unit");
  ASSERT_EQ(c.witness.size(), 1u);
  EXPECT_EQ(c.witness[0].location.line, 5u);
  EXPECT_EQ(c.witness[0].message, "the compiled kernel takes 32768 bytes of workgroup memory per workgroup of 256 "
                                  "invocations");
  EXPECT_NE(std::find(c.details.begin(), c.details.end(),
                      "statistic: Compute Shader: Register Count = 16 (what it counts)"),
            c.details.end());
  EXPECT_NE(std::find(c.details.begin(), c.details.end(),
                      "the residency is klint's model of each target (docs/targets.md) at the 32768 bytes NVIDIA "
                      "H200's compiler allocates, where klint counted 32768; another compiler may allocate otherwise"),
            c.details.end());
}

// RADV names it LDS. More than klint counted (padding) starves more: past
// apple-m1's limit of 32768 bytes, no workgroup fits at all.
TEST(OccupancyStatistics, LdsByAnyNameCounts) {
  Confirmation c =
      occupancy_verdict(finding_at(5), capture({statistic("LDS size", 32768)}), 20480, 64, apple_and_hopper());
  EXPECT_EQ(c.status, Confirmation::Status::Confirmed);
  EXPECT_EQ(c.summary, "on AMD Radeon (RADV): its compiler allocates 32768 bytes of workgroup memory (LDS size), "
                       "which let only 1 workgroup on apple-m1 stay resident per compute unit");
  c = occupancy_verdict(finding_at(5), capture({statistic("LDS size", 40960)}), 32768, 64, apple_and_hopper());
  EXPECT_EQ(c.status, Confirmation::Status::Confirmed);
  EXPECT_EQ(c.summary, "on AMD Radeon (RADV): its compiler allocates 40960 bytes of workgroup memory (LDS size), "
                       "which let only 0 workgroups on apple-m1 stay resident per compute unit");
  for (const char* name : {"Shared Memory Size", "Shared memory size", "LDS size", "LDS Size (bytes)"}) {
    EXPECT_TRUE(is_shared_memory_statistic(statistic(name, 0))) << name;
  }
  for (const char* name : {"Local Memory Size", "Register Count", "Scratch size", "Stack Size"}) {
    EXPECT_FALSE(is_shared_memory_statistic(statistic(name, 0))) << name;
  }
}

// An array the kernel declares and never uses: the compiler drops it.
TEST(OccupancyStatistics, MemoryTheCompilerDroppedIsNotReproduced) {
  const Confirmation c = occupancy_verdict(finding_at(5), nvidia(0), 32768, 256, apple_and_hopper());
  EXPECT_EQ(c.status, Confirmation::Status::NotReproduced);
  EXPECT_EQ(c.summary, "on NVIDIA H200: its compiler allocates 0 bytes of workgroup memory (Shared Memory Size), "
                       "where klint counted 32768: at that size every target keeps enough workgroups resident");
  EXPECT_TRUE(c.witness.empty());
}

TEST(OccupancyStatistics, WithoutAStatisticOrAModelItSaysNothing) {
  IsolatedRun none = capture({}, false);
  none.execution.device = "llvmpipe (LLVM 15.0.6, 256 bits)";
  Confirmation c = occupancy_verdict(finding_at(5), none, 32768, 256, apple_and_hopper());
  EXPECT_EQ(c.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(c.summary, "llvmpipe (LLVM 15.0.6, 256 bits) reports no pipeline statistics "
                       "(VK_KHR_pipeline_executable_properties), so nothing shows how much workgroup memory its "
                       "compiler allocates");
  c = occupancy_verdict(finding_at(5), capture({statistic("VGPRs", 64)}), 32768, 256, apple_and_hopper());
  EXPECT_EQ(c.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(c.summary, "AMD Radeon (RADV)'s statistics name no shared memory: VGPRs");
  const std::vector<const Target*> lavapipe{find_target("lavapipe")};
  c = occupancy_verdict(finding_at(5), nvidia(32768), 32768, 256, lavapipe);
  EXPECT_EQ(c.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(c.summary, "on NVIDIA H200: its compiler allocates 32768 bytes of workgroup memory (Shared Memory Size), "
                       "and no target linted against has occupancy figures to judge them by");
  IsolatedRun failed;
  failed.verdict = Verdict::Failed;
  failed.message = "vkCreateComputePipelines: VK_ERROR_OUT_OF_HOST_MEMORY";
  EXPECT_EQ(occupancy_verdict(finding_at(5), failed, 32768, 256, apple_and_hopper()).status,
            Confirmation::Status::NotRunnable);
}

}  // namespace
}  // namespace klint::runner
