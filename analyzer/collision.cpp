#include "analyzer/collision.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace klint {
namespace {

using spv::Op;

constexpr uint64_t kMaxInvocations = 4096;
constexpr size_t kMaxIterations = 64;
constexpr size_t kMaxCombinations = 4096;
constexpr size_t kMaxCachedOffsets = 4096;
// Values the same across the workgroup that find() tries at a few values.
constexpr size_t kMaxChosen = 2;

// Whether two guards say the same of every invocation: one polynomial
// constraint, whichever comparison stated it (two `if (ticket == last)`
// compare twice), or one condition taken the same way.
bool same_fact(const Constraint& a, const Constraint& b) {
  if (a.stated != b.stated || a.same_in_subgroup != b.same_in_subgroup) return false;
  if (a.stated) return a.equality == b.equality && a.expression == b.expression;
  return a.condition == b.condition && a.holds == b.holds;
}

bool is_invocation_symbol(Symbol symbol) {
  return symbol.kind == Symbol::Kind::LocalId || symbol.kind == Symbol::Kind::SubgroupLane ||
         symbol.kind == Symbol::Kind::SubgroupId;
}

}  // namespace

struct CollisionFinder::State {
  std::vector<Assignment> invocations;  // by local index
  // The same by symbol: each invocation id's value in every invocation.
  std::map<Symbol, std::vector<int64_t>> columns;
  mutable std::map<uint32_t, std::optional<std::vector<int64_t>>> iterations;
  mutable std::map<uint32_t, GuardSymbols> guard_symbols;  // by block
  // runs() by access, offset form and the values given: several rules ask
  // for the same accesses.
  using RunsKey = std::tuple<const ir::Instruction*, uint32_t, std::map<Polynomial::Monomial, int64_t>, Assignment>;
  mutable std::map<RunsKey, std::shared_ptr<const std::vector<Run>>> runs;
  // reads_filtered() by the condition (0 for none) or polynomial, and the
  // values of what it reads beyond the invocation ids.
  using ExpressionId = std::pair<uint32_t, std::map<Polynomial::Monomial, int64_t>>;
  using ColumnKey = std::pair<ExpressionId, Assignment>;
  mutable std::map<ColumnKey, std::shared_ptr<const Column>> columns_by_values;
  mutable std::map<ExpressionId, std::vector<Symbol>> reads;
  // find() by its arguments: the race and redundant-barrier rules ask about
  // the same pairs of accesses.
  // Accesses by their index in Accesses::all(); a copy made elsewhere is not cached.
  using Side = std::tuple<size_t, std::vector<uint32_t>, std::vector<uint32_t>>;
  using FindKey = std::tuple<Side, Side, std::vector<const Loop*>, UnknownGuards>;
  mutable std::map<FindKey, std::optional<Collision>> found;
};

CollisionFinder::CollisionFinder(const Module& module, const ir::Function& function)
    : state_(std::make_unique<State>()), module_(module), function_(function),
      values_(module.symbolic(function)), accesses_(module.accesses(function)) {
  const auto& size = values_.workgroup_size();
  uint64_t count = values_.invocations();
  if (count > kMaxInvocations) return;
  // The lint's subgroup width where it has one (--subgroup-size-constant), else 32.
  const uint32_t width = module.subgroup_size() ? module.subgroup_size() : kSubgroupSize;
  uint32_t subgroup = static_cast<uint32_t>(std::min<uint64_t>(width, count));
  for (uint32_t index = 0; index < count; ++index) {
    Assignment assignment;
    uint32_t x = static_cast<uint32_t>(index % size[0]);
    uint32_t y = static_cast<uint32_t>(index / size[0] % size[1]);
    uint32_t z = static_cast<uint32_t>(index / (size[0] * size[1]));
    assignment[{Symbol::Kind::LocalId, 0}] = x;
    assignment[{Symbol::Kind::LocalId, 1}] = y;
    assignment[{Symbol::Kind::LocalId, 2}] = z;
    assignment[{Symbol::Kind::SubgroupLane, 0}] = index % subgroup;
    assignment[{Symbol::Kind::SubgroupId, 0}] = index / subgroup;
    assignment[{Symbol::Kind::SubgroupSize, 0}] = subgroup;
    assignment[{Symbol::Kind::NumSubgroups, 0}] = static_cast<int64_t>((count + subgroup - 1) / subgroup);
    state_->invocations.push_back(std::move(assignment));
  }
  for (const Assignment& invocation : state_->invocations) {
    for (const auto& [symbol, value] : invocation) state_->columns[symbol].push_back(value);
  }
}

