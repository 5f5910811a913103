// One compute kernel in SPIR-V assembly for the analyses' unit tests, and
// lookups by the names its text gives: hand-written modules reach what
// glslang never emits (a specialization-constant scope, OpPtrAccessChain, a
// pointer chosen at a phi) and pin block indices exactly.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <regex>
#include <set>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/symbolic.h"
#include "tests/support/compile.h"

namespace klint::testing::assembly {

// The ids every kernel has, declared before `declarations` (more globals) and
// main's `body`: a workgroup of 64 invocations; %tile and %other, workgroup
// arrays of 64 uints (%ptr_row, elements %ptr_shared); %data, a storage
// buffer of uints (%ptr_elem); a push constant %pc whose member 0
// (%ptr_pc_uint) main loads into %n; uint constants %uint_0,
// 1, 2, 4, 16, 32, 63 and 64, %uint_max (0xFFFFFFFF), %true and %false; the
// scopes %wg (Workgroup), %dev (Device), %sg (Subgroup) and %spec_scope (a
// specialization constant, default Workgroup); the semantics %shared
// (AcquireRelease | WorkgroupMemory) and %buffers (AcquireRelease |
// UniformMemory). main starts in block %entry with %x, the local
// invocation id's x; the body ends in an open block, which returns.
// spirv-val takes a specialization constant for a scope only beside
// CooperativeMatrixNV, hence that capability.
inline std::string kernel_text(const std::string& body, const std::string& declarations = "") {
  std::string text = R"(%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%uint_16 = OpConstant %uint 16
%uint_32 = OpConstant %uint 32
%uint_63 = OpConstant %uint 63
%uint_64 = OpConstant %uint 64
%uint_max = OpConstant %uint 4294967295
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%wg = OpConstant %uint 2
%dev = OpConstant %uint 1
%sg = OpConstant %uint 3
%spec_scope = OpSpecConstant %uint 2
%shared = OpConstant %uint 264
%buffers = OpConstant %uint 72
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
%other = OpVariable %ptr_row Workgroup
%data = OpVariable %ptr_data StorageBuffer
%pc = OpVariable %ptr_pc PushConstant
)" + declarations + R"(%main = OpFunction %void None %fn
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%np = OpAccessChain %ptr_pc_uint %pc %uint_0
%n = OpLoad %uint %np
)" + body + R"(
OpReturn
OpFunctionEnd
)";
  // Every id is named after its text, so that tests find blocks and values
  // by name and describe() reads like the assembly.
  std::string names;
  static const std::regex kResult(R"(%(\w+) = )");
  std::set<std::string> named;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kResult); it != std::sregex_iterator(); ++it) {
    if (named.insert((*it)[1]).second) names += "OpName %" + (*it)[1].str() + " \"" + (*it)[1].str() + "\"\n";
  }
  return R"(OpCapability Shader
OpCapability VariablePointers
OpCapability VulkanMemoryModel
OpCapability VulkanMemoryModelDeviceScope
OpCapability CooperativeMatrixNV
OpExtension "SPV_KHR_variable_pointers"
OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %lid %tile %other %data %pc
OpExecutionMode %main LocalSize 64 1 1
)" + names + R"(OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %rt ArrayStride 4
OpDecorate %ptr_elem ArrayStride 4
OpDecorate %Data Block
OpMemberDecorate %Data 0 Offset 0
OpDecorate %data DescriptorSet 0
OpDecorate %data Binding 0
OpDecorate %Pc Block
OpMemberDecorate %Pc 0 Offset 0
OpDecorate %spec_scope SpecId 0
)" + text;
}

// The kernel as klint reads it. Unless `invalid` names why spirv-val rejects
// it on purpose, a module that SPIRV-Tools does not validate for Vulkan 1.3 (klint's default target)
// fails the test: the analyses may assume valid SPIR-V.
inline std::unique_ptr<Module> kernel(const std::string& body, const std::string& declarations = "",
                                      const char* invalid = nullptr) {
  std::string text = kernel_text(body, declarations);
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
    messages += std::string(message) + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words)) {
    ADD_FAILURE() << messages << text;
    return nullptr;
  }
  bool valid = tools.Validate(words);
  if (!invalid && !valid) ADD_FAILURE() << messages << text;
  if (invalid && valid) ADD_FAILURE() << "valid, though said to be invalid: " << invalid;
  return module_from_assembly(text);
}

