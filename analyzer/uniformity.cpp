#include "analyzer/uniformity.h"

#include <algorithm>
#include <deque>
#include <unordered_set>

#include "analyzer/accesses.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/module.h"
#include "analyzer/pointers.h"
#include "analyzer/ssa.h"
#include "analyzer/subgroup_facts.h"
#include "analyzer/symbolic.h"
#include "analyzer/value_ranges.h"

namespace klint {
namespace {

using spv::Op;

// Subgroup operations whose result is the same for every invocation when their
// operands are: pure functions of a uniform value (broadcasts, shuffles, bit
// counts of a uniform ballot) and reductions that are idempotent (min, max,
// and, or: combining copies of one value gives that value). Sums, products,
// exclusive scans, ballots and elections depend on which lanes are active or
// on the lane's index, and differ between invocations whatever their operands.
bool is_subgroup_passthrough(const ir::Instruction& instruction) {
  auto reduces = [&] {
    auto operation = static_cast<spv::GroupOperation>(instruction.word(3));
    return operation == spv::GroupOperation::Reduce || operation == spv::GroupOperation::InclusiveScan;
  };
  switch (instruction.opcode()) {
    case Op::OpGroupNonUniformBroadcast: case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformShuffle: case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp: case Op::OpGroupNonUniformShuffleDown:
    case Op::OpGroupNonUniformQuadBroadcast: case Op::OpGroupNonUniformQuadSwap:
    case Op::OpGroupNonUniformAll: case Op::OpGroupNonUniformAny: case Op::OpGroupNonUniformAllEqual:
    case Op::OpGroupNonUniformBallotBitExtract: case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return true;
    case Op::OpGroupNonUniformBallotBitCount:
      return static_cast<spv::GroupOperation>(instruction.word(3)) == spv::GroupOperation::Reduce;
    case Op::OpGroupNonUniformSMin: case Op::OpGroupNonUniformUMin: case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformSMax: case Op::OpGroupNonUniformUMax: case Op::OpGroupNonUniformFMax:
    case Op::OpGroupNonUniformBitwiseAnd: case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformLogicalAnd: case Op::OpGroupNonUniformLogicalOr:
      return reduces();
    default:
      return false;
  }
}


// Whether a subgroup operation's result differs between invocations whatever
// its operands, at this scope.
bool varies_whatever_operands(const ir::Instruction& instruction, UniformityScope::Level level) {
  if (level == UniformityScope::Level::Subgroup && is_subgroup_wide(instruction)) return false;
  return !is_subgroup_passthrough(instruction);
}

}  // namespace

bool is_subgroup_uniform(spv::BuiltIn builtin) {
  return is_workgroup_uniform(builtin) || builtin == spv::BuiltIn::SubgroupId;
}

bool is_workgroup_uniform(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::WorkgroupId: case spv::BuiltIn::NumWorkgroups: case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::SubgroupSize: case spv::BuiltIn::NumSubgroups: case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::GlobalSize: case spv::BuiltIn::GlobalOffset: case spv::BuiltIn::NumEnqueuedSubgroups:
    case spv::BuiltIn::DeviceIndex: case spv::BuiltIn::ViewIndex:
      return true;
    default:
      return false;
  }
}

Uniformity::Uniformity(const Module& module, const ir::Function& function, UniformityScope scope)
    : module_(module), function_(function), scope_(scope), blocks_(function.blocks.size(), nullptr) {
  find_loops();
  find_one_subgroup_blocks();
  if (scope_.level == UniformityScope::Level::Workgroup) published_votes_.emplace(module_, function_);
  find_buffer_writes();
  seed();
  // Each step only ever marks more; the marks are finite, so this ends.
  // Loads of buffers the shader writes come last, so that a load at an
  // address that differs is said to differ for its address.
  do {
    while (propagate_values() | propagate_memory() | propagate_control()) {
    }
  } while (propagate_written_loads());
}

bool Uniformity::mark(uint32_t id, Divergence divergence) {
  return id != 0 && values_.emplace(id, divergence).second;
}

const Divergence* Uniformity::value(uint32_t id) const {
  auto it = values_.find(id);
  return it == values_.end() ? nullptr : &it->second;
}

const ir::Instruction* Uniformity::divergent_branch(uint32_t block) const {
  return block < blocks_.size() ? blocks_[block] : nullptr;
}