CollisionFinder::~CollisionFinder() = default;

const Assignment* CollisionFinder::invocation(uint32_t local_index) const {
  return local_index < state_->invocations.size() ? &state_->invocations[local_index] : nullptr;
}

namespace {

std::optional<bool> compare(Op op, int64_t a, int64_t b) {
  switch (op) {
    case Op::OpULessThan: case Op::OpSLessThan: return a < b;
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual: return a <= b;
    case Op::OpUGreaterThan: case Op::OpSGreaterThan: return a > b;
    case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual: return a >= b;
    case Op::OpIEqual: return a == b;
    case Op::OpINotEqual: return a != b;
    default: return std::nullopt;
  }
}

}  // namespace

const std::vector<int64_t>* CollisionFinder::iteration_values(uint32_t phi) const {
  auto [it, inserted] = state_->iterations.try_emplace(phi);
  if (!inserted) return it->second ? &*it->second : nullptr;
  const Induction* induction = values_.induction(phi);
  if (!induction) return nullptr;
  auto initial = values_.value(induction->initial).constant_value();
  auto step = values_.value(induction->step_value).constant_value();
  if (!initial || !step) return nullptr;
  // The exit test: a conditional branch in the loop to its merge block.
  const ir::Block& header = function_.blocks[induction->header];
  uint32_t merge = header.merge()->word(0);
  const Cfg& cfg = module_.cfg(function_);
  const ir::Instruction* exit = nullptr;
  std::vector<uint32_t> candidates{induction->header};
  for (uint32_t next : cfg.successors(induction->header)) candidates.push_back(next);
  for (uint32_t block : candidates) {
    const ir::Instruction& branch = function_.blocks[block].terminator();
    if (branch.opcode() == Op::OpBranchConditional && (branch.word(1) == merge || branch.word(2) == merge)) {
      exit = &branch;
      break;
    }
  }
  if (!exit) return nullptr;
  const ir::Instruction* test = module_.def(exit->word(0));
  if (!test || test->operands().size() != 4) return nullptr;
  bool exits_when = exit->word(1) == merge;
  // 32-bit arithmetic wraps around, so that `i += 0xFFFFFFFF` counts down.
  const ir::Instruction* phi_definition = module_.def(phi);
  const ir::Instruction* type = phi_definition ? module_.def(phi_definition->type_id()) : nullptr;
  const bool wraps = type && type->opcode() == Op::OpTypeInt && type->word(1) == 32;
  const bool is_signed = wraps && type->word(2) != 0;
  auto wrapped = [&](int64_t v) -> int64_t {
    if (!wraps) return v;
    auto bits = static_cast<uint32_t>(static_cast<uint64_t>(v));
    return is_signed ? int64_t{static_cast<int32_t>(bits)} : int64_t{bits};
  };
  std::vector<int64_t> sequence;
  int64_t value = *initial;
  Symbol symbol{Symbol::Kind::Induction, phi};
  while (true) {
    Assignment assignment{{symbol, value}};
    auto a = values_.evaluate(values_.value(test->word(2)), assignment);
    auto b = values_.evaluate(values_.value(test->word(3)), assignment);
    if (!a || !b) return nullptr;
    std::optional<bool> holds = compare(test->opcode(), *a, *b);
    if (!holds) return nullptr;
    if (*holds == exits_when) break;
    if (sequence.size() == kMaxIterations) return nullptr;
    sequence.push_back(value);
    switch (induction->step) {
      case Induction::Step::Add: value += *step; break;
      case Induction::Step::Multiply: value *= *step; break;
      case Induction::Step::ShiftLeft:
        if (*step < 0 || *step > 30 || value > (int64_t{1} << 32)) return nullptr;
        value <<= *step;
        break;
      case Induction::Step::ShiftRight:
        if (*step < 0 || *step > 62) return nullptr;
        value >>= *step;
        break;
      case Induction::Step::Divide:
        if (*step <= 0) return nullptr;
        value /= *step;
        break;
      case Induction::Step::Other: return nullptr;
    }
    value = wrapped(value);
  }
  it->second = std::move(sequence);
  return &*it->second;
}

