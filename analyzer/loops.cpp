#include "analyzer/loops.h"

#include <algorithm>

#include "analyzer/pointers.h"
#include "analyzer/ssa.h"
#include "analyzer/symbolic.h"
#include "analyzer/value_ranges.h"

namespace klint {

using spv::Op;

namespace {

// Deep enough for any index expression a person writes; bounds the walk of
// long chains of loop-carried arithmetic.
constexpr int kInvariantDepth = 32;

// Whether an instruction in the loop may write the variable `pointer` points
// into: a store through it, a copy into it, or a call (that may be handed it).
bool written_in(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t pointer) {
  const ir::Instruction* variable = pointer_variable(module, pointer);
  if (!variable) return true;
  const ir::Block* header = module.block_of(*loop.merge);
  const ir::Function* function = header ? module.function_of(*header) : nullptr;
  if (!function) return true;
  for (uint32_t block = 0; block < cfg.size(); ++block) {
    if (!loop.body[block]) continue;
    for (const ir::Instruction& instruction : function->blocks[block].instructions) {
      switch (instruction.opcode()) {
        case Op::OpStore:
        case Op::OpCopyMemory:
          if (pointer_variable(module, instruction.word(0)) == variable) return true;
          break;
        case Op::OpFunctionCall: return true;
        default: break;
      }
    }
  }
  return false;
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
    // A function's own variable no instruction of the loop writes: a
    // parameter the inliner left in memory (`void f(uvec3 size)`).
    bool unwritten = storage == spv::StorageClass::Function && !written_in(module, cfg, loop, definition->word(2));
    return (read_only || unwritten) && invariant(module, cfg, loop, definition->word(2), depth + 1);
  }
  if (!is_pure(definition->opcode())) return false;
  for (uint32_t input : definition->input_ids()) {
    if (!invariant(module, cfg, loop, input, depth + 1)) return false;
  }
  return true;
}

}  // namespace

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

bool is_loop_invariant(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id) {
  return invariant(module, cfg, loop, id, 0);
}

std::vector<Loop> find_loops(const Module& module, const ir::Function& function) {
  const Cfg& cfg = module.cfg(function);
  const DominatorTree& dominators = module.dominators(function);
  std::vector<Loop> loops;
  for (uint32_t header = 0; header < function.blocks.size(); ++header) {
    const ir::Instruction* merge = function.blocks[header].merge();
    if (!merge || merge->opcode() != Op::OpLoopMerge || !cfg.reachable(header)) continue;
    Loop loop{header, merge, std::vector<bool>(cfg.size(), false), 0};
    loop.body[header] = true;
    std::vector<uint32_t> work;
    for (uint32_t latch : cfg.predecessors(header)) {
      if (cfg.reachable(latch) && dominators.dominates(header, latch)) work.push_back(latch);
    }
    while (!work.empty()) {
      uint32_t block = work.back();
      work.pop_back();
      if (loop.body[block]) continue;
      loop.body[block] = true;
      for (uint32_t before : cfg.predecessors(block)) {
        if (cfg.reachable(before)) work.push_back(before);
      }
    }
    loop.size = static_cast<size_t>(std::count(loop.body.begin(), loop.body.end(), true));
    loops.push_back(std::move(loop));
  }
  // Innermost first, so that a finding names the tightest loop that carries it.
  std::stable_sort(loops.begin(), loops.end(), [](const Loop& a, const Loop& b) { return a.size < b.size; });
  return loops;
}

const ir::Instruction* loop_counter_that_never_moves(const Module& module, const ir::Function& function) {
  const SymbolicValues& values = module.symbolic(function);
  for (const ir::Block& block : function.blocks) {
    for (const ir::Instruction& instruction : block.instructions) {
      if (instruction.opcode() != Op::OpPhi) continue;
      const Induction* induction = values.induction(instruction.result_id());
      if (!induction || !induction->counts()) continue;
      if (values.value(induction->step_value).constant_value() == 0) return &instruction;
    }
  }
  return nullptr;
}

bool is_loop_branch(const ir::Function& function, const Cfg& cfg, uint32_t block) {
  if (const ir::Instruction* merge = function.blocks[block].merge(); merge && merge->opcode() == Op::OpLoopMerge) {
    return true;
  }
  for (const ir::Block& candidate : function.blocks) {
    const ir::Instruction* merge = candidate.merge();
    if (!merge || merge->opcode() != Op::OpLoopMerge) continue;
    int header = cfg.index_of(candidate.id());
    int exit = cfg.index_of(merge->word(0));
    for (uint32_t next : cfg.successors(block)) {
      if (static_cast<int>(next) == header || static_cast<int>(next) == exit) return true;
    }
  }
  return false;
}

