#include "analyzer/symbolic.h"

#include <fmt/core.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <unordered_set>

#include "analyzer/builtin_names.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/source_names.h"
#include "analyzer/ssa.h"
#include "analyzer/machine_arithmetic.h"
#include "analyzer/uniformity.h"

namespace klint {
namespace {

using spv::Op;

constexpr size_t kMaxTerms = 16;
constexpr size_t kMaxDegree = 4;
// Invocations of a subgroup at most, and at least (lavapipe's narrowest).
constexpr int64_t kWidestSubgroup = 128;
constexpr int64_t kNarrowestSubgroup = 4;

int64_t floor_divide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
}

}  // namespace

// --- Polynomial -------------------------------------------------------------

Polynomial Polynomial::constant(int64_t value) {
  Polynomial result;
  result.add_term({}, value);
  return result;
}

Polynomial Polynomial::symbol(Symbol symbol) {
  Polynomial result;
  result.add_term({symbol}, 1);
  return result;
}

void Polynomial::add_term(const Monomial& monomial, int64_t coefficient) {
  if (coefficient == 0) return;
  auto [it, inserted] = terms_.emplace(monomial, coefficient);
  if (inserted) return;
  it->second += coefficient;
  if (it->second == 0) terms_.erase(it);
}

bool Polynomial::is_constant() const {
  return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty());
}

std::optional<int64_t> Polynomial::constant_value() const {
  if (!is_constant()) return std::nullopt;
  return constant_term();
}

int64_t Polynomial::constant_term() const {
  auto it = terms_.find({});
  return it == terms_.end() ? 0 : it->second;
}

int64_t Polynomial::coefficient(Symbol symbol) const {
  auto it = terms_.find({symbol});
  return it == terms_.end() ? 0 : it->second;
}

bool Polynomial::mentions(Symbol symbol) const {
  for (const auto& [monomial, coefficient] : terms_) {
    if (std::find(monomial.begin(), monomial.end(), symbol) != monomial.end()) return true;
  }
  return false;
}

