// The barrier vocabulary (analyzer/barriers.h) on SPIR-V assembly: what each
// encoding that glslang, DXC and hand-written modules use does, and Unknown
// for scopes and semantics from specialization constants.
#include <gtest/gtest.h>

#include "analyzer/barriers.h"
#include "analyzer/barrier_intervals.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

// A compute module whose main holds `body`. Constants: %wg (Workgroup),
// %dev (Device), %sg (Subgroup), %inv (Invocation), %qf (QueueFamily),
// semantics %shared (0x108), %buffers (0x48), %all (0xD48), %none (0), and
// specialization constants %spec_scope (default Workgroup) and %spec_sem
// (default 0x108). spirv-val takes specialization constants for scopes and
// semantics only beside CooperativeMatrixNV; elsewhere they must be OpConstant.
std::unique_ptr<Module> module_with(const std::string& body) {
  return module_from_assembly(R"(OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability VulkanMemoryModelDeviceScope
OpCapability CooperativeMatrixNV
OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %spec_scope SpecId 0
OpDecorate %spec_sem SpecId 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%wg = OpConstant %uint 2
%dev = OpConstant %uint 1
%sg = OpConstant %uint 3
%inv = OpConstant %uint 4
%qf = OpConstant %uint 5
%shared = OpConstant %uint 264
%buffers = OpConstant %uint 72
%all = OpConstant %uint 3400
%none = OpConstant %uint 0
%spec_scope = OpSpecConstant %uint 2
%spec_sem = OpSpecConstant %uint 264
%main = OpFunction %void None %fn
%entry = OpLabel
)" + body + R"(
OpReturn
OpFunctionEnd
)");
}

// The facts of the first instruction of main.
std::optional<Barrier> first(const std::string& body, std::unique_ptr<Module>& holder) {
  holder = module_with(body);
  if (!holder) return std::nullopt;
  const ir::Instruction& instruction = holder->functions().front().blocks.front().instructions.front();
  return barrier_of(*holder, instruction);
}

TEST(Barriers, GlslBarrierWaitsAndOrdersWorkgroupMemory) {
  std::unique_ptr<Module> m;
  auto b = first("OpControlBarrier %wg %wg %shared", m);
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->control);
  EXPECT_EQ(b->execution, Reach::Workgroup);
  EXPECT_EQ(b->waits_for_workgroup(), Truth::Yes);
  EXPECT_EQ(b->orders_workgroup_memory(), Truth::Yes);
  EXPECT_EQ(b->synchronizes_workgroup_memory(), Truth::Yes);
}

TEST(Barriers, DeviceMemoryScopeReachesTheWorkgroup) {
  // HLSL AllMemoryBarrierWithGroupSync(): OpControlBarrier Workgroup Device 0xD48.
  std::unique_ptr<Module> m;
  auto b = first("OpControlBarrier %wg %dev %all", m);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->memory, Reach::Workgroup);
  EXPECT_EQ(b->synchronizes_workgroup_memory(), Truth::Yes);
  auto q = first("OpControlBarrier %wg %qf %shared", m);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->memory, Reach::Workgroup);
}

TEST(Barriers, ControlBarrierWithoutWorkgroupSemanticsWaitsButDoesNotOrder) {
  std::unique_ptr<Module> m;
  for (const char* body : {"OpControlBarrier %wg %wg %none", "OpControlBarrier %wg %dev %buffers"}) {
    auto b = first(body, m);
    ASSERT_TRUE(b) << body;
    EXPECT_EQ(b->waits_for_workgroup(), Truth::Yes) << body;
    EXPECT_EQ(b->names_workgroup_memory(), Truth::No) << body;
    EXPECT_EQ(b->orders_workgroup_memory(), Truth::No) << body;
    EXPECT_EQ(b->synchronizes_workgroup_memory(), Truth::No) << body;
  }
}

TEST(Barriers, SubgroupBarrierDoesNotWaitForTheWorkgroup) {
  std::unique_ptr<Module> m;
  auto b = first("OpControlBarrier %sg %sg %shared", m);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->execution, Reach::Subgroup);
  EXPECT_EQ(b->memory, Reach::Subgroup);
  EXPECT_EQ(b->waits_for_workgroup(), Truth::No);
  EXPECT_EQ(b->orders_workgroup_memory(), Truth::No);
  // Waits for the workgroup, but publishes shared memory only within a subgroup.
  auto narrow = first("OpControlBarrier %wg %sg %shared", m);
  ASSERT_TRUE(narrow);
  EXPECT_EQ(narrow->waits_for_workgroup(), Truth::Yes);
  EXPECT_EQ(narrow->names_workgroup_memory(), Truth::Yes);
  EXPECT_EQ(narrow->synchronizes_workgroup_memory(), Truth::No);
}

