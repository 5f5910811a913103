// Instrumented runs on lavapipe: the log of workgroup-memory and storage
// accesses read back as races, uninitialized reads, indices out of range and
// overlapping writes, and silence for kernels that have none.
#include "runner/shadow.h"

#include <gtest/gtest.h>

#include <map>

#include "reflect/reflection.h"
#include "analyzer/source.h"
#include "runner/harness.h"
#include "runner/instrument.h"
#include "runner/isolate.h"
#include "runner/observe.h"
#include "tests/runner/kernels.h"
#include "validate/spirv_val.h"

namespace klint::runner {
namespace {

using testing::spirv_from_glsl;

struct ShadowRun {
  Instrumented instrumented;
  ShadowReport report;
  std::vector<std::string> lines;  // describe() of each finding
};

ShadowRun shadow_run(const std::string& source, std::array<uint32_t, 3> grid = {1, 1, 1}) {
  ShadowRun run;
  const std::vector<uint32_t> spirv = spirv_from_glsl(source);
  std::string error;
  InstrumentOptions logged;
  logged.barriers = true;  // as klint run --shadow logs them
  logged.spreads = true;    // as a bank-conflict or coalescing finding has them measured
  std::optional<Instrumented> instrumented = instrument(spirv, ModuleOrigin{"test.comp", {}}, logged, &error);
  EXPECT_TRUE(instrumented) << error;
  if (!instrumented) return run;
  run.instrumented = std::move(*instrumented);
  for (const ValidationMessage& m : validate_spirv(run.instrumented.spirv, SPV_ENV_VULKAN_1_3)) {
    ADD_FAILURE() << "instrumented module is invalid: " << m.message;
  }
  std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(spirv, &error);
  EXPECT_TRUE(reflection) << error;
  if (!reflection) return run;
  HarnessOptions options;
  options.grid = grid;
  std::optional<Harness> harness = default_harness(reflection->entry_points[0], options, &error);
  EXPECT_TRUE(harness) << error;
  if (!harness) return run;
  harness->buffers.push_back(log_buffer(run.instrumented));
  IsolatedRun result = run_isolated(run.instrumented.spirv, "main", *harness, {});
  EXPECT_EQ(result.verdict, Verdict::Completed) << result.message;
  if (result.verdict != Verdict::Completed) return run;
  run.report = read_log(run.instrumented, result.execution.buffers.back().data);
  for (const ShadowFinding& f : run.report.findings) run.lines.push_back(describe(run.instrumented, f));
  return run;
}

TEST(Shadow, NeighbourReadBeforeTheBarrierIsARace) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    float right = tid + 1 < 64 ? tile[tid + 1] : 0.0;
    barrier();
    x[gl_GlobalInvocationID.x] = tile[tid] + right;
}
)");
  ASSERT_EQ(run.lines.size(), 1u) << ::testing::PrintToString(run.lines);
  const ShadowFinding& f = run.report.findings[0];
  EXPECT_EQ(f.kind, ShadowKind::Race);
  EXPECT_EQ(run.instrumented.sites[f.first.site].location.line, 7u);
  EXPECT_EQ(run.instrumented.sites[f.second.site].location.line, 8u);
  EXPECT_NE(f.first.invocation, f.second.invocation);
  EXPECT_EQ(f.first.invocation, f.second.invocation + 1) << run.lines[0];
  EXPECT_EQ(f.element, f.first.invocation);
  EXPECT_FALSE(run.report.truncated);
}

// A tree reduction with a barrier per step, shared atomics, and a loop whose
// iterations are ordered by barriers: nothing to report.
TEST(Shadow, CorrectKernelsAreSilent) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(binding = 1) buffer Sums { float sums[]; };
shared float partial[64];
shared uint count;
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid == 0) count = 0;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    atomicAdd(count, 1u);
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    for (uint k = 0; k < 4; ++k) {
        tile[tid] = float(k) + partial[0];
        barrier();
        x[gl_GlobalInvocationID.x] += tile[(tid + 1) % 64];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0] + float(count);
}
)",
                             {2, 1, 1});
  EXPECT_TRUE(run.lines.empty()) << ::testing::PrintToString(run.lines);
  EXPECT_GT(run.report.accesses, 64u * 2 * 10);
}