// `if (condition)`: to block %`then` (running `then_body`) when it holds,
// else to %`otherwise` (running `otherwise_body`), both on to %`merge`, left
// open; an empty label goes straight to the merge block.
inline std::string selection(const std::string& condition, const std::string& merge, const std::string& then,
                             const std::string& then_body, const std::string& otherwise = "",
                             const std::string& otherwise_body = "") {
  auto arm = [&](const std::string& label, const std::string& body) {
    return label.empty() ? "" : "%" + label + " = OpLabel\n" + body + "\nOpBranch %" + merge + "\n";
  };
  return "OpSelectionMerge %" + merge + " None\nOpBranchConditional " + condition + " %" +
         (then.empty() ? merge : then) + " %" + (otherwise.empty() ? merge : otherwise) + "\n" + arm(then, then_body) +
         arm(otherwise, otherwise_body) + "%" + merge + " = OpLabel\n";
}

// `for (i = start; i < bound; i = update) { body }`, entered from %entry, as
// the blocks %header (the phi %i and the OpLoopMerge), %test, %body (where
// `body` starts; it may open blocks of its own), %continue (which computes
// %i1 by `update`) and %merge, left open.
inline std::string counted_loop(const std::string& body, const std::string& start = "%uint_0",
                                const std::string& bound = "%n", const std::string& update = "OpIAdd %uint %i %uint_1") {
  return "OpBranch %header\n%header = OpLabel\n%i = OpPhi %uint " + start + " %entry %i1 %continue\n"
         "OpLoopMerge %merge %continue None\nOpBranch %test\n%test = OpLabel\n"
         "%more = OpULessThan %bool %i " + bound + "\nOpBranchConditional %more %body %merge\n"
         "%body = OpLabel\n" + body + "\nOpBranch %continue\n%continue = OpLabel\n%i1 = " + update +
         "\nOpBranch %header\n%merge = OpLabel\n";
}

inline const ir::Function& main_of(const Module& module) { return module.functions().back(); }

// The block of main that the label `name` opens.
inline uint32_t block(const Module& module, const std::string& name) {
  const ir::Function& main = main_of(module);
  for (uint32_t b = 0; b < main.blocks.size(); ++b) {
    if (module.name(main.blocks[b].id()) == name) return b;
  }
  ADD_FAILURE() << "no block " << name;
  return 0;
}

// The id the body (or the kernel) names `name`.
inline uint32_t id(const Module& module, const std::string& name) {
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() == spv::Op::OpName && module.name(global.word(0)) == name) return global.word(0);
  }
  ADD_FAILURE() << "no id " << name;
  return 0;
}

// The `n`th instruction of main with `opcode`, in block order.
inline const ir::Instruction& nth(const Module& module, spv::Op opcode, size_t n = 0) {
  for (const ir::Block& b : main_of(module).blocks) {
    for (const ir::Instruction& instruction : b.instructions) {
      if (instruction.opcode() == opcode && n-- == 0) return instruction;
    }
  }
  ADD_FAILURE() << "too few " << spvOpcodeString(static_cast<uint32_t>(opcode));
  static const ir::Instruction kNone;
  return kNone;
}

inline std::string describe(const Module& module, const std::optional<Polynomial>& offset) {
  return offset ? module.symbolic(main_of(module)).describe(*offset) : "unknown";
}

// "write tile at gl_LocalInvocationID.x * 4, 4 bytes": an access in one line.
inline std::string summary(const Module& module, const MemoryAccess& access) {
  static constexpr const char* kKinds[] = {"read", "write", "atomic"};
  return std::string(kKinds[static_cast<int>(access.kind)]) + " " + module.name(access.variable) + " at " +
         describe(module, access.offset) + ", " + std::to_string(access.width) + " bytes";
}

inline std::vector<std::string> summaries(const Module& module, std::span<const MemoryAccess> accesses) {
  std::vector<std::string> out;
  for (const MemoryAccess& access : accesses) out.push_back(summary(module, access));
  return out;
}

// The guards of a block, each as "expression >= 0" or "expression == 0", or
// "condition holds" / "condition fails" where no expression states it, sorted.
inline std::vector<std::string> guards(const Module& module, uint32_t block) {
  const Accesses& accesses = module.accesses(main_of(module));
  std::vector<std::string> out;
  for (const Constraint& c : accesses.guards(block)) {
    if (!c.stated) {
      out.push_back(module.name(c.condition) + (c.holds ? " holds" : " fails"));
      continue;
    }
    out.push_back(module.symbolic(main_of(module)).describe(c.expression) + (c.equality ? " == 0" : " >= 0"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace klint::testing::assembly
