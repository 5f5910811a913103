// Integer values as polynomials over symbols: the invocation ids, loop
// induction variables and the values klint cannot see through (push
// constants, buffer loads, `tid ^ k`). The rules that ask which element an
// invocation touches (races, coalescing, bank conflicts) read these forms, and
// evaluate them for concrete invocations.
//
// gl_GlobalInvocationID splits into gl_WorkGroupID * size + gl_LocalInvocationID
// and gl_LocalInvocationIndex into the local ids, at the workgroup size the
// entry point declares (specialization constants at their defaults), so that
// every form speaks of the same few symbols. A local id along a dimension of
// size 1 is 0.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analyzer/module.h"

namespace klint {

class Uniformity;

struct Symbol {
  enum class Kind : uint8_t {
    LocalId,        // gl_LocalInvocationID, component in `id`
    SubgroupLane,   // gl_SubgroupInvocationID
    SubgroupId,     // gl_SubgroupID
    WorkgroupId,    // gl_WorkGroupID, component in `id`
    NumWorkgroups,  // gl_NumWorkGroups, component in `id`
    SubgroupSize,   // gl_SubgroupSize
    NumSubgroups,   // gl_NumSubgroups
    Induction,      // a loop's induction variable: `id` is its phi
    Value,          // any other value: `id` is the SSA id
  };
  Kind kind;
  uint32_t id = 0;
  friend auto operator<=>(const Symbol&, const Symbol&) = default;
};

// A sum of integer multiples of products of symbols. Arithmetic that
// overflows 62 bits, or grows past a few terms, makes the value opaque: the
// analysis then names the SSA value as a symbol of its own.
class Polynomial {
 public:
  using Monomial = std::vector<Symbol>;  // sorted; empty for the constant term

  Polynomial() = default;
  static Polynomial constant(int64_t value);
  static Polynomial symbol(Symbol symbol);

  const std::map<Monomial, int64_t>& terms() const { return terms_; }
  bool is_constant() const;
  std::optional<int64_t> constant_value() const;  // when is_constant()
  int64_t constant_term() const;
  // The coefficient of `symbol` alone (its linear term), 0 when none.
  int64_t coefficient(Symbol symbol) const;
  bool mentions(Symbol symbol) const;
  std::vector<Symbol> symbols() const;
  size_t degree() const;

  // nullopt on overflow or when the result grows too large.
  static std::optional<Polynomial> add(const Polynomial& a, const Polynomial& b);
  static std::optional<Polynomial> multiply(const Polynomial& a, const Polynomial& b);
  std::optional<Polynomial> scaled(int64_t factor) const;
  std::optional<Polynomial> negated() const { return scaled(-1); }
  // The terms whose monomials satisfy `keep`.
  Polynomial filtered(const std::function<bool(const Monomial&)>& keep) const;

  friend bool operator==(const Polynomial&, const Polynomial&) = default;

 private:
  void add_term(const Monomial& monomial, int64_t coefficient);
  std::map<Monomial, int64_t> terms_;
};

// Inclusive bounds; nullopt where unknown.
struct Interval {
  std::optional<int64_t> low;
  std::optional<int64_t> high;
};

// A loop's induction variable: a header phi that starts at `initial` and
// becomes phi + step (or phi * / >> a constant, for halving loops) on each
// back edge.
struct Induction {
  uint32_t phi = 0;
  uint32_t header = 0;  // block index of the loop header
  uint32_t initial = 0;  // SSA id
  uint32_t update = 0;   // the SSA id flowing back
  enum class Step { Add, Multiply, ShiftLeft, ShiftRight, Divide, Other } step = Step::Other;
  uint32_t step_value = 0;  // SSA id of the step operand
  // The step is the same on every iteration: `i += 4`, `i += n`, not `i += data[i]`.
  bool invariant_step = false;
  // `i = start; ...; i += step` with an invariant step: a counting loop.
  bool counts() const { return step == Step::Add && invariant_step; }
};

// Concrete values for symbols, for evaluating a form at one invocation.
using Assignment = std::map<Symbol, int64_t>;

class SymbolicValues;

// Evaluates polynomials, and boolean conditions, again and again over
// assignments of one set of symbols (a workgroup's invocation ids and a
// loop's values): the answers of SymbolicValues::evaluate, with each symbol
// resolved to a slot once and the definitions of the values behind opaque
// symbols looked up once, on first use, in the order evaluate would look
// them up.
//
// Behind an opaque value it computes the integer instructions (arithmetic,
// shifts, masks, bit-field extracts and inserts, conversions), comparisons,
// logical operators, OpSelect and OpAll/OpAny, component by component on
// vectors. A boolean is 1 or 0. A value it cannot compute (a load from
// memory, an atomic's result) is unknown, and so is what depends on it, but
// for `false && x`, `true || x`, a select whose arms agree and an OpAll /
// OpAny that one component decides.
class Evaluator {
 public:
  Evaluator(const SymbolicValues& values, std::vector<Symbol> assigned);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // A handle for evaluate().
  size_t add(const Polynomial& polynomial);
  // A handle for the boolean SSA value `condition`.
  size_t add_condition(uint32_t condition);
  // The polynomial at slots[i] for assigned[i].
  std::optional<int64_t> evaluate(size_t handle, std::span<const int64_t> slots);