TEST(Shadow, ReadOfAnElementNoOneWroteIsUninitialized) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[tid];
    barrier();
    x[tid] = tile[tid + 32];
}
)");
  ASSERT_EQ(run.lines.size(), 1u) << ::testing::PrintToString(run.lines);
  EXPECT_EQ(run.report.findings[0].kind, ShadowKind::UninitializedRead);
  EXPECT_EQ(run.report.findings[0].element, 32u + run.report.findings[0].second.invocation);
  EXPECT_EQ(run.instrumented.sites[run.report.findings[0].second.site].location.line, 9u);
}

// The store past the array would overwrite the driver's memory; the run goes
// on with the index clamped and the log keeps the real one.
TEST(Shadow, IndexPastTheArrayIsOutOfRangeAndTheRunCompletes) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float slots[8];
void main() {
    slots[gl_LocalInvocationID.x * 4096] = 1.0;
    barrier();
    x[gl_LocalInvocationID.x] = slots[0];
}
)");
  ASSERT_EQ(run.lines.size(), 1u) << ::testing::PrintToString(run.lines);
  EXPECT_EQ(run.report.findings[0].kind, ShadowKind::OutOfRange);
  EXPECT_EQ(run.report.findings[0].second.invocation, 1u);
  EXPECT_NE(run.lines[0].find("at or past 8"), std::string::npos) << run.lines[0];
}

TEST(Shadow, TwoWorkgroupsStoringOneElementOverlap) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) buffer Data { float x[]; };
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < 64; i += gl_WorkGroupSize.x) x[i] = float(i);
}
)",
                             {2, 1, 1});
  ASSERT_EQ(run.lines.size(), 1u) << ::testing::PrintToString(run.lines);
  const ShadowFinding& f = run.report.findings[0];
  EXPECT_EQ(f.kind, ShadowKind::OverlappingWrite);
  EXPECT_NE(f.first.workgroup, f.second.workgroup);
  EXPECT_EQ(f.element % 4, 0u);
}

// Workgroup 1 first redoes workgroup 0's elements, then its two rows store
// to one element each: two findings at one store, one across workgroups (a
// grid that overlaps itself) and one within a workgroup (a global race), each
// the witness of a different rule.
TEST(Shadow, OverlapsWithinAndAcrossWorkgroupsAreReportedApart) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 16, local_size_y = 2) in;
layout(binding = 0) buffer Data { float x[]; };
void main() {
    uint i = gl_WorkGroupID.x == 0u ? gl_LocalInvocationIndex : gl_LocalInvocationID.x;
    x[i] = float(gl_LocalInvocationID.y);
}
)",
                             {2, 1, 1});
  ASSERT_EQ(run.lines.size(), 2u) << ::testing::PrintToString(run.lines);
  const ShadowFinding& across = run.report.findings[0];
  const ShadowFinding& within = run.report.findings[1];
  EXPECT_EQ(across.kind, ShadowKind::OverlappingWrite);
  EXPECT_EQ(within.kind, ShadowKind::OverlappingWrite);
  EXPECT_NE(across.first.workgroup, across.second.workgroup);
  EXPECT_EQ(within.first.workgroup, 1u);
  EXPECT_EQ(within.second.workgroup, 1u);
  EXPECT_EQ(within.second.invocation - within.first.invocation, 16u);
}

// A reduction's grid-stride loop stores nothing per element; what shows its
// workgroups overlapping is one load reading one element in both.
TEST(Shadow, ALoopLoadTwoWorkgroupsRepeatIsEvidenceNotAProblem) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) buffer Data { float x[]; };
layout(binding = 1) buffer Sums { float partial[]; };
void main() {
    float s = 0.0;
    for (uint i = gl_GlobalInvocationID.x; i < 64; i += gl_WorkGroupSize.x) s += x[i];
    partial[gl_GlobalInvocationID.x] = s;
}
)",
                             {2, 1, 1});
  ASSERT_EQ(run.lines.size(), 1u) << ::testing::PrintToString(run.lines);
  const ShadowFinding& f = run.report.findings[0];
  EXPECT_EQ(f.kind, ShadowKind::RepeatedLoopRead);
  EXPECT_FALSE(is_problem(f.kind));
  EXPECT_NE(f.first.workgroup, f.second.workgroup);
  // x[i] is read by invocation i % 16 of each workgroup.
  EXPECT_EQ(f.first.invocation, f.second.invocation) << run.lines[0];
  EXPECT_EQ(f.element / 4 % 16, f.first.invocation) << run.lines[0];
  EXPECT_EQ(run.instrumented.sites[f.second.site].location.line, 7u);
}