std::vector<Symbol> Polynomial::symbols() const {
  std::vector<Symbol> result;
  for (const auto& [monomial, coefficient] : terms_) result.insert(result.end(), monomial.begin(), monomial.end());
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

size_t Polynomial::degree() const {
  size_t degree = 0;
  for (const auto& [monomial, coefficient] : terms_) degree = std::max(degree, monomial.size());
  return degree;
}

std::optional<Polynomial> Polynomial::add(const Polynomial& a, const Polynomial& b) {
  Polynomial result = a;
  for (const auto& [monomial, coefficient] : b.terms_) {
    result.add_term(monomial, coefficient);
  }
  for (const auto& [monomial, coefficient] : result.terms_) {
    if (!fits(coefficient)) return std::nullopt;
  }
  if (result.terms_.size() > kMaxTerms) return std::nullopt;
  return result;
}

std::optional<Polynomial> Polynomial::multiply(const Polynomial& a, const Polynomial& b) {
  Polynomial result;
  for (const auto& [ma, ca] : a.terms_) {
    for (const auto& [mb, cb] : b.terms_) {
      std::optional<int64_t> coefficient = checked_multiply(ca, cb);
      if (!coefficient) return std::nullopt;
      Monomial monomial = ma;
      monomial.insert(monomial.end(), mb.begin(), mb.end());
      if (monomial.size() > kMaxDegree) return std::nullopt;
      std::sort(monomial.begin(), monomial.end());
      result.add_term(monomial, *coefficient);
      if (result.terms_.size() > kMaxTerms) return std::nullopt;
    }
  }
  for (const auto& [monomial, coefficient] : result.terms_) {
    if (!fits(coefficient)) return std::nullopt;
  }
  return result;
}

std::optional<Polynomial> Polynomial::scaled(int64_t factor) const {
  return multiply(*this, constant(factor));
}

Polynomial Polynomial::filtered(const std::function<bool(const Monomial&)>& keep) const {
  Polynomial result;
  for (const auto& [monomial, coefficient] : terms_) {
    if (keep(monomial)) result.terms_.emplace(monomial, coefficient);
  }
  return result;
}

// --- SymbolicValues ---------------------------------------------------------

struct SymbolicValues::State {
  mutable std::unordered_map<uint32_t, Polynomial> values;
  mutable std::unordered_set<uint32_t> active;
  std::unordered_map<uint32_t, Induction> inductions;
  mutable std::map<std::vector<uint64_t>, uint32_t> constant_loads;
};

SymbolicValues::SymbolicValues(const Module& module, const ir::Function& function)
    : state_(std::make_unique<State>()), module_(module), function_(function) {
  const EntryPoint* entry = nullptr;
  for (const EntryPoint& candidate : module.entry_points()) {
    if (candidate.function == &function) entry = &candidate;
  }
  if (!entry && !module.entry_points().empty()) entry = &module.entry_points().front();
  if (entry && entry->workgroup_size) {
    for (size_t d = 0; d < 3; ++d) workgroup_size_[d] = std::max<uint64_t>(1, (*entry->workgroup_size)[d].value);
  }

  // Induction variables: header phis fed back through an update of themselves.
  const Cfg& cfg = module.cfg(function);
  const DominatorTree& dominators = module.dominators(function);
  for (uint32_t header = 0; header < function.blocks.size(); ++header) {
    const ir::Block& block = function.blocks[header];
    const ir::Instruction* merge = block.merge();
    if (!merge || merge->opcode() != Op::OpLoopMerge) continue;
    for (const ir::Instruction& phi : block.instructions) {
      if (phi.opcode() != Op::OpPhi) continue;
      if (phi.operands().size() != 6) continue;
      Induction induction{phi.result_id(), header};
      bool complete = true;
      for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
        int parent = cfg.index_of(phi.word(i + 1));
        if (parent < 0) {
          complete = false;
          break;
        }
        bool back_edge = dominators.dominates(header, static_cast<uint32_t>(parent));
        (back_edge ? induction.update : induction.initial) = phi.word(i);
      }
      const ir::Instruction* update = induction.update ? module.def(induction.update) : nullptr;
      if (!complete || !induction.initial || !update || update->operands().size() < 4) continue;
      // SSA threads the variable through inner loops and merges as phis of itself.
      auto is_phi = [&](uint32_t id) { return id == phi.result_id() || copied_value(module, id) == phi.result_id(); };
      uint32_t left = update->word(2), right = update->word(3);
      switch (update->opcode()) {
        case Op::OpIAdd:
          if (!is_phi(left) && !is_phi(right)) continue;
          induction.step = Induction::Step::Add;
          induction.step_value = is_phi(left) ? right : left;
          break;
        case Op::OpIMul:
          if (!is_phi(left)) continue;
          induction.step = Induction::Step::Multiply;
          induction.step_value = right;
          break;
        case Op::OpShiftLeftLogical:
          if (!is_phi(left)) continue;
          induction.step = Induction::Step::ShiftLeft;
          induction.step_value = right;
          break;
        case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic:
          if (!is_phi(left)) continue;
          induction.step = Induction::Step::ShiftRight;
          induction.step_value = right;
          break;
        case Op::OpUDiv: case Op::OpSDiv:
          if (!is_phi(left)) continue;
          induction.step = Induction::Step::Divide;
          induction.step_value = right;
          break;
        default:
          continue;
      }
      for (const Loop& loop : module.loops(function)) {
        if (loop.header == header) induction.invariant_step = is_loop_invariant(module, cfg, loop, induction.step_value);
      }
      state_->inductions.emplace(phi.result_id(), induction);
    }
  }
}

SymbolicValues::~SymbolicValues() = default;

const Induction* SymbolicValues::induction(uint32_t phi) const {
  auto it = state_->inductions.find(phi);
  return it == state_->inductions.end() ? nullptr : &it->second;
}