  // Looks up, ahead of evaluate_all(), what evaluating the handle may need:
  // false when that includes the form of a value not yet computed. The order
  // in which forms are first computed can matter (a loop's phis see each
  // other), so evaluate() must then take the assignments one by one, in the
  // order the caller would.
  bool prepare(size_t handle);
  // What evaluate() gives for `count` assignments at once: columns[k][i] is
  // assigned[k] in assignment i; known[i] is 0 where evaluate() would give
  // nullopt. Only after prepare(handle) returned true. Calls with the same
  // columns (pointers and count) share what they computed: the arrays must
  // not change between them.
  void evaluate_all(size_t handle, std::span<const int64_t* const> columns, size_t count,
                    std::vector<int64_t>& values, std::vector<uint8_t>& known);

  // The symbols the handle's value depends on that are not assigned: loop
  // counters, workgroup ids, and the scalar values klint cannot see through
  // (Symbol::Kind::Value: a load, an atomic's result), which assigning
  // would make known. Looks up every form on the way, as evaluate would.
  std::vector<Symbol> unassigned(size_t handle);

 private:
  struct Node;
  struct Term;
  enum class Lookup { Compute, Computed };
  int polynomial_node(const Polynomial& polynomial, int depth);
  int definition_node(uint32_t id, uint32_t component, int depth);
  int operand_node(uint32_t id, uint32_t component, int depth, Lookup lookup);
  int resolve(int node, size_t k, Lookup lookup);
  int slot_node(size_t slot);
  int constant_node(int64_t value);
  int fail_node(std::optional<Symbol> leaf);
  std::optional<int64_t> evaluate_node(int node, std::span<const int64_t> slots);
  std::optional<int64_t> evaluate_definition(int node, std::span<const int64_t> slots);
  std::optional<int64_t> compute_definition(int node, std::span<const int64_t> slots);
  bool prepare_node(int node);
  bool evaluate_node_all(int node, std::span<const int64_t* const> columns, size_t count,
                         std::vector<int64_t>& values, std::vector<uint8_t>& known);

  const SymbolicValues& values_;
  std::vector<Symbol> assigned_;
  std::vector<Node> nodes_;
  std::vector<Term> terms_;
  std::vector<int> factors_;
  std::map<std::tuple<uint32_t, uint32_t, int>, int> definitions_;  // (id, component, depth) -> node
  std::map<std::pair<uint32_t, int>, int> operand_forms_;  // (id, depth) -> node
  std::vector<int> slot_nodes_;
  std::vector<uint8_t> prepared_;  // by node
  std::map<std::optional<Symbol>, int> fails_;  // by what is unknown
  std::map<int64_t, int> constants_;
  // What evaluate() computed of each definition node in this call (when
  // `stamps_` holds the call's number), and what evaluate_all() computed for
  // the columns it was last given: a value many others read is computed once.
  std::vector<uint32_t> stamps_;
  std::vector<std::optional<int64_t>> memo_;
  uint32_t stamp_ = 0;
  std::vector<const int64_t*> memo_columns_;
  size_t memo_count_ = 0;
  std::vector<uint8_t> memo_all_done_;
  std::vector<std::vector<int64_t>> memo_all_values_;
  std::vector<std::vector<uint8_t>> memo_all_known_;
};

class SymbolicValues {
 public:
  SymbolicValues(const Module& module, const ir::Function& function);
  ~SymbolicValues();

  // The form of an integer (or boolean-free scalar) SSA value; an opaque
  // symbol of its own when klint cannot see through it.
  const Polynomial& value(uint32_t id) const;
  // Whether two invocations of one workgroup may disagree on the symbol.
  bool per_invocation(Symbol symbol) const;
  // The values a symbol takes in this entry point's workgroup.
  Interval range(Symbol symbol) const;
  Interval range(const Polynomial& polynomial) const;
  // The polynomial at the assignment: symbols not in it are looked up through
  // their definitions (so `tid ^ 1` evaluates when tid is assigned); nullopt
  // when one stays unknown.
  std::optional<int64_t> evaluate(const Polynomial& polynomial, const Assignment& assignment) const;
  const Induction* induction(uint32_t phi) const;
  // The form of one component of an integer vector value, where klint
  // follows it (a built-in's load, a construct, a shuffle, arithmetic on
  // whole vectors).
  std::optional<Polynomial> component(uint32_t vector, uint32_t index) const { return extract(vector, index); }
  // Workgroup size, specialization constants at their defaults.
  const std::array<uint64_t, 3>& workgroup_size() const { return workgroup_size_; }
  uint64_t invocations() const { return workgroup_size_[0] * workgroup_size_[1] * workgroup_size_[2]; }
  // Readable text, e.g. "gl_LocalInvocationID.x * 4 + n".
  std::string describe(const Polynomial& polynomial) const;
  std::string describe(Symbol symbol) const;

 private:
  friend class Evaluator;
  std::optional<Polynomial> builtin_value(spv::BuiltIn builtin, uint32_t component) const;
  std::optional<Polynomial> stored_component(uint32_t pointer) const;
  std::optional<Polynomial> extract(uint32_t vector, uint32_t component) const;
  uint32_t first_constant_load(const ir::Instruction& load) const;
  std::optional<Polynomial> divide(const Polynomial& p, int64_t divisor, bool remainder) const;
  std::optional<Polynomial> combine(spv::Op op, const Polynomial& a, const Polynomial& b) const;
  // The form of `id` if value() has computed it, else nullptr.
  const Polynomial* computed(uint32_t id) const;
  // The value a function variable holds, when it is stored once, whole.
  std::optional<uint32_t> stored_value(uint32_t variable) const;

  struct State;
  std::unique_ptr<State> state_;
  const Module& module_;
  const ir::Function& function_;
  std::array<uint64_t, 3> workgroup_size_{1, 1, 1};
};

}  // namespace klint