// SPIR-V from other generators may pass workgroup memory to a function by
// pointer. The instrumenter inlines such calls, so that the store through the
// parameter is logged: with the barrier the neighbour's read sees a written
// element (no false "unwritten"), without it the store races with the read.
constexpr const char* kPointerParameter = R"(; A helper takes a pointer to a workgroup array: each invocation stores its
; element through it, then (after a barrier) reads its neighbour's.
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %lid %tile %data
               OpExecutionMode %main LocalSize 64 1 1
               OpName %main "main"
               OpName %put "put"
               OpName %tile "tile"
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %rta ArrayStride 4
               OpDecorate %Data Block
               OpMemberDecorate %Data 0 Offset 0
               OpDecorate %data DescriptorSet 0
               OpDecorate %data Binding 0
       %void = OpTypeVoid
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
    %uint_64 = OpConstant %uint 64
   %uint_264 = OpConstant %uint 264
      %v3uint = OpTypeVector %uint 3
   %ptr_in_v3 = OpTypePointer Input %v3uint
   %ptr_in_u = OpTypePointer Input %uint
        %lid = OpVariable %ptr_in_v3 Input
    %arr = OpTypeArray %float %uint_64
  %ptr_wg_arr = OpTypePointer Workgroup %arr
  %ptr_wg_f = OpTypePointer Workgroup %float
       %tile = OpVariable %ptr_wg_arr Workgroup
        %rta = OpTypeRuntimeArray %float
       %Data = OpTypeStruct %rta
   %ptr_sb_Data = OpTypePointer StorageBuffer %Data
   %ptr_sb_f = OpTypePointer StorageBuffer %float
       %data = OpVariable %ptr_sb_Data StorageBuffer
   %fn_main = OpTypeFunction %void
    %fn_put = OpTypeFunction %void %ptr_wg_arr %uint %float
        %put = OpFunction %void None %fn_put
          %t = OpFunctionParameter %ptr_wg_arr
          %i = OpFunctionParameter %uint
          %v = OpFunctionParameter %float
  %put_entry = OpLabel
          %p = OpAccessChain %ptr_wg_f %t %i
               OpStore %p %v
               OpReturn
               OpFunctionEnd
       %main = OpFunction %void None %fn_main
      %entry = OpLabel
   %lid_x_ptr = OpAccessChain %ptr_in_u %lid %uint_0
        %tid = OpLoad %uint %lid_x_ptr
     %in_ptr = OpAccessChain %ptr_sb_f %data %uint_0 %tid
         %in = OpLoad %float %in_ptr
          %r = OpFunctionCall %void %put %tile %tid %in
               OpControlBarrier %uint_2 %uint_2 %uint_264
       %next = OpIAdd %uint %tid %uint_1
      %wrapped = OpUMod %uint %next %uint_64
   %neighbour = OpAccessChain %ptr_wg_f %tile %wrapped
       %seen = OpLoad %float %neighbour
               OpStore %in_ptr %seen
               OpReturn
               OpFunctionEnd
)";

ShadowReport assembly_run(const std::string& text, Instrumented* out) {
  SourceCache sources;
  CompiledShader compiled = compile("helper.spvasm", text, Language::SpirvAssembly, CompileOptions{}, sources);
  EXPECT_TRUE(compiled.ok);
  std::string error;
  std::optional<Instrumented> in = instrument(compiled.spirv, ModuleOrigin{"helper.spvasm", compiled.assembly_lines}, {}, &error);
  EXPECT_TRUE(in) << error;
  if (!in) return {};
  EXPECT_TRUE(in->skipped.empty()) << ::testing::PrintToString(in->skipped);
  for (const ValidationMessage& m : validate_spirv(in->spirv, SPV_ENV_VULKAN_1_3)) ADD_FAILURE() << m.message;
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Storage, "data", std::vector<uint8_t>(4 * 64, 0)});
  harness.buffers.push_back(log_buffer(*in));
  IsolatedRun result = run_isolated(in->spirv, "main", harness, {});
  EXPECT_EQ(result.verdict, Verdict::Completed) << result.message;
  if (result.verdict != Verdict::Completed) return {};
  *out = *in;
  return read_log(*in, result.execution.buffers.back().data);
}

