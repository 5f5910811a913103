// Evaluator (declared in analyzer/symbolic.h): SymbolicValues::evaluate,
// repeated over many assignments of one set of symbols.
#include <algorithm>
#include <set>

#include "analyzer/machine_arithmetic.h"
#include "analyzer/symbolic.h"

namespace klint {
namespace {

using spv::Op;

// The component of a scalar value.
constexpr uint32_t kScalar = UINT32_MAX;
// operand_node's answer when a form it needs is not computed yet.
constexpr int kNotReady = -2;

bool is_comparison(Op op) {
  switch (op) {
    case Op::OpIEqual: case Op::OpINotEqual: case Op::OpULessThan: case Op::OpSLessThan:
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual: case Op::OpUGreaterThan: case Op::OpSGreaterThan:
    case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual:
      return true;
    default:
      return false;
  }
}

bool is_unary(Op op) {
  switch (op) {
    case Op::OpNot: case Op::OpSNegate: case Op::OpBitCount: case Op::OpBitReverse: case Op::OpUConvert:
    case Op::OpSConvert: case Op::OpBitcast:
      return true;
    default:
      return false;
  }
}

bool is_logical(Op op) {
  return op == Op::OpLogicalAnd || op == Op::OpLogicalOr || op == Op::OpLogicalEqual || op == Op::OpLogicalNotEqual;
}

std::optional<bool> compare(Op op, const MachineInt& type, int64_t a, int64_t b) {
  const uint64_t x = type.bits(a), y = type.bits(b);
  const int64_t sx = type.as_signed(a), sy = type.as_signed(b);
  switch (op) {
    case Op::OpIEqual: return x == y;
    case Op::OpINotEqual: return x != y;
    case Op::OpULessThan: return x < y;
    case Op::OpSLessThan: return sx < sy;
    case Op::OpULessThanEqual: return x <= y;
    case Op::OpSLessThanEqual: return sx <= sy;
    case Op::OpUGreaterThan: return x > y;
    case Op::OpSGreaterThan: return sx > sy;
    case Op::OpUGreaterThanEqual: return x >= y;
    case Op::OpSGreaterThanEqual: return sx >= sy;
    default: return std::nullopt;
  }
}

}  // namespace

struct Evaluator::Term {
  int64_t coefficient = 0;
  uint32_t first = 0, count = 0;  // into factors_
};

struct Evaluator::Node {
  enum class Kind : uint8_t { Polynomial, Slot, Constant, Definition, Fail } kind = Kind::Fail;
  uint32_t first = 0, count = 0;  // Polynomial: into terms_; Slot: first is the slot
  int64_t constant = 0;
  // Definition: the instruction and the component of its vector result it
  // computes (kScalar for a scalar), its depth, its operands (node indices,
  // -1 until first needed, with the value and component each reads), how its
  // type wraps results and how its first operand's type reads them. A
  // `forward` node is its one operand: a component of a construct, a shuffle,
  // a copy.
  const ir::Instruction* def = nullptr;
  uint32_t component = kScalar;
  int depth = 0;
  bool forward = false;
  uint8_t arity = 0;
  int operands[4] = {-1, -1, -1, -1};
  uint32_t operand_ids[4] = {0, 0, 0, 0};
  uint32_t operand_components[4] = {kScalar, kScalar, kScalar, kScalar};
  MachineInt machine, operand_machine;
  // Fail: what klint cannot evaluate, when it is one symbol.
  std::optional<Symbol> leaf;
};

Evaluator::Evaluator(const SymbolicValues& values, std::vector<Symbol> assigned)
    : values_(values), assigned_(std::move(assigned)), slot_nodes_(assigned_.size(), -1) {}

Evaluator::~Evaluator() = default;

size_t Evaluator::add(const Polynomial& polynomial) { return static_cast<size_t>(polynomial_node(polynomial, 0)); }

size_t Evaluator::add_condition(uint32_t condition) {
  return static_cast<size_t>(definition_node(condition, kScalar, 1));
}

int Evaluator::fail_node(std::optional<Symbol> leaf) {
  auto [it, inserted] = fails_.try_emplace(leaf, static_cast<int>(nodes_.size()));
  if (inserted) {
    Node node;
    node.leaf = leaf;
    nodes_.push_back(node);
  }
  return it->second;
}

int Evaluator::constant_node(int64_t value) {
  auto [it, inserted] = constants_.try_emplace(value, static_cast<int>(nodes_.size()));
  if (inserted) {
    Node node;
    node.kind = Node::Kind::Constant;
    node.constant = value;
    nodes_.push_back(node);
  }
  return it->second;
}

int Evaluator::slot_node(size_t slot) {
  if (slot_nodes_[slot] < 0) {
    Node node;
    node.kind = Node::Kind::Slot;
    node.first = static_cast<uint32_t>(slot);
    slot_nodes_[slot] = static_cast<int>(nodes_.size());
    nodes_.push_back(node);
  }
  return slot_nodes_[slot];
}

// As SymbolicValues::evaluate(polynomial, assignment, depth) reads it.
int Evaluator::polynomial_node(const Polynomial& polynomial, int depth) {
  std::vector<Term> terms;
  std::vector<int> factors;
  for (const auto& [monomial, coefficient] : polynomial.terms()) {
    Term term{coefficient, static_cast<uint32_t>(factors.size()), static_cast<uint32_t>(monomial.size())};
    for (Symbol symbol : monomial) {
      auto slot = std::find(assigned_.begin(), assigned_.end(), symbol);
      if (slot != assigned_.end()) {
        factors.push_back(slot_node(static_cast<size_t>(slot - assigned_.begin())));
      } else if (symbol.kind == Symbol::Kind::Value) {
        factors.push_back(definition_node(symbol.id, kScalar, depth + 1));
      } else {
        factors.push_back(fail_node(symbol));
      }
    }
    terms.push_back(term);
  }
  Node node;
  node.kind = Node::Kind::Polynomial;
  node.first = static_cast<uint32_t>(terms_.size());
  node.count = static_cast<uint32_t>(terms.size());
  for (Term& term : terms) {
    term.first += static_cast<uint32_t>(factors_.size());
    terms_.push_back(term);
  }
  factors_.insert(factors_.end(), factors.begin(), factors.end());
  nodes_.push_back(node);
  return static_cast<int>(nodes_.size()) - 1;
}

// The node of a value an instruction reads: for a scalar integer its form
// (looked up as `lookup` allows: kNotReady when not computed yet), for
// anything else (a boolean, a component of a vector) its definition.
int Evaluator::operand_node(uint32_t id, uint32_t component, int depth, Lookup lookup) {
  const ir::Instruction* def = values_.module_.def(id);
  const ir::Instruction* type = def ? values_.module_.def(def->type_id()) : nullptr;
  if (component != kScalar || !type || type->opcode() != Op::OpTypeInt) {
    return definition_node(id, component, depth + 1);
  }
  if (auto it = operand_forms_.find({id, depth}); it != operand_forms_.end()) return it->second;
  const Polynomial* form = lookup == Lookup::Compute ? &values_.value(id) : values_.computed(id);
  if (!form) return kNotReady;
  int node = *form == Polynomial::symbol({Symbol::Kind::Value, id}) ? definition_node(id, kScalar, depth + 1)
                                                                   : polynomial_node(*form, depth + 1);
  operand_forms_.emplace(std::pair{id, depth}, node);
  return node;
}

// What klint computes of the instruction behind `id` (one component of it,
// for a vector), up to its operands, which are looked up when first needed.
int Evaluator::definition_node(uint32_t id, uint32_t component, int depth) {
  if (auto it = definitions_.find({id, component, depth}); it != definitions_.end()) return it->second;
  const Module& module = values_.module_;
  const Symbol symbol{Symbol::Kind::Value, id};
  auto made = [&](int index) {
    definitions_.emplace(std::tuple{id, component, depth}, index);
    return index;
  };
  if (component == kScalar) {
    if (auto slot = std::find(assigned_.begin(), assigned_.end(), symbol); slot != assigned_.end()) {
      return made(slot_node(static_cast<size_t>(slot - assigned_.begin())));
    }
  }
  const std::optional<Symbol> leaf = component == kScalar ? std::optional<Symbol>(symbol) : std::nullopt;
  const ir::Instruction* def = depth > kEvaluationDepth ? nullptr : module.def(id);
  if (!def) return made(fail_node(leaf));
  Node node;
  node.kind = Node::Kind::Definition;
  node.def = def;
  node.component = component;
  node.depth = depth;
  node.machine = MachineInt::of(module, def->type_id());
  const Op op = def->opcode();
  const size_t words = def->operands().size();
  auto operand = [&](uint32_t operand_id, uint32_t operand_component) {
    node.operand_ids[node.arity] = operand_id;
    node.operand_components[node.arity] = operand_component;
    ++node.arity;
  };
  auto type_of = [&](uint32_t value) -> const ir::Instruction* {
    const ir::Instruction* value_def = module.def(value);
    return value_def ? module.def(value_def->type_id()) : nullptr;
  };
  auto vector_width = [&](uint32_t value) -> uint32_t {
    const ir::Instruction* type = type_of(value);
    return type && type->opcode() == Op::OpTypeVector ? type->word(2) : 0;
  };
  // The same component of a componentwise operand; a scalar stays a scalar.
  auto same = [&](uint32_t operand_id) { return vector_width(operand_id) ? component : kScalar; };
  // A whole vector is no one value.
  if ((component == kScalar) != (vector_width(id) == 0)) return made(fail_node(leaf));
  switch (op) {
    case Op::OpConstantTrue: case Op::OpSpecConstantTrue: return made(constant_node(1));
    case Op::OpConstantFalse: case Op::OpSpecConstantFalse: return made(constant_node(0));
    case Op::OpConstantNull: return made(constant_node(0));
    case Op::OpLoad: {
      const ir::Instruction* variable = module.def(def->word(2));
      if (component == kScalar && variable && variable->opcode() == Op::OpAccessChain &&
          variable->operands().size() == 4) {
        // A component of a vector variable written once, whole (HLSL's
        // entry point copies SV_GroupThreadID into one).
        auto index = module.constant_value(variable->word(3));
        auto stored = values_.stored_value(variable->word(2));
        if (!index || !stored || *index >= vector_width(*stored)) return made(fail_node(leaf));
        node.forward = true;
        operand(*stored, static_cast<uint32_t>(*index));
        break;
      }
      if (component == kScalar || !variable || variable->opcode() != Op::OpVariable) return made(fail_node(leaf));
      if (!vector_width(id)) return made(fail_node(leaf));
      if (auto builtin = module.builtin(variable->result_id())) {
        auto form = component < 3 ? values_.builtin_value(*builtin, component) : std::nullopt;
        return made(form ? polynomial_node(*form, depth + 1) : fail_node(leaf));
      }
      auto stored = values_.stored_value(variable->result_id());
      if (!stored || vector_width(*stored) != vector_width(id)) return made(fail_node(leaf));
      node.forward = true;
      operand(*stored, component);
      break;
    }
    case Op::OpCopyObject:
      node.forward = true;
      operand(def->word(2), component);
      break;
    case Op::OpCompositeExtract: {
      // One component of a vector.
      if (words != 4 || component != kScalar || !vector_width(def->word(2))) return made(fail_node(leaf));
      node.forward = true;
      operand(def->word(2), def->word(3));
      break;
    }
    case Op::OpVectorShuffle: {
      if (component == kScalar || 4 + static_cast<size_t>(component) >= words) return made(fail_node(leaf));
      uint32_t selected = def->word(4 + component);
      uint32_t width = vector_width(def->word(2));
      if (!width || selected == 0xFFFFFFFFu) return made(fail_node(leaf));
      node.forward = true;
      if (selected < width) {
        operand(def->word(2), selected);
      } else {
        operand(def->word(3), selected - width);
      }
      break;
    }
    case Op::OpCompositeConstruct: case Op::OpConstantComposite: case Op::OpSpecConstantComposite: {
      // The constituent that holds the component: a scalar, or a part of a vector.
      if (component == kScalar || !vector_width(id)) return made(fail_node(leaf));
      uint32_t at = 0;
      for (size_t w = 2; w < words; ++w) {
        uint32_t width = std::max<uint32_t>(vector_width(def->word(w)), 1);
        if (component < at + width) {
          node.forward = true;
          operand(def->word(w), vector_width(def->word(w)) ? component - at : kScalar);
          break;
        }
        at += width;
      }
      if (!node.forward) return made(fail_node(leaf));
      break;
    }
    case Op::OpBitFieldUExtract: case Op::OpBitFieldSExtract:
      // Offset and Count are scalars, whatever Base is.
      if (words != 5) return made(fail_node(leaf));
      operand(def->word(2), component);
      operand(def->word(3), kScalar);
      operand(def->word(4), kScalar);
      break;
    case Op::OpBitFieldInsert:
      if (words != 6) return made(fail_node(leaf));
      operand(def->word(2), component);
      operand(def->word(3), component);
      operand(def->word(4), kScalar);
      operand(def->word(5), kScalar);
      break;
    case Op::OpSelect:
      if (words != 5) return made(fail_node(leaf));
      operand(def->word(2), same(def->word(2)));
      operand(def->word(3), component);
      operand(def->word(4), component);
      break;
    case Op::OpAll: case Op::OpAny: {
      uint32_t width = vector_width(def->word(2));
      if (component != kScalar || width == 0 || width > 4) return made(fail_node(leaf));
      for (uint32_t c = 0; c < width; ++c) operand(def->word(2), c);
      break;
    }
    case Op::OpLogicalNot:
      operand(def->word(2), component);
      break;
    case Op::OpGroupNonUniformElect:
      // The first active lane: lane 0 when all are active.
      if (component != kScalar) return made(fail_node(leaf));
      node.operands[0] = polynomial_node(Polynomial::symbol({Symbol::Kind::SubgroupLane}), depth + 1);
      node.arity = 1;
      break;
    default:
      if (words == 4 && (MachineInt::computes(op) || is_comparison(op) || is_logical(op))) {
        operand(def->word(2), component);
        operand(def->word(3), component);
        if (is_comparison(op)) {
          const ir::Instruction* type = type_of(def->word(2));
          node.operand_machine = MachineInt::of(module, type ? type->result_id() : 0);
        }
      } else if (words == 3 && is_unary(op)) {
        // Integer to integer only: a bitcast from a float is beyond klint.
        const ir::Instruction* from = type_of(def->word(2));
        if (from && from->opcode() == Op::OpTypeVector) from = module.def(from->word(1));
        if (!from || from->opcode() != Op::OpTypeInt) return made(fail_node(leaf));
        operand(def->word(2), component);
        node.operand_machine = MachineInt::of(module, from->result_id());
      } else {
        return made(fail_node(leaf));
      }
      break;
  }
  nodes_.push_back(node);
  return made(static_cast<int>(nodes_.size()) - 1);
}

// The node of operand k of a definition node, looked up on first need.
int Evaluator::resolve(int index, size_t k, Lookup lookup) {
  Node& node = nodes_[static_cast<size_t>(index)];
  if (node.operands[k] >= 0) return node.operands[k];
  const uint32_t id = node.operand_ids[k], component = node.operand_components[k];
  const int depth = node.depth;
  int operand = operand_node(id, component, depth, lookup);  // may grow nodes_
  if (operand != kNotReady) nodes_[static_cast<size_t>(index)].operands[k] = operand;
  return operand;
}

std::optional<int64_t> Evaluator::evaluate(size_t handle, std::span<const int64_t> slots) {
  if (++stamp_ == 0) {
    std::fill(stamps_.begin(), stamps_.end(), 0);
    stamp_ = 1;
  }
  return evaluate_node(static_cast<int>(handle), slots);
}

std::optional<int64_t> Evaluator::evaluate_node(int index, std::span<const int64_t> slots) {
  switch (nodes_[static_cast<size_t>(index)].kind) {
    case Node::Kind::Fail: return std::nullopt;
    case Node::Kind::Slot: return slots[nodes_[static_cast<size_t>(index)].first];
    case Node::Kind::Constant: return nodes_[static_cast<size_t>(index)].constant;
    case Node::Kind::Definition: return evaluate_definition(index, slots);
    case Node::Kind::Polynomial: break;
  }
  const Node& node = nodes_[static_cast<size_t>(index)];
  const uint32_t first = node.first, count = node.count;
  int64_t total = 0;
  for (uint32_t t = first; t < first + count; ++t) {
    const Term term = terms_[t];
    std::optional<int64_t> product = term.coefficient;
    for (uint32_t f = term.first; f < term.first + term.count; ++f) {
      std::optional<int64_t> factor = evaluate_node(factors_[f], slots);
      if (!factor) return std::nullopt;
      product = checked_multiply(*product, *factor);
      if (!product) return std::nullopt;
    }
    total += *product;
    if (!fits(total)) return std::nullopt;
  }
  return total;
}

namespace {

// A definition's value from its operands' (nullopt where unknown).
std::optional<int64_t> apply(const ir::Instruction& def, bool forward, const MachineInt& machine,
                             const MachineInt& operand_machine, std::span<const std::optional<int64_t>> v) {
  if (forward) return v[0];
  const Op op = def.opcode();
  auto truth = [](const std::optional<int64_t>& x) -> std::optional<bool> {
    if (!x) return std::nullopt;
    return *x != 0;
  };
  switch (op) {
    case Op::OpLogicalAnd: case Op::OpAll: case Op::OpLogicalOr: case Op::OpAny: {
      // One operand decides, known or not the others.
      const bool deciding = op == Op::OpLogicalOr || op == Op::OpAny;
      bool all_known = true;
      for (const auto& x : v) {
        std::optional<bool> b = truth(x);
        if (b && *b == deciding) return deciding ? 1 : 0;
        all_known = all_known && b;
      }
      if (!all_known) return std::nullopt;
      return deciding ? 0 : 1;
    }
    case Op::OpSelect: {
      std::optional<bool> condition = truth(v[0]);
      if (condition) return *condition ? v[1] : v[2];
      return v[1] && v[2] && *v[1] == *v[2] ? v[1] : std::nullopt;
    }
    default: break;
  }
  for (const auto& x : v) {
    if (!x) return std::nullopt;
  }
  switch (op) {
    case Op::OpLogicalNot: return *v[0] == 0 ? 1 : 0;
    case Op::OpGroupNonUniformElect: return *v[0] == 0 ? 1 : 0;
    case Op::OpLogicalEqual: return (*v[0] != 0) == (*v[1] != 0) ? 1 : 0;
    case Op::OpLogicalNotEqual: return (*v[0] != 0) != (*v[1] != 0) ? 1 : 0;
    case Op::OpBitFieldUExtract: case Op::OpBitFieldSExtract:
      return machine.extract(*v[0], *v[1], *v[2], op == Op::OpBitFieldSExtract);
    case Op::OpBitFieldInsert: return machine.insert(*v[0], *v[1], *v[2], *v[3]);
    default: break;
  }
  if (is_comparison(op)) {
    std::optional<bool> holds = compare(op, operand_machine, *v[0], *v[1]);
    if (!holds) return std::nullopt;
    return *holds ? 1 : 0;
  }
  if (v.size() == 1) return machine.unary(op, *v[0], operand_machine);
  return machine.combine(op, *v[0], *v[1]);
}

}  // namespace

std::optional<int64_t> Evaluator::evaluate_definition(int index, std::span<const int64_t> slots) {
  const auto at = static_cast<size_t>(index);
  if (at < stamps_.size() && stamps_[at] == stamp_) return memo_[at];
  std::optional<int64_t> value = compute_definition(index, slots);
  if (stamps_.size() <= at) {
    stamps_.resize(nodes_.size(), 0);
    memo_.resize(nodes_.size());
  }
  stamps_[at] = stamp_;
  memo_[at] = value;
  return value;
}

std::optional<int64_t> Evaluator::compute_definition(int index, std::span<const int64_t> slots) {
  // Operands are looked up and evaluated in order; for arithmetic the first
  // unknown one ends it, as evaluate would, before the next is looked up.
  const Op op = nodes_[static_cast<size_t>(index)].def->opcode();
  const bool each = op == Op::OpLogicalAnd || op == Op::OpLogicalOr || op == Op::OpAll || op == Op::OpAny ||
                    op == Op::OpSelect;
  const size_t arity = nodes_[static_cast<size_t>(index)].arity;
  std::optional<int64_t> operands[4];
  for (size_t k = 0; k < arity; ++k) {
    operands[k] = evaluate_node(resolve(index, k, Lookup::Compute), slots);
    if (!operands[k] && !each) return std::nullopt;
  }
  const Node& node = nodes_[static_cast<size_t>(index)];
  return apply(*node.def, node.forward, node.machine, node.operand_machine, std::span(operands, arity));
}

bool Evaluator::prepare(size_t handle) { return prepare_node(static_cast<int>(handle)); }

bool Evaluator::prepare_node(int index) {
  if (prepared_.size() < nodes_.size()) prepared_.resize(nodes_.size(), 0);
  if (prepared_[static_cast<size_t>(index)]) return true;
  switch (nodes_[static_cast<size_t>(index)].kind) {
    case Node::Kind::Fail: case Node::Kind::Slot: case Node::Kind::Constant: break;
    case Node::Kind::Polynomial: {
      const Node node = nodes_[static_cast<size_t>(index)];
      for (uint32_t t = node.first; t < node.first + node.count; ++t) {
        const Term term = terms_[t];
        for (uint32_t f = term.first; f < term.first + term.count; ++f) {
          if (!prepare_node(factors_[f])) return false;
        }
      }
      break;
    }
    case Node::Kind::Definition:
      for (size_t k = 0; k < nodes_[static_cast<size_t>(index)].arity; ++k) {
        int operand = resolve(index, k, Lookup::Computed);
        if (operand == kNotReady || !prepare_node(operand)) return false;
      }
      break;
  }
  if (prepared_.size() < nodes_.size()) prepared_.resize(nodes_.size(), 0);
  prepared_[static_cast<size_t>(index)] = 1;
  return true;
}

std::vector<Symbol> Evaluator::unassigned(size_t handle) {
  std::set<Symbol> found;
  std::vector<uint8_t> seen;
  std::vector<int> work{static_cast<int>(handle)};
  while (!work.empty()) {
    int index = work.back();
    work.pop_back();
    if (seen.size() < nodes_.size()) seen.resize(nodes_.size(), 0);
    if (seen[static_cast<size_t>(index)]) continue;
    seen[static_cast<size_t>(index)] = 1;
    switch (nodes_[static_cast<size_t>(index)].kind) {
      case Node::Kind::Fail:
        if (nodes_[static_cast<size_t>(index)].leaf) found.insert(*nodes_[static_cast<size_t>(index)].leaf);
        break;
      case Node::Kind::Slot: case Node::Kind::Constant: break;
      case Node::Kind::Polynomial: {
        const Node node = nodes_[static_cast<size_t>(index)];
        for (uint32_t t = node.first; t < node.first + node.count; ++t) {
          for (uint32_t f = terms_[t].first; f < terms_[t].first + terms_[t].count; ++f) work.push_back(factors_[f]);
        }
        break;
      }
      case Node::Kind::Definition: {
        // Looked up in order; walked first operand first.
        std::vector<int> operands;
        for (size_t k = 0; k < nodes_[static_cast<size_t>(index)].arity; ++k) {
          operands.push_back(resolve(index, k, Lookup::Compute));
        }
        work.insert(work.end(), operands.rbegin(), operands.rend());
        break;
      }
    }
  }
  return {found.begin(), found.end()};
}

void Evaluator::evaluate_all(size_t handle, std::span<const int64_t* const> columns, size_t count,
                             std::vector<int64_t>& values, std::vector<uint8_t>& known) {
  if (count != memo_count_ || !std::equal(columns.begin(), columns.end(), memo_columns_.begin(), memo_columns_.end())) {
    memo_columns_.assign(columns.begin(), columns.end());
    memo_count_ = count;
    memo_all_done_.assign(nodes_.size(), 0);
    memo_all_values_.assign(nodes_.size(), {});
    memo_all_known_.assign(nodes_.size(), {});
  }
  evaluate_node_all(static_cast<int>(handle), columns, count, values, known);
}

// Returns whether the node has one value (or is unknown) in every
// assignment: what reads only such nodes is computed once.
bool Evaluator::evaluate_node_all(int index, std::span<const int64_t* const> columns, size_t count,
                                  std::vector<int64_t>& values, std::vector<uint8_t>& known) {
  const Node node = nodes_[static_cast<size_t>(index)];
  values.assign(count, 0);
  known.assign(count, 0);
  switch (node.kind) {
    case Node::Kind::Fail: return true;
    case Node::Kind::Slot: {
      const int64_t* column = columns[node.first];
      std::copy(column, column + count, values.begin());
      known.assign(count, 1);
      return std::all_of(column, column + count, [&](int64_t v) { return v == column[0]; });
    }
    case Node::Kind::Constant:
      values.assign(count, node.constant);
      known.assign(count, 1);
      return true;
    case Node::Kind::Definition: {
      const auto at = static_cast<size_t>(index);
      if (memo_all_done_.size() < nodes_.size()) {
        memo_all_done_.resize(nodes_.size(), 0);
        memo_all_values_.resize(nodes_.size());
        memo_all_known_.resize(nodes_.size());
      }
      if (memo_all_done_[at]) {
        values = memo_all_values_[at];
        known = memo_all_known_[at];
        return memo_all_done_[at] == 2;
      }
      if (node.forward) return evaluate_node_all(node.operands[0], columns, count, values, known);
      std::vector<int64_t> operand_values[4];
      std::vector<uint8_t> operand_known[4];
      bool same = true;
      for (size_t k = 0; k < node.arity; ++k) {
        same = evaluate_node_all(node.operands[k], columns, count, operand_values[k], operand_known[k]) && same;
      }
      std::optional<int64_t> operands[4];
      for (size_t i = 0; i < (same ? std::min<size_t>(count, 1) : count); ++i) {
        for (size_t k = 0; k < node.arity; ++k) {
          operands[k] = operand_known[k][i] ? std::optional<int64_t>(operand_values[k][i]) : std::nullopt;
        }
        if (auto v = apply(*node.def, node.forward, node.machine, node.operand_machine,
                           std::span(operands, node.arity))) {
          values[i] = *v;
          known[i] = 1;
        }
      }
      if (same && count > 1) {
        std::fill(values.begin() + 1, values.end(), values[0]);
        std::fill(known.begin() + 1, known.end(), known[0]);
      }
      memo_all_done_[at] = same ? 2 : 1;
      memo_all_values_[at] = values;
      memo_all_known_[at] = known;
      return same;
    }
    case Node::Kind::Polynomial: break;
  }
  bool same = true;
  known.assign(count, 1);
  std::vector<int64_t> product(count), factor;
  std::vector<uint8_t> factor_known;
  for (uint32_t t = node.first; t < node.first + node.count; ++t) {
    const Term term = terms_[t];
    std::fill(product.begin(), product.end(), term.coefficient);
    for (uint32_t f = term.first; f < term.first + term.count; ++f) {
      const Node& child = nodes_[static_cast<size_t>(factors_[f])];
      const int64_t* column = nullptr;
      if (child.kind == Node::Kind::Slot) {
        column = columns[child.first];
        same = same && std::all_of(column, column + count, [&](int64_t v) { return v == column[0]; });
      } else {
        same = evaluate_node_all(factors_[f], columns, count, factor, factor_known) && same;
        column = factor.data();
        for (size_t i = 0; i < count; ++i) known[i] &= factor_known[i];
      }
      for (size_t i = 0; i < count; ++i) {
        int64_t result = 0;
        if (!known[i]) continue;
        if (__builtin_mul_overflow(product[i], column[i], &result) || !fits(result)) {
          known[i] = 0;
        } else {
          product[i] = result;
        }
      }
    }
    for (size_t i = 0; i < count; ++i) {
      if (!known[i]) continue;
      values[i] += product[i];
      if (!fits(values[i])) known[i] = 0;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    if (!known[i]) values[i] = 0;
  }
  return same;
}

}  // namespace klint
