#include "analyzer/disjointness.h"

#include <algorithm>
#include <array>

namespace klint {
namespace {

constexpr uint64_t kMaxInvocations = 1024;
constexpr size_t kMaxPoints = size_t{1} << 17;  // invocations times loop iterations, per side

}  // namespace

bool has_spec_constants(const Module& module) {
  return std::any_of(module.ir().globals.begin(), module.ir().globals.end(), [](const ir::Instruction& i) {
    switch (i.opcode()) {
      case spv::Op::OpSpecConstant: case spv::Op::OpSpecConstantTrue: case spv::Op::OpSpecConstantFalse:
      case spv::Op::OpSpecConstantComposite: case spv::Op::OpSpecConstantOp:
        return true;
      default: return false;
    }
  });
}

Disjointness::Disjointness(const Module& module, const ir::Function& function)
    : module_(module), function_(function), values_(module.symbolic(function)), accesses_(module.accesses(function)),
      finder_(module, function), loops_(find_loops(module, function)) {
  uint64_t count = values_.invocations();
  if (count > kMaxInvocations || has_spec_constants(module)) return;
  const auto& size = values_.workgroup_size();
  for (uint64_t index = 0; index < count; ++index) {
    invocations_.push_back({{{Symbol::Kind::LocalId, 0}, static_cast<int64_t>(index % size[0])},
                            {{Symbol::Kind::LocalId, 1}, static_cast<int64_t>(index / size[0] % size[1])},
                            {{Symbol::Kind::LocalId, 2}, static_cast<int64_t>(index / (size[0] * size[1]))}});
  }
}

bool Disjointness::proven(const MemoryAccess& a, const MemoryAccess& b) const {
  if (invocations_.empty() || !a.offset || !b.offset || !a.width || !b.width) return false;
  auto enumerated = [&](const Polynomial::Monomial& m) {
    return std::any_of(m.begin(), m.end(), [&](Symbol symbol) { return enumerable(symbol); });
  };
  auto constant_across = [&](const Polynomial::Monomial& m) { return !enumerated(m); };
  // The parts the same for every invocation must cancel, up to a constant.
  Polynomial rest_a = a.offset->filtered(constant_across);
  Polynomial rest_b = b.offset->filtered(constant_across);
  for (const Polynomial* rest : {&rest_a, &rest_b}) {
    for (Symbol symbol : rest->symbols()) {
      if (!fixed(symbol, a, b)) return false;
    }
  }
  auto negated = rest_b.negated();
  auto difference = negated ? Polynomial::add(rest_a, *negated) : std::nullopt;
  auto shift = difference ? difference->constant_value() : std::nullopt;
  if (!shift) return false;
  auto first = footprint(a, a.offset->filtered(enumerated));
  auto second = footprint(b, b.offset->filtered(enumerated));
  if (!first || !second) return false;
  for (auto& entry : *first) entry.first += *shift;
  std::sort(first->begin(), first->end());
  auto width_a = static_cast<int64_t>(a.width), width_b = static_cast<int64_t>(b.width);
  for (const auto& [offset, invocation] : *second) {
    // a's bytes [x, x + width_a) meet b's [offset, offset + width_b).
    auto it = std::lower_bound(first->begin(), first->end(), std::pair{offset - width_a + 1, uint32_t{0}});
    for (; it != first->end() && it->first < offset + width_b; ++it) {
      if (it->second != invocation) return false;
    }
  }
  return true;
}

// The local ids, loop counters with constant bounds, and values computed per
// invocation from those (evaluated through their definitions).
bool Disjointness::enumerable(Symbol symbol) const {
  if (symbol.kind == Symbol::Kind::LocalId) return true;
  if (symbol.kind == Symbol::Kind::Induction && finder_.iteration_values(symbol.id)) return true;
  return symbol.kind == Symbol::Kind::Value && values_.per_invocation(symbol);
}

// The same for every invocation of the workgroup and at both accesses.
bool Disjointness::fixed(Symbol symbol, const MemoryAccess& a, const MemoryAccess& b) const {
  switch (symbol.kind) {
    case Symbol::Kind::WorkgroupId: case Symbol::Kind::NumWorkgroups: case Symbol::Kind::SubgroupSize:
    case Symbol::Kind::NumSubgroups:
      return true;
    case Symbol::Kind::Induction: case Symbol::Kind::Value: break;
    default: return false;
  }
  if (values_.per_invocation(symbol)) return false;
  const ir::Instruction* def = module_.def(symbol.id);
  const ir::Block* block = def ? module_.block_of(*def) : nullptr;
  if (!block) return true;
  int index = module_.cfg(function_).index_of(block->id());
  if (index < 0) return false;
  // Defined in a loop around either access: it may differ between them.
  return std::none_of(loops_.begin(), loops_.end(), [&](const Loop& loop) {
    return loop.body[static_cast<uint32_t>(index)] && (loop.body[a.block] || loop.body[b.block]);
  });
}

// (offset, invocation) for every invocation and loop iteration that may run
// the access; nullopt when an offset cannot be evaluated.
std::optional<std::vector<std::pair<int64_t, uint32_t>>> Disjointness::footprint(const MemoryAccess& access,
                                                                                  const Polynomial& offset) const {
  const auto& guards = accesses_.guards(access.block);
  std::vector<Symbol> loops;
  auto collect = [&](const Polynomial& p) {
    for (Symbol symbol : p.symbols()) {
      if (symbol.kind == Symbol::Kind::Induction && finder_.iteration_values(symbol.id) &&
          std::find(loops.begin(), loops.end(), symbol) == loops.end()) {
        loops.push_back(symbol);
      }
    }
  };
  collect(offset);
  for (const Constraint& guard : guards) collect(guard.expression);
  std::vector<Assignment> combinations{{}};
  for (Symbol symbol : loops) {
    std::vector<Assignment> next;
    for (const Assignment& partial : combinations) {
      for (int64_t value : *finder_.iteration_values(symbol.id)) {
        next.push_back(partial);
        next.back()[symbol] = value;
      }
    }
    combinations = std::move(next);
    if (combinations.size() * invocations_.size() > kMaxPoints) return std::nullopt;
  }
  std::vector<std::pair<int64_t, uint32_t>> result;
  // The local ids of every invocation, as columns for the evaluator.
  std::array<std::vector<int64_t>, 3> local_ids;
  for (const Assignment& invocation : invocations_) {
    for (uint32_t d = 0; d < 3; ++d) local_ids[d].push_back(invocation.at({Symbol::Kind::LocalId, d}));
  }
  for (const Assignment& loop_values : combinations) {
    Assignment assignment = invocations_.front();
    assignment.insert(loop_values.begin(), loop_values.end());
    std::vector<Symbol> symbols;
    std::vector<std::vector<int64_t>> constants;
    std::vector<const int64_t*> columns;
    for (const auto& [symbol, value] : assignment) {
      symbols.push_back(symbol);
      if (symbol.kind == Symbol::Kind::LocalId && symbol.id < 3 && !loop_values.count(symbol)) {
        columns.push_back(local_ids[symbol.id].data());
      } else {
        constants.emplace_back(invocations_.size(), value);
        columns.push_back(constants.back().data());
      }
    }
    Evaluator evaluator(values_, std::move(symbols));
    std::vector<std::pair<size_t, const Constraint*>> checks;
    for (const Constraint& guard : guards) {
      if (!guard.same_in_subgroup) checks.emplace_back(evaluator.add(guard.expression), &guard);
    }
    size_t at = evaluator.add(offset);
    bool prepared = evaluator.prepare(at);
    for (const auto& [check, guard] : checks) prepared = prepared && evaluator.prepare(check);
    if (prepared) {
      // Every invocation at once, as may_run and evaluate would take them.
      const size_t count = invocations_.size();
      std::vector<uint8_t> runs(count, 1), known;
      std::vector<int64_t> values;
      for (const auto& [check, guard] : checks) {
        evaluator.evaluate_all(check, columns, count, values, known);
        for (size_t i = 0; i < count; ++i) {
          if (known[i] && (guard->equality ? values[i] != 0 : values[i] < 0)) runs[i] = 0;
        }
      }
      evaluator.evaluate_all(at, columns, count, values, known);
      for (uint32_t index = 0; index < count; ++index) {
        if (!runs[index]) continue;
        if (!known[index]) return std::nullopt;
        result.emplace_back(values[index], index);
      }
      continue;
    }
    for (uint32_t index = 0; index < invocations_.size(); ++index) {
      Assignment assignment = invocations_[index];
      assignment.insert(loop_values.begin(), loop_values.end());
      if (!may_run(guards, assignment)) continue;
      auto value = values_.evaluate(offset, assignment);
      if (!value) return std::nullopt;
      result.emplace_back(*value, index);
    }
  }
  return result;
}

// Guards klint cannot evaluate, or that pick one lane of each subgroup, may hold.
bool Disjointness::may_run(const std::vector<Constraint>& guards, const Assignment& assignment) const {
  for (const Constraint& guard : guards) {
    if (guard.same_in_subgroup) continue;
    auto value = values_.evaluate(guard.expression, assignment);
    if (value && (guard.equality ? *value != 0 : *value < 0)) return false;
  }
  return true;
}

}  // namespace klint