TEST(Shadow, StoresThroughAPointerParameterAreLogged) {
  Instrumented in;
  ShadowReport ordered = assembly_run(kPointerParameter, &in);
  EXPECT_EQ(ordered.accesses, 64u * 3);  // the store in the helper, the neighbour's load, the storage store
  EXPECT_TRUE(ordered.findings.empty());
  std::string racy = kPointerParameter;
  const std::string barrier = "               OpControlBarrier %uint_2 %uint_2 %uint_264\n";
  racy.erase(racy.find(barrier), barrier.size());
  ShadowReport raced = assembly_run(racy, &in);
  ASSERT_EQ(raced.findings.size(), 1u);
  EXPECT_EQ(raced.findings[0].kind, ShadowKind::Race);
  EXPECT_EQ(in.sites[raced.findings[0].first.site].kind, AccessKind::Write);
}

TEST(Shadow, AFullLogStillShowsWhatItHolds) {
  const std::vector<uint32_t> spirv = spirv_from_glsl(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = 1.0;
    x[gl_LocalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % 64];
}
)");
  InstrumentOptions options;
  options.capacity = 70;
  std::string error;
  std::optional<Instrumented> in = instrument(spirv, ModuleOrigin{"test.comp", {}}, options, &error);
  ASSERT_TRUE(in) << error;
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Storage, "Data", std::vector<uint8_t>(4 * 64, 0)});
  harness.buffers.push_back(log_buffer(*in));
  IsolatedRun result = run_isolated(in->spirv, "main", harness, {});
  ASSERT_EQ(result.verdict, Verdict::Completed) << result.message;
  ShadowReport report = read_log(*in, result.execution.buffers.back().data);
  EXPECT_TRUE(report.truncated);
  EXPECT_EQ(report.accesses, 64u * 3);
  EXPECT_TRUE(result.execution.guard_violations.empty());
}

// Invocations past the row's end return before the barrier: the log counts
// each invocation's arrivals, and those that never came are named.
TEST(Shadow, AnInvocationThatReturnsBeforeTheBarrierSkipsIt) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid >= 40) return;
    tile[tid] = x[tid];
    barrier();
    x[tid] = tile[39 - tid];
}
)");
  ASSERT_EQ(run.lines.size(), 1u) << ::testing::PrintToString(run.lines);
  const ShadowFinding& f = run.report.findings[0];
  EXPECT_EQ(f.kind, ShadowKind::SkippedBarrier);
  EXPECT_EQ(run.instrumented.sites[f.first.site].kind, AccessKind::Barrier);
  EXPECT_EQ(run.instrumented.sites[f.first.site].location.line, 9u);
  std::vector<uint32_t> skipped;
  for (uint32_t i = 40; i < 64; ++i) skipped.push_back(i);
  EXPECT_EQ(f.fewer, skipped);
  EXPECT_EQ(f.first.value, 1u);
  EXPECT_EQ(f.second.value, 0u);
  EXPECT_EQ(run.lines[0],
            "skipped barrier at test.comp:9 in workgroup 0: invocation 0 arrives once, invocation 40 never "
            "(invocations 40..63 arrive fewer times)");
}

// A barrier inside the branch of a halving loop: invocation 0 passes it at
// every step, the others drop out one step after another.
TEST(Shadow, ABarrierInsideTheHalvingBranchIsReachedFewerTimesByTheIdle) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[8];
void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = x[tid];
    barrier();
    for (uint s = 4; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
            barrier();
        }
    }
    x[tid] = partial[0];
}
)");
  std::vector<const ShadowFinding*> skipped;
  for (const ShadowFinding& f : run.report.findings) {
    if (f.kind == ShadowKind::SkippedBarrier) skipped.push_back(&f);
  }
  ASSERT_EQ(skipped.size(), 1u) << ::testing::PrintToString(run.lines);
  EXPECT_EQ(run.instrumented.sites[skipped[0]->first.site].location.line, 12u);
  EXPECT_EQ(skipped[0]->first.invocation, 0u);
  EXPECT_EQ(skipped[0]->first.value, 3u);
  EXPECT_EQ(skipped[0]->fewer, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(skipped[0]->second.value, 2u);  // invocation 1: the steps of 4 and 2
}

