#include "analyzer/subgroup_facts.h"

#include <fmt/core.h>

#include <algorithm>

#include "analyzer/ir/opcodes.h"
#include "analyzer/pointers.h"
#include "analyzer/ssa.h"
#include "analyzer/uniformity.h"

namespace klint {
namespace {

using spv::Op;

constexpr size_t kSearchBudget = 512;

bool is_access_chain(Op op) {
  return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain || op == Op::OpPtrAccessChain;
}

bool is_invocation_builtin(spv::BuiltIn builtin) {
  return builtin == spv::BuiltIn::LocalInvocationId || builtin == spv::BuiltIn::LocalInvocationIndex ||
         builtin == spv::BuiltIn::GlobalInvocationId;
}

bool is_uniform(const Module& module, uint32_t id) {
  const ir::Instruction* definition = module.def(id);
  if (!definition) return false;
  const ir::Block* block = module.block_of(*definition);
  if (!block) return true;  // a constant
  const ir::Function* function = module.function_of(*block);
  return function && module.uniformity(*function).value(id) == nullptr;
}

std::optional<InvocationId> invocation_id(const Module& module, uint32_t id, int depth) {
  if (depth > 8) return std::nullopt;
  id = copied_value(module, id);
  if (auto loaded = loaded_builtin(module, id)) {
    if (!is_invocation_builtin(loaded->builtin)) return std::nullopt;
    return InvocationId{*loaded, true};
  }
  const ir::Instruction* definition = module.def(id);
  if (!definition) return std::nullopt;
  switch (definition->opcode()) {
    case Op::OpCopyObject:
    case Op::OpBitcast:
    case Op::OpUConvert:
    case Op::OpSConvert:
      return invocation_id(module, definition->word(2), depth + 1);
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr: {
      // y * 16 + x, base + x: an invocation id offset or scaled by values
      // that every invocation shares.
      std::optional<InvocationId> found;
      int ids = 0;
      bool scaled = false;
      for (uint32_t operand : {definition->word(2), definition->word(3)}) {
        if (auto inner = invocation_id(module, operand, depth + 1)) {
          if (!found) found = inner;
          scaled |= inner->scaled;
          ++ids;
        } else if (!is_uniform(module, operand)) {
          return std::nullopt;
        }
      }
      if (!found) return found;
      Op op = definition->opcode();
      found->direct = false;
      // tid * 4 is no invocation's position, but y * 16 + x is.
      found->scaled = op == Op::OpIMul || op == Op::OpShiftLeftLogical || (scaled && ids == 1);
      return found;
    }
    default:
      return std::nullopt;
  }
}

// Instructions through which a lane or subgroup index keeps meaning one:
// integer arithmetic, conversions, comparisons and the logic of conditions.
bool passes_index(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpUDiv: case Op::OpSDiv: case Op::OpUMod:
    case Op::OpSMod: case Op::OpSRem: case Op::OpShiftLeftLogical: case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic: case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpBitwiseXor:
    case Op::OpUConvert: case Op::OpSConvert: case Op::OpBitcast: case Op::OpCopyObject: case Op::OpPhi:
    case Op::OpSelect: case Op::OpIEqual: case Op::OpINotEqual: case Op::OpULessThan: case Op::OpSLessThan:
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual: case Op::OpUGreaterThan: case Op::OpSGreaterThan:
    case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual: case Op::OpLogicalAnd: case Op::OpLogicalOr:
    case Op::OpLogicalNot: case Op::OpLogicalEqual: case Op::OpLogicalNotEqual:
      return true;
    case Op::OpExtInst:
      return instruction.ext_inst_type() == SPV_EXT_INST_TYPE_GLSL_STD_450;
    default:
      return false;
  }
}

bool is_comparison(Op op) {
  switch (op) {
    case Op::OpIEqual: case Op::OpINotEqual: case Op::OpULessThan: case Op::OpSLessThan: case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual: case Op::OpUGreaterThan: case Op::OpSGreaterThan: case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
      return true;
    default:
      return false;
  }
}

const ir::Function* function_of(const Module& module, const ir::Instruction& instruction) {
  const ir::Block* block = module.block_of(instruction);
  return block ? module.function_of(*block) : nullptr;
}

// The branch blocks that decide, directly or through the branches they
// decide, whether `block` runs.
std::vector<uint32_t> deciding_branches(const ControlDependence& dependence, uint32_t block) {
  std::vector<uint32_t> out, work{block};
  while (!work.empty()) {
    uint32_t next = work.back();
    work.pop_back();
    for (uint32_t controller : dependence.controllers(next)) {
      if (std::find(out.begin(), out.end(), controller) != out.end()) continue;
      out.push_back(controller);
      work.push_back(controller);
    }
  }
  return out;
}

// The comparisons a branch condition is made of: through &&, ||, ! and the
// phis glslang joins short-circuit evaluation with.
void comparisons_in(const Module& module, uint32_t condition, std::vector<const ir::Instruction*>& out, int depth = 0) {
  const ir::Instruction* definition = module.def(condition);
  if (!definition || depth > 8) return;
  switch (definition->opcode()) {
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
      comparisons_in(module, definition->word(2), out, depth + 1);
      comparisons_in(module, definition->word(3), out, depth + 1);
      return;
    case Op::OpLogicalNot:
    case Op::OpCopyObject:
      comparisons_in(module, definition->word(2), out, depth + 1);
      return;
    case Op::OpPhi:
      for (size_t i = 2; i + 1 < definition->operands().size(); i += 2) {
        comparisons_in(module, definition->word(i), out, depth + 1);
      }
      return;
    default:
      if (is_comparison(definition->opcode())) out.push_back(definition);
  }
}

// The comparisons of the conditions that decide whether `instruction` runs.
std::vector<const ir::Instruction*> deciding_comparisons(const Module& module, const ir::Instruction& instruction) {
  std::vector<const ir::Instruction*> out;
  const ir::Function* function = function_of(module, instruction);
  if (!function) return out;
  const Cfg& cfg = module.cfg(*function);
  int block = cfg.index_of(module.block_of(instruction)->id());
  if (block < 0) return out;
  for (uint32_t branch : deciding_branches(module.control_dependence(*function), static_cast<uint32_t>(block))) {
    const ir::Instruction& terminator = function->blocks[branch].terminator();
    if (terminator.opcode() == Op::OpBranchConditional) comparisons_in(module, terminator.word(0), out);
  }
  return out;
}

}  // namespace

