// Evaluator (declared in analyzer/symbolic.h): SymbolicValues::evaluate,
// repeated over many assignments of one set of symbols.
#include <algorithm>

#include "analyzer/machine_arithmetic.h"
#include "analyzer/symbolic.h"

namespace klint {

using spv::Op;

struct Evaluator::Term {
  int64_t coefficient = 0;
  uint32_t first = 0, count = 0;  // into factors_
};

struct Evaluator::Node {
  enum class Kind : uint8_t { Polynomial, Slot, Definition, Fail } kind = Kind::Fail;
  uint32_t first = 0, count = 0;  // Polynomial: into terms_; Slot: first is the slot
  // Definition: the instruction, its depth, its two operands (node indices,
  // -1 until first needed) and how its type wraps results.
  const ir::Instruction* def = nullptr;
  int depth = 0;
  int operands[2] = {-1, -1};
  MachineInt machine;
};

Evaluator::Evaluator(const SymbolicValues& values, std::vector<Symbol> assigned)
    : values_(values), assigned_(std::move(assigned)), slot_nodes_(assigned_.size(), -1) {}

Evaluator::~Evaluator() = default;

size_t Evaluator::add(const Polynomial& polynomial) { return static_cast<size_t>(polynomial_node(polynomial, 0)); }

int Evaluator::fail_node() {
  if (fail_ < 0) {
    fail_ = static_cast<int>(nodes_.size());
    nodes_.push_back(Node{});
  }
  return fail_;
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
        factors.push_back(definition_node(symbol.id, depth + 1));
      } else {
        factors.push_back(fail_node());
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

// As SymbolicValues::evaluate_definition reads it, up to its operands.
int Evaluator::definition_node(uint32_t id, int depth) {
  if (auto it = definitions_.find({id, depth}); it != definitions_.end()) return it->second;
  int index = fail_node();
  const ir::Instruction* def = depth > kEvaluationDepth ? nullptr : values_.module_.def(id);
  if (def && def->operands().size() == 4 && MachineInt::computes(def->opcode())) {
    Node node;
    node.kind = Node::Kind::Definition;
    node.def = def;
    node.depth = depth;
    node.machine = MachineInt::of(values_.module_, def->type_id());
    index = static_cast<int>(nodes_.size());
    nodes_.push_back(node);
  }
  definitions_.emplace(std::pair{id, depth}, index);
  return index;
}

std::optional<int64_t> Evaluator::evaluate(size_t handle, std::span<const int64_t> slots) {
  return evaluate_node(static_cast<int>(handle), slots);
}

std::optional<int64_t> Evaluator::evaluate_node(int index, std::span<const int64_t> slots) {
  switch (nodes_[static_cast<size_t>(index)].kind) {
    case Node::Kind::Fail: return std::nullopt;
    case Node::Kind::Slot: return slots[nodes_[static_cast<size_t>(index)].first];
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

std::optional<int64_t> Evaluator::evaluate_definition(int index, std::span<const int64_t> slots) {
  auto operand = [&](size_t k) -> std::optional<int64_t> {
    if (nodes_[static_cast<size_t>(index)].operands[k] < 0) {
      // The form is looked up when evaluate would first look it up.
      const Node& node = nodes_[static_cast<size_t>(index)];
      uint32_t word = node.def->word(2 + k);
      int depth = node.depth;
      int operand_node;
      if (auto it = operand_forms_.find({word, depth}); it != operand_forms_.end()) {
        operand_node = it->second;
      } else {
        const Polynomial& form = values_.value(word);
        operand_node = form == Polynomial::symbol({Symbol::Kind::Value, word}) ? definition_node(word, depth + 1)
                                                                               : polynomial_node(form, depth + 1);
        operand_forms_.emplace(std::pair{word, depth}, operand_node);
      }
      nodes_[static_cast<size_t>(index)].operands[k] = operand_node;
    }
    return evaluate_node(nodes_[static_cast<size_t>(index)].operands[k], slots);
  };
  auto a = operand(0);
  if (!a) return std::nullopt;
  auto b = operand(1);
  if (!b) return std::nullopt;
  const Node& node = nodes_[static_cast<size_t>(index)];
  return node.machine.combine(node.def->opcode(), static_cast<uint64_t>(*a), static_cast<uint64_t>(*b));
}

bool Evaluator::prepare(size_t handle) { return prepare_node(static_cast<int>(handle)); }

bool Evaluator::prepare_node(int index) {
  if (prepared_.size() < nodes_.size()) prepared_.resize(nodes_.size(), 0);
  if (prepared_[static_cast<size_t>(index)]) return true;
  switch (nodes_[static_cast<size_t>(index)].kind) {
    case Node::Kind::Fail: case Node::Kind::Slot: break;
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
      for (size_t k = 0; k < 2; ++k) {
        if (nodes_[static_cast<size_t>(index)].operands[k] < 0) {
          const Node& node = nodes_[static_cast<size_t>(index)];
          uint32_t word = node.def->word(2 + k);
          int depth = node.depth;
          int operand_node;
          if (auto it = operand_forms_.find({word, depth}); it != operand_forms_.end()) {
            operand_node = it->second;
          } else {
            const Polynomial* known = values_.computed(word);
            if (!known) return false;
            const Polynomial& form = *known;
            operand_node = form == Polynomial::symbol({Symbol::Kind::Value, word}) ? definition_node(word, depth + 1)
                                                                                   : polynomial_node(form, depth + 1);
            operand_forms_.emplace(std::pair{word, depth}, operand_node);
          }
          nodes_[static_cast<size_t>(index)].operands[k] = operand_node;
        }
        if (!prepare_node(nodes_[static_cast<size_t>(index)].operands[k])) return false;
      }
      break;
  }
  if (prepared_.size() < nodes_.size()) prepared_.resize(nodes_.size(), 0);
  prepared_[static_cast<size_t>(index)] = 1;
  return true;
}

void Evaluator::evaluate_all(size_t handle, std::span<const int64_t* const> columns, size_t count,
                             std::vector<int64_t>& values, std::vector<uint8_t>& known) {
  evaluate_node_all(static_cast<int>(handle), columns, count, values, known);
}

void Evaluator::evaluate_node_all(int index, std::span<const int64_t* const> columns, size_t count,
                                  std::vector<int64_t>& values, std::vector<uint8_t>& known) {
  const Node node = nodes_[static_cast<size_t>(index)];
  values.assign(count, 0);
  known.assign(count, 0);
  switch (node.kind) {
    case Node::Kind::Fail: return;
    case Node::Kind::Slot:
      std::copy(columns[node.first], columns[node.first] + count, values.begin());
      known.assign(count, 1);
      return;
    case Node::Kind::Definition: {
      std::vector<int64_t> a, b;
      std::vector<uint8_t> a_known, b_known;
      evaluate_node_all(node.operands[0], columns, count, a, a_known);
      evaluate_node_all(node.operands[1], columns, count, b, b_known);
      for (size_t i = 0; i < count; ++i) {
        if (!a_known[i] || !b_known[i]) continue;
        if (auto v = node.machine.combine(node.def->opcode(), static_cast<uint64_t>(a[i]), static_cast<uint64_t>(b[i]))) {
          values[i] = *v;
          known[i] = 1;
        }
      }
      return;
    }
    case Node::Kind::Polynomial: break;
  }
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
      } else {
        evaluate_node_all(factors_[f], columns, count, factor, factor_known);
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
}

// An OpName, or for a load of a block member (a push constant, a uniform) the
// member's name, or "%id".

}  // namespace klint