// A subgroup operation under a condition that splits a subgroup: the run
// records the lanes active at it, an observation rather than a problem.
TEST(Shadow, ASubgroupOperationUnderASplitRunsWithPartOfItsSubgroup) {
  const std::vector<uint32_t> spirv = spirv_from_glsl(R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 16) in;
layout(binding = 0) buffer Data { float x[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    if (i % 4 < 3) x[i] = subgroupAdd(x[i]);
}
)");
  InstrumentOptions options;
  options.all_group_operations = true;
  std::string error;
  std::optional<Instrumented> in = instrument(spirv, ModuleOrigin{"test.comp", {}}, options, &error);
  ASSERT_TRUE(in) << error;
  for (const ValidationMessage& m : validate_spirv(in->spirv, SPV_ENV_VULKAN_1_3)) ADD_FAILURE() << m.message;
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Storage, "Data", std::vector<uint8_t>(4 * 16, 0)});
  harness.buffers.push_back(log_buffer(*in));
  IsolatedRun result = run_isolated(in->spirv, "main", harness, {});
  ASSERT_EQ(result.verdict, Verdict::Completed) << result.message;
  ShadowReport report = read_log(*in, result.execution.buffers.back().data);
  ASSERT_EQ(report.findings.size(), 1u);
  const ShadowFinding& f = report.findings[0];
  EXPECT_EQ(f.kind, ShadowKind::PartialGroup);
  EXPECT_FALSE(is_problem(f.kind));
  EXPECT_EQ(in->sites[f.second.site].kind, AccessKind::GroupOperation);
  // Whatever the subgroup size, every fourth invocation is inactive.
  const std::string line = describe(*in, f);
  EXPECT_TRUE(line.starts_with("partial subgroup at test.comp:7 in workgroup 0: only invocations 0..2")) << line;
  EXPECT_EQ(f.element, 0u);
  EXPECT_EQ(f.fewer.size() * 4, f.first.value * 3) << line;
}

// A column of a 32x32 tile lies in one bank: each group of 32 invocations
// puts 32 words there where 1 per bank would do. Its row, and the padded
// column, spread as well as they can. A store 64 floats apart touches a
// cache line per invocation; a store of neighbours, one line per 32.
TEST(Shadow, AccessesSpreadOverBanksAndLinesAsTheyRan) {
  ShadowRun run = shadow_run(R"(#version 450
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[32][32];
shared float padded[32][33];
void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i][0] = 1.0;
    tile[0][i] = 2.0;
    padded[i][0] = 3.0;
    x[i * 64] = 4.0;
    x[4096 + i] = 5.0;
}
)");
  std::map<uint32_t, const Spread*> by_line;
  for (const Spread& s : run.report.spreads) by_line[run.instrumented.sites[s.site].location.line] = &s;
  ASSERT_EQ(by_line.size(), 2u) << ::testing::PrintToString(run.lines);
  ASSERT_TRUE(by_line.count(8));
  EXPECT_EQ(by_line[8]->degree, 32u);
  EXPECT_EQ(by_line[8]->best, 1u);
  EXPECT_EQ(by_line[8]->bank, 0u);
  EXPECT_EQ(by_line[8]->first, 0u);
  EXPECT_EQ(by_line[8]->last, 31u);
  EXPECT_EQ(by_line[8]->units, (std::vector<uint32_t>{0, 32, 64, 96, 128, 160, 192, 224}));
  ASSERT_TRUE(by_line.count(11));
  EXPECT_EQ(by_line[11]->degree, 32u);  // lines
  EXPECT_EQ(by_line[11]->best, 1u);
}

TEST(Shadow, InvocationRangesJoinRuns) {
  EXPECT_EQ(invocation_ranges({0, 1, 2, 5, 7, 8}), "0..2, 5, 7..8");
  EXPECT_EQ(invocation_ranges({3}), "3");
  EXPECT_EQ(invocation_ranges({}), "");
}

}  // namespace
}  // namespace klint::runner

namespace klint::runner {
namespace {

// The kernel reads no built-in that gives the size away: what it computes
// depends on the width it was compiled for. Mesa's shader cache would hand
// every run the first run's code.
TEST(Observe, EachRunOnLavapipeHasTheSubgroupSizeItAskedFor) {
  const std::vector<uint32_t> spirv = spirv_from_glsl(R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Out { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = subgroupAdd(1u); }
)");
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Storage, "Out", std::vector<uint8_t>(4 * 64, 0)});
  std::string error;
  std::optional<Observations> o = observe(spirv, ModuleOrigin{"test.comp", {}}, "main", harness, {}, &error);
  ASSERT_TRUE(o) << error;
  if (o->runs.front().device.find("llvmpipe") == std::string::npos) GTEST_SKIP() << "not lavapipe";
  ASSERT_EQ(o->runs.size(), 3u);
  for (const Observation& run : o->runs) {
    ASSERT_EQ(run.verdict, Verdict::Completed) << run.message;
    ASSERT_EQ(run.buffers.size(), 1u);
    EXPECT_EQ(testing::word(run.buffers[0].data, 0), run.subgroup_size);
    EXPECT_EQ(testing::word(run.buffers[0].data, 63), run.subgroup_size);
  }
  EXPECT_EQ(o->runs[0].subgroup_size, 4u);
  EXPECT_EQ(o->runs[2].subgroup_size, 16u);
  std::optional<OutputDifference> d = compare(harness, o->runs[0], o->runs[2], {Words::Integers});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->words, 64u);
  EXPECT_EQ(d->a, 4u);
  EXPECT_EQ(d->b, 16u);
  EXPECT_EQ(d->symptom, "completely wrong");
}