std::optional<std::vector<Assignment>> CollisionFinder::iterations(const MemoryAccess& access) const {
  if (!access.offset) return std::nullopt;
  std::set<Symbol> inductions;
  for (Symbol symbol : access.offset->symbols()) {
    if (symbol.kind != Symbol::Kind::Induction) continue;
    if (!iteration_values(symbol.id)) return std::nullopt;
    inductions.insert(symbol);
  }
  for (Symbol symbol : guard_symbols(access.block).inductions) inductions.insert(symbol);
  std::vector<Assignment> combinations{{}};
  for (Symbol symbol : inductions) {
    std::vector<Assignment> next;
    const std::vector<int64_t>& sequence = *iteration_values(symbol.id);
    for (const Assignment& partial : combinations) {
      for (int64_t value : sequence) {
        Assignment extended = partial;
        extended[symbol] = value;
        next.push_back(std::move(extended));
      }
    }
    combinations = std::move(next);
    if (combinations.size() > kMaxCombinations) return std::nullopt;
  }
  return combinations;
}

std::vector<std::optional<int64_t>> CollisionFinder::offsets(const MemoryAccess& access,
                                                             const Assignment& loop_values,
                                                             bool unknown_guards_hold) const {
  std::vector<std::optional<int64_t>> result(state_->invocations.size());
  if (!access.offset) return result;
  std::shared_ptr<const std::vector<Run>> evaluated = runs(access, loop_values);
  for (size_t i = 0; i < result.size(); ++i) {
    const Run& run = (*evaluated)[i];
    if (!run.unknown || unknown_guards_hold) result[i] = run.offset;
  }
  return result;
}

std::shared_ptr<const std::vector<CollisionFinder::Run>> CollisionFinder::runs(const MemoryAccess& access,
                                                                               const Assignment& values) const {
  State::RunsKey key{access.instruction, access.block, access.offset->terms(), values};
  auto found = state_->runs.find(key);
  if (found != state_->runs.end()) return found->second;
  auto result = std::make_shared<const std::vector<Run>>(evaluate_runs(access, values));
  // Bounded: a shader of thousands of accesses would otherwise keep every
  // invocation's offset of every iteration of every one.
  if (state_->runs.size() >= kMaxCachedOffsets) state_->runs.clear();
  state_->runs.emplace(std::move(key), result);
  return result;
}

std::vector<CollisionFinder::Run> CollisionFinder::evaluate_runs(const MemoryAccess& access,
                                                                 const Assignment& values) const {
  const size_t count = state_->invocations.size();
  std::vector<Run> result(count);
  // A workgroup of no invocations (LocalSize 0, which spirv-val lets through)
  // accesses nothing.
  if (count == 0) return result;
  const auto& guards = accesses_.guards(access.block);
  std::vector<uint8_t> runs(count, 1);
  for (size_t k = 0; k < guards.size(); ++k) {
    // A guard that picks one lane of each subgroup is find()'s to judge.
    if (guards[k].same_in_subgroup) continue;
    std::shared_ptr<const std::vector<int8_t>> admitted = guard_admits(guards[k], values);
    for (size_t i = 0; i < count; ++i) {
      if (!runs[i]) continue;
      if ((*admitted)[i] < 0) {
        result[i].unknown = true;
        if (k < 64) result[i].assumed |= uint64_t{1} << k;
      } else if ((*admitted)[i] == 0) {
        runs[i] = 0;
      }
    }
  }
  std::shared_ptr<const Column> offsets = reads_filtered(*access.offset, 0, values);
  for (size_t i = 0; i < count; ++i) {
    if (runs[i] && offsets->known[i]) result[i].offset = offsets->values[i];
  }
  return result;
}

