// The fact "one subgroup is the workgroup" inside the branches that test it
// (`gl_SubgroupSize == gl_WorkGroupSize.x`, `gl_NumSubgroups == 1`): there,
// what a subgroup agrees on the whole workgroup agrees on. Part of the
// uniformity analysis (uniformity.h), which asks it at each instruction.
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/module.h"
#include "analyzer/ssa.h"
#include "analyzer/subgroup_facts.h"
#include "analyzer/uniformity.h"
#include "analyzer/value_ranges.h"

namespace klint {

using spv::Op;

void Uniformity::find_one_subgroup_blocks() {
  // The blocks a branch's edge dominates, where the edge is taken only when
  // the branch's condition says one subgroup is the workgroup. Again while
  // more are found: a condition joined by a phi (glslang's `a && b`) may say
  // so through the blocks it comes from.
  one_subgroup_.assign(function_.blocks.size(), false);
  if (scope_.level != UniformityScope::Level::Workgroup) return;
  const Cfg& cfg = module_.cfg(function_);
  const DominatorTree& dominators = module_.dominators(function_);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t branch = 0; branch < cfg.size(); ++branch) {
      const ir::Instruction& terminator = function_.blocks[branch].terminator();
      if (!cfg.reachable(branch) || terminator.opcode() != Op::OpBranchConditional) continue;
      for (bool when : {true, false}) {
        int target = cfg.index_of(terminator.word(when ? 1 : 2));
        if (target < 0 || terminator.word(1) == terminator.word(2) || one_subgroup_[target]) continue;
        if (!implies_one_subgroup(terminator.word(0), when)) continue;
        // Entered only along this edge (other predecessors are back edges).
        auto successor = static_cast<uint32_t>(target);
        bool only_edge = true;
        for (uint32_t predecessor : cfg.predecessors(successor)) {
          only_edge &= predecessor == branch || dominators.dominates(successor, predecessor);
        }
        if (!only_edge) continue;
        for (uint32_t block = 0; block < cfg.size(); ++block) {
          if (cfg.reachable(block) && dominators.dominates(successor, block) && !one_subgroup_[block]) {
            one_subgroup_[block] = true;
            changed = true;
          }
        }
      }
    }
  }
}

bool Uniformity::implies_one_subgroup(uint32_t condition, bool when, int depth) const {
  const ir::Instruction* definition = module_.def(copied_value(module_, condition));
  if (!definition || depth > 8) return false;
  Op op = definition->opcode();
  switch (op) {
    case Op::OpLogicalNot:
      return implies_one_subgroup(definition->word(2), !when, depth + 1);
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
      // `a && b` holding says both hold; `a || b` failing says both fail.
      if (when != (op == Op::OpLogicalAnd)) return false;
      return implies_one_subgroup(definition->word(2), when, depth + 1) ||
             implies_one_subgroup(definition->word(3), when, depth + 1);
    case Op::OpPhi: {
      // Every way to `when` says so: its value, or the block it comes from.
      const Cfg& cfg = module_.cfg(function_);
      for (size_t i = 2; i + 1 < definition->operands().size(); i += 2) {
        const ir::Instruction* incoming = module_.def(definition->word(i));
        bool never = incoming && (incoming->opcode() == Op::OpConstantTrue || incoming->opcode() == Op::OpConstantFalse) &&
                     (incoming->opcode() == Op::OpConstantTrue) != when;
        int from = cfg.index_of(definition->word(i + 1));
        bool holds = from >= 0 && one_subgroup_[static_cast<uint32_t>(from)];
        if (!never && !holds && !implies_one_subgroup(definition->word(i), when, depth + 1)) return false;
      }
      return true;
    }
    default:
      break;
  }
  if (!is_integer_comparison(op)) return false;
  // Oriented as `built-in OP other` where it holds.
  uint32_t other = definition->word(3);
  auto builtin = loaded_builtin(module_, definition->word(2));
  bool swapped = !builtin;
  if (swapped) {
    builtin = loaded_builtin(module_, definition->word(3));
    other = definition->word(2);
  }
  if (!builtin) return false;
  if (swapped) op = ir::swapped_comparison(op);
  if (!when) op = ir::negated_comparison(op);
  if (builtin->builtin == spv::BuiltIn::SubgroupSize) {
    bool at_least = op == Op::OpIEqual || op == Op::OpUGreaterThanEqual || op == Op::OpSGreaterThanEqual ||
                    op == Op::OpUGreaterThan || op == Op::OpSGreaterThan;
    return at_least && at_least_workgroup(other);
  }
  if (builtin->builtin == spv::BuiltIn::NumSubgroups) {
    auto count = literal_value(module_, other);
    if (!count) return false;
    switch (op) {
      case Op::OpIEqual: case Op::OpULessThanEqual: case Op::OpSLessThanEqual: return *count == 1;
      case Op::OpULessThan: case Op::OpSLessThan: return *count == 2;
      default: return false;
    }
  }
  return false;
}