// A setup run at size 4 first runs at 8 and 16 later only for what 4 did
// not show: observe_more adds the sizes missing, once each.
TEST(Observe, MoreSizesRunOnlyTheSizesNotRunYet) {
  const std::vector<uint32_t> spirv = spirv_from_glsl(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 16) in;
layout(binding = 0) buffer Out { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = gl_SubgroupSize; }
)");
  Harness harness;
  harness.buffers.push_back({0, 0, BufferKind::Storage, "Out", std::vector<uint8_t>(4 * 16, 0)});
  ObserveOptions options;
  options.subgroup_sizes = {4};
  std::string error;
  std::optional<Observations> o = observe(spirv, ModuleOrigin{"test.comp", {}}, "main", harness, options, &error);
  ASSERT_TRUE(o) << error;
  if (o->runs.front().device.find("llvmpipe") == std::string::npos) GTEST_SKIP() << "not lavapipe";
  ASSERT_EQ(o->runs.size(), 1u);
  options.subgroup_sizes = {4, 8, 16};
  observe_more(*o, "main", harness, options);
  ASSERT_EQ(o->runs.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    ASSERT_EQ(o->runs[k].verdict, Verdict::Completed) << o->runs[k].message;
    EXPECT_EQ(o->runs[k].subgroup_size, 4u << k);
    EXPECT_EQ(testing::word(o->runs[k].buffers[0].data, 15), 4u << k);
  }
  observe_more(*o, "main", harness, options);
  EXPECT_EQ(o->runs.size(), 3u);
}

// With `storage` off, a run logs workgroup memory and the storage accesses
// named, not the kernel's other stores: what a race needs, without the
// records of a kernel that streams a matrix.
TEST(Instrument, WithoutStorageOnlyTheNamedStorageAccessesAreLogged) {
  const std::vector<uint32_t> spirv = spirv_from_glsl(R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) buffer Out { uint v[]; };
layout(binding = 1) buffer Other { uint w[]; };
shared uint tile[16];
void main() {
  tile[gl_LocalInvocationIndex] = 1u;
  v[gl_GlobalInvocationID.x] = 2u;
  w[gl_GlobalInvocationID.x] = 3u;
}
)");
  auto kinds = [&](const InstrumentOptions& options) {
    std::string error;
    std::optional<Instrumented> in = instrument(spirv, ModuleOrigin{"test.comp", {}}, options, &error);
    EXPECT_TRUE(in) << error;
    std::vector<std::pair<AccessKind, std::string>> out;
    if (!in) return out;
    for (const AccessSite& site : in->sites) {
      out.emplace_back(site.kind, site.kind == AccessKind::StorageWrite ? in->storage[site.target].name : "tile");
    }
    return out;
  };
  using Sites = std::vector<std::pair<AccessKind, std::string>>;
  EXPECT_EQ(kinds({}), (Sites{{AccessKind::Write, "tile"}, {AccessKind::StorageWrite, "Out"},
                              {AccessKind::StorageWrite, "Other"}}));
  InstrumentOptions without;
  without.storage = false;
  EXPECT_EQ(kinds(without), (Sites{{AccessKind::Write, "tile"}}));
  // The store to w, named by its ordinal as a finding names it.
  std::string error;
  std::optional<Instrumented> all = instrument(spirv, ModuleOrigin{"test.comp", {}}, {}, &error);
  ASSERT_TRUE(all) << error;
  without.storage_accesses.push_back(all->sites[2].instruction);
  EXPECT_EQ(kinds(without), (Sites{{AccessKind::Write, "tile"}, {AccessKind::StorageWrite, "Other"}}));
}

}  // namespace
}  // namespace klint::runner