void Uniformity::seed() {
  for (uint32_t b = 0; b < function_.blocks.size(); ++b) {
    UniformityScope::Level level = one_subgroup_[b] ? UniformityScope::Level::Subgroup : scope_.level;
    for (const ir::Instruction& instruction : function_.blocks[b].instructions) {
      Op op = instruction.opcode();
      if (op == Op::OpLoad) {
        const ir::Instruction* variable = pointer_variable(module_, instruction.word(2));
        if (!variable) continue;
        auto builtin = module_.builtin(variable->result_id());
        if (!builtin) continue;
        bool uniform = level == UniformityScope::Level::Subgroup ? is_subgroup_uniform(*builtin)
                                                                  : is_workgroup_uniform(*builtin);
        if (!uniform && !same_in_workgroup(instruction.result_id())) {
          mark(instruction.result_id(), {Divergence::Kind::BuiltIn, &instruction, builtin});
        }
      } else if (ir::is_atomic_with_result(op)) {
        mark(instruction.result_id(), {Divergence::Kind::Atomic, &instruction, {}});
      } else if (ir::is_subgroup_operation(op) && varies_whatever_operands(instruction, level)) {
        mark(instruction.result_id(), {Divergence::Kind::Subgroup, &instruction, {}});
      }
    }
  }
}

bool Uniformity::propagate_values() {
  // Comparisons and differences wait until the values they read are marked
  // and their bases known: whether the divergence cancels out depends on both.
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (const ir::Block& block : function_.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (!may_cancel(instruction)) again |= propagate_value(instruction);
      }
    }
    changed |= again;
  }
  compute_bases();
  for (const ir::Block& block : function_.blocks) {
    for (const ir::Instruction& instruction : block.instructions) {
      if (!may_cancel(instruction) || cancels_out(instruction)) continue;
      uint32_t index = 0;
      if (auto split = index_split(instruction, &index)) {
        // Whole subgroups on each side: every invocation of one agrees.
        if (*split % scope_.max_subgroup_size == 0) continue;
        changed |= mark(instruction.result_id(), {Divergence::Kind::IndexSplit, module_.def(index), {}, *split});
        continue;
      }
      changed |= propagate_value(instruction);
    }
  }
  return changed;
}

bool Uniformity::propagate_value(const ir::Instruction& instruction) {
  uint32_t result = instruction.result_id();
  if (result == 0 || values_.count(result) || instruction.opcode() == Op::OpVariable) return false;
  if (instruction.opcode() == Op::OpLoad) {
    const ir::Instruction* variable = pointer_variable(module_, instruction.word(2));
    if (variable) {
      if (auto it = variables_.find(variable->result_id()); it != variables_.end()) {
        if (same_in_workgroup(result)) return false;
        return mark(result, {Divergence::Kind::Memory, it->second, {}});
      }
    }
  }
  if (!follows_operands(instruction)) return false;
  for (uint32_t input : instruction.input_ids()) {
    if (!values_.count(input)) continue;
    if (same_in_workgroup(result) || decided_by_votes(instruction) || decided_by_workgroup_size(instruction) ||
        all_reduced(instruction) || joins_on_one_subgroup_edges(instruction)) {
      return false;
    }
    return mark(result, {Divergence::Kind::Operand, module_.def(input), {}});
  }
  return false;
}

bool Uniformity::all_reduced(const ir::Instruction& phi) const {
  if (phi.opcode() != Op::OpPhi || !published_votes_) return false;
  UniformSoFar uniform{[this](uint32_t id) { return !values_.count(id); },
                       [this](uint32_t block) { return block < blocks_.size() && !blocks_[block]; }};
  return published_votes_->all_reduced(phi.result_id(), uniform);
}

bool Uniformity::decided_by_votes(const ir::Instruction& comparison) const {
  if (scope_.level == UniformityScope::Level::Subgroup) {
    // What the workgroup's published votes decide for the workgroup, they
    // decide for each subgroup in it.
    return ir::is_comparison(comparison.opcode()) && module_.uniformity(function_).decided_by_votes(comparison);
  }
  if (!published_votes_ || !published_votes_->any() || !ir::is_comparison(comparison.opcode())) return false;
  UniformSoFar uniform{[this](uint32_t id) { return !values_.count(id); },
                       [this](uint32_t block) { return block < blocks_.size() && !blocks_[block]; }};
  return published_votes_->decides(comparison, uniform);
}

