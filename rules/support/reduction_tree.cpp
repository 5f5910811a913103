#include "rules/support/reduction_tree.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <set>
#include <utility>

namespace klint {
namespace {

using spv::Op;

constexpr int64_t kSubgroupSize = CollisionFinder::kSubgroupSize;

// `value` as op(a, b) for an associative, commutative operation that a
// subgroup reduction offers.
struct Combination {
  ReductionOperator op;
  uint32_t a = 0, b = 0;
};

std::optional<Combination> combination_of(const Module& module, uint32_t value) {
  const ir::Instruction* def = module.def(value);
  while (def && def->opcode() == Op::OpCopyObject) def = module.def(def->word(2));
  if (!def) return std::nullopt;
  auto binary = [&](ReductionOperator op) -> std::optional<Combination> {
    if (def->operands().size() != 4) return std::nullopt;
    return Combination{op, def->word(2), def->word(3)};
  };
  switch (def->opcode()) {
    case Op::OpFAdd: case Op::OpIAdd: return binary(ReductionOperator::Add);
    case Op::OpFMul: case Op::OpIMul: return binary(ReductionOperator::Mul);
    case Op::OpBitwiseAnd: return binary(ReductionOperator::And);
    case Op::OpBitwiseOr: return binary(ReductionOperator::Or);
    case Op::OpBitwiseXor: return binary(ReductionOperator::Xor);
    case Op::OpExtInst: {
      if (def->ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450 || def->operands().size() != 6) return std::nullopt;
      switch (def->word(3)) {
        case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450NMin:
          return Combination{ReductionOperator::Min, def->word(4), def->word(5)};
        case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450NMax:
          return Combination{ReductionOperator::Max, def->word(4), def->word(5)};
        default: return std::nullopt;
      }
    }
    default: return std::nullopt;
  }
}

// The partner offset's distance from `self`: a positive constant, or a
// positive multiple of one induction variable.
bool distance_of(const Polynomial& difference, ReductionStep& step) {
  if (auto constant = difference.constant_value()) {
    step.distance = *constant;
    return *constant > 0;
  }
  if (difference.terms().size() != 1) return false;
  const auto& [monomial, coefficient] = *difference.terms().begin();
  if (monomial.size() != 1 || monomial[0].kind != Symbol::Kind::Induction || coefficient <= 0) return false;
  step.induction = monomial[0].id;
  step.distance = coefficient;
  return true;
}

std::optional<Polynomial> minus(const Polynomial& a, const Polynomial& b) {
  auto negated = b.negated();
  return negated ? Polynomial::add(a, *negated) : std::nullopt;
}

// The partner offset as `self ^ d`: a term w * (x ^ d) where w * x stands
// where that term does in `self`.
bool butterfly_of(const Module& module, const SymbolicValues& values, const Polynomial& self,
                  const Polynomial& partner, ReductionStep& step) {
  for (const auto& [monomial, coefficient] : partner.terms()) {
    if (monomial.size() != 1 || monomial[0].kind != Symbol::Kind::Value || coefficient <= 0) continue;
    const ir::Instruction* def = module.def(monomial[0].id);
    if (!def || def->opcode() != Op::OpBitwiseXor) continue;
    for (auto [lane, mask] : {std::pair{def->word(2), def->word(3)}, std::pair{def->word(3), def->word(2)}}) {
      auto term = Polynomial::symbol(monomial[0]).scaled(coefficient);
      auto lane_term = values.value(lane).scaled(coefficient);
      auto without = term ? minus(partner, *term) : std::nullopt;
      auto rebuilt = without && lane_term ? Polynomial::add(*without, *lane_term) : std::nullopt;
      if (!rebuilt || *rebuilt != self) continue;
      auto scaled_mask = values.value(mask).scaled(coefficient);
      if (scaled_mask && distance_of(*scaled_mask, step)) {
        step.butterfly = true;
        return true;
      }
    }
  }
  return false;
}

struct UnionFind {
  std::map<int64_t, int64_t> parent;
  int64_t find(int64_t x) {
    auto [it, inserted] = parent.try_emplace(x, x);
    if (it->second == x) return x;
    int64_t root = find(it->second);
    parent[x] = root;
    return root;
  }
  void unite(int64_t a, int64_t b) { parent[find(a)] = find(b); }
};

}  // namespace

std::optional<ReductionStep> reduction_step(const Module& module, const SymbolicValues& values,
                                            const std::map<const ir::Instruction*, const MemoryAccess*>& loads,
                                            const MemoryAccess& store) {
  if (store.kind != MemoryAccess::Kind::Write || store.instruction->opcode() != Op::OpStore || !store.offset ||
      store.width == 0) {
    return std::nullopt;
  }
  std::optional<Combination> combination = combination_of(module, store.instruction->word(1));
  if (!combination) return std::nullopt;
  auto load_of = [&](uint32_t id) -> const MemoryAccess* {
    const ir::Instruction* def = module.def(id);
    auto found = def ? loads.find(def) : loads.end();
    if (found == loads.end() || found->second->variable != store.variable || !found->second->offset) return nullptr;
    return found->second;
  };
  for (auto [own, other] : {std::pair{combination->a, combination->b}, std::pair{combination->b, combination->a}}) {
    const MemoryAccess* partner = load_of(other);
    if (!partner || partner->width != store.width) continue;
    // The other operand is the element itself, or a running value kept in a
    // register; never another element.
    const MemoryAccess* self = load_of(own);
    if (self && *self->offset != *store.offset) continue;
    ReductionStep step;
    step.store = &store;
    step.op = combination->op;
    step.partner = *partner->offset;
    auto difference = minus(*partner->offset, *store.offset);
    if ((difference && distance_of(*difference, step)) ||
        butterfly_of(module, values, *store.offset, *partner->offset, step)) {
      return step;
    }
  }
  return std::nullopt;
}

TreeEvaluator::TreeEvaluator(const Module& module, const ir::Function& function)
    : values_(module.symbolic(function)), accesses_(module.accesses(function)), finder_(module, function) {}

std::optional<TreeShape> TreeEvaluator::shape(const std::vector<ReductionStep>& steps) const {
  struct Instance {
    const ReductionStep* step;
    Assignment loop_values;
  };
  std::vector<Instance> instances;
  std::set<int64_t> distances;
  std::vector<int64_t> order;  // distances as the steps run
  for (const ReductionStep& step : steps) {
    int64_t width = static_cast<int64_t>(step.store->width);
    std::vector<int64_t> strides{1};
    if (step.induction) {
      const std::vector<int64_t>* sequence = finder_.iteration_values(step.induction);
      if (!sequence || sequence->empty()) return std::nullopt;
      strides = *sequence;
    }
    for (int64_t stride : strides) {
      int64_t bytes = step.distance * stride;
      if (bytes <= 0 || bytes % width != 0 || !distances.insert(bytes / width).second) return std::nullopt;
      order.push_back(bytes / width);
      Assignment assignment;
      if (step.induction) assignment[{Symbol::Kind::Induction, step.induction}] = stride;
      std::vector<Assignment> others = other_loop_values(step);
      if (others.empty()) return std::nullopt;
      for (Assignment& other : others) {
        other.insert(assignment.begin(), assignment.end());
        instances.push_back({&step, std::move(other)});
      }
    }
  }
  // A full tree: distances 1, 2, 4, ... with at least two steps.
  int64_t expected = 1;
  for (int64_t distance : distances) {
    if (distance != expected) return std::nullopt;
    expected *= 2;
  }
  if (distances.size() < 2) return std::nullopt;

  // Halving steps: each step reads elements that later steps no longer
  // need, so it may write more than it must (the warp-synchronous tail
  // lets all 32 invocations run every step). Doubling steps must keep the
  // elements they write apart from those they read, or they are a scan.
  bool halving = std::is_sorted(order.rbegin(), order.rend());
  UnionFind trees;
  std::map<int64_t, std::pair<int64_t, int64_t>> writers;  // offset -> lowest, highest local index
  for (const Instance& instance : instances) {
    auto written = evaluate(*instance.step, *instance.step->store->offset, instance.loop_values);
    auto read = evaluate(*instance.step, instance.step->partner, instance.loop_values);
    if (!written || !read) return std::nullopt;
    std::set<int64_t> written_offsets, read_offsets;
    for (size_t index = 0; index < written->size(); ++index) {
      if (!(*written)[index]) continue;
      if (!(*read)[index]) return std::nullopt;
      int64_t to = *(*written)[index], from = *(*read)[index];
      if (!written_offsets.insert(to).second) return std::nullopt;  // two invocations write one element
      read_offsets.insert(from);
      trees.unite(to, from);
      auto [it, inserted] = writers.try_emplace(to, static_cast<int64_t>(index), static_cast<int64_t>(index));
      it->second.first = std::min<int64_t>(it->second.first, static_cast<int64_t>(index));
      it->second.second = std::max<int64_t>(it->second.second, static_cast<int64_t>(index));
    }
    if (written_offsets.empty()) return std::nullopt;
    if (!instance.step->butterfly && !halving) {
      for (int64_t offset : read_offsets) {
        if (written_offsets.count(offset)) return std::nullopt;
      }
    }
  }
  struct Tree {
    int64_t low = INT64_MAX, high = -1;
    std::set<int64_t> elements;
  };
  std::map<int64_t, Tree> by_root;
  for (const auto& [offset, parent] : trees.parent) by_root[trees.find(offset)].elements.insert(offset);
  for (const auto& [offset, range] : writers) {
    Tree& tree = by_root[trees.find(offset)];
    tree.low = std::min(tree.low, range.first);
    tree.high = std::max(tree.high, range.second);
  }
  TreeShape result;
  result.steps = distances.size();
  // Trees that share a subgroup with disjoint writers; several trees over the
  // same invocations are several values each invocation reduces.
  std::map<int64_t, std::set<std::pair<int64_t, int64_t>>> per_subgroup;
  for (const auto& [root, tree] : by_root) {
    if (tree.high < 0) continue;
    if (tree.low / kSubgroupSize != tree.high / kSubgroupSize) return std::nullopt;
    result.invocations = std::max(result.invocations, tree.high - tree.low + 1);
    result.values = std::max(result.values, static_cast<int64_t>(tree.elements.size()));
    auto& ranges = per_subgroup[tree.low / kSubgroupSize];
    ranges.insert({tree.low, tree.high});
    result.trees_per_subgroup = std::max(result.trees_per_subgroup, static_cast<int64_t>(ranges.size()));
  }
  if (result.invocations == 0) return std::nullopt;
  // Interleaved trees leave the last invocation out: 0, 2, ..., 30 write.
  result.invocations = static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(result.invocations)));
  return result;
}