// evaluate_column, remembered by the expression and the values it reads:
// the guards of nested blocks repeat those of the blocks around them, and
// an offset or a guard reads few of the values given (a loop's counter, a
// value tried for another access's guard).
std::shared_ptr<const CollisionFinder::Column> CollisionFinder::reads_filtered(const Polynomial& polynomial,
                                                                               uint32_t condition,
                                                                               const Assignment& values) const {
  State::ExpressionId id{condition, polynomial.terms()};
  auto [reads, first] = state_->reads.try_emplace(id);
  if (first) {
    std::vector<Symbol> ids;
    for (const auto& [symbol, value] : state_->invocations.front()) ids.push_back(symbol);
    Evaluator evaluator(values_, std::move(ids));
    reads->second = evaluator.unassigned(condition ? evaluator.add_condition(condition) : evaluator.add(polynomial));
  }
  // A value given for an invocation id pins it, read or not.
  Assignment read;
  for (const auto& [symbol, value] : values) {
    if (state_->invocations.front().count(symbol) ||
        std::binary_search(reads->second.begin(), reads->second.end(), symbol)) {
      read.emplace(symbol, value);
    }
  }
  State::ColumnKey key{std::move(id), read};
  if (auto found = state_->columns_by_values.find(key); found != state_->columns_by_values.end()) return found->second;
  auto column = std::make_shared<const Column>(evaluate_column(condition ? nullptr : &polynomial, condition, read));
  // Bounded, as runs() is.
  if (state_->columns_by_values.size() >= kMaxCachedOffsets) state_->columns_by_values.clear();
  state_->columns_by_values.emplace(std::move(key), column);
  return column;
}

namespace {

// Whether a guard, its expression or condition evaluated to `value`, lets
// the invocation run.
bool admits(const Constraint& guard, int64_t value) {
  if (!guard.stated) return (value != 0) == guard.holds;
  return guard.equality ? value == 0 : value >= 0;
}

}  // namespace

std::shared_ptr<const std::vector<int8_t>> CollisionFinder::guard_admits(const Constraint& guard,
                                                                          const Assignment& values) const {
  std::shared_ptr<const Column> column =
      guard.stated ? reads_filtered(guard.expression, 0, values) : reads_filtered(Polynomial(), guard.condition, values);
  auto admitted = std::make_shared<std::vector<int8_t>>(column->values.size());
  for (size_t i = 0; i < admitted->size(); ++i) {
    (*admitted)[i] = !column->known[i] ? -1 : admits(guard, column->values[i]) ? 1 : 0;
  }
  return admitted;
}

CollisionFinder::Column CollisionFinder::evaluate_column(const Polynomial* polynomial, uint32_t condition,
                                                         const Assignment& values) const {
  const size_t count = state_->invocations.size();
  Column column;
  // One assignment, its invocation ids overwritten in place for each invocation.
  Assignment assignment = state_->invocations.front();
  for (const auto& [symbol, value] : values) assignment[symbol] = value;
  std::vector<Symbol> symbols;
  std::vector<int64_t> slots;
  std::vector<std::pair<size_t, Symbol>> per_invocation;  // slots set for each invocation
  for (const auto& [symbol, value] : assignment) {
    if (state_->invocations.front().count(symbol) && !values.count(symbol)) {
      per_invocation.emplace_back(symbols.size(), symbol);
    }
    symbols.push_back(symbol);
    slots.push_back(value);
  }
  Evaluator evaluator(values_, std::move(symbols));
  size_t handle = polynomial ? evaluator.add(*polynomial) : evaluator.add_condition(condition);
  if (evaluator.prepare(handle)) {
    // Every invocation at once: the same values, a loop over each node.
    std::vector<std::vector<int64_t>> constants;
    std::vector<const int64_t*> columns;
    auto next = per_invocation.begin();
    for (size_t slot = 0; slot < slots.size(); ++slot) {
      if (next != per_invocation.end() && next->first == slot) {
        columns.push_back(state_->columns.at(next->second).data());
        ++next;
      } else {
        constants.emplace_back(count, slots[slot]);
        columns.push_back(nullptr);
      }
    }
    for (size_t slot = 0, c = 0; slot < columns.size(); ++slot) {
      if (!columns[slot]) columns[slot] = constants[c++].data();
    }
    evaluator.evaluate_all(handle, columns, count, column.values, column.known);
    return column;
  }
  column.values.assign(count, 0);
  column.known.assign(count, 0);
  for (size_t index = 0; index < count; ++index) {
    const Assignment& invocation = state_->invocations[index];
    auto source = invocation.begin();
    for (auto& [slot, symbol] : per_invocation) {
      while (source->first < symbol) ++source;  // both in symbol order
      slots[slot] = source->second;
    }
    if (std::optional<int64_t> value = evaluator.evaluate(handle, slots)) {
      column.values[index] = *value;
      column.known[index] = 1;
    }
  }
  return column;
}

