#include "analyzer/induction.h"

#include <optional>

#include "analyzer/ssa.h"

namespace klint {
namespace {

using spv::Op;

// Deep enough for any index expression a person writes; bounds the walk of
// long chains of loop-carried arithmetic.
constexpr int kInvariantDepth = 32;

// Instructions whose result depends on nothing but their operands.
bool is_pure(Op op) {
  switch (op) {
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSMod:
    case Op::OpSRem:
    case Op::OpSNegate:
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpNot:
    case Op::OpBitcast:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpConvertUToF:
    case Op::OpConvertSToF:
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
    case Op::OpCopyObject:
    case Op::OpCompositeExtract:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeInsert:
    case Op::OpVectorShuffle:
    case Op::OpSelect:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpULessThanEqual:
    case Op::OpUGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSLessThan:
    case Op::OpSLessThanEqual:
    case Op::OpSGreaterThan:
    case Op::OpSGreaterThanEqual:
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalNot:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      return true;
    default:
      return false;
  }
}

bool invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id, int depth) {
  if (depth > kInvariantDepth) return false;
  uint32_t value = copied_value(module, id);
  const ir::Instruction* definition = module.def(value);
  if (!definition) return false;
  int block = block_index(module, cfg, *definition);
  if (block < 0) return true;  // constants, global variables, parameters
  if (!loop.body[static_cast<uint32_t>(block)]) return true;
  if (definition->opcode() == Op::OpLoad) {
    auto storage = module.storage_class(definition->word(2));
    bool read_only = storage == spv::StorageClass::Input || storage == spv::StorageClass::PushConstant;
    return read_only && invariant(module, cfg, loop, definition->word(2), depth + 1);
  }
  if (!is_pure(definition->opcode())) return false;
  for (uint32_t input : definition->input_ids()) {
    if (!invariant(module, cfg, loop, input, depth + 1)) return false;
  }
  return true;
}

// The step when `value` is `phi + step` (either order) with the step loop-invariant.
std::optional<uint32_t> step_of(const Module& module, const Cfg& cfg, const Loop& loop, const ir::Instruction& phi,
                                const ir::Instruction& value) {
  if (value.opcode() != Op::OpIAdd) return std::nullopt;
  for (size_t self = 2; self <= 3; ++self) {
    uint32_t other = value.word(self == 2 ? 3 : 2);
    if (copied_value(module, value.word(self)) == phi.result_id() && is_loop_invariant(module, cfg, loop, other)) {
      return other;
    }
  }
  return std::nullopt;
}

std::optional<InductionVariable> induction_variable(const Module& module, const Cfg& cfg, const Loop& loop,
                                                    const ir::Instruction& phi) {
  InductionVariable variable;
  variable.phi = &phi;
  for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
    int from = cfg.index_of(phi.word(i + 1));
    if (from < 0) return std::nullopt;
    uint32_t value = copied_value(module, phi.word(i));
    if (!loop.body[static_cast<uint32_t>(from)]) {
      if (variable.init && variable.init != value) return std::nullopt;
      variable.init = value;
      continue;
    }
    const ir::Instruction* update = module.def(value);
    if (!update || (variable.update && variable.update != update)) return std::nullopt;
    auto step = step_of(module, cfg, loop, phi, *update);
    if (!step) return std::nullopt;
    variable.update = update;
    variable.step = *step;
  }
  if (!variable.init || !variable.update) return std::nullopt;
  return variable;
}

}  // namespace

bool is_loop_invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id) {
  return invariant(module, cfg, loop, id, 0);
}

std::vector<InductionVariable> find_induction_variables(const Module& module, const ir::Function& function,
                                                        const Loop& loop) {
  const Cfg& cfg = module.cfg(function);
  std::vector<InductionVariable> variables;
  for (const ir::Instruction& phi : function.blocks[loop.header].instructions) {
    if (phi.opcode() != Op::OpPhi) continue;
    if (auto variable = induction_variable(module, cfg, loop, phi)) variables.push_back(*variable);
  }
  return variables;
}

}  // namespace klint