bool TreeEvaluator::enumerable(Symbol symbol) const {
  switch (symbol.kind) {
    case Symbol::Kind::LocalId: case Symbol::Kind::SubgroupLane: case Symbol::Kind::SubgroupId: return true;
    case Symbol::Kind::Induction: return finder_.iteration_values(symbol.id) != nullptr;
    case Symbol::Kind::Value: return values_.per_invocation(symbol);
    default: return false;
  }
}

// The part of an offset that is the same for every invocation and
// iteration (a row's base from the workgroup id or a push constant):
// the store and its partner share it, so it is left out.
Polynomial TreeEvaluator::uniform_part(const Polynomial& offset) const {
  return offset.filtered([&](const Polynomial::Monomial& monomial) {
    return std::none_of(monomial.begin(), monomial.end(), [&](Symbol s) { return enumerable(s); });
  });
}

// The values of the other loops' induction variables the step's offsets
// and guards mention: every combination, or none when one is unknown.
std::vector<Assignment> TreeEvaluator::other_loop_values(const ReductionStep& step) const {
  std::set<Symbol> symbols;
  auto collect = [&](const Polynomial& p) {
    for (Symbol symbol : p.symbols()) {
      if (symbol.kind == Symbol::Kind::Induction && symbol.id != step.induction && enumerable(symbol)) {
        symbols.insert(symbol);
      }
    }
  };
  collect(*step.store->offset);
  collect(step.partner);
  for (const Constraint& guard : accesses_.guards(step.store->block)) collect(guard.expression);
  std::vector<Assignment> combinations{{}};
  for (Symbol symbol : symbols) {
    std::vector<Assignment> next;
    for (const Assignment& partial : combinations) {
      for (int64_t value : *finder_.iteration_values(symbol.id)) {
        Assignment extended = partial;
        extended[symbol] = value;
        next.push_back(std::move(extended));
      }
    }
    combinations = std::move(next);
    if (combinations.size() > 256) return {};
  }
  return combinations;
}

// The offset, less the store's uniform part, for each invocation that
// runs the store; nullopt when an invocation runs it but the offset is
// unknown there.
std::optional<std::vector<std::optional<int64_t>>> TreeEvaluator::evaluate(const ReductionStep& step,
                                                                          const Polynomial& offset,
                                                                          const Assignment& loop_values) const {
  auto relative = minus(offset, uniform_part(*step.store->offset));
  if (!relative) return std::nullopt;
  for (Symbol symbol : relative->symbols()) {
    if (!enumerable(symbol)) return std::nullopt;
  }
  MemoryAccess runs = *step.store;
  runs.offset = Polynomial::constant(0);
  MemoryAccess at = *step.store;
  at.offset = *relative;
  std::vector<std::optional<int64_t>> running = finder_.offsets(runs, loop_values);
  std::vector<std::optional<int64_t>> result = finder_.offsets(at, loop_values);
  for (size_t index = 0; index < running.size(); ++index) {
    if (running[index] && !result[index]) return std::nullopt;
  }
  return result;
}

}  // namespace klint