// Whether the guard's value may differ between invocations.
bool CollisionFinder::differs(const Constraint& guard) const {
  if (!guard.stated) return values_.per_invocation({Symbol::Kind::Value, guard.condition});
  const std::vector<Symbol> symbols = guard.expression.symbols();
  return std::any_of(symbols.begin(), symbols.end(), [&](Symbol s) { return values_.per_invocation(s); });
}

const CollisionFinder::GuardSymbols& CollisionFinder::guard_symbols(uint32_t block) const {
  auto [it, inserted] = state_->guard_symbols.try_emplace(block);
  if (!inserted || state_->invocations.empty()) return it->second;
  std::vector<Symbol> ids;
  for (const auto& [symbol, value] : state_->invocations.front()) ids.push_back(symbol);
  Evaluator evaluator(values_, std::move(ids));
  std::set<Symbol> inductions, uniform;
  for (const Constraint& guard : accesses_.guards(block)) {
    if (guard.same_in_subgroup) continue;
    size_t handle = guard.stated ? evaluator.add(guard.expression) : evaluator.add_condition(guard.condition);
    // A guard the same for the whole workgroup runs all invocations or none:
    // values tried for what it reads would tell no invocation from another.
    const bool tried = differs(guard);
    for (Symbol symbol : evaluator.unassigned(handle)) {
      if (symbol.kind == Symbol::Kind::Induction) {
        if (iteration_values(symbol.id)) inductions.insert(symbol);
      } else if (tried && !values_.per_invocation(symbol) && !candidates(symbol).empty()) {
        uniform.insert(symbol);
      }
    }
  }
  it->second.inductions.assign(inductions.begin(), inductions.end());
  it->second.uniform.assign(uniform.begin(), uniform.end());
  return it->second;
}

// The values find() tries for a value the same across the workgroup that
// klint cannot see: those that decide guards on invocation ids (all of them
// run, none, the first, half, all but the last), and false and true.
std::vector<int64_t> CollisionFinder::candidates(Symbol symbol) const {
  const auto count = static_cast<int64_t>(state_->invocations.size());
  switch (symbol.kind) {
    case Symbol::Kind::WorkgroupId: return {0, 1};
    case Symbol::Kind::NumWorkgroups: return {1, 2};
    case Symbol::Kind::Value: break;
    default: return {};
  }
  const ir::Instruction* def = module_.def(symbol.id);
  const ir::Instruction* type = def ? module_.def(def->type_id()) : nullptr;
  if (!type) return {};
  if (type->opcode() == Op::OpTypeBool) return {1, 0};
  if (type->opcode() != Op::OpTypeInt) return {};
  std::vector<int64_t> values{count, 0, 1, count / 2, count - 1};
  std::vector<int64_t> unique;
  for (int64_t value : values) {
    if (std::find(unique.begin(), unique.end(), value) == unique.end()) unique.push_back(value);
  }
  return unique;
}