namespace {

struct IntType {
  uint32_t width = 32;
  bool is_signed = false;
};

std::optional<IntType> int_type(const Module& module, uint32_t type_id) {
  const ir::Instruction* type = module.def(type_id);
  if (!type || type->opcode() != Op::OpTypeInt) return std::nullopt;
  return IntType{type->word(1), type->word(2) != 0};
}

std::optional<int64_t> signed_constant(const Module& module, uint32_t id) {
  const ir::Instruction* def = module.def(id);
  if (!def) return std::nullopt;
  std::optional<IntType> type = int_type(module, def->type_id());
  if (!type) return std::nullopt;
  std::optional<uint64_t> value = module.constant_value(id);
  if (!value) return std::nullopt;
  if (type->width == 32) {
    return type->is_signed ? int64_t{static_cast<int32_t>(*value)} : int64_t{static_cast<uint32_t>(*value)};
  }
  if (*value >= static_cast<uint64_t>(kSymbolicLimit)) return std::nullopt;
  return static_cast<int64_t>(*value);
}

// The built-in and component a value loads, e.g. gl_LocalInvocationID.x.
std::optional<std::pair<spv::BuiltIn, uint32_t>> builtin_component(const Module& module, const ir::Instruction& def) {
  auto variable_builtin = [&](uint32_t pointer) -> std::optional<spv::BuiltIn> {
    const ir::Instruction* variable = module.def(pointer);
    if (!variable || variable->opcode() != Op::OpVariable) return std::nullopt;
    return module.builtin(pointer);
  };
  if (def.opcode() == Op::OpLoad) {
    std::optional<PointerPath> path = pointer_path(module, def.word(2));
    if (!path || path->element_step || path->indices.size() > 1) return std::nullopt;
    auto builtin = variable_builtin(path->variable->result_id());
    if (!builtin) return std::nullopt;
    if (path->indices.empty()) return std::pair{*builtin, 0u};
    auto component = module.constant_value(path->indices.front());
    if (component && *component < 3) return std::pair{*builtin, static_cast<uint32_t>(*component)};
    return std::nullopt;
  }
  if (def.opcode() == Op::OpCompositeExtract && def.operands().size() == 4) {
    const ir::Instruction* load = module.def(def.word(2));
    if (!load || load->opcode() != Op::OpLoad) return std::nullopt;
    auto builtin = variable_builtin(load->word(2));
    if (builtin && def.word(3) < 3) return std::pair{*builtin, def.word(3)};
  }
  return std::nullopt;
}

// stored_once, looking through copies from one such variable into another.
std::optional<uint32_t> single_stored_value(const Module& module, uint32_t variable_id, int depth = 0) {
  const ir::Instruction* variable = module.def(variable_id);
  if (depth > 4 || !variable || variable->opcode() != Op::OpVariable) return std::nullopt;
  uint32_t value = stored_once(module, variable_id);
  if (!value) return std::nullopt;
  const ir::Instruction* def = module.def(value);
  if (def && def->opcode() == Op::OpLoad) {
    if (auto inner = single_stored_value(module, def->word(2), depth + 1)) return inner;
  }
  return value;
}

}  // namespace

