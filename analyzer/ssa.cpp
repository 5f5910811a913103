#include "analyzer/ssa.h"

#include <optional>
#include <unordered_set>

namespace klint {
namespace {

constexpr int kVisitBudget = 256;

// nullopt when every input leads back into a phi being resolved.
std::optional<uint32_t> resolve(const Module& module, uint32_t id, std::unordered_set<uint32_t>& active, int& budget) {
  const ir::Instruction* phi = module.def(id);
  if (!phi || phi->opcode() != spv::Op::OpPhi) return id;
  if (active.count(id)) return std::nullopt;
  if (--budget < 0) return id;
  active.insert(id);
  std::optional<uint32_t> single;
  for (size_t i = 2; i + 1 < phi->operands().size(); i += 2) {
    std::optional<uint32_t> value = resolve(module, phi->word(i), active, budget);
    if (!value || value == single) continue;
    if (single) {
      single = id;  // two different values: the phi is a value of its own
      break;
    }
    single = value;
  }
  active.erase(id);
  return single;
}

}  // namespace

uint32_t copied_value(const Module& module, uint32_t id) {
  std::unordered_set<uint32_t> active;
  int budget = kVisitBudget;
  return resolve(module, id, active, budget).value_or(id);
}

uint32_t stored_once(const Module& module, uint32_t variable) {
  if (module.storage_class(variable) != spv::StorageClass::Function) return 0;
  uint32_t stored = 0;
  for (const ir::Instruction* use : module.uses(variable)) {
    if (!module.block_of(*use)) continue;  // OpName and other module-level mentions
    spv::Op op = use->opcode();
    // Debug info (DebugDeclare, DebugValue) names the variable without
    // touching it; GLSL.std.450's modf and frexp write through their pointer.
    if (op == spv::Op::OpExtInst && use->ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450) continue;
    if (op == spv::Op::OpStore && use->word(0) == variable) {
      if (stored) return 0;
      stored = use->word(1);
    } else if (op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain) {
      for (const ir::Instruction* through : module.uses(use->result_id())) {
        if (through->opcode() != spv::Op::OpLoad) return 0;
      }
    } else if (op != spv::Op::OpLoad) {
      return 0;  // passed to a call, copied, stored through: it may change elsewhere
    }
  }
  return stored;
}

}  // namespace klint