std::optional<Collision> CollisionFinder::find(const MemoryAccess& a, const MemoryAccess& b,
                                               const std::vector<const Loop*>& independent,
                                               const IterationLimits& a_limits, const IterationLimits& b_limits,
                                               UnknownGuards unknown) const {
  if (state_->invocations.empty() || !a.offset || !b.offset || !a.width || !b.width) return std::nullopt;
  const auto& all = accesses_.all();
  auto index = [&](const MemoryAccess& access) -> std::optional<size_t> {
    std::less<const MemoryAccess*> before;  // a total order, unlike < on unrelated pointers
    if (all.empty() || before(&access, all.data()) || !before(&access, all.data() + all.size())) return std::nullopt;
    return static_cast<size_t>(&access - all.data());
  };
  std::optional<size_t> index_a = index(a), index_b = index(b);
  if (!index_a || !index_b) return find_uncached(a, b, independent, a_limits, b_limits, unknown);
  auto side = [](size_t access, const IterationLimits& limits) { return State::Side{access, limits.last, limits.first}; };
  State::FindKey key{side(*index_a, a_limits), side(*index_b, b_limits), independent, unknown};
  if (auto it = state_->found.find(key); it != state_->found.end()) return it->second;
  std::optional<Collision> collision = find_uncached(a, b, independent, a_limits, b_limits, unknown);
  state_->found.emplace(std::move(key), collision);
  return collision;
}