std::optional<uint64_t> literal_value(const Module& module, uint32_t id) {
  const ir::Instruction* definition = module.def(id);
  if (!definition || definition->opcode() != Op::OpConstant) return std::nullopt;
  return module.constant_value(id);
}

std::optional<BuiltinValue> loaded_builtin(const Module& module, uint32_t id) {
  int component = -1;
  for (int depth = 0; depth < 16; ++depth) {
    id = copied_value(module, id);
    const ir::Instruction* definition = module.def(id);
    if (!definition) return std::nullopt;
    switch (definition->opcode()) {
      case Op::OpLoad: {
        std::optional<PointerPath> path = pointer_path(module, definition->word(2));
        if (!path) return std::nullopt;
        if (component < 0 && !path->indices.empty()) {
          if (auto index = module.constant_value(path->indices.front())) component = static_cast<int>(*index);
        }
        const ir::Instruction* pointer = path->variable;
        if (auto builtin = module.builtin(pointer->result_id())) return BuiltinValue{*builtin, component};
        // HLSL entry points copy their built-in parameters into locals that
        // SSA rewriting keeps, being accessed by member.
        id = stored_once(module, pointer->result_id());
        if (!id) return std::nullopt;
        break;
      }
      case Op::OpCompositeExtract:
        if (component < 0 && definition->operands().size() > 3) component = static_cast<int>(definition->word(3));
        id = definition->word(2);
        break;
      case Op::OpCopyObject:
      case Op::OpBitcast:
      case Op::OpUConvert:
      case Op::OpSConvert:
        id = definition->word(2);
        break;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<InvocationId> invocation_id(const Module& module, uint32_t id) { return invocation_id(module, id, 0); }

bool is_subgroup_builtin(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::SubgroupSize: case spv::BuiltIn::SubgroupLocalInvocationId: case spv::BuiltIn::SubgroupId:
    case spv::BuiltIn::NumSubgroups: case spv::BuiltIn::SubgroupEqMask: case spv::BuiltIn::SubgroupGeMask:
    case spv::BuiltIn::SubgroupGtMask: case spv::BuiltIn::SubgroupLeMask: case spv::BuiltIn::SubgroupLtMask:
      return true;
    default:
      return false;
  }
}

SubgroupValues::SubgroupValues(const Module& module) : module_(module) {
  std::vector<uint32_t> work;
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.result_id() == 0) continue;
        bool source = ir::is_subgroup_operation(instruction.opcode());
        if (!source && instruction.opcode() == Op::OpLoad) {
          auto builtin = loaded_builtin(module, instruction.result_id());
          source = builtin && is_subgroup_builtin(builtin->builtin);
        }
        if (source && derived_.insert(instruction.result_id()).second) work.push_back(instruction.result_id());
      }
    }
  }
  while (!work.empty()) {
    uint32_t id = work.back();
    work.pop_back();
    for (const ir::Instruction* use : module.uses(id)) {
      // An index makes a pointer, not a value computed from a subgroup result.
      if (use->result_id() == 0 || is_access_chain(use->opcode())) continue;
      if (derived_.insert(use->result_id()).second) work.push_back(use->result_id());
    }
  }
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.opcode() != Op::OpStore || !derived(instruction.word(1))) continue;
        uint32_t variable = access_of(module, instruction.word(0)).variable;
        if (variable && module.storage_class(variable) == spv::StorageClass::Workgroup) holders_.insert(variable);
      }
    }
  }
}