int block_index(const Module& module, const Cfg& cfg, const ir::Instruction& instruction) {
  const ir::Block* block = module.block_of(instruction);
  return block ? cfg.index_of(block->id()) : -1;
}

bool in_loop(const Module& module, const Cfg& cfg, const Loop& loop, const ir::Instruction& instruction) {
  int block = block_index(module, cfg, instruction);
  return block >= 0 && loop.body[static_cast<uint32_t>(block)];
}

// --- LoopIterations ----------------------------------------------------------

namespace {

// Deep enough for a condition a person writes (`!(i == 0) && j > 0`).
constexpr int kDecideDepth = 8;
// Steps and coefficients beyond this leave the comparison unknown, far from overflow.
constexpr int64_t kMaxStep = int64_t{1} << 31;

struct Comparison {
  Relation relation;
  bool is_unsigned;
};

// An integer comparison (value_ranges.h reads every comparison opcode).
std::optional<Comparison> comparison(Op op) {
  std::optional<Test> test = test_of(op);
  if (!test || test->domain == NumberDomain::Float) return std::nullopt;
  return Comparison{test->relation, test->domain == NumberDomain::Unsigned};
}

// A value on the iterations a path may be in: `constant + slope * k` for
// every k >= 1 (the iterations after the first of one loop), or a constant
// when the slope is 0. `rest` holds what is not yet constant; it must cancel
// out between the two sides of a comparison.
struct Linear {
  Polynomial rest;
  int64_t slope = 0;
  uint32_t later = 0;  // the induction variable k counts, 0 when none
};

// The truth of `relation` for every value of `low..high` (nullopt: unbounded).
std::optional<bool> holds(Relation relation, std::optional<int64_t> low, std::optional<int64_t> high) {
  switch (relation) {
    case Relation::Greater:
      if (low && *low > 0) return true;
      if (high && *high <= 0) return false;
      return std::nullopt;
    case Relation::GreaterEqual:
      if (low && *low >= 0) return true;
      if (high && *high < 0) return false;
      return std::nullopt;
    case Relation::Less:
      if (high && *high < 0) return true;
      if (low && *low >= 0) return false;
      return std::nullopt;
    case Relation::LessEqual:
      if (high && *high <= 0) return true;
      if (low && *low > 0) return false;
      return std::nullopt;
    case Relation::Equal:
    case Relation::NotEqual: {
      std::optional<bool> equal;
      if ((low && *low > 0) || (high && *high < 0)) equal = false;
      if (low && high && *low == 0 && *high == 0) equal = true;
      if (!equal) return std::nullopt;
      return relation == Relation::Equal ? *equal : !*equal;
    }
  }
  return std::nullopt;
}

}  // namespace

LoopIterations::LoopIterations(const Module& module, const ir::Function& function)
    : module_(module), function_(function), loops_(module.loops(function)) {
  // A loop is tracked when a branch in it is decided on every iteration after
  // the first: the exit test of a counted loop is not (`i < 4` fails at last).
  for (const Loop& loop : loops_) {
    if (tracked_.size() == kMaxTracked) break;
    auto later = [&](uint32_t header) { return header == loop.header ? Iteration::Later : Iteration::Unknown; };
    for (uint32_t block = 0; block < function.blocks.size(); ++block) {
      if (!loop.body[block]) continue;
      const ir::Instruction& branch = function.blocks[block].terminator();
      if (branch.opcode() != Op::OpBranchConditional || !decide(branch.word(0), later)) continue;
      tracked_.push_back(&loop);
      break;
    }
  }
}

int LoopIterations::tracked_index(uint32_t header) const {
  auto it = std::find_if(tracked_.begin(), tracked_.end(), [&](const Loop* loop) { return loop->header == header; });
  return it == tracked_.end() ? -1 : static_cast<int>(it - tracked_.begin());
}

const Loop* LoopIterations::loop_at(uint32_t header) const {
  auto it = std::find_if(loops_.begin(), loops_.end(), [&](const Loop& loop) { return loop.header == header; });
  return it == loops_.end() ? nullptr : &*it;
}

LoopIterations::State LoopIterations::follow(State state, uint32_t block, uint32_t next) const {
  for (size_t t = 0; t < tracked_.size(); ++t) {
    const Loop* loop = tracked_[t];
    Iteration iteration = static_cast<Iteration>((state >> (2 * t)) & 3);
    if (!loop->body[next]) {
      iteration = Iteration::Unknown;
    } else if (next == loop->header) {
      iteration = loop->body[block] ? Iteration::Later : Iteration::First;
    }
    state = (state & ~(State{3} << (2 * t))) | (static_cast<State>(iteration) << (2 * t));
  }
  return state;
}

