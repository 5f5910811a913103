// Accesses, their guards, loops and their induction variables on SPIR-V assembly, as a generator other
// than glslang would write them: what each instruction touches, at which
// offset, under which conditions, and which blocks each loop holds.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "analyzer/symbolic.h"
#include "tests/support/compile.h"

namespace klint::testing {
namespace {

// A workgroup of 64 with %tile (64 uints, shared), %data (a storage buffer of
// uints), gl_LocalInvocationID in %lid and a push constant %n. `body` is
// main's, after the entry label; %x is the local id's x.
std::unique_ptr<Module> module_with(const std::string& body) {
  return module_from_assembly(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid %tile %data %pc
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %rt ArrayStride 4
OpDecorate %Data Block
OpMemberDecorate %Data 0 Offset 0
OpDecorate %data DescriptorSet 0
OpDecorate %data Binding 0
OpDecorate %Pc Block
OpMemberDecorate %Pc 0 Offset 0
OpName %tile "tile"
OpName %data "data"
OpName %n "n"
%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_16 = OpConstant %uint 16
%uint_64 = OpConstant %uint 64
%uint_264 = OpConstant %uint 264
%row = OpTypeArray %uint %uint_64
%rt = OpTypeRuntimeArray %uint
%Data = OpTypeStruct %rt
%Pc = OpTypeStruct %uint
%ptr_in = OpTypePointer Input %v3uint
%ptr_row = OpTypePointer Workgroup %row
%ptr_shared = OpTypePointer Workgroup %uint
%ptr_data = OpTypePointer StorageBuffer %Data
%ptr_elem = OpTypePointer StorageBuffer %uint
%ptr_pc = OpTypePointer PushConstant %Pc
%ptr_pc_uint = OpTypePointer PushConstant %uint
%lid = OpVariable %ptr_in Input
%tile = OpVariable %ptr_row Workgroup
%data = OpVariable %ptr_data StorageBuffer
%pc = OpVariable %ptr_pc PushConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%np = OpAccessChain %ptr_pc_uint %pc %uint_0
%n = OpLoad %uint %np
)" + body + R"(
OpFunctionEnd
)");
}

const ir::Function& main_of(const Module& module) { return module.functions().back(); }

std::string describe(const Module& module, const std::optional<Polynomial>& offset) {
  return offset ? module.symbolic(main_of(module)).describe(*offset) : "unknown";
}

TEST(Accesses, KindsStoragesAndByteOffsets) {
  auto module = module_with(R"(%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %uint_1
%x1 = OpIAdd %uint %x %uint_1
%t1 = OpAccessChain %ptr_shared %tile %x1
%v = OpLoad %uint %t1
%d = OpAccessChain %ptr_elem %data %uint_0 %x
%old = OpAtomicIAdd %uint %d %uint_1 %uint_0 %v
OpReturn)");
  ASSERT_TRUE(module);
  const auto& all = module->accesses(main_of(*module)).all();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].kind, MemoryAccess::Kind::Write);
  EXPECT_EQ(all[0].storage, spv::StorageClass::Workgroup);
  EXPECT_EQ(module->name(all[0].variable), "tile");
  EXPECT_EQ(describe(*module, all[0].offset), "gl_LocalInvocationID.x * 4");
  EXPECT_EQ(all[0].width, 4u);
  EXPECT_EQ(all[1].kind, MemoryAccess::Kind::Read);
  EXPECT_EQ(describe(*module, all[1].offset), "gl_LocalInvocationID.x * 4 + 4");
  EXPECT_EQ(all[2].kind, MemoryAccess::Kind::Atomic);
  EXPECT_EQ(all[2].storage, spv::StorageClass::StorageBuffer);
  EXPECT_EQ(module->name(all[2].variable), "data");
  EXPECT_EQ(describe(*module, all[2].offset), "gl_LocalInvocationID.x * 4");
}

TEST(Accesses, AnIndexLoadedFromMemoryLeavesTheOffsetUnknown) {
  auto module = module_with(R"(%d = OpAccessChain %ptr_elem %data %uint_0 %x
%i = OpLoad %uint %d
%t = OpAccessChain %ptr_shared %tile %i
OpStore %t %uint_1
OpReturn)");
  ASSERT_TRUE(module);
  const auto& all = module->accesses(main_of(*module)).all();
  ASSERT_EQ(all.size(), 2u);
  // The loaded value is a symbol of its own: the offset is known in terms of it.
  EXPECT_EQ(describe(*module, all[1].offset), "%" + std::to_string(all[0].instruction->result_id()) + " * 4");
}