bool Uniformity::decided_by_workgroup_size(const ir::Instruction& comparison) const {
  if (!is_integer_comparison(comparison.opcode()) || !fixed_workgroup_size()) return false;
  // A bound a specialization constant gives may be set to anything.
  const uint32_t left_id = comparison.word(2), right_id = comparison.word(3);
  if (module_.reads_specialization_default(left_id) || module_.reads_specialization_default(right_id)) return false;
  const std::array<WorkgroupDimension, 3>* size = nullptr;
  for (const EntryPoint& entry : module_.entry_points()) {
    if (entry.function == &function_ && entry.workgroup_size) size = &*entry.workgroup_size;
  }
  if (!size) return false;
  // The values of a constant or of c + sum(k * local id) over every
  // invocation; nullopt for any other form.
  auto over_invocations = [&](const Polynomial& form) -> std::optional<ValueRange> {
    if (form.degree() > 1) return std::nullopt;
    ValueRange range = ValueRange::point(static_cast<double>(form.constant_term()));
    for (const Symbol& symbol : form.symbols()) {
      if (symbol.kind != Symbol::Kind::LocalId || symbol.id > 2) return std::nullopt;
      const double reach = static_cast<double>(form.coefficient(symbol)) * ((*size)[symbol.id].value - 1.0);
      (reach < 0 ? range.low : range.high) += reach;
    }
    return range;
  };
  // Operands in [0, 2^31), where the signed and unsigned readings agree.
  auto in_range = [&](uint32_t id) {
    std::optional<ValueRange> range = over_invocations(module_.symbolic(function_).value(id));
    return range && range->low >= 0 && range->high < 2147483648.0;
  };
  if (!in_range(left_id) || !in_range(right_id)) return false;
  const SymbolicValues& symbolic = module_.symbolic(function_);
  std::optional<Polynomial> negated = symbolic.value(right_id).negated();
  std::optional<Polynomial> difference = negated ? Polynomial::add(symbolic.value(left_id), *negated) : std::nullopt;
  std::optional<ValueRange> range = difference ? over_invocations(*difference) : std::nullopt;
  std::optional<Test> test = test_of(comparison.opcode());
  return range && test && compare(*range, *test, 0).has_value();
}

bool Uniformity::fixed_workgroup_size() const {
  if (!fixed_size_) {
    // A dimension a specialization constant sets may be anything at run time,
    // so only sizes written as numbers are trusted.
    bool fixed = false;
    for (const EntryPoint& entry : module_.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute) continue;
      fixed = entry.workgroup_size.has_value();
      for (const WorkgroupDimension& dimension : entry.workgroup_size.value_or(std::array<WorkgroupDimension, 3>{})) {
        fixed &= !dimension.spec_id;
      }
      if (!fixed) break;
    }
    fixed_size_ = fixed;
  }
  return *fixed_size_;
}

bool Uniformity::same_in_workgroup(uint32_t id) const {
  // Arithmetic on invocation ids can leave only the workgroup's part: with
  // an 8x8 workgroup, gl_GlobalInvocationID.xy / 8 is gl_WorkGroupID.xy, and
  // along a dimension of size 1 the global id is the workgroup's. The
  // symbolic values split global ids at the declared size; a value whose form
  // names no per-invocation symbol, and no value that diverges, is uniform.
  const ir::Instruction* definition = module_.def(id);
  const ir::Instruction* type = definition ? module_.def(definition->type_id()) : nullptr;
  if (!type || type->opcode() != Op::OpTypeInt || !fixed_workgroup_size()) return false;
  const SymbolicValues& symbolic = module_.symbolic(function_);
  const Polynomial& form = symbolic.value(id);
  for (const Symbol& symbol : form.symbols()) {
    switch (symbol.kind) {
      case Symbol::Kind::WorkgroupId: case Symbol::Kind::NumWorkgroups: case Symbol::Kind::SubgroupSize:
      case Symbol::Kind::NumSubgroups:
        continue;
      case Symbol::Kind::Induction: case Symbol::Kind::Value:
        if (symbol.id != id && module_.def(symbol.id) && !values_.count(symbol.id) &&
            !loaded_builtin(module_, symbol.id)) {
          continue;
        }
        return false;
      default:
        return false;
    }
  }
  return true;
}

