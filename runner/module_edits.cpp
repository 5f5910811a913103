#include "runner/module_edits.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <spirv-tools/optimizer.hpp>

namespace klint::runner {

using spv::Op;
using spv::StorageClass;

bool is_atomic(Op op) {
  switch (op) {
    case Op::OpAtomicLoad:
    case Op::OpAtomicStore:
    case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFAddEXT:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT:
    case Op::OpAtomicFlagTestAndSet:
    case Op::OpAtomicFlagClear:
      return true;
    default:
      return false;
  }
}

uint32_t accessed_pointer(const ir::Instruction& i) {
  if (i.opcode() == Op::OpLoad) return i.word(2);
  if (i.opcode() == Op::OpStore || i.opcode() == Op::OpAtomicStore || i.opcode() == Op::OpAtomicFlagClear) {
    return i.word(0);
  }
  if (is_atomic(i.opcode())) return i.word(2);
  return 0;
}

void specialize(ir::Module& module, const std::vector<SpecializationValue>& values) {
  std::vector<std::pair<uint32_t, uint32_t>> spec_ids;  // result id, SpecId
  for (const ir::Instruction& i : module.globals) {
    if (i.opcode() == Op::OpDecorate && i.word(1) == static_cast<uint32_t>(spv::Decoration::SpecId)) {
      spec_ids.emplace_back(i.word(0), i.word(2));
    }
  }
  for (ir::Instruction& i : module.globals) {
    auto it = std::find_if(spec_ids.begin(), spec_ids.end(), [&](auto& p) { return p.first == i.result_id(); });
    if (it == spec_ids.end()) continue;
    auto value = std::find_if(values.begin(), values.end(), [&](auto& v) { return v.id == it->second; });
    if (value == values.end()) continue;
    std::vector<uint32_t> words(i.words().begin(), i.words().end());
    if (i.opcode() == Op::OpSpecConstantTrue || i.opcode() == Op::OpSpecConstantFalse) {
      uint32_t on = 0;
      std::memcpy(&on, value->bytes.data(), std::min<size_t>(4, value->bytes.size()));
      words[0] =
          (words[0] & 0xFFFF0000u) | static_cast<uint32_t>(on ? Op::OpSpecConstantTrue : Op::OpSpecConstantFalse);
    } else if (i.opcode() == Op::OpSpecConstant) {
      std::memset(words.data() + 3, 0, (words.size() - 3) * 4);
      std::memcpy(words.data() + 3, value->bytes.data(), std::min(value->bytes.size(), (words.size() - 3) * 4));
    } else {
      continue;
    }
    i = ir::Instruction(std::move(words), i.operands(), i.ext_inst_type());
  }
}

bool has_workgroup_pointer_parameters(const ::klint::Module& module) {
  for (const ir::Function& f : module.functions()) {
    for (const ir::Instruction& p : f.prelude) {
      if (p.opcode() == Op::OpFunctionParameter && module.storage_class(p.result_id()) == StorageClass::Workgroup) {
        return true;
      }
    }
  }
  return false;
}

std::optional<std::vector<uint32_t>> inline_calls(std::span<const uint32_t> spirv, uint32_t version,
                                                  std::string* error) {
  const spv_target_env env = version >= 0x10600   ? SPV_ENV_VULKAN_1_3
                             : version >= 0x10400 ? SPV_ENV_VULKAN_1_2
                                                  : SPV_ENV_VULKAN_1_1;
  spvtools::Optimizer optimizer(env);
  std::string message;
  optimizer.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
    if (message.empty()) message = m;
  });
  optimizer.RegisterPass(spvtools::CreateMergeReturnPass())
      .RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  std::vector<uint32_t> out;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(spirv.data(), spirv.size(), &out, options)) {
    *error = "cannot inline the functions that take workgroup pointers: " + message;
    return std::nullopt;
  }
  return out;
}

std::vector<uint32_t> without_unused_resources(std::span<const uint32_t> spirv) {
  const std::vector<uint32_t> given(spirv.begin(), spirv.end());
  if (spirv.size() < 5) return given;
  const uint32_t version = spirv[1];
  const spv_target_env env = version >= 0x10600   ? SPV_ENV_VULKAN_1_3
                             : version >= 0x10400 ? SPV_ENV_VULKAN_1_2
                                                  : SPV_ENV_VULKAN_1_1;
  spvtools::Optimizer optimizer(env);
  optimizer.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  optimizer.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreateRemoveUnusedInterfaceVariablesPass())
      .RegisterPass(spvtools::CreateDeadVariableEliminationPass());
  std::vector<uint32_t> out;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(spirv.data(), spirv.size(), &out, options)) return given;
  return out;
}

Declared declared_bindings(std::span<const uint32_t> spirv) {
  std::map<uint32_t, uint32_t> sets, bindings;  // id: its decoration's value
  for (size_t at = 5; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;
    if (static_cast<Op>(spirv[at] & 0xFFFFu) == Op::OpDecorate && count >= 4) {
      const auto decoration = static_cast<spv::Decoration>(spirv[at + 2]);
      if (decoration == spv::Decoration::DescriptorSet) sets[spirv[at + 1]] = spirv[at + 3];
      if (decoration == spv::Decoration::Binding) bindings[spirv[at + 1]] = spirv[at + 3];
    }
    at += count;
  }
  Declared out;
  for (const auto& [id, binding] : bindings) {
    auto set = sets.find(id);
    out.insert({set == sets.end() ? 0 : set->second, binding});
  }
  return out;
}

ir::Instruction instruction_from(std::vector<uint32_t> words) {
  words[0] = (static_cast<uint32_t>(words.size()) << 16) | (words[0] & 0xFFFFu);
  std::vector<ir::Operand> operands{{1, 1, SPV_OPERAND_TYPE_TYPE_ID}, {2, 1, SPV_OPERAND_TYPE_RESULT_ID}};
  for (uint16_t k = 3; k < words.size(); ++k) operands.push_back({k, 1, SPV_OPERAND_TYPE_ID});
  return ir::Instruction(std::move(words), std::move(operands));
}

ir::Instruction with_pointer(const ir::Instruction& access, uint32_t pointer) {
  std::vector<uint32_t> words(access.words().begin(), access.words().end());
  const size_t operand =
      access.opcode() == Op::OpStore || access.opcode() == Op::OpAtomicStore || access.opcode() == Op::OpAtomicFlagClear
          ? 0
          : 2;
  words[access.operands()[operand].offset] = pointer;
  return ir::Instruction(std::move(words), access.operands(), access.ext_inst_type());
}

}  // namespace klint::runner
