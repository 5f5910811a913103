#include "analyzer/accesses.h"

#include <algorithm>

#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"

namespace klint {
namespace {

using spv::Op;

constexpr int kConditionDepth = 8;

bool tracked(spv::StorageClass storage) {
  return storage == spv::StorageClass::Workgroup || storage == spv::StorageClass::StorageBuffer ||
         storage == spv::StorageClass::Uniform;
}

std::optional<Polynomial> plus(const std::optional<Polynomial>& a, const std::optional<Polynomial>& b) {
  if (!a || !b) return std::nullopt;
  return Polynomial::add(*a, *b);
}

// Bytes between consecutive elements of an array, vector or matrix type.
std::optional<uint64_t> element_stride(const Module& module, const ir::Instruction& type) {
  if (auto stride = module.decoration(type.result_id(), spv::Decoration::ArrayStride)) return *stride;
  return module.type_size(type.word(1));
}

// The offset of a struct member: its Offset decoration, else the natural sum
// of the members before it.
std::optional<uint64_t> member_offset(const Module& module, const ir::Instruction& type, uint32_t member) {
  if (auto offset = module.member_decoration(type.result_id(), member, spv::Decoration::Offset)) return *offset;
  uint64_t total = 0;
  for (uint32_t i = 0; i < member; ++i) {
    auto size = module.type_size(type.word(1 + i));
    if (!size) return std::nullopt;
    total += *size;
  }
  return total;
}

// The result of a subgroup operation that every lane of the subgroup gets
// alike: a broadcast, a vote, a reduction, the lane a ballot finds.
bool same_across_subgroup(const Module& module, uint32_t id) {
  const ir::Instruction* def = module.def(id);
  if (!def) return false;
  switch (def->opcode()) {
    case Op::OpGroupNonUniformBroadcast: case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformBallotFindLSB: case Op::OpGroupNonUniformBallotFindMSB:
    case Op::OpGroupNonUniformAll: case Op::OpGroupNonUniformAny: case Op::OpGroupNonUniformAllEqual:
      return true;
    case Op::OpGroupNonUniformIAdd: case Op::OpGroupNonUniformIMul: case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin: case Op::OpGroupNonUniformSMax: case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformBitwiseAnd: case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor: case Op::OpGroupNonUniformBallotBitCount:
      return def->operands().size() > 3 &&
             static_cast<spv::GroupOperation>(def->word(3)) == spv::GroupOperation::Reduce;
    case Op::OpBitcast: case Op::OpCopyObject: case Op::OpUConvert: case Op::OpSConvert:
      return same_across_subgroup(module, def->word(2));
    default:
      return false;
  }
}

}  // namespace

std::optional<PointerTarget> resolve_pointer(const Module& module, const SymbolicValues& values, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  if (!path || path->element_step) return std::nullopt;
  const ir::Instruction* pointer_type = module.def(path->variable->type_id());
  if (!pointer_type || pointer_type->opcode() != Op::OpTypePointer) return std::nullopt;
  PointerTarget target{path->variable->result_id(), Polynomial::constant(0), pointer_type->word(2)};
  for (uint32_t index_id : path->indices) {
    const ir::Instruction* type = module.def(target.pointee_type);
    if (!type) return std::nullopt;
    const Polynomial& index = values.value(index_id);
    switch (type->opcode()) {
      case Op::OpTypeStruct: {
        auto member = index.constant_value();
        if (!member || *member < 0 || static_cast<size_t>(*member) + 1 >= type->operands().size()) {
          return std::nullopt;
        }
        auto offset = member_offset(module, *type, static_cast<uint32_t>(*member));
        target.offset = offset ? plus(target.offset, Polynomial::constant(static_cast<int64_t>(*offset)))
                               : std::nullopt;
        target.pointee_type = type->word(1 + static_cast<size_t>(*member));
        break;
      }
      case Op::OpTypeArray: case Op::OpTypeRuntimeArray: case Op::OpTypeVector: case Op::OpTypeMatrix: {
        auto stride = element_stride(module, *type);
        std::optional<Polynomial> step;
        if (stride) step = index.scaled(static_cast<int64_t>(*stride));
        target.offset = plus(target.offset, step);
        target.pointee_type = type->word(1);
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return target;
}

Accesses::Accesses(const Module& module, const ir::Function& function)
    : module_(module), function_(function), values_(module.symbolic(function)) {
  const Cfg& cfg = module.cfg(function);
  for (uint32_t block = 0; block < function.blocks.size(); ++block) {
    if (!cfg.reachable(block)) continue;
    const auto& instructions = function.blocks[block].instructions;
    for (size_t position = 0; position < instructions.size(); ++position) {
      const size_t first = accesses_.size();
      collect(instructions[position], block, position);
      if (accesses_.size() > first) by_instruction_.emplace(&instructions[position], std::pair{first, accesses_.size()});
    }
  }
  compute_guards();
}

std::span<const MemoryAccess> Accesses::of(const ir::Instruction& instruction) const {
  auto it = by_instruction_.find(&instruction);
  if (it == by_instruction_.end()) return {};
  return std::span<const MemoryAccess>(accesses_).subspan(it->second.first, it->second.second - it->second.first);
}

void Accesses::collect(const ir::Instruction& instruction, uint32_t block, size_t position) {
  Op op = instruction.opcode();
  if (op == Op::OpLoad) {
    add(instruction, block, position, instruction.word(2), MemoryAccess::Kind::Read);
  } else if (op == Op::OpStore) {
    add(instruction, block, position, instruction.word(0), MemoryAccess::Kind::Write);
  } else if (op == Op::OpCopyMemory || op == Op::OpCopyMemorySized) {
    const size_t first = accesses_.size();
    add(instruction, block, position, instruction.word(0), MemoryAccess::Kind::Write);
    add(instruction, block, position, instruction.word(1), MemoryAccess::Kind::Read);
    if (op == Op::OpCopyMemorySized) {
      // Its Size operand, not the pointee type, says how many bytes it
      // copies; a specialization constant's default may not be it.
      const ir::Instruction* size = module_.def(instruction.word(2));
      uint64_t bytes = size && size->opcode() == Op::OpConstant ? module_.constant_value(size->result_id()).value_or(0) : 0;
      for (size_t i = first; i < accesses_.size(); ++i) accesses_[i].width = bytes;
    }
  } else if (ir::is_atomic_with_result(op)) {
    add(instruction, block, position, instruction.word(2), MemoryAccess::Kind::Atomic);
  } else if (op == Op::OpAtomicStore || op == Op::OpAtomicFlagClear) {
    add(instruction, block, position, instruction.word(0), MemoryAccess::Kind::Atomic);
  } else if (op == Op::OpCooperativeMatrixLoadNV || op == ir::kOpCooperativeMatrixLoadKHR) {
    // A tile of rows at a stride: where, klint does not follow.
    add(instruction, block, position, instruction.word(2), MemoryAccess::Kind::Read, /*whole=*/false);
  } else if (op == Op::OpCooperativeMatrixStoreNV || op == ir::kOpCooperativeMatrixStoreKHR) {
    add(instruction, block, position, instruction.word(0), MemoryAccess::Kind::Write, /*whole=*/false);
  }
}

void Accesses::add(const ir::Instruction& instruction, uint32_t block, size_t position, uint32_t pointer,
                   MemoryAccess::Kind kind, bool located) {
  std::optional<spv::StorageClass> storage = module_.storage_class(pointer);
  if (!storage || !tracked(*storage)) return;
  std::vector<PointerTarget> targets;
  if (std::optional<PointerTarget> target = resolve_pointer(module_, values_, pointer)) {
    if (!located) *target = PointerTarget{target->variable, std::nullopt, 0};
    targets.push_back(*target);
  } else {
    // A pointer chosen at run time, or through a step klint does not
    // follow: the variables it may point into, at offsets unknown.
    for (const PointerPath& path : pointer_paths(module_, pointer)) {
      const uint32_t variable = path.variable->result_id();
      if (std::none_of(targets.begin(), targets.end(), [&](const PointerTarget& t) { return t.variable == variable; })) {
        targets.push_back(PointerTarget{variable, std::nullopt, 0});
      }
    }
  }
  for (const PointerTarget& target : targets) add(instruction, block, position, pointer, kind, *storage, target);
}

void Accesses::add(const ir::Instruction& instruction, uint32_t block, size_t position, uint32_t pointer,
                   MemoryAccess::Kind kind, spv::StorageClass storage, const PointerTarget& target) {
  // Uniform-class variables are storage buffers only when their block says so.
  if (storage == spv::StorageClass::Uniform) {
    const ir::Instruction* variable = module_.def(target.variable);
    const ir::Instruction* pointer_type = variable ? module_.def(variable->type_id()) : nullptr;
    uint32_t block_type = pointer_type ? pointer_type->word(2) : 0;
    const ir::Instruction* type = module_.def(block_type);
    while (type && (type->opcode() == Op::OpTypeArray || type->opcode() == Op::OpTypeRuntimeArray)) {
      type = module_.def(type->word(1));
    }
    if (!type || !module_.has_decoration(type->result_id(), spv::Decoration::BufferBlock)) return;
    storage = spv::StorageClass::StorageBuffer;
  }
  MemoryAccess access;
  access.instruction = &instruction;
  access.block = block;
  access.position = position;
  access.variable = target.variable;
  access.pointer = pointer;
  access.storage = storage;
  access.kind = kind;
  access.offset = target.offset;
  access.width = target.pointee_type ? module_.type_size(target.pointee_type).value_or(0) : 0;
  accesses_.push_back(std::move(access));
}

void Accesses::compute_guards() {
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  std::vector<Loop> loops = find_loops(module_, function_);
  // An edge out of a loop tests the induction variable at a value past its
  // iterations; the values inside the loop are what the analyses enumerate.
  auto leaves_loop = [&](uint32_t from, uint32_t to) {
    return std::any_of(loops.begin(), loops.end(), [&](const Loop& loop) { return loop.body[from] && !loop.body[to]; });
  };
  guards_.assign(cfg.size(), {});
  // In reverse post-order, so that a block's immediate dominator, and a
  // short-circuit phi's inputs, come first. What holds at the immediate
  // dominator holds here; so does the branch on the edge into this block
  // when it is the block's only way in.
  for (uint32_t block : cfg.reverse_post_order()) {
    auto& guards = guards_[block];
    int idom = dominators.idom(block);
    if (idom >= 0) guards = guards_[static_cast<uint32_t>(idom)];
    const auto& predecessors = cfg.predecessors(block);
    if (predecessors.size() != 1) continue;
    const ir::Instruction& branch = function_.blocks[predecessors[0]].terminator();
    if (branch.opcode() != Op::OpBranchConditional || branch.word(1) == branch.word(2)) continue;
    if (leaves_loop(predecessors[0], block)) continue;
    std::vector<Constraint> added;
    condition(branch.word(0), cfg.index_of(branch.word(1)) == static_cast<int>(block), added, 0);
    for (Constraint& constraint : added) {
      if (std::find(guards.begin(), guards.end(), constraint) == guards.end()) guards.push_back(std::move(constraint));
    }
  }
}

namespace {

// `a op b` (or its negation, when not `holds`) as a polynomial constraint,
// where one states it: orderings either way, equality when it holds.
std::optional<std::pair<Polynomial, bool>> comparison(Op op, const Polynomial& a, const Polynomial& b, bool holds) {
  auto difference = [](const Polynomial& x, const Polynomial& y, int64_t minus) -> std::optional<Polynomial> {
    auto negated = y.negated();
    if (!negated) return std::nullopt;
    auto sum = Polynomial::add(x, *negated);
    return sum ? Polynomial::add(*sum, Polynomial::constant(-minus)) : std::nullopt;
  };
  // x < y holds: y - x - 1 >= 0; it fails: x - y >= 0.
  auto less = [&](const Polynomial& x, const Polynomial& y, bool strict) -> std::optional<std::pair<Polynomial, bool>> {
    auto constraint = holds ? difference(y, x, strict ? 1 : 0) : difference(x, y, strict ? 0 : 1);
    if (!constraint) return std::nullopt;
    return std::pair{*constraint, false};
  };
  switch (op) {
    case Op::OpULessThan: case Op::OpSLessThan: return less(a, b, true);
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual: return less(a, b, false);
    case Op::OpUGreaterThan: case Op::OpSGreaterThan: return less(b, a, true);
    case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual: return less(b, a, false);
    case Op::OpIEqual: case Op::OpINotEqual: {
      if (holds != (op == Op::OpIEqual)) return std::nullopt;
      auto constraint = difference(a, b, 0);
      if (!constraint) return std::nullopt;
      return std::pair{*constraint, true};
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

// The constraints `id == holds` implies.
void Accesses::condition(uint32_t id, bool holds, std::vector<Constraint>& out, int depth) const {
  if (depth > kConditionDepth) return;
  const ir::Instruction* def = module_.def(id);
  if (!def) return;
  auto stated = [&](Polynomial expression, bool equality, bool same_in_subgroup = false) {
    out.push_back({std::move(expression), equality, same_in_subgroup, id, holds, true});
  };
  // What no polynomial states: the condition itself, which the analyses
  // evaluate on concrete invocations.
  auto unstated = [&] { out.push_back({Polynomial(), false, false, id, holds, false}); };
  // A condition of constants alone (`ALIGNED != 0` on a specialization
  // constant), decided at the values the offsets take: nothing where it holds
  // as required, a block that never runs (-1 >= 0) where it fails.
  if (std::optional<bool> constant = module_.constant_bool(id)) {
    if (*constant != holds) stated(Polynomial::constant(-1), false);
    return;
  }
  const Op op = def->opcode();
  switch (op) {
    case Op::OpULessThan: case Op::OpSLessThan: case Op::OpULessThanEqual: case Op::OpSLessThanEqual:
    case Op::OpUGreaterThan: case Op::OpSGreaterThan: case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual:
    case Op::OpIEqual: case Op::OpINotEqual: {
      if (holds == (op == Op::OpIEqual) && (op == Op::OpIEqual || op == Op::OpINotEqual)) {
        for (auto [shared, other] : {std::pair{def->word(2), def->word(3)}, std::pair{def->word(3), def->word(2)}}) {
          if (same_across_subgroup(module_, shared) && !same_across_subgroup(module_, other)) {
            stated(values_.value(other), true, true);
            return;
          }
        }
      }
      auto constraint = comparison(op, values_.value(def->word(2)), values_.value(def->word(3)), holds);
      if (constraint) {
        stated(std::move(constraint->first), constraint->second);
      } else {
        unstated();
      }
      break;
    }
    case Op::OpAll: case Op::OpAny: {
      // `all(v)` that holds and `any(v)` that fails are one constraint per
      // component, where klint follows the components.
      const ir::Instruction* vector = module_.def(def->word(2));
      const ir::Instruction* type = vector ? module_.def(vector->type_id()) : nullptr;
      std::vector<std::pair<Polynomial, bool>> components;
      if ((op == Op::OpAll) == holds && type && type->opcode() == Op::OpTypeVector &&
          vector->operands().size() == 4) {
        for (uint32_t c = 0; c < type->word(2); ++c) {
          auto a = values_.component(vector->word(2), c), b = values_.component(vector->word(3), c);
          auto constraint = a && b ? comparison(vector->opcode(), *a, *b, holds) : std::nullopt;
          if (!constraint) {
            components.clear();
            break;
          }
          components.push_back(std::move(*constraint));
        }
      }
      if (components.empty()) unstated();
      for (auto& [expression, equality] : components) stated(std::move(expression), equality);
      break;
    }
    case Op::OpLogicalNot: condition(def->word(2), !holds, out, depth + 1); break;
    case Op::OpGroupNonUniformElect:
      // One lane of each subgroup: the first active one, lane 0 when all are.
      if (holds) {
        stated(Polynomial::symbol({Symbol::Kind::SubgroupLane}), true);
      } else {
        unstated();
      }
      break;
    case Op::OpLogicalAnd:
      if (holds) {
        condition(def->word(2), true, out, depth + 1);
        condition(def->word(3), true, out, depth + 1);
      } else {
        unstated();
      }
      break;
    case Op::OpLogicalOr:
      if (!holds) {
        condition(def->word(2), false, out, depth + 1);
        condition(def->word(3), false, out, depth + 1);
      } else {
        unstated();
      }
      break;
    case Op::OpPhi: {
      // Short-circuit `a && b`: the phi takes a (false) straight from the test
      // of a, or b from the block that ran when a held; `a || b` likewise.
      // When the value on one incoming edge contradicts `holds`, the other
      // edge was taken, and its block's guards and value hold.
      if (def->operands().size() != 6) {
        unstated();
        break;
      }
      const Cfg& cfg = module_.cfg(function_);
      auto contradicts = [&](uint32_t value, uint32_t parent_label) {
        const ir::Instruction* c = module_.def(value);
        if (c && c->opcode() == Op::OpConstantFalse) return holds;
        if (c && c->opcode() == Op::OpConstantTrue) return !holds;
        int parent = cfg.index_of(parent_label);
        if (parent < 0) return false;
        const ir::Instruction& branch = function_.blocks[static_cast<uint32_t>(parent)].terminator();
        if (branch.opcode() != Op::OpBranchConditional || branch.word(0) != value) return false;
        // The edge to the phi's block is taken when the condition is...
        const ir::Block* here = module_.block_of(*def);
        if (!here || branch.word(1) == branch.word(2)) return false;
        bool when = branch.word(1) == here->id();
        return when != holds;
      };
      bool followed = false;
      for (int side = 0; side < 2 && !followed; ++side) {
        uint32_t value = def->word(2 + 2 * side), parent = def->word(3 + 2 * side);
        uint32_t other = def->word(2 + 2 * (1 - side)), other_parent = def->word(3 + 2 * (1 - side));
        if (!contradicts(value, parent)) continue;
        int block = cfg.index_of(other_parent);
        if (block >= 0) {
          const auto& inherited = guards_[static_cast<uint32_t>(block)];
          out.insert(out.end(), inherited.begin(), inherited.end());
        }
        condition(other, holds, out, depth + 1);
        followed = true;
      }
      if (!followed) unstated();
      break;
    }
    default:
      unstated();
      break;
  }
}

}  // namespace klint