const ir::Instruction* SubgroupValues::stored_result(const ir::Instruction& instruction) const {
  uint32_t pointer = 0;
  bool stores_result = false;
  if (instruction.opcode() == Op::OpStore) {
    pointer = instruction.word(0);
    stores_result = derived(instruction.word(1));
  } else if (ir::is_atomic_read_modify_write(instruction.opcode()) && instruction.operands().size() > 5) {
    pointer = instruction.word(2);
    for (size_t i = 5; i < instruction.operands().size(); ++i) stores_result |= derived(instruction.word(i));
  }
  if (!stores_result) return nullptr;
  auto storage = module_.storage_class(pointer);
  if (storage == spv::StorageClass::Function || storage == spv::StorageClass::Private) return nullptr;
  return &instruction;
}

Access access_of(const Module& module, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  if (!path || path->element_step) return {};
  return Access{path->variable->result_id(), std::move(path->indices)};
}

const ir::Instruction* array_at(const Module& module, uint32_t variable, size_t level) {
  const ir::Instruction* var = module.def(variable);
  const ir::Instruction* pointer = var ? module.def(var->type_id()) : nullptr;
  if (!pointer || pointer->opcode() != Op::OpTypePointer) return nullptr;
  const ir::Instruction* type = module.def(pointer->word(2));
  for (size_t i = 0; type && i < level; ++i) {
    switch (type->opcode()) {
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
      case Op::OpTypeVector:
      case Op::OpTypeMatrix:
        type = module.def(type->word(1));
        break;
      default:
        return nullptr;  // a struct member needs the index's value; not followed
    }
  }
  return type && type->opcode() == Op::OpTypeArray ? type : nullptr;
}