bool Uniformity::follows_operands(const ir::Instruction& instruction) const {
  if (selects_one_subgroup_value(instruction)) return false;
  if (!ir::is_subgroup_operation(instruction.opcode())) return true;
  UniformityScope::Level level = level_at(instruction);
  if (level == UniformityScope::Level::Subgroup && is_subgroup_wide(instruction)) return false;
  // A shuffle of a uniform value reads that value from whichever lane; at
  // subgroup scope, a shuffle from a lane the subgroup agrees on is a broadcast.
  if (instruction.opcode() == Op::OpGroupNonUniformShuffle) {
    bool from_agreed_lane = level == UniformityScope::Level::Subgroup && !values_.count(instruction.word(4));
    return values_.count(instruction.word(3)) && !from_agreed_lane;
  }
  return true;
}

bool Uniformity::is_subgroup_aligned_index(uint32_t id) const {
  // gl_LocalInvocationIndex, or the x component of gl_LocalInvocationID or
  // gl_GlobalInvocationID where x runs through whole subgroups: when the
  // workgroup is one row, or its width is a multiple of the widest subgroup
  // (a subgroup never spans workgroups, so global x is then aligned too).
  std::optional<uint32_t> component;
  for (int depth = 0; depth < 16; ++depth) {
    const ir::Instruction* def = module_.def(id);
    if (!def) return false;
    switch (def->opcode()) {
      case Op::OpCopyObject: case Op::OpBitcast: case Op::OpUConvert: case Op::OpSConvert:
        id = def->word(2);
        continue;
      case Op::OpCompositeExtract:
        if (component || def->operands().size() != 4) return false;
        component = def->word(3);
        id = def->word(2);
        continue;
      case Op::OpLoad:
        break;
      default:
        return false;
    }
    std::optional<PointerPath> path = pointer_path(module_, def->word(2));
    if (!path || path->element_step || path->indices.size() > 1) return false;
    if (!path->indices.empty()) {
      if (component) return false;
      auto constant = module_.constant_value(path->indices.front());
      if (!constant) return false;
      component = static_cast<uint32_t>(*constant);
    }
    const ir::Instruction* variable = path->variable;
    auto builtin = module_.builtin(variable->result_id());
    if (!builtin) {
      // A local written once, such as the copy of an HLSL entry point's
      // parameter that SSA rewriting leaves behind: follow what was stored.
      id = stored_once(module_, variable->result_id());
      if (!id) return false;
      continue;
    }
    if (builtin == spv::BuiltIn::LocalInvocationIndex) return !component;
    if (component != 0u) return false;
    if (builtin != spv::BuiltIn::LocalInvocationId && builtin != spv::BuiltIn::GlobalInvocationId) return false;
    for (const EntryPoint& entry : module_.entry_points()) {
      if (entry.function != &function_ || !entry.workgroup_size) continue;
      const auto& size = *entry.workgroup_size;
      if (size[0].spec_id || size[1].spec_id || size[2].spec_id) return false;
      bool whole_rows = size[0].value % scope_.max_subgroup_size == 0;
      bool one_row = size[1].value * size[2].value == 1;
      return whole_rows || (one_row && builtin == spv::BuiltIn::LocalInvocationId);
    }
    return false;
  }
  return false;
}

std::optional<uint64_t> Uniformity::index_split(const ir::Instruction& comparison, uint32_t* index) const {
  // `index < K` and `index >= K` split the indexes at K; `index <= K` and
  // `index > K` at K + 1; with the operands swapped, the other way round.
  if (scope_.level != UniformityScope::Level::Subgroup || scope_.max_subgroup_size == 0) return std::nullopt;
  bool strict;
  switch (comparison.opcode()) {
    case Op::OpULessThan: case Op::OpSLessThan: case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual:
      strict = true;
      break;
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual: case Op::OpUGreaterThan: case Op::OpSGreaterThan:
      strict = false;
      break;
    default:
      return std::nullopt;
  }
  uint32_t a = comparison.word(2), b = comparison.word(3);
  auto constant = [&](uint32_t id) -> std::optional<uint64_t> {
    // Not a specialization constant: the application may set it to anything.
    const ir::Instruction* def = module_.def(id);
    if (!def || def->opcode() != Op::OpConstant) return std::nullopt;
    auto value = module_.constant_value(id);
    if (!value || *value >= (uint64_t{1} << 31)) return std::nullopt;  // negative, or past any workgroup
    return value;
  };
  std::optional<uint64_t> bound;
  if (auto k = constant(b); k && is_subgroup_aligned_index(a)) {
    bound = strict ? *k : *k + 1;
    *index = a;
  } else if (auto k2 = constant(a); k2 && is_subgroup_aligned_index(b)) {
    bound = strict ? *k2 + 1 : *k2;  // K < index is index > K
    *index = b;
  }
  return bound;
}