LoopIterations::Iteration LoopIterations::iteration(State state, uint32_t header) const {
  int t = tracked_index(header);
  return t < 0 ? Iteration::Unknown : static_cast<Iteration>((state >> (2 * t)) & 3);
}

std::optional<uint32_t> LoopIterations::decided_successor(uint32_t block, State state) const {
  if (state == 0) return std::nullopt;
  const ir::Instruction& branch = function_.blocks[block].terminator();
  if (branch.opcode() != Op::OpBranchConditional) return std::nullopt;
  auto known = decide(branch.word(0), [&](uint32_t header) { return iteration(state, header); });
  if (!known) return std::nullopt;
  int target = module_.cfg(function_).index_of(branch.word(*known ? 1 : 2));
  if (target < 0) return std::nullopt;
  return static_cast<uint32_t>(target);
}

bool LoopIterations::runs_in(uint32_t header, Iteration iteration, uint32_t block) const {
  const Loop* loop = loop_at(header);
  int t = tracked_index(header);
  if (!loop || !loop->body[block]) return false;
  if (t < 0 || iteration == Iteration::Unknown) return true;
  const Cfg& cfg = module_.cfg(function_);
  State start = static_cast<State>(iteration) << (2 * t);
  std::vector<std::vector<State>> seen(cfg.size());
  std::vector<std::pair<uint32_t, State>> work{{header, start}};
  seen[header].push_back(start);
  while (!work.empty()) {
    auto [at, state] = work.back();
    work.pop_back();
    if (at == block) return true;
    std::optional<uint32_t> only = decided_successor(at, state);
    for (uint32_t next : cfg.successors(at)) {
      if ((only && next != *only) || next == header || !loop->body[next]) continue;
      State after = follow(state, at, next);
      if (std::find(seen[next].begin(), seen[next].end(), after) != seen[next].end()) continue;
      seen[next].push_back(after);
      work.emplace_back(next, after);
    }
  }
  return false;
}

LoopIterations::State LoopIterations::back_start(uint32_t start) const {
  State state = 0;
  for (size_t t = 0; t < tracked_.size(); ++t) {
    if (tracked_[t]->body[start]) state |= State{1} << (2 * t);
  }
  return state;
}

std::optional<LoopIterations::State> LoopIterations::follow_back(State state, uint32_t start, uint32_t block,
                                                                 uint32_t previous) const {
  for (size_t t = 0; t < tracked_.size(); ++t) {
    const Loop* loop = tracked_[t];
    if (!(state >> (2 * t) & 1) || block != loop->header) continue;
    auto [it, inserted] = runs_.try_emplace({t, start});
    if (inserted) {
      it->second = {runs_in(block, Iteration::First, start), runs_in(block, Iteration::Later, start)};
    }
    bool around = loop->body[previous];
    if (!(around ? it->second.second : it->second.first)) return std::nullopt;
    state &= ~(State{3} << (2 * t));
  }
  return state;
}

std::optional<bool> LoopIterations::decide(uint32_t id, const IterationOf& iteration_of, const PhiValue& phi,
                                           int depth) const {
  const ir::Instruction* def = module_.def(id);
  if (!def || depth > kDecideDepth) return std::nullopt;
  auto operand = [&](size_t i) { return decide(def->word(i), iteration_of, phi, depth + 1); };
  switch (def->opcode()) {
    case Op::OpConstantTrue: return true;
    case Op::OpConstantFalse: return false;
    case Op::OpLogicalNot: {
      auto inner = operand(2);
      return inner ? std::optional<bool>(!*inner) : std::nullopt;
    }
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr: {
      bool is_and = def->opcode() == Op::OpLogicalAnd;
      auto a = operand(2), b = operand(3);
      // false && x, true || x
      if ((a && *a != is_and) || (b && *b != is_and)) return !is_and;
      if (a && b) return is_and;
      return std::nullopt;
    }
    case Op::OpPhi: return phi ? phi(*def, depth + 1) : std::nullopt;
    default: return compare(*def, iteration_of);
  }
}