bool Uniformity::at_least_workgroup(uint32_t id) const {
  // `gl_WorkGroupSize.x` reads one constituent of a constant composite.
  if (const ir::Instruction* extract = module_.def(id)) {
    bool spec_extract = extract->opcode() == Op::OpSpecConstantOp && extract->operands().size() == 5 &&
                        static_cast<Op>(extract->word(2)) == Op::OpCompositeExtract;
    if ((extract->opcode() == Op::OpCompositeExtract && extract->operands().size() == 4) || spec_extract) {
      const ir::Instruction* composite = module_.def(extract->word(spec_extract ? 3 : 2));
      uint32_t component = extract->word(spec_extract ? 4 : 3);
      bool constant = composite && (composite->opcode() == Op::OpConstantComposite ||
                                    composite->opcode() == Op::OpSpecConstantComposite);
      if (!constant || component + 2 >= composite->operands().size()) return false;
      id = composite->word(2 + component);
    }
  }
  // Without a declared size the host sets one, unknown here.
  if (!module_.workgroup_size_declared()) return false;
  auto literal = literal_value(module_, id);
  auto spec = module_.spec_id(id);
  bool any = false;
  for (const EntryPoint& entry : module_.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute) continue;
    if (!entry.workgroup_size) return false;
    const auto& size = *entry.workgroup_size;
    bool fixed = !size[0].spec_id && !size[1].spec_id && !size[2].spec_id;
    if (literal && fixed) {
      if (*literal < size[0].value * size[1].value * size[2].value) return false;
    } else if (spec) {
      // The constant that sets the width of a one-row workgroup.
      bool one_row = !size[1].spec_id && !size[2].spec_id && size[1].value * size[2].value == 1;
      if (!one_row || size[0].spec_id != spec) return false;
    } else {
      return false;
    }
    any = true;
  }
  return any;
}

bool Uniformity::one_subgroup_at(const ir::Instruction& instruction) const {
  const ir::Block* block = module_.block_of(instruction);
  int index = block ? module_.cfg(function_).index_of(block->id()) : -1;
  return index >= 0 && one_subgroup_[index];
}

UniformityScope::Level Uniformity::level_at(const ir::Instruction& instruction) const {
  if (scope_.level == UniformityScope::Level::Subgroup || !one_subgroup_at(instruction)) return scope_.level;
  return UniformityScope::Level::Subgroup;
}

bool Uniformity::joins_on_one_subgroup_edges(const ir::Instruction& phi) const {
  // Each incoming value is uniform, or what one subgroup agrees on, coming
  // along an edge taken only where one subgroup is the workgroup: `m =
  // ballot; if (gl_SubgroupSize < gl_WorkGroupSize.x) { m = fold of every
  // subgroup's m; }` joins two values each the same in every invocation.
  // Whether the branch the phi joins is itself uniform is the control
  // propagation's to judge (a Join).
  if (phi.opcode() != Op::OpPhi || scope_.level != UniformityScope::Level::Workgroup) return false;
  const Cfg& cfg = module_.cfg(function_);
  int merge = block_index(module_, cfg, phi);
  if (merge < 0) return false;
  bool any_edge = false;
  for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
    uint32_t value = phi.word(i);
    if (!values_.count(value)) continue;
    int from = cfg.index_of(phi.word(i + 1));
    if (from < 0) return false;
    bool one = one_subgroup_[static_cast<uint32_t>(from)];
    const ir::Instruction& terminator = function_.blocks[static_cast<uint32_t>(from)].terminator();
    if (!one && terminator.opcode() == Op::OpBranchConditional && terminator.word(1) != terminator.word(2)) {
      uint32_t label = function_.blocks[static_cast<uint32_t>(merge)].id();
      if (terminator.word(1) == label) one = implies_one_subgroup(terminator.word(0), true);
      else if (terminator.word(2) == label) one = implies_one_subgroup(terminator.word(0), false);
    }
    if (!one || !uniform_in_one_subgroup(value)) return false;
    any_edge = true;
  }
  return any_edge;
}

bool Uniformity::uniform_in_one_subgroup(uint32_t id, int depth) const {
  // Uniform, or computed without memory or joins from what one subgroup
  // agrees on: its votes, broadcasts and reductions, and its id.
  if (!values_.count(id)) return true;
  const ir::Instruction* definition = module_.def(id);
  if (!definition || depth > 8) return false;
  Op op = definition->opcode();
  if (ir::is_subgroup_operation(op)) return is_subgroup_wide(*definition);
  if (auto builtin = loaded_builtin(module_, id)) return is_subgroup_uniform(builtin->builtin);
  if (op == Op::OpPhi || op == Op::OpLoad || op == Op::OpFunctionCall || ir::is_atomic_with_result(op)) return false;
  for (uint32_t input : definition->input_ids()) {
    if (!uniform_in_one_subgroup(input, depth + 1)) return false;
  }
  return true;
}

bool Uniformity::selects_one_subgroup_value(const ir::Instruction& select) const {
  // `one subgroup ? subgroupBroadcastFirst(v) : uniform`: the vote or
  // broadcast is taken only where its subgroup is the workgroup.
  if (select.opcode() != Op::OpSelect || values_.count(select.word(2))) return false;
  for (bool when : {true, false}) {
    uint32_t taken = select.word(when ? 3 : 4), other = select.word(when ? 4 : 3);
    if (!values_.count(other) && implies_one_subgroup(select.word(2), when) && uniform_in_one_subgroup(taken)) {
      return true;
    }
  }
  return false;
}

}  // namespace klint