TEST(Accesses, GuardsAreTheConditionsOfTheDominatingEdges) {
  // if (x < 16) { if (x < n) tile[x] = 1; } else tile[0] = 2;
  auto module = module_with(R"(%small = OpULessThan %bool %x %uint_16
OpSelectionMerge %done None
OpBranchConditional %small %then %else
%then = OpLabel
%in = OpULessThan %bool %x %n
OpSelectionMerge %inner None
OpBranchConditional %in %store %inner
%store = OpLabel
%t = OpAccessChain %ptr_shared %tile %x
OpStore %t %uint_1
OpBranch %inner
%inner = OpLabel
OpBranch %done
%else = OpLabel
%t0 = OpAccessChain %ptr_shared %tile %uint_0
OpStore %t0 %uint_2
OpBranch %done
%done = OpLabel
OpReturn)");
  ASSERT_TRUE(module);
  const Accesses& accesses = module->accesses(main_of(*module));
  const SymbolicValues& values = module->symbolic(main_of(*module));
  ASSERT_EQ(accesses.all().size(), 2u);
  auto guards = [&](const MemoryAccess& access) {
    std::vector<std::string> out;
    for (const Constraint& c : accesses.guards(access.block)) {
      out.push_back(values.describe(c.expression) + (c.equality ? " == 0" : " >= 0"));
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  // x < 16 and x < n, as `expression >= 0`.
  EXPECT_EQ(guards(accesses.all()[0]),
            (std::vector<std::string>{"-gl_LocalInvocationID.x + 15 >= 0", "n - gl_LocalInvocationID.x - 1 >= 0"}));
  // The else arm: x >= 16.
  EXPECT_EQ(guards(accesses.all()[1]), (std::vector<std::string>{"gl_LocalInvocationID.x - 16 >= 0"}));
}

TEST(Loops, NestedLoopsInnermostFirstWithTheirBodies) {
  // for (i) { for (j) { } }, as blocks: entry 0, outer header 1, outer body 2,
  // inner header 3, inner body 4, inner continue 5, inner merge 6, outer
  // continue 7, exit 8.
  auto module = module_with(R"(OpBranch %outer
%outer = OpLabel
%i = OpPhi %uint %uint_0 %entry %i1 %outer_continue
OpLoopMerge %exit %outer_continue None
OpBranch %outer_body
%outer_body = OpLabel
%more = OpULessThan %bool %i %n
OpBranchConditional %more %inner %exit
%inner = OpLabel
%j = OpPhi %uint %uint_0 %outer_body %j1 %inner_continue
OpLoopMerge %inner_merge %inner_continue None
OpBranch %inner_body
%inner_body = OpLabel
%jmore = OpULessThan %bool %j %uint_16
OpBranchConditional %jmore %inner_continue %inner_merge
%inner_continue = OpLabel
%j1 = OpIAdd %uint %j %uint_1
OpBranch %inner
%inner_merge = OpLabel
OpBranch %outer_continue
%outer_continue = OpLabel
%i1 = OpIAdd %uint %i %uint_1
OpBranch %outer
%exit = OpLabel
OpReturn)");
  ASSERT_TRUE(module);
  const ir::Function& function = main_of(*module);
  std::vector<Loop> loops = find_loops(*module, function);
  ASSERT_EQ(loops.size(), 2u);
  auto blocks = [](const Loop& loop) {
    std::vector<uint32_t> in;
    for (uint32_t b = 0; b < loop.body.size(); ++b) {
      if (loop.body[b]) in.push_back(b);
    }
    return in;
  };
  EXPECT_EQ(loops[0].header, 3u);  // the inner loop first
  EXPECT_EQ(blocks(loops[0]), (std::vector<uint32_t>{3, 4, 5}));
  EXPECT_EQ(loops[1].header, 1u);
  EXPECT_EQ(blocks(loops[1]), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(is_loop_branch(function, module->cfg(function), 4));   // leaves the inner loop
  EXPECT_TRUE(is_loop_branch(function, module->cfg(function), 0));   // enters the outer loop
  EXPECT_FALSE(is_loop_branch(function, module->cfg(function), 6));  // on to the outer continue block
  // The induction variables: i from 0 by 1 up to n, j from 0 by 1 up to 16.
  const SymbolicValues& values = module->symbolic(function);
  const ir::Instruction& i = function.blocks[1].instructions.front();
  const ir::Instruction& j = function.blocks[3].instructions.front();
  for (const auto& [phi, header] : {std::pair{&i, 1u}, std::pair{&j, 3u}}) {
    const Induction* induction = values.induction(phi->result_id());
    ASSERT_NE(induction, nullptr);
    EXPECT_EQ(induction->header, header);
    EXPECT_EQ(module->constant_value(induction->initial), 0u);
    EXPECT_EQ(induction->step, Induction::Step::Add);
    EXPECT_EQ(module->constant_value(induction->step_value), 1u);
  }
  // The bound of j is a constant: the collision finder can enumerate it.
  EXPECT_EQ(module->collisions(function).iteration_values(j.result_id())->size(), 16u);
  EXPECT_EQ(module->collisions(function).iteration_values(i.result_id()), nullptr);
}

}  // namespace
}  // namespace klint::testing
