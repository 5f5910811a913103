#include "runner/module_edits.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <map>
#include <spirv-tools/optimizer.hpp>

#include "analyzer/frontend.h"

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

namespace {

// The module after SPIRV-Tools' `passes`, in the environment its version was
// made for, unvalidated; nullopt, with the optimizer's first message, where
// it refuses the module.
std::optional<std::vector<uint32_t>> optimized(std::span<const uint32_t> spirv,
                                               std::initializer_list<spvtools::Optimizer::PassToken (*)()> passes,
                                               std::string* message) {
  if (spirv.size() < 5) return std::nullopt;
  spvtools::Optimizer optimizer(to_spv_env(target_env_for_spirv(spirv[1])));
  optimizer.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
    if (message->empty()) *message = m;
  });
  for (auto pass : passes) optimizer.RegisterPass(pass());
  std::vector<uint32_t> out;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(spirv.data(), spirv.size(), &out, options)) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::vector<uint32_t>> inline_calls(std::span<const uint32_t> spirv, std::string* error) {
  std::string message;
  std::optional<std::vector<uint32_t>> out =
      optimized(spirv,
                {spvtools::CreateMergeReturnPass, spvtools::CreateInlineExhaustivePass,
                 spvtools::CreateEliminateDeadFunctionsPass},
                &message);
  if (!out) *error = "cannot inline the functions that take workgroup pointers: " + message;
  return out;
}

std::vector<uint32_t> without_unused_resources(std::span<const uint32_t> spirv) {
  std::string message;
  std::optional<std::vector<uint32_t>> out =
      optimized(spirv,
                {spvtools::CreateEliminateDeadFunctionsPass, spvtools::CreateRemoveUnusedInterfaceVariablesPass,
                 spvtools::CreateDeadVariableEliminationPass},
                &message);
  return out ? std::move(*out) : std::vector<uint32_t>(spirv.begin(), spirv.end());
}

namespace {

// A literal string's characters, up to its terminating zero.
std::string literal_string(std::span<const uint32_t> spirv, size_t from, size_t end) {
  std::string out;
  for (size_t w = from; w < end; ++w) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((spirv[w] >> (8 * b)) & 0xFFu);
      if (c == 0) return out;
      out += c;
    }
  }
  return out;
}

}  // namespace

Declarations declarations(std::span<const uint32_t> spirv) {
  Declarations d;
  for (size_t at = 5; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;
    const auto op = static_cast<spv::Op>(spirv[at] & 0xFFFFu);
    if (op == spv::Op::OpSource && count >= 2) {
      d.hlsl |= static_cast<spv::SourceLanguage>(spirv[at + 1]) == spv::SourceLanguage::HLSL;
    } else if (op == spv::Op::OpName && count >= 3) {
      d.names[spirv[at + 1]] = literal_string(spirv, at + 2, at + count);
    } else if (op == spv::Op::OpDecorate && count >= 4) {
      const auto decoration = static_cast<spv::Decoration>(spirv[at + 2]);
      if (decoration == spv::Decoration::DescriptorSet) d.sets[spirv[at + 1]] = spirv[at + 3];
      if (decoration == spv::Decoration::Binding) d.bindings[spirv[at + 1]] = at + 3;
    } else if (op == spv::Op::OpVariable && count >= 4) {
      d.variable_types[spirv[at + 2]] = spirv[at + 1];
    } else if (op == spv::Op::OpTypePointer && count >= 4) {
      d.pointees[spirv[at + 1]] = spirv[at + 3];
    } else if ((op == spv::Op::OpTypeArray || op == spv::Op::OpTypeRuntimeArray) && count >= 3) {
      d.elements[spirv[at + 1]] = spirv[at + 2];
    }
    at += count;
  }
  return d;
}

Declared declared_bindings(std::span<const uint32_t> spirv) {
  const Declarations d = declarations(spirv);
  Declared out;
  for (const auto& [id, word] : d.bindings) {
    auto set = d.sets.find(id);
    out.insert({set == d.sets.end() ? 0 : set->second, spirv[word]});
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