const ir::Instruction* decided_subgroup_code(const Module& module, const SubgroupValues* values,
                                            const ir::Instruction& branch) {
  const ir::Function* function = function_of(module, branch);
  if (!function) return nullptr;
  const Cfg& cfg = module.cfg(*function);
  int deciding = cfg.index_of(module.block_of(branch)->id());
  const ControlDependence& dependence = module.control_dependence(*function);
  for (uint32_t block = 0; block < function->blocks.size(); ++block) {
    auto branches = deciding_branches(dependence, block);
    if (std::find(branches.begin(), branches.end(), static_cast<uint32_t>(deciding)) == branches.end()) continue;
    for (const ir::Instruction& instruction : function->blocks[block].instructions) {
      if (ir::is_subgroup_operation(instruction.opcode())) return &instruction;
      if (values && values->stored_result(instruction)) return &instruction;
    }
  }
  return nullptr;
}

std::optional<SubgroupUse> subgroup_use(const Module& module, const SubgroupValues& values, uint32_t id) {
  if (!values.any()) return std::nullopt;
  std::vector<uint32_t> work{id};
  std::unordered_set<uint32_t> seen;
  while (!work.empty() && seen.size() < kSearchBudget) {
    uint32_t value = work.back();
    work.pop_back();
    if (!seen.insert(value).second) continue;
    for (const ir::Instruction* use : module.uses(value)) {
      if (ir::is_subgroup_operation(use->opcode())) return SubgroupUse{SubgroupUse::Kind::Operand, use};
      if (is_access_chain(use->opcode())) {
        if (use->word(2) == value) continue;  // the base, not an index
        Access access = access_of(module, use->result_id());
        if (access.variable && values.holds_results(access.variable)) {
          return SubgroupUse{SubgroupUse::Kind::Index, use, nullptr, access.variable};
        }
        for (const ir::Instruction* through : module.uses(use->result_id())) {
          if (values.stored_result(*through)) {
            return SubgroupUse{SubgroupUse::Kind::Index, use, through, access.variable};
          }
        }
        continue;
      }
      if (use->opcode() == Op::OpBranchConditional && use->word(0) == value) {
        if (const ir::Instruction* result = decided_subgroup_code(module, &values, *use)) {
          return SubgroupUse{SubgroupUse::Kind::Guard, use, result};
        }
        continue;
      }
      if (passes_index(*use) && use->result_id() != 0) work.push_back(use->result_id());
    }
  }
  return std::nullopt;
}

bool checked_for_width(const Module& module, const ir::Instruction& instruction, uint32_t width) {
  for (const ir::Instruction* comparison : deciding_comparisons(module, instruction)) {
    for (int side = 0; side < 2; ++side) {
      auto builtin = loaded_builtin(module, comparison->word(2 + side));
      auto literal = literal_value(module, comparison->word(3 - side));
      if (builtin && builtin->builtin == spv::BuiltIn::SubgroupSize && literal == width) return true;
      // `tid < gl_SubgroupSize && tid < 32`: the real width already bounds it.
      if (builtin && builtin->builtin == spv::BuiltIn::SubgroupSize) return true;
    }
  }
  return false;
}

namespace {

// Whether two ids hold the same value: one value, loads of one built-in, or
// one operation on such values (`tid / 32` written out twice).
bool same_value(const Module& module, uint32_t a, uint32_t b, int depth = 0) {
  a = copied_value(module, a);
  b = copied_value(module, b);
  if (a == b) return true;
  auto x = loaded_builtin(module, a), y = loaded_builtin(module, b);
  if (x || y) return x && y && x->builtin == y->builtin && x->component == y->component;
  const ir::Instruction* p = module.def(a);
  const ir::Instruction* q = module.def(b);
  if (!p || !q || depth > 4 || p->opcode() != q->opcode() || !passes_index(*p) || p->opcode() == Op::OpPhi ||
      p->operands().size() != q->operands().size()) {
    return false;
  }
  for (size_t i = 2; i < p->operands().size(); ++i) {
    if (!same_value(module, p->word(i), q->word(i), depth + 1)) return false;
  }
  return true;
}

}  // namespace