void Uniformity::compute_bases() {
  // A lattice per value: absent (not known yet), a base id, or the value itself
  // (no simpler form). Values only move up, so the loop ends.
  bases_.clear();
  auto base_of = [&](uint32_t id) -> std::optional<uint32_t> {
    auto it = bases_.find(id);
    return it == bases_.end() ? std::nullopt : std::optional(it->second);
  };
  auto offset_of = [&](uint32_t divergent, uint32_t other) -> std::optional<uint32_t> {
    // divergent + other, with other uniform, has divergent's base.
    if (!values_.count(divergent) || values_.count(other)) return 0;
    return base_of(divergent);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Block& block : function_.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        uint32_t result = instruction.result_id();
        const Divergence* divergence = value(result);
        if (!divergence) continue;
        std::optional<uint32_t> base = result;
        if (irregular_.count(result)) base = result;
        else switch (instruction.opcode()) {
          case Op::OpIAdd:
            if (!values_.count(instruction.word(3))) base = offset_of(instruction.word(2), instruction.word(3));
            else if (!values_.count(instruction.word(2))) base = offset_of(instruction.word(3), instruction.word(2));
            break;
          case Op::OpISub:
            if (!values_.count(instruction.word(3))) base = offset_of(instruction.word(2), instruction.word(3));
            break;
          case Op::OpCopyObject:
          case Op::OpBitcast:
            base = base_of(instruction.word(2));
            break;
          case Op::OpPhi: {
            // Not where paths of a divergent branch meet, nor for values that
            // leave a loop at different iterations: there the offsets differ.
            if (irregular_.count(result)) break;
            std::optional<uint32_t> common;
            bool plain = true;
            for (size_t i = 2; i < instruction.operands().size() && plain; i += 2) {
              uint32_t incoming = instruction.word(i);
              if (!values_.count(incoming)) {
                plain = false;  // a uniform path: no common base
              } else if (auto b = base_of(incoming)) {
                plain = !common || *b == *common;
                common = b;
              }  // else a back edge not known yet
            }
            if (plain) base = common;
            break;
          }
          default:
            break;
        }
        if (base == std::optional<uint32_t>(0) || !base) {
          if (!base) continue;  // depends on values not known yet
          base = result;
        }
        auto [it, fresh] = bases_.emplace(result, *base);
        if (fresh) {
          changed = true;
        } else if (it->second != *base && it->second != result) {
          it->second = result;
          changed = true;
        }
      }
    }
  }
}

bool Uniformity::may_cancel(const ir::Instruction& instruction) {
  return is_integer_comparison(instruction.opcode()) || instruction.opcode() == Op::OpISub;
}

bool Uniformity::cancels_out(const ir::Instruction& instruction) const {
  // `a < b` and `b - a` are the same for every invocation when a and b are
  // the same divergent value plus uniform offsets: a loop from tid + x to
  // tid + y runs the same number of times everywhere (ignoring wrap-around).
  uint32_t a = instruction.word(2), b = instruction.word(3);
  if (!values_.count(a) || !values_.count(b)) return false;
  auto base_a = bases_.find(a), base_b = bases_.find(b);
  return base_a != bases_.end() && base_b != bases_.end() && base_a->second == base_b->second;
}