TEST(Barriers, MemoryBarrierOrdersButNeverWaits) {
  std::unique_ptr<Module> m;
  auto shared = first("OpMemoryBarrier %dev %shared", m);  // memoryBarrierShared()
  ASSERT_TRUE(shared);
  EXPECT_FALSE(shared->control);
  EXPECT_EQ(shared->waits_for_workgroup(), Truth::No);
  EXPECT_EQ(shared->orders_workgroup_memory(), Truth::Yes);
  EXPECT_EQ(shared->synchronizes_workgroup_memory(), Truth::No);
  EXPECT_EQ(shared->memory_scope, 1u);
  EXPECT_EQ(shared->semantics, 264u);
  auto buffers = first("OpMemoryBarrier %dev %buffers", m);  // memoryBarrierBuffer()
  ASSERT_TRUE(buffers);
  EXPECT_EQ(buffers->orders_workgroup_memory(), Truth::No);
  auto invocation = first("OpMemoryBarrier %inv %shared", m);
  ASSERT_TRUE(invocation);
  EXPECT_EQ(invocation->memory, Reach::Invocation);
  EXPECT_EQ(invocation->orders_workgroup_memory(), Truth::No);
}

TEST(Barriers, SpecializationConstantsAreUnknownNotTheirDefaults) {
  std::unique_ptr<Module> m;
  auto scope = first("OpControlBarrier %spec_scope %wg %shared", m);
  ASSERT_TRUE(scope);
  EXPECT_EQ(scope->execution, Reach::Unknown);
  EXPECT_FALSE(scope->execution_scope);
  EXPECT_EQ(scope->waits_for_workgroup(), Truth::Unknown);
  EXPECT_TRUE(may(scope->waits_for_workgroup()));
  EXPECT_FALSE(surely(scope->waits_for_workgroup()));
  EXPECT_EQ(scope->synchronizes_workgroup_memory(), Truth::Unknown);

  auto semantics = first("OpControlBarrier %wg %wg %spec_sem", m);
  ASSERT_TRUE(semantics);
  EXPECT_FALSE(semantics->semantics);
  EXPECT_EQ(semantics->waits_for_workgroup(), Truth::Yes);
  EXPECT_EQ(semantics->names_workgroup_memory(), Truth::Unknown);
  EXPECT_EQ(semantics->synchronizes_workgroup_memory(), Truth::Unknown);

  // No is stronger than Unknown: a subgroup scope orders nothing for the workgroup.
  auto narrow = first("OpControlBarrier %sg %sg %spec_sem", m);
  ASSERT_TRUE(narrow);
  EXPECT_EQ(narrow->synchronizes_workgroup_memory(), Truth::No);
}

TEST(Barriers, OtherInstructionsAreNotBarriers) {
  std::unique_ptr<Module> m = module_with("%x = OpIAdd %uint %wg %wg");
  ASSERT_TRUE(m);
  const ir::Instruction& add = m->functions().front().blocks.front().instructions.front();
  EXPECT_FALSE(barrier_of(*m, add));
}

// Barrier intervals end at a barrier that may order workgroup memory: an
// Unknown one silences rather than makes a race.
TEST(Barriers, IntervalsEndAtBarriersThatMayOrder) {
  struct Case {
    const char* body;
    bool ends;
  } cases[] = {
      {"OpControlBarrier %wg %wg %shared", true},
      {"OpControlBarrier %wg %wg %none", true},  // the race rules leave it to insufficient-barrier
      {"OpControlBarrier %spec_scope %wg %shared", true},
      {"OpControlBarrier %sg %sg %shared", false},
      {"OpMemoryBarrier %dev %shared", true},
      {"OpMemoryBarrier %wg %spec_sem", true},
      {"OpMemoryBarrier %dev %buffers", false},
  };
  for (const Case& c : cases) {
    std::unique_ptr<Module> m = module_with(c.body);
    ASSERT_TRUE(m) << c.body;
    const ir::Instruction& instruction = m->functions().front().blocks.front().instructions.front();
    EXPECT_EQ(is_workgroup_barrier(*m, instruction), c.ends) << c.body;
  }
}

}  // namespace
}  // namespace klint::testing