std::optional<Collision> CollisionFinder::find_uncached(const MemoryAccess& a, const MemoryAccess& b,
                                                        const std::vector<const Loop*>& independent,
                                                        const IterationLimits& a_limits,
                                                        const IterationLimits& b_limits, UnknownGuards unknown) const {

  // Values defined in a loop whose iterations may differ between the two sides.
  auto varies_at = [&](uint32_t id) {
    const ir::Instruction* def = module_.def(id);
    const ir::Block* block = def ? module_.block_of(*def) : nullptr;
    if (!block) return false;
    int index = module_.cfg(function_).index_of(block->id());
    return index >= 0 && std::any_of(independent.begin(), independent.end(),
                                     [&](const Loop* loop) { return loop->body[static_cast<uint32_t>(index)]; });
  };
  // Symbols whose value may differ between the two sides.
  auto varies = [&](Symbol symbol) {
    return (symbol.kind == Symbol::Kind::Induction || symbol.kind == Symbol::Kind::Value) && varies_at(symbol.id);
  };
  auto enumerable = [&](Symbol symbol) {
    return is_invocation_symbol(symbol) || values_.per_invocation(symbol) ||
           (symbol.kind == Symbol::Kind::Induction && iteration_values(symbol.id));
  };
  // The part of each offset that is the same for every invocation and
  // iteration: it must cancel out between the two, up to a constant.
  auto rest = [&](const Polynomial& offset) {
    return offset.filtered([&](const Polynomial::Monomial& monomial) {
      return std::none_of(monomial.begin(), monomial.end(), enumerable);
    });
  };
  Polynomial rest_a = rest(*a.offset), rest_b = rest(*b.offset);
  for (const Polynomial* part : {&rest_a, &rest_b}) {
    for (Symbol symbol : part->symbols()) {
      if (varies(symbol)) return std::nullopt;
    }
  }
  auto negated = rest_b.negated();
  std::optional<Polynomial> difference = negated ? Polynomial::add(rest_a, *negated) : std::nullopt;
  std::optional<int64_t> shift = difference ? difference->constant_value() : std::nullopt;
  if (!shift) return std::nullopt;
  Polynomial enumerated_a = *Polynomial::add(*a.offset, *rest_a.negated());
  Polynomial enumerated_b = *Polynomial::add(*b.offset, *rest_b.negated());

  // The loops' induction variables to enumerate, shared or per side.
  std::set<Symbol> inductions;
  auto collect = [&](const Polynomial& p) {
    for (Symbol symbol : p.symbols()) {
      if (symbol.kind == Symbol::Kind::Induction && iteration_values(symbol.id)) inductions.insert(symbol);
    }
  };
  collect(enumerated_a);
  collect(enumerated_b);
  for (const MemoryAccess* access : {&a, &b}) {
    for (Symbol symbol : guard_symbols(access->block).inductions) inductions.insert(symbol);
  }
  // Combinations of (value on side a, value on side b) for each variable.
  std::vector<std::pair<Assignment, Assignment>> combinations{{}};
  for (Symbol symbol : inductions) {
    const std::vector<int64_t>& sequence = *iteration_values(symbol.id);
    uint32_t header = values_.induction(symbol.id)->header;
    auto pinned = [&](const IterationLimits& limits, int64_t value) {
      bool last = std::find(limits.last.begin(), limits.last.end(), header) != limits.last.end();
      bool first = std::find(limits.first.begin(), limits.first.end(), header) != limits.first.end();
      return (last && value != sequence.back()) || (first && value != sequence.front());
    };
    bool split = varies(symbol) || !a_limits.last.empty() || !a_limits.first.empty() || !b_limits.last.empty() ||
                 !b_limits.first.empty();
    std::vector<std::pair<Assignment, Assignment>> next;
    for (const auto& [side_a, side_b] : combinations) {
      for (int64_t value_a : sequence) {
        if (pinned(a_limits, value_a)) continue;
        for (int64_t value_b : sequence) {
          if (pinned(b_limits, value_b)) continue;
          if (!split && value_b != value_a) continue;
          auto first = side_a, second = side_b;
          first[symbol] = value_a;
          second[symbol] = value_b;
          next.emplace_back(std::move(first), std::move(second));
        }
      }
    }
    combinations = std::move(next);
    if (combinations.size() > kMaxCombinations) return std::nullopt;
  }

  // Values the same across the workgroup that the guards need, tried at a few
  // values each (the same on both sides), then left unknown. More than a
  // couple are left unknown.
  std::set<Symbol> uniform;
  for (const MemoryAccess* access : {&a, &b}) {
    for (Symbol symbol : guard_symbols(access->block).uniform) {
      if (!varies(symbol)) uniform.insert(symbol);
    }
  }
  std::vector<Assignment> choices{{}};
  auto try_values = [&](Symbol symbol, const std::vector<int64_t>& values) {
    std::vector<Assignment> next;
    for (int64_t value : values) {
      for (const Assignment& partial : choices) {
        next.push_back(partial);
        next.back()[symbol] = value;
      }
    }
    // Unknown last: a pair found at a value names it.
    next.insert(next.end(), choices.begin(), choices.end());
    choices = std::move(next);
  };
  if (uniform.size() <= kMaxChosen) {
    for (Symbol symbol : uniform) try_values(symbol, candidates(symbol));
  } else {
    // Too many to try each: the values klint cannot see still are, when
    // few, with the workgroup's own ids (which a bound check on the global
    // id reads) at the first workgroup's, then unknown.
    const auto own_id = [](Symbol s) {
      return s.kind == Symbol::Kind::WorkgroupId || s.kind == Symbol::Kind::NumWorkgroups;
    };
    std::vector<Symbol> own, unseen;
    for (Symbol symbol : uniform) (own_id(symbol) ? own : unseen).push_back(symbol);
    if (!own.empty() && unseen.size() <= kMaxChosen) {
      for (Symbol symbol : unseen) try_values(symbol, candidates(symbol));
      std::vector<Assignment> first = choices;
      for (Assignment& choice : first) {
        for (Symbol symbol : own) choice[symbol] = candidates(symbol).front();
      }
      first.insert(first.end(), choices.begin(), choices.end());
      choices = std::move(first);
    }
  }
  if (choices.size() * combinations.size() > kMaxCombinations) choices = {Assignment{}};  // all unknown

  // Under HoldForOne, an unknown guard the two sides share, that differs
  // between invocations, may not hold for both: conflicts[k] has bit l when
  // a's guard k is b's guard l.
  const auto& guards_a = accesses_.guards(a.block);
  const auto& guards_b = accesses_.guards(b.block);
  std::vector<uint64_t> conflicts(std::min<size_t>(guards_a.size(), 64), 0);
  if (unknown == UnknownGuards::HoldForOne) {
    for (size_t k = 0; k < conflicts.size(); ++k) {
      const Constraint& guard = guards_a[k];
      if (!differs(guard) || varies_at(guard.condition)) continue;
      for (size_t l = 0; l < std::min<size_t>(guards_b.size(), 64); ++l) {
        if (same_fact(guards_b[l], guard)) conflicts[k] |= uint64_t{1} << l;
      }
    }
  }
  auto conflict = [&](uint64_t assumed_a, uint64_t assumed_b) {
    for (size_t k = 0; k < conflicts.size(); ++k) {
      if ((assumed_a >> k) & 1 && (conflicts[k] & assumed_b)) return true;
    }
    return false;
  };
  // The unknown guards that single out this invocation: one the same for
  // the whole workgroup (a loop bound) says nothing of the pair.
  auto assumed = [&](const std::vector<Constraint>& guards, uint64_t mask) {
    std::vector<AssumedCondition> result;
    for (size_t k = 0; k < guards.size() && k < 64; ++k) {
      if (!((mask >> k) & 1) || !differs(guards[k])) continue;
      AssumedCondition condition{guards[k].condition, guards[k].holds};
      if (std::find(result.begin(), result.end(), condition) == result.end()) result.push_back(condition);
    }
    return result;
  };

  // Under `tid == lane_found_by_ballot` on both sides, two invocations of one
  // subgroup cannot both run: they would have the same id.
  auto pinned = [&](const MemoryAccess& access) {
    const auto& guards = accesses_.guards(access.block);
    return std::any_of(guards.begin(), guards.end(), [](const Constraint& c) { return c.same_in_subgroup; });
  };
  bool one_per_subgroup = pinned(a) && pinned(b);
  Symbol subgroup{Symbol::Kind::SubgroupId, 0};
  MemoryAccess side_a = a, side_b = b;
  side_a.offset = enumerated_a;
  side_b.offset = enumerated_b;
  for (const Assignment& chosen : choices) {
    for (const auto& [loop_a, loop_b] : combinations) {
      // Each side with the values its guards read: the same evaluation
      // serves every choice for the other side's.
      Assignment values_a = loop_a, values_b = loop_b;
      for (const auto& [symbol, value] : chosen) {
        for (auto [access, values] : {std::pair{&a, &values_a}, std::pair{&b, &values_b}}) {
          const std::vector<Symbol>& read = guard_symbols(access->block).uniform;
          if (std::find(read.begin(), read.end(), symbol) != read.end()) (*values)[symbol] = value;
        }
      }
      std::shared_ptr<const std::vector<Run>> runs_a = runs(side_a, values_a);
      std::shared_ptr<const std::vector<Run>> runs_b = runs(side_b, values_b);
      std::vector<std::pair<int64_t, uint32_t>> sorted;
      for (uint32_t index = 0; index < runs_a->size(); ++index) {
        if ((*runs_a)[index].offset) sorted.emplace_back(*(*runs_a)[index].offset + *shift, index);
      }
      std::sort(sorted.begin(), sorted.end());
      for (uint32_t second = 0; second < runs_b->size(); ++second) {
        const Run& run_b = (*runs_b)[second];
        if (!run_b.offset) continue;
        int64_t low = *run_b.offset - static_cast<int64_t>(a.width);
        int64_t high = *run_b.offset + static_cast<int64_t>(b.width);
        for (auto it = std::upper_bound(sorted.begin(), sorted.end(), std::pair{low, UINT32_MAX});
             it != sorted.end() && it->first < high; ++it) {
          if (it->second == second) continue;
          if (one_per_subgroup &&
              state_->invocations[it->second].at(subgroup) == state_->invocations[second].at(subgroup)) {
            continue;
          }
          const Run& run_a = (*runs_a)[it->second];
          if (conflict(run_a.assumed, run_b.assumed)) continue;
          auto describe = [&](uint32_t index, const Assignment& loops, int64_t offset, const Run& run,
                              const std::vector<Constraint>& guards) {
            CollidingInvocation invocation;
            invocation.local_index = index;
            const Assignment& base = state_->invocations[index];
            for (uint32_t d = 0; d < 3; ++d) {
              invocation.local_id[d] = static_cast<uint32_t>(base.at({Symbol::Kind::LocalId, d}));
            }
            invocation.loop_values.assign(loops.begin(), loops.end());
            invocation.offset = offset;
            invocation.assumed = assumed(guards, run.assumed);
            return invocation;
          };
          Collision collision{describe(it->second, loop_a, it->first - *shift + rest_a.constant_term(), run_a, guards_a),
                              describe(second, loop_b, *run_b.offset + rest_b.constant_term(), run_b, guards_b),
                              {chosen.begin(), chosen.end()}};
          return collision;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace klint