bool Uniformity::propagate_memory() {
  // Only invocation-private memory carries divergence through stores: a load
  // of workgroup memory, or of a buffer the shader does not write, at a
  // uniform address reads one value for all.
  bool changed = false;
  for (uint32_t b = 0; b < function_.blocks.size(); ++b) {
    for (const ir::Instruction& instruction : function_.blocks[b].instructions) {
      if (instruction.opcode() != Op::OpStore) continue;
      const ir::Instruction* variable = pointer_variable(module_, instruction.word(0));
      if (!variable || variables_.count(variable->result_id())) continue;
      auto storage = static_cast<spv::StorageClass>(variable->word(2));
      if (storage != spv::StorageClass::Function && storage != spv::StorageClass::Private) continue;
      if (values_.count(instruction.word(0)) || values_.count(instruction.word(1)) || blocks_[b]) {
        variables_.emplace(variable->result_id(), &instruction);
        changed = true;
      }
    }
  }
  return changed;
}

const ir::Instruction* Uniformity::branch_condition(uint32_t block) const {
  const ir::Instruction& terminator = function_.blocks[block].terminator();
  if (terminator.opcode() != Op::OpBranchConditional && terminator.opcode() != Op::OpSwitch) return nullptr;
  return &terminator;
}

bool Uniformity::is_divergent_branch(uint32_t block) const {
  const ir::Instruction* branch = branch_condition(block);
  return branch && values_.count(branch->word(0));
}

bool Uniformity::propagate_control() {
  const Cfg& cfg = module_.cfg(function_);
  const ControlDependence& dependence = module_.control_dependence(function_);
  const DominatorTree& post = module_.post_dominators(function_);
  bool changed = false;

  for (uint32_t block = 0; block < cfg.size(); ++block) {
    if (blocks_[block]) continue;
    for (uint32_t controller : dependence.controllers(block)) {
      const ir::Instruction* cause = is_divergent_branch(controller) ? branch_condition(controller)
                                                                     : blocks_[controller];
      if (cause) {
        blocks_[block] = cause;
        changed = true;
        break;
      }
    }
  }

  // Phis where the paths of a divergent branch meet again, and values that
  // leave a loop through a divergent exit, differ between invocations. A block
  // is such a meeting point when paths from two different successors of the
  // branch reach it before the branch's post-dominator.
  for (uint32_t branch = 0; branch < cfg.size(); ++branch) {
    if (!cfg.reachable(branch) || !is_divergent_branch(branch)) continue;
    const ir::Instruction* cause = branch_condition(branch);
    int join = post.idom(branch);
    std::vector<uint32_t> reached_from(cfg.size(), 0);  // how many successors reach each block
    std::vector<uint32_t> successors = cfg.successors(branch);
    std::sort(successors.begin(), successors.end());
    successors.erase(std::unique(successors.begin(), successors.end()), successors.end());
    for (uint32_t start : successors) {
      std::vector<bool> seen(cfg.size(), false);
      std::deque<uint32_t> work{start};
      while (!work.empty()) {
        uint32_t block = work.front();
        work.pop_front();
        if (seen[block]) continue;
        seen[block] = true;
        ++reached_from[block];
        if (static_cast<int>(block) == join) continue;
        for (uint32_t next : cfg.successors(block)) work.push_back(next);
      }
    }
    for (uint32_t block = 0; block < cfg.size(); ++block) {
      if (reached_from[block] < 2) continue;
      for (const ir::Instruction& instruction : function_.blocks[block].instructions) {
        if (instruction.opcode() == Op::OpPhi && !copies_one_value(instruction) &&
            !joins_one_value(instruction, branch, reached_from)) {
          changed |= mark(instruction.result_id(), {Divergence::Kind::Join, cause, {}});
          changed |= irregular_.insert(instruction.result_id()).second;
        }
      }
    }
    changed |= mark_loop_exits(branch, cause);
  }
  return changed;
}

bool Uniformity::copies_one_value(const ir::Instruction& phi) const {
  // SSA construction threads a variable through every loop and merge it
  // crosses, as phis of the value and of each other: such a phi yields the
  // one value whichever way control came.
  auto [cached, fresh] = copies_.emplace(phi.result_id(), false);
  if (fresh) cached->second = copied_value(module_, phi.result_id()) != phi.result_id();
  return cached->second;
}