const Polynomial& SymbolicValues::value(uint32_t id) const {
  auto found = state_->values.find(id);
  if (found != state_->values.end()) return found->second;
  const Polynomial opaque = Polynomial::symbol({Symbol::Kind::Value, id});
  if (state_->active.count(id)) return state_->values.emplace(id, opaque).first->second;
  state_->active.insert(id);

  auto compute = [&]() -> std::optional<Polynomial> {
    if (std::optional<int64_t> constant = signed_constant(module_, id)) return Polynomial::constant(*constant);
    const ir::Instruction* def = module_.def(id);
    if (!def) return std::nullopt;
    if (auto builtin = builtin_component(module_, *def)) return builtin_value(builtin->first, builtin->second);
    if (def->opcode() == Op::OpLoad) {
      if (auto component = stored_component(def->word(2))) return component;
      if (uint32_t first = first_constant_load(*def); first != id) return value(first);
      return std::nullopt;
    }
    auto operand = [&](size_t index) { return value(def->word(index)); };
    switch (def->opcode()) {
      case Op::OpCompositeExtract: {
        const ir::Instruction* composite = module_.def(def->word(2));
        if (!composite || def->operands().size() != 4) return std::nullopt;
        if (module_.builtin(composite->result_id()) == spv::BuiltIn::WorkgroupSize && def->word(3) < 3) {
          // gl_WorkGroupSize: the entry point's size, which knows which
          // specialization constant really sets each dimension.
          return Polynomial::constant(static_cast<int64_t>(workgroup_size_[def->word(3)]));
        }
        return extract(composite->result_id(), def->word(3));
      }
      case Op::OpCopyObject: case Op::OpBitcast: case Op::OpUConvert: case Op::OpSConvert:
        if (!int_type(module_, def->type_id())) return std::nullopt;
        return operand(2);
      case Op::OpSNegate: return operand(2).negated();
      case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpShiftLeftLogical: case Op::OpShiftRightLogical:
      case Op::OpShiftRightArithmetic: case Op::OpUDiv: case Op::OpSDiv: case Op::OpUMod: case Op::OpSMod:
      case Op::OpSRem: case Op::OpBitwiseAnd: case Op::OpBitwiseOr:
        return combine(def->opcode(), operand(2), operand(3));
      case Op::OpPhi: {
        uint32_t copied = copied_value(module_, id);
        if (copied != id) return value(copied);
        if (state_->inductions.count(id)) return Polynomial::symbol({Symbol::Kind::Induction, id});
        std::optional<Polynomial> common;
        for (size_t i = 2; i + 1 < def->operands().size(); i += 2) {
          const Polynomial& incoming = value(def->word(i));
          if (common && !(*common == incoming)) return std::nullopt;
          common = incoming;
        }
        // A form made of this phi's own symbol would only say "itself".
        if (common && common->mentions({Symbol::Kind::Value, id})) return std::nullopt;
        return common;
      }
      default:
        return std::nullopt;
    }
  };
  std::optional<Polynomial> computed = compute();
  state_->active.erase(id);
  return state_->values.insert_or_assign(id, computed.value_or(opaque)).first->second;
}