bool compared(const Module& module, const ir::Instruction& instruction, uint32_t index, bool with_literals) {
  std::vector<const ir::Instruction*> comparisons = deciding_comparisons(module, instruction);
  // `i < n ? a[i] : 0` as an OpSelect: the load runs, its value is chosen.
  for (const ir::Instruction* load : module.uses(instruction.result_id())) {
    if (load->opcode() != Op::OpLoad) continue;
    for (const ir::Instruction* select : module.uses(load->result_id())) {
      if (select->opcode() == Op::OpSelect) comparisons_in(module, select->word(2), comparisons);
    }
  }
  for (const ir::Instruction* comparison : comparisons) {
    for (int side = 0; side < 2; ++side) {
      if (!same_value(module, comparison->word(2 + side), index)) continue;
      if (with_literals || !literal_value(module, comparison->word(3 - side))) return true;
    }
  }
  return false;
}

std::optional<uint64_t> guard_bound(const Module& module, const ir::Instruction& instruction, uint32_t index) {
  std::optional<uint64_t> bound;
  auto keep = [&](uint64_t value) { bound = bound ? std::min(*bound, value) : value; };
  for (const ir::Instruction* comparison : deciding_comparisons(module, instruction)) {
    uint32_t a = comparison->word(2), b = comparison->word(3);
    // Oriented as `index OP literal`; flipped when the literal comes first.
    bool index_first = same_value(module, a, index);
    if (!index_first && !same_value(module, b, index)) continue;
    auto literal = literal_value(module, index_first ? b : a);
    if (!literal) continue;
    Op op = comparison->opcode();
    if (!index_first) op = ir::swapped_comparison(op);
    switch (op) {
      case Op::OpULessThan: case Op::OpSLessThan:
      case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual:  // `if (index >= K) return;`
        keep(*literal);
        break;
      case Op::OpULessThanEqual: case Op::OpSLessThanEqual: case Op::OpIEqual:
      case Op::OpUGreaterThan: case Op::OpSGreaterThan:  // `if (index > K - 1) return;`
        keep(*literal + 1);
        break;
      default:
        break;
    }
  }
  return bound;
}

bool is_subgroup_wide(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case spv::Op::OpGroupNonUniformBroadcast: case spv::Op::OpGroupNonUniformBroadcastFirst:
    case spv::Op::OpGroupNonUniformAll: case spv::Op::OpGroupNonUniformAny: case spv::Op::OpGroupNonUniformAllEqual:
    case spv::Op::OpGroupNonUniformBallot:
      return true;
    case spv::Op::OpGroupNonUniformIAdd: case spv::Op::OpGroupNonUniformFAdd: case spv::Op::OpGroupNonUniformIMul:
    case spv::Op::OpGroupNonUniformFMul: case spv::Op::OpGroupNonUniformSMin: case spv::Op::OpGroupNonUniformUMin:
    case spv::Op::OpGroupNonUniformFMin: case spv::Op::OpGroupNonUniformSMax: case spv::Op::OpGroupNonUniformUMax:
    case spv::Op::OpGroupNonUniformFMax: case spv::Op::OpGroupNonUniformBitwiseAnd: case spv::Op::OpGroupNonUniformBitwiseOr:
    case spv::Op::OpGroupNonUniformBitwiseXor: case spv::Op::OpGroupNonUniformLogicalAnd: case spv::Op::OpGroupNonUniformLogicalOr:
    case spv::Op::OpGroupNonUniformLogicalXor:
      return static_cast<spv::GroupOperation>(instruction.word(3)) == spv::GroupOperation::Reduce;
    default:
      return false;
  }
}

}  // namespace klint