bool Uniformity::joins_one_value(const ir::Instruction& phi, uint32_t branch,
                                 const std::vector<uint32_t>& reached_from) const {
  // The values the phi takes on the paths from the branch: through the phis
  // the paths cross, the incoming value of each edge those paths take. A
  // variable assigned before the branch and merged again in between (under a
  // uniform condition, or at a `continue`) is one value on every path, whatever
  // the phis it crossed.
  const Cfg& cfg = module_.cfg(function_);
  auto on_paths = [&](uint32_t label) {
    int block = cfg.index_of(label);
    return block >= 0 && (static_cast<uint32_t>(block) == branch || reached_from[block] > 0);
  };
  std::unordered_set<uint32_t> visited;
  std::vector<uint32_t> work{phi.result_id()};
  uint32_t single = 0;
  int budget = 256;
  while (!work.empty()) {
    uint32_t id = work.back();
    work.pop_back();
    if (!visited.insert(id).second) continue;
    if (--budget < 0) return false;
    const ir::Instruction* definition = module_.def(id);
    const ir::Block* block = definition ? module_.block_of(*definition) : nullptr;
    if (definition && definition->opcode() == Op::OpPhi && block &&
        (definition == &phi || (block->id() != function_.blocks[branch].id() && on_paths(block->id())))) {
      for (size_t i = 2; i + 1 < definition->operands().size(); i += 2) {
        if (on_paths(definition->word(i + 1))) work.push_back(definition->word(i));
      }
      continue;
    }
    if (single != 0 && single != id) return false;
    single = id;
  }
  return single != 0;
}

void Uniformity::find_loops() {
  loops_ = klint::find_loops(module_, function_);
  if (loops_.empty()) return;
  for (uint32_t b = 0; b < function_.blocks.size(); ++b) {
    for (const ir::Instruction& instruction : function_.blocks[b].instructions) {
      for (uint32_t input : instruction.input_ids()) use_blocks_[input].push_back(b);
    }
  }
}

bool Uniformity::mark_loop_exits(uint32_t branch, const ir::Instruction* cause) {
  const Cfg& cfg = module_.cfg(function_);
  bool changed = false;
  for (const Loop& loop : loops_) {
    if (!loop.body[branch]) continue;
    bool exits = false;
    for (uint32_t next : cfg.successors(branch)) exits |= !loop.body[next];
    if (!exits) continue;
    for (uint32_t b = 0; b < function_.blocks.size(); ++b) {
      if (!loop.body[b]) continue;
      for (const ir::Instruction& instruction : function_.blocks[b].instructions) {
        uint32_t result = instruction.result_id();
        if (result == 0 || irregular_.count(result)) continue;
        auto uses = use_blocks_.find(result);
        if (uses == use_blocks_.end()) continue;
        for (uint32_t user : uses->second) {
          if (!loop.body[user]) {
            changed |= mark(result, {Divergence::Kind::LoopExit, cause, {}});
            changed |= irregular_.insert(result).second;
            break;
          }
        }
      }
    }
  }
  return changed;
}

std::vector<const ir::Instruction*> Uniformity::chain(uint32_t id) const {
  std::vector<const ir::Instruction*> out;
  std::unordered_set<uint32_t> visited;
  while (id != 0 && visited.insert(id).second) {
    const Divergence* divergence = value(id);
    if (!divergence || !divergence->cause) break;
    const ir::Instruction* cause = divergence->cause;
    out.push_back(cause);
    switch (divergence->kind) {
      case Divergence::Kind::BuiltIn:
      case Divergence::Kind::Atomic:
      case Divergence::Kind::Subgroup:
        return out;
      case Divergence::Kind::Operand:
      case Divergence::Kind::IndexSplit:
        id = cause->result_id();
        break;
      case Divergence::Kind::Memory: {
        // A store to private memory: follow what made it divergent. A write
        // to a buffer is the source.
        const ir::Instruction* variable = cause->opcode() == Op::OpStore ? pointer_variable(module_, cause->word(0))
                                                                         : nullptr;
        if (!variable || !variables_.count(variable->result_id())) return out;
        id = values_.count(cause->word(1)) ? cause->word(1) : cause->word(0);
        break;
      }
      case Divergence::Kind::Join:
      case Divergence::Kind::LoopExit:  // the branch: follow its condition
        id = cause->word(0);
        break;
    }
  }
  return out;
}

std::optional<spv::BuiltIn> Uniformity::source_builtin(uint32_t id) const {
  auto links = chain(id);
  if (links.empty() || links.back()->result_id() == 0) return std::nullopt;
  const Divergence* source = value(links.back()->result_id());
  if (!source || source->kind != Divergence::Kind::BuiltIn) return std::nullopt;
  return source->builtin;
}

}  // namespace klint