// What a binary instruction makes of its operands' forms; nullopt where the
// result is no polynomial klint follows. Scalars and each component of a
// vector are computed alike.
std::optional<Polynomial> SymbolicValues::combine(spv::Op op, const Polynomial& a, const Polynomial& b) const {
  switch (op) {
    case Op::OpIAdd: return Polynomial::add(a, b);
    case Op::OpISub: {
      auto negated = b.negated();
      return negated ? Polynomial::add(a, *negated) : std::nullopt;
    }
    case Op::OpIMul: return Polynomial::multiply(a, b);
    case Op::OpShiftLeftLogical: {
      auto shift = b.constant_value();
      if (!shift || *shift < 0 || *shift > 30) return std::nullopt;
      return a.scaled(int64_t{1} << *shift);
    }
    case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic: {
      auto shift = b.constant_value();
      if (!shift || *shift < 0 || *shift > 30) return std::nullopt;
      return divide(a, int64_t{1} << *shift, false);
    }
    case Op::OpUDiv: case Op::OpSDiv: {
      auto divisor = b.constant_value();
      if (!divisor || *divisor <= 0) return std::nullopt;
      return divide(a, *divisor, false);
    }
    case Op::OpUMod: case Op::OpSMod: case Op::OpSRem: {
      auto divisor = b.constant_value();
      if (!divisor || *divisor <= 0) return std::nullopt;
      return divide(a, *divisor, true);
    }
    case Op::OpBitwiseAnd: {
      auto mask = b.constant_value();
      if (!mask) return std::nullopt;
      if (*mask > 0 && std::has_single_bit(static_cast<uint64_t>(*mask) + 1)) {
        return divide(a, *mask + 1, true);
      }
      return std::nullopt;
    }
    case Op::OpBitwiseOr: {
      // (a << k) | b with b below 1 << k is a sum.
      Interval ranges[] = {range(a), range(b)};
      auto low_bits_clear = [&](const Polynomial& p, int64_t bound) {
        for (const auto& [monomial, coefficient] : p.terms()) {
          if (coefficient % bound != 0) return false;
        }
        return true;
      };
      const Polynomial* forms[] = {&a, &b};
      for (auto [high, low] : {std::pair{0, 1}, std::pair{1, 0}}) {
        const Interval& low_range = ranges[low];
        if (!low_range.low || !low_range.high || *low_range.low < 0) continue;
        int64_t bound = static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(*low_range.high) + 1));
        if (low_bits_clear(*forms[high], bound)) return Polynomial::add(a, b);
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

const Polynomial* SymbolicValues::computed(uint32_t id) const {
  auto found = state_->values.find(id);
  return found == state_->values.end() ? nullptr : &found->second;
}

// Loads of one push-constant or uniform-buffer member are one value: the
// first such load in the function stands for all of them.
uint32_t SymbolicValues::first_constant_load(const ir::Instruction& load) const {
  uint32_t pointer = load.word(2);
  auto storage = module_.storage_class(pointer);
  if (!storage || (*storage != spv::StorageClass::PushConstant && *storage != spv::StorageClass::Uniform)) {
    return load.result_id();
  }
  // The variable and constant indices of the pointer, as a key.
  std::optional<PointerPath> path = pointer_path(module_, pointer);
  if (!path || path->element_step) return load.result_id();
  std::vector<uint64_t> key{path->variable->result_id()};
  for (uint32_t index_id : path->indices) {
    auto index = module_.constant_value(index_id);
    if (!index) return load.result_id();
    key.push_back(*index);
  }
  auto [it, inserted] = state_->constant_loads.try_emplace(key, load.result_id());
  return it->second;
}

// Component `component` of a vector value: of a built-in's load, or of the
// vector a construct built.
std::optional<Polynomial> SymbolicValues::extract(uint32_t vector, uint32_t component) const {
  const ir::Instruction* def = module_.def(vector);
  if (!def) return std::nullopt;
  if (def->opcode() == Op::OpLoad) {
    const ir::Instruction* variable = module_.def(def->word(2));
    auto builtin = variable && variable->opcode() == Op::OpVariable ? module_.builtin(variable->result_id()) : std::nullopt;
    if (builtin && component < 3) return builtin_value(*builtin, component);
  }
  if ((def->opcode() == Op::OpCompositeConstruct || def->opcode() == Op::OpConstantComposite ||
       def->opcode() == Op::OpSpecConstantComposite) &&
      2 + static_cast<size_t>(component) < def->operands().size()) {
    return value(def->word(2 + component));
  }
  if (def->opcode() == Op::OpConstantNull) return Polynomial::constant(0);
  if (def->opcode() == Op::OpCopyObject) return extract(def->word(2), component);
  // Arithmetic on whole vectors, component by component: `gl_GlobalInvocationID.xy / 8u`.
  if (!int_type(module_, def->type_id()) && def->operands().size() == 4) {
    auto a = extract(def->word(2), component);
    auto b = extract(def->word(3), component);
    if (a && b) return combine(def->opcode(), *a, *b);
  }
  if (def->opcode() == Op::OpVectorShuffle && 4 + static_cast<size_t>(component) < def->operands().size()) {
    // A component of a shuffle is a component of one of its two vectors.
    uint32_t selected = def->word(4 + component);
    const ir::Instruction* first = module_.def(def->word(2));
    const ir::Instruction* first_type = first ? module_.def(first->type_id()) : nullptr;
    uint32_t width = first_type && first_type->opcode() == Op::OpTypeVector ? first_type->word(2) : 0;
    if (!width || selected == 0xFFFFFFFFu) return std::nullopt;
    return selected < width ? extract(def->word(2), selected) : extract(def->word(3), selected - width);
  }
  return std::nullopt;
}

// A component of a function variable written once, whole, and read through
// access chains: HLSL's entry-point wrapper copies `SV_GroupThreadID` into
// such a parameter, and normalization keeps it in memory.
std::optional<Polynomial> SymbolicValues::stored_component(uint32_t pointer) const {
  const ir::Instruction* chain = module_.def(pointer);
  if (!chain || chain->opcode() != Op::OpAccessChain || chain->operands().size() != 4) return std::nullopt;
  auto component = module_.constant_value(chain->word(3));
  auto stored = single_stored_value(module_, chain->word(2));
  if (!component || !stored || *component > 3) return std::nullopt;
  return extract(*stored, static_cast<uint32_t>(*component));
}

std::optional<Polynomial> SymbolicValues::builtin_value(spv::BuiltIn builtin, uint32_t component) const {
  auto local = [&](uint32_t d) {
    return workgroup_size_[d] == 1 ? Polynomial::constant(0) : Polynomial::symbol({Symbol::Kind::LocalId, d});
  };
  auto size = [&](uint32_t d) { return static_cast<int64_t>(workgroup_size_[d]); };
  switch (builtin) {
    case spv::BuiltIn::LocalInvocationId: return local(component);
    case spv::BuiltIn::LocalInvocationIndex: {
      auto y = local(1).scaled(size(0));
      auto z = local(2).scaled(size(0) * size(1));
      if (!y || !z) return std::nullopt;
      auto xy = Polynomial::add(local(0), *y);
      return xy ? Polynomial::add(*xy, *z) : std::nullopt;
    }
    case spv::BuiltIn::GlobalInvocationId: {
      auto base = Polynomial::symbol({Symbol::Kind::WorkgroupId, component}).scaled(size(component));
      return base ? Polynomial::add(*base, local(component)) : std::nullopt;
    }
    case spv::BuiltIn::WorkgroupId: return Polynomial::symbol({Symbol::Kind::WorkgroupId, component});
    case spv::BuiltIn::NumWorkgroups: return Polynomial::symbol({Symbol::Kind::NumWorkgroups, component});
    case spv::BuiltIn::WorkgroupSize: return Polynomial::constant(size(component));
    case spv::BuiltIn::SubgroupLocalInvocationId: return Polynomial::symbol({Symbol::Kind::SubgroupLane});
    case spv::BuiltIn::SubgroupId: return Polynomial::symbol({Symbol::Kind::SubgroupId});
    case spv::BuiltIn::SubgroupSize: return Polynomial::symbol({Symbol::Kind::SubgroupSize});
    case spv::BuiltIn::NumSubgroups: return Polynomial::symbol({Symbol::Kind::NumSubgroups});
    default: return std::nullopt;
  }
}

// p / divisor (or p % divisor) when p = divisor * q + r with r's range inside
// [0, divisor): the terms divisible by the divisor make q, the others r.
std::optional<Polynomial> SymbolicValues::divide(const Polynomial& p, int64_t divisor, bool remainder) const {
  if (divisor == 1) return remainder ? Polynomial::constant(0) : p;
  if (auto constant = p.constant_value()) {
    if (*constant < 0) return std::nullopt;
    return Polynomial::constant(remainder ? *constant % divisor : *constant / divisor);
  }
  Polynomial quotient, rest;
  for (const auto& [monomial, coefficient] : p.terms()) {
    Polynomial term;
    if (monomial.empty()) {
      // Split the constant so that the rest keeps it below the divisor.
      int64_t q = floor_divide(coefficient, divisor);
      quotient = *Polynomial::add(quotient, Polynomial::constant(q));
      rest = *Polynomial::add(rest, Polynomial::constant(coefficient - q * divisor));
      continue;
    }
    Polynomial single = Polynomial::symbol(monomial.front());
    for (size_t i = 1; i < monomial.size(); ++i) single = *Polynomial::multiply(single, Polynomial::symbol(monomial[i]));
    if (coefficient % divisor == 0) {
      auto scaled = single.scaled(coefficient / divisor);
      if (!scaled) return std::nullopt;
      auto sum = Polynomial::add(quotient, *scaled);
      if (!sum) return std::nullopt;
      quotient = *sum;
    } else {
      auto scaled = single.scaled(coefficient);
      if (!scaled) return std::nullopt;
      auto sum = Polynomial::add(rest, *scaled);
      if (!sum) return std::nullopt;
      rest = *sum;
    }
  }
  Interval r = range(rest);
  if (!r.low || !r.high || *r.low < 0 || *r.high >= divisor) return std::nullopt;
  return remainder ? rest : quotient;
}

bool SymbolicValues::per_invocation(Symbol symbol) const {
  switch (symbol.kind) {
    case Symbol::Kind::LocalId: case Symbol::Kind::SubgroupLane: case Symbol::Kind::SubgroupId: return true;
    case Symbol::Kind::WorkgroupId: case Symbol::Kind::NumWorkgroups: case Symbol::Kind::SubgroupSize:
    case Symbol::Kind::NumSubgroups:
      return false;
    case Symbol::Kind::Induction: case Symbol::Kind::Value:
      // Asked when needed: uniformity reads these forms while it is built.
      return module_.uniformity(function_).value(symbol.id) != nullptr;
  }
  return true;
}

Interval SymbolicValues::range(Symbol symbol) const {
  int64_t invocations = static_cast<int64_t>(this->invocations());
  switch (symbol.kind) {
    case Symbol::Kind::LocalId: return {0, static_cast<int64_t>(workgroup_size_[symbol.id]) - 1};
    case Symbol::Kind::SubgroupLane: return {0, std::min(kWidestSubgroup, invocations) - 1};
    case Symbol::Kind::SubgroupId: return {0, (invocations + kNarrowestSubgroup - 1) / kNarrowestSubgroup - 1};
    case Symbol::Kind::SubgroupSize: return {kNarrowestSubgroup, kWidestSubgroup};
    case Symbol::Kind::NumSubgroups: return {1, (invocations + kNarrowestSubgroup - 1) / kNarrowestSubgroup};
    case Symbol::Kind::WorkgroupId: return {0, std::nullopt};
    case Symbol::Kind::NumWorkgroups: return {1, std::nullopt};
    case Symbol::Kind::Induction: {
      const Induction* induction = this->induction(symbol.id);
      if (!induction || induction->step != Induction::Step::Add) return {};
      auto initial = value(induction->initial).constant_value();
      auto step = value(induction->step_value).constant_value();
      // A 32-bit step of 2^31 or more wraps around: `i += 0xFFFFFFFF` counts down.
      const ir::Instruction* phi = module_.def(symbol.id);
      std::optional<IntType> type = phi ? int_type(module_, phi->type_id()) : std::nullopt;
      bool may_count_down = !type || (type->width == 32 && step && *step >= (int64_t{1} << 31));
      if (initial && step && *step > 0 && !may_count_down && *initial >= 0) return {*initial, std::nullopt};
      return {};
    }
    case Symbol::Kind::Value: {
      const ir::Instruction* def = module_.def(symbol.id);
      std::optional<IntType> type = def ? int_type(module_, def->type_id()) : std::nullopt;
      if (!type) return {};
      if (def->opcode() == Op::OpUMod || def->opcode() == Op::OpBitwiseAnd) {
        auto bound = value(def->word(3)).constant_value();
        if (bound && *bound > 0) return {0, def->opcode() == Op::OpUMod ? *bound - 1 : *bound};
      }
      if (!type->is_signed) return {0, std::nullopt};
      return {};
    }
  }
  return {};
}

namespace {

Interval multiply(const Interval& a, const Interval& b) {
  if (a.low && a.high && b.low && b.high) {
    std::optional<int64_t> products[] = {checked_multiply(*a.low, *b.low), checked_multiply(*a.low, *b.high),
                                         checked_multiply(*a.high, *b.low), checked_multiply(*a.high, *b.high)};
    for (const auto& product : products) {
      if (!product) return {};
    }
    auto [low, high] = std::minmax({*products[0], *products[1], *products[2], *products[3]});
    return {low, high};
  }
  // Non-negative factors with an open upper end.
  if (a.low && b.low && *a.low >= 0 && *b.low >= 0) {
    Interval result{checked_multiply(*a.low, *b.low), std::nullopt};
    if (a.high && b.high) result.high = checked_multiply(*a.high, *b.high);
    return result;
  }
  return {};
}

std::optional<int64_t> plus(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (!a || !b || !fits(*a + *b)) return std::nullopt;
  return *a + *b;
}

}  // namespace

Interval SymbolicValues::range(const Polynomial& polynomial) const {
  Interval total{0, 0};
  for (const auto& [monomial, coefficient] : polynomial.terms()) {
    Interval term{coefficient, coefficient};
    for (Symbol symbol : monomial) term = multiply(term, range(symbol));
    total = {plus(total.low, term.low), plus(total.high, term.high)};
  }
  return total;
}

std::optional<int64_t> SymbolicValues::evaluate(const Polynomial& polynomial, const Assignment& assignment) const {
  std::vector<Symbol> symbols;
  std::vector<int64_t> slots;
  for (const auto& [symbol, value] : assignment) {
    symbols.push_back(symbol);
    slots.push_back(value);
  }
  Evaluator evaluator(*this, std::move(symbols));
  return evaluator.evaluate(evaluator.add(polynomial), slots);
}

std::optional<uint32_t> SymbolicValues::stored_value(uint32_t variable) const {
  return single_stored_value(module_, variable);
}

std::string SymbolicValues::describe(Symbol symbol) const {
  switch (symbol.kind) {
    case Symbol::Kind::LocalId: return builtin_component(module_, spv::BuiltIn::LocalInvocationId, symbol.id);
    case Symbol::Kind::SubgroupLane: return builtin_name(module_, spv::BuiltIn::SubgroupLocalInvocationId);
    case Symbol::Kind::SubgroupId: return builtin_name(module_, spv::BuiltIn::SubgroupId);
    case Symbol::Kind::WorkgroupId: return builtin_component(module_, spv::BuiltIn::WorkgroupId, symbol.id);
    case Symbol::Kind::NumWorkgroups: return builtin_component(module_, spv::BuiltIn::NumWorkgroups, symbol.id);
    case Symbol::Kind::SubgroupSize: return builtin_name(module_, spv::BuiltIn::SubgroupSize);
    case Symbol::Kind::NumSubgroups: return builtin_name(module_, spv::BuiltIn::NumSubgroups);
    case Symbol::Kind::Induction: case Symbol::Kind::Value: return value_name(module_, symbol.id);
  }
  return "?";
}

std::string SymbolicValues::describe(const Polynomial& polynomial) const {
  if (polynomial.terms().empty()) return "0";
  std::string text;
  for (auto it = polynomial.terms().rbegin(); it != polynomial.terms().rend(); ++it) {
    const auto& [monomial, coefficient] = *it;
    std::string term;
    for (Symbol symbol : monomial) term += (term.empty() ? "" : " * ") + describe(symbol);
    int64_t magnitude = coefficient < 0 ? -coefficient : coefficient;
    if (term.empty()) {
      term = std::to_string(magnitude);
    } else if (magnitude != 1) {
      term += fmt::format(" * {}", magnitude);
    }
    if (text.empty()) {
      text = coefficient < 0 ? "-" + term : term;
    } else {
      text += (coefficient < 0 ? " - " : " + ") + term;
    }
  }
  return text;
}

}  // namespace klint