std::optional<bool> LoopIterations::compare(const ir::Instruction& test, const IterationOf& iteration_of) const {
  std::optional<Comparison> kind = comparison(test.opcode());
  if (!kind || test.operands().size() != 4) return std::nullopt;
  const SymbolicValues& values = module_.symbolic(function_);
  auto counts_iterations = [](const Polynomial& side) {
    return std::any_of(side.terms().begin(), side.terms().end(), [](const auto& term) {
      return std::any_of(term.first.begin(), term.first.end(),
                         [](Symbol symbol) { return symbol.kind == Symbol::Kind::Induction; });
    });
  };
  if (!counts_iterations(values.value(test.word(2))) && !counts_iterations(values.value(test.word(3)))) {
    return std::nullopt;  // no loop's iteration decides it
  }
  // Induction variables alone, each in its first iteration from a constant
  // start: evaluated there (`i < 4` on entry to `for (i = 0; i < 4; ++i)`).
  Assignment entry;
  bool at_entry = true;
  for (uint32_t operand : {test.word(2), test.word(3)}) {
    for (Symbol symbol : values.value(operand).symbols()) {
      const Induction* induction = symbol.kind == Symbol::Kind::Induction ? values.induction(symbol.id) : nullptr;
      auto initial = induction ? values.value(induction->initial).constant_value() : std::nullopt;
      if (!initial || iteration_of(induction->header) != Iteration::First) {
        at_entry = false;
        break;
      }
      entry[symbol] = *initial;
    }
  }
  if (at_entry) {
    auto a = values.evaluate(values.value(test.word(2)), entry);
    auto b = values.evaluate(values.value(test.word(3)), entry);
    if (a && b) return holds(kind->relation, *a - *b, *a - *b);
  }
  // Each side with its induction variables replaced by their values on the
  // iterations the path is in.
  auto side = [&](uint32_t id) -> std::optional<Linear> {
    Linear linear{values.value(id)};
    for (Symbol symbol : linear.rest.symbols()) {
      if (symbol.kind != Symbol::Kind::Induction) continue;
      const Induction* induction = values.induction(symbol.id);
      Iteration iteration = induction ? iteration_of(induction->header) : Iteration::Unknown;
      if (iteration == Iteration::Unknown) return std::nullopt;
      for (const auto& [monomial, coefficient] : linear.rest.terms()) {
        bool mentions = std::find(monomial.begin(), monomial.end(), symbol) != monomial.end();
        if (mentions && monomial.size() != 1) return std::nullopt;  // linear in it only
      }
      int64_t coefficient = linear.rest.coefficient(symbol);
      Polynomial others = linear.rest.filtered([&](const Polynomial::Monomial& monomial) {
        return std::find(monomial.begin(), monomial.end(), symbol) == monomial.end();
      });
      auto initial = values.value(induction->initial).scaled(coefficient);
      auto sum = initial ? Polynomial::add(others, *initial) : std::nullopt;
      if (!sum) return std::nullopt;
      linear.rest = *sum;
      if (iteration == Iteration::First) continue;
      // Later: initial + k * step for some k >= 1, one loop's k at a time.
      auto step = induction->counts() ? values.value(induction->step_value).constant_value() : std::nullopt;
      if (!step || (linear.later && linear.later != symbol.id)) return std::nullopt;
      const ir::Instruction* phi = module_.def(symbol.id);
      const ir::Instruction* type = phi ? module_.def(phi->type_id()) : nullptr;
      if (type && type->opcode() == Op::OpTypeInt && type->word(1) == 32) {
        *step = int64_t{static_cast<int32_t>(static_cast<uint32_t>(*step))};  // `i += 0xFFFFFFFFu` counts down
      }
      if (*step > kMaxStep || *step < -kMaxStep || coefficient > kMaxStep || coefficient < -kMaxStep) {
        return std::nullopt;
      }
      linear.slope += coefficient * *step;
      linear.later = symbol.id;
    }
    return linear;
  };
  std::optional<Linear> a = side(test.word(2)), b = side(test.word(3));
  if (!a || !b || (a->later && b->later && a->later != b->later)) return std::nullopt;
  auto negated = b->rest.negated();
  auto difference = negated ? Polynomial::add(a->rest, *negated) : std::nullopt;
  std::optional<int64_t> constant = difference ? difference->constant_value() : std::nullopt;
  if (!constant) return std::nullopt;
  // An unsigned side that may go below 0 wraps around: one counting down,
  // or one whose lowest value (at k = 1) is negative.
  if (kind->is_unsigned) {
    for (const Linear* linear : {&*a, &*b}) {
      std::optional<int64_t> fixed = linear->rest.constant_value();
      if (linear->slope < 0 || (fixed && *fixed + linear->slope < 0)) return std::nullopt;
    }
  }
  int64_t slope = a->slope - b->slope;
  int64_t first = *constant + slope;  // the value at k = 1
  std::optional<int64_t> low, high;
  if (slope == 0) low = high = *constant;
  if (slope > 0) low = first;
  if (slope < 0) high = first;
  return holds(kind->relation, low, high);
}

}  // namespace klint
