#include "runner/extents.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "analyzer/cfg.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/normalize.h"
#include "analyzer/symbolic.h"
#include "runner/infer_setup.h"
#include "runner/manifest.h"

namespace klint::runner {
namespace {

using spv::Op;

// Inclusive bounds of an integer value.
struct Range {
  int64_t low = 0, high = 0;
};

std::optional<int64_t> add(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::optional<int64_t> multiply(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::optional<Range> sum(const Range& a, const Range& b) {
  std::optional<int64_t> low = add(a.low, b.low), high = add(a.high, b.high);
  if (!low || !high) return std::nullopt;
  return Range{*low, *high};
}

std::optional<Range> product(const Range& a, const Range& b) {
  std::optional<int64_t> corners[] = {multiply(a.low, b.low), multiply(a.low, b.high), multiply(a.high, b.low),
                                      multiply(a.high, b.high)};
  Range out{INT64_MAX, INT64_MIN};
  for (const std::optional<int64_t>& corner : corners) {
    if (!corner) return std::nullopt;
    out.low = std::min(out.low, *corner);
    out.high = std::max(out.high, *corner);
  }
  return out;
}

Range hull(const Range& a, const Range& b) { return {std::min(a.low, b.low), std::max(a.high, b.high)}; }

// The value an integer member of the push constants holds in the setup.
std::optional<int64_t> member_value(const std::vector<uint8_t>& bytes, const std::string& type, uint32_t offset) {
  const std::optional<ScalarType> scalar = scalar_type(type);
  if (!scalar || scalar->is_float || offset + scalar->bytes > bytes.size()) return std::nullopt;
  uint64_t raw = 0;
  std::memcpy(&raw, bytes.data() + offset, scalar->bytes);
  const uint32_t shift = 64 - 8 * scalar->bytes;
  // Sign-extended from the member's width where it is signed.
  return scalar->is_signed ? static_cast<int64_t>(raw << shift) >> shift : static_cast<int64_t>(raw);
}

// Bounds of the values a function computes, over one dispatch.
class Bounds {
 public:
  Bounds(const Module& module, const ir::Function& function, const reflect::EntryPoint& entry, const Harness& setup,
         const std::array<uint32_t, 3>& workgroup)
      : module_(module),
        function_(function),
        values_(module.symbolic(function)),
        entry_(entry),
        setup_(setup),
        workgroup_(workgroup) {}

  std::optional<Range> of(const Polynomial& polynomial, int depth) {
    if (depth > kDepth) return std::nullopt;
    Range total{0, 0};
    for (const auto& [monomial, coefficient] : polynomial.terms()) {
      std::optional<Range> term = Range{coefficient, coefficient};
      for (const Symbol& symbol : monomial) {
        std::optional<Range> factor = of(symbol, depth + 1);
        if (!factor) return std::nullopt;
        term = product(*term, *factor);
        if (!term) return std::nullopt;
      }
      std::optional<Range> next = sum(total, *term);
      if (!next) return std::nullopt;
      total = *next;
    }
    return total;
  }

  std::optional<Range> of_id(uint32_t id, int depth) { return of(values_.value(id), depth); }

 private:
  static constexpr int kDepth = 24;

  std::optional<Range> of(const Symbol& symbol, int depth) {
    const int64_t invocations = int64_t{workgroup_[0]} * workgroup_[1] * workgroup_[2];
    switch (symbol.kind) {
      case Symbol::Kind::LocalId: return Range{0, int64_t{workgroup_[symbol.id % 3]} - 1};
      case Symbol::Kind::WorkgroupId: return Range{0, int64_t{setup_.grid[symbol.id % 3]} - 1};
      case Symbol::Kind::NumWorkgroups: return Range{setup_.grid[symbol.id % 3], setup_.grid[symbol.id % 3]};
      // Any device's: up to 128 lanes.
      case Symbol::Kind::SubgroupLane: return Range{0, 127};
      case Symbol::Kind::SubgroupSize: return Range{1, 128};
      case Symbol::Kind::SubgroupId: return Range{0, invocations - 1};
      case Symbol::Kind::NumSubgroups: return Range{1, invocations};
      case Symbol::Kind::Induction: return remembered(symbol.id, depth, [&] { return counter(symbol.id, depth); });
      case Symbol::Kind::Value: return remembered(symbol.id, depth, [&] { return defined(symbol.id, depth); });
    }
    return std::nullopt;
  }

  // Each value once; one that depends on itself (through phis) is unknown.
  template <typename Compute>
  std::optional<Range> remembered(uint32_t id, int depth, Compute compute) {
    if (auto it = known_.find(id); it != known_.end()) return it->second;
    if (!busy_.insert(id).second || depth > kDepth) return std::nullopt;
    std::optional<Range> range = compute();
    busy_.erase(id);
    known_[id] = range;
    return range;
  }

  // A value the polynomial forms leave opaque, from its definition.
  std::optional<Range> defined(uint32_t id, int depth) {
    const ir::Instruction* def = module_.def(id);
    if (!def) return std::nullopt;
    auto operand = [&](size_t k) { return of_id(def->word(k), depth + 1); };
    switch (def->opcode()) {
      case Op::OpLoad: return loaded(*def);
      case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (!a || !b) return std::nullopt;
        if (def->opcode() == Op::OpIAdd) return sum(*a, *b);
        if (def->opcode() == Op::OpISub) return sum(*a, Range{-b->high, -b->low});
        return product(*a, *b);
      }
      case Op::OpUDiv: case Op::OpSDiv: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (!a || !b || a->low < 0 || b->low < 1) return std::nullopt;
        return Range{a->low / b->high, a->high / b->low};
      }
      case Op::OpUMod: case Op::OpSMod: case Op::OpSRem: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (!b || b->low < 1) return std::nullopt;
        if (def->opcode() == Op::OpUMod || (a && a->low >= 0)) {
          return Range{0, a && a->low >= 0 ? std::min(a->high, b->high - 1) : b->high - 1};
        }
        return Range{-(b->high - 1), b->high - 1};
      }
      case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (!a || !b || a->low < 0 || b->low < 0 || b->high > 62) return std::nullopt;
        return Range{a->low >> b->high, a->high >> b->low};
      }
      case Op::OpShiftLeftLogical: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (!a || !b || b->low < 0 || b->high > 30) return std::nullopt;
        return product(*a, Range{int64_t{1} << b->low, int64_t{1} << b->high});
      }
      case Op::OpBitwiseAnd: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (a && a->low >= 0 && b && b->low >= 0) return Range{0, std::min(a->high, b->high)};
        if (a && a->low >= 0) return Range{0, a->high};
        if (b && b->low >= 0) return Range{0, b->high};
        return std::nullopt;
      }
      case Op::OpBitwiseOr: case Op::OpBitwiseXor: {
        std::optional<Range> a = operand(2), b = operand(3);
        if (!a || !b || a->low < 0 || b->low < 0) return std::nullopt;
        int64_t ceiling = 1;
        while (ceiling <= std::max(a->high, b->high) && ceiling < (int64_t{1} << 62)) ceiling <<= 1;
        return Range{0, ceiling - 1};
      }
      case Op::OpSelect: {
        std::optional<Range> a = operand(3), b = operand(4);
        if (!a || !b) return std::nullopt;
        return hull(*a, *b);
      }
      case Op::OpPhi: {
        std::optional<Range> out;
        for (size_t k = 2; k + 1 < def->operands().size(); k += 2) {
          std::optional<Range> incoming = operand(k);
          if (!incoming) return std::nullopt;
          out = out ? hull(*out, *incoming) : *incoming;
        }
        return out;
      }
      case Op::OpUConvert: case Op::OpSConvert: case Op::OpBitcast: case Op::OpCopyObject: return operand(2);
      case Op::OpExtInst: return extended(*def, depth);
      default: return std::nullopt;
    }
  }

  std::optional<Range> extended(const ir::Instruction& def, int depth) {
    if (def.ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450) return std::nullopt;
    auto operand = [&](size_t k) { return k < def.operands().size() ? of_id(def.word(k), depth + 1) : std::nullopt; };
    switch (static_cast<GLSLstd450>(def.word(3))) {
      case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450UMax: case GLSLstd450SMax: {
        std::optional<Range> a = operand(4), b = operand(5);
        const bool min = def.word(3) == GLSLstd450UMin || def.word(3) == GLSLstd450SMin;
        const bool is_unsigned = def.word(3) == GLSLstd450UMin || def.word(3) == GLSLstd450UMax;
        // Unsigned, a value below 0 is past every other: min takes the
        // other operand, max is unknown.
        if (is_unsigned && min) {
          const bool a_fits = a && a->low >= 0, b_fits = b && b->low >= 0;
          if (a_fits && b_fits) return Range{std::min(a->low, b->low), std::min(a->high, b->high)};
          if (a_fits || b_fits) return Range{0, (a_fits ? a : b)->high};
          return std::nullopt;
        }
        if (!a || !b || (is_unsigned && (a->low < 0 || b->low < 0))) return std::nullopt;
        return min ? Range{std::min(a->low, b->low), std::min(a->high, b->high)}
                   : Range{std::max(a->low, b->low), std::max(a->high, b->high)};
      }
      case GLSLstd450UClamp: case GLSLstd450SClamp: {
        std::optional<Range> low = operand(5), high = operand(6);
        if (!low || !high || (def.word(3) == GLSLstd450UClamp && (low->low < 0 || high->low < 0))) return std::nullopt;
        return Range{low->low, std::max(low->high, high->high)};
      }
      default: return std::nullopt;
    }
  }

  // A scalar push constant, at the value the setup gives it.
  std::optional<Range> loaded(const ir::Instruction& load) {
    std::optional<LoadedMember> member = loaded_member(module_, load);
    if (!member || member->uniform || !entry_.push_constants || member->path.size() != 1) return std::nullopt;
    uint32_t offset = 0;
    const reflect::Member* reflected = member_at(entry_.push_constants->block.members, member->path, &offset);
    if (!reflected) return std::nullopt;
    std::optional<int64_t> value = member_value(setup_.push_constants, reflected->type, offset);
    if (!value) return std::nullopt;
    return Range{*value, *value};
  }

  // A loop counter: from its start to where the test that leaves the loop
  // stops it, plus one step.
  std::optional<Range> counter(uint32_t phi, int depth) {
    const Induction* induction = values_.induction(phi);
    if (!induction) return std::nullopt;
    std::optional<Range> initial = of_id(induction->initial, depth + 1);
    if (!initial) return std::nullopt;
    if (induction->step == Induction::Step::ShiftRight || induction->step == Induction::Step::Divide) {
      if (initial->low < 0) return std::nullopt;
      return Range{0, initial->high};
    }
    if (induction->step != Induction::Step::Add && induction->step != Induction::Step::Multiply &&
        induction->step != Induction::Step::ShiftLeft) {
      return std::nullopt;
    }
    std::optional<Range> step = of_id(induction->step_value, depth + 1);
    if (!step || step->low < 1) return std::nullopt;  // a loop counting down, or by steps klint cannot bound
    std::optional<int64_t> last = last_inside(*induction, depth);
    if (!last) return std::nullopt;
    // The value that fails the test: one step past the last inside.
    std::optional<int64_t> past;
    if (induction->step == Induction::Step::Add) past = add(std::max(*last, initial->high), step->high);
    if (induction->step == Induction::Step::Multiply) past = multiply(std::max(*last, initial->high), step->high);
    if (induction->step == Induction::Step::ShiftLeft && step->high <= 30) {
      past = multiply(std::max(*last, initial->high), int64_t{1} << step->high);
    }
    if (!past) return std::nullopt;
    return Range{initial->low, *past};
  }

  // The largest value the counter has inside its loop: from a test on every
  // iteration (its block dominates the back edge) that leaves the loop
  // unless `counter + k < bound` (or <=).
  std::optional<int64_t> last_inside(const Induction& induction, int depth) {
    const Cfg& cfg = module_.cfg(function_);
    const DominatorTree& dominators = module_.dominators(function_);
    const Loop* loop = nullptr;
    for (const Loop& l : module_.loops(function_)) {
      if (l.header == induction.header) loop = &l;
    }
    if (!loop || !loop->merge) return std::nullopt;
    const int merge = cfg.index_of(loop->merge->word(0));
    const int latch = cfg.index_of(loop->merge->word(1));
    if (merge < 0 || latch < 0) return std::nullopt;
    std::optional<int64_t> best;
    for (uint32_t b = 0; b < function_.blocks.size() && b < loop->body.size(); ++b) {
      if (!loop->body[b] || function_.blocks[b].instructions.empty() ||
          !dominators.dominates(b, static_cast<uint32_t>(latch))) {
        continue;
      }
      const ir::Instruction& branch = function_.blocks[b].instructions.back();
      if (branch.opcode() != Op::OpBranchConditional) continue;
      const int on_true = cfg.index_of(branch.word(1)), on_false = cfg.index_of(branch.word(2));
      if (on_true != merge && on_false != merge) continue;
      std::optional<int64_t> bound = bound_from(branch.word(0), induction, on_true == merge, depth);
      if (bound) best = best ? std::min(*best, *bound) : *bound;
    }
    return best;
  }

  // What `condition` says of the counter where the loop goes on (the
  // condition holds, or fails where `leaves_when_true`).
  std::optional<int64_t> bound_from(uint32_t condition, const Induction& induction, bool leaves_when_true,
                                    int depth) {
    const ir::Instruction* test = module_.def(condition);
    if (!test) return std::nullopt;
    if (test->opcode() == Op::OpLogicalNot) return bound_from(test->word(2), induction, !leaves_when_true, depth);
    Op op = test->opcode();
    if (!ir::is_comparison(op)) return std::nullopt;
    uint32_t left = test->word(2), right = test->word(3);
    // As `counter + k OP bound`.
    auto offset = [&](uint32_t id) -> std::optional<int64_t> {
      std::optional<Polynomial> difference =
          Polynomial::add(values_.value(id), *Polynomial::symbol({Symbol::Kind::Induction, induction.phi}).negated());
      if (!difference) return std::nullopt;
      return difference->constant_value();
    };
    std::optional<int64_t> k = offset(left);
    if (!k) {  // bound OP counter, turned around
      k = offset(right);
      if (!k) return std::nullopt;
      std::swap(left, right);
      op = ir::swapped_comparison(op);
    }
    // What holds inside the loop: `counter + k < bound` or `<= bound`.
    if (leaves_when_true) op = ir::negated_comparison(op);
    const bool or_equal = op == Op::OpULessThanEqual || op == Op::OpSLessThanEqual;
    if (!or_equal && op != Op::OpULessThan && op != Op::OpSLessThan) return std::nullopt;
    std::optional<Range> bound = of_id(right, depth + 1);
    const bool is_unsigned = op == Op::OpULessThan || op == Op::OpULessThanEqual;
    // Unsigned, a bound below 0 is past every counter: no bound at all.
    if (!bound || (is_unsigned && bound->low < 0)) return std::nullopt;
    return bound->high - (or_equal ? 0 : 1) - *k;
  }

  const Module& module_;
  const ir::Function& function_;
  const SymbolicValues& values_;
  const reflect::EntryPoint& entry_;
  const Harness& setup_;
  std::array<uint32_t, 3> workgroup_;
  std::map<uint32_t, std::optional<Range>> known_;
  std::set<uint32_t> busy_;
};

bool in_function(const Module& module, const ir::Function& function, const ir::Instruction& instruction) {
  const ir::Block* block = module.block_of(instruction);
  return block && module.function_of(*block) == &function;
}

// The largest element index of the runtime array (member `member` of the
// block) that the uses of `pointer` (the variable, or a chain into it that
// has taken `taken` indices) reach; nullopt where one is unbounded or klint
// cannot tell what a use does.
std::optional<int64_t> largest_index(const Module& module, const ir::Function& function, Bounds& bounds,
                                     uint32_t pointer, size_t taken, uint32_t member) {
  int64_t largest = -1;
  for (const ir::Instruction* use : module.uses(pointer)) {
    const Op op = use->opcode();
    const bool chain = (op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain) && use->word(2) == pointer;
    if (!chain) {
      // Within one element whatever it does, but for a pointer that
      // strides past it; of the array, only its length.
      const bool strides = op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain ||
                           op == Op::OpConvertPtrToU || op == Op::OpBitcast || op == Op::OpFunctionCall;
      if ((taken >= 2 && !strides) || op == Op::OpArrayLength || op == Op::OpEntryPoint || op == Op::OpName ||
          op == Op::OpDecorate) {
        continue;
      }
      return std::nullopt;
    }
    if (!in_function(module, function, *use)) return std::nullopt;
    size_t position = taken;
    bool on_array = true;
    for (size_t k = 3; k < use->operands().size(); ++k, ++position) {
      if (position == 0) {
        std::optional<uint64_t> index = module.constant_value(use->word(k));
        if (!index) return std::nullopt;
        on_array = *index == member;
      } else if (position == 1 && on_array) {
        std::optional<Range> range = bounds.of_id(use->word(k), 0);
        if (!range) return std::nullopt;
        largest = std::max(largest, range->high);
      }
    }
    if (!on_array) continue;
    if (position < 2) {
      std::optional<int64_t> further = largest_index(module, function, bounds, use->result_id(), position, member);
      if (!further) return std::nullopt;
      largest = std::max(largest, *further);
    }
  }
  return largest;
}

// The variable's runtime array: the last member of its block, where it has one.
std::optional<uint32_t> runtime_member(const Module& module, const ir::Instruction& variable) {
  const ir::Instruction* pointer = module.def(variable.type_id());
  const ir::Instruction* block = pointer ? module.def(pointer->word(2)) : nullptr;
  if (!block || block->opcode() != Op::OpTypeStruct || block->operands().size() < 2) return std::nullopt;
  const uint32_t last = static_cast<uint32_t>(block->operands().size() - 2);
  const ir::Instruction* array = module.def(block->word(last + 1));
  if (!array || array->opcode() != Op::OpTypeRuntimeArray) return std::nullopt;
  return last;
}

std::pair<uint32_t, uint32_t> binding_of(const Module& module, uint32_t variable) {
  return {module.decoration(variable, spv::Decoration::DescriptorSet).value_or(0),
          module.decoration(variable, spv::Decoration::Binding).value_or(0)};
}

bool is_storage_buffer(const ir::Instruction& variable) {
  return variable.opcode() == Op::OpVariable &&
         static_cast<spv::StorageClass>(variable.word(2)) == spv::StorageClass::StorageBuffer;
}

// Which storage buffers hold whole indices: words of a runtime array of
// 32-bit integers, loaded and carried by arithmetic, conversions and choices
// (not shifts or masks, which unpack data) into an array's index. Each gets
// integers below what keeps every such index in its array: the array's
// length over the largest multiple of the word the index takes.
class IndexFinder {
 public:
  IndexFinder(const Module& module, const ir::Function& function, const reflect::EntryPoint& entry,
              const Harness& setup, const HarnessOptions& options, Bounds& bounds)
      : module_(module), function_(function), entry_(entry), setup_(setup), options_(options), bounds_(bounds) {}

  std::vector<IndexBuffer> find() {
    std::map<std::pair<uint32_t, uint32_t>, IndexBuffer> found;
    for (const ir::Instruction& variable : module_.ir().globals) {
      if (!is_storage_buffer(variable) || !module_.decoration(variable.result_id(), spv::Decoration::Binding)) continue;
      std::optional<uint32_t> member = runtime_member(module_, variable);
      if (!member || !holds_integers(variable, *member)) continue;
      for (uint32_t loaded : loads(variable.result_id(), 0, *member)) {
        follow(loaded, binding_of(module_, variable.result_id()), found);
      }
    }
    std::vector<IndexBuffer> out;
    for (auto& [key, buffer] : found) out.push_back(std::move(buffer));
    return out;
  }

 private:
  bool holds_integers(const ir::Instruction& variable, uint32_t member) const {
    const ir::Instruction* block = module_.def(module_.def(variable.type_id())->word(2));
    const ir::Instruction* array = module_.def(block->word(member + 1));
    const ir::Instruction* element = array ? module_.def(array->word(1)) : nullptr;
    return element && element->opcode() == Op::OpTypeInt && element->word(1) == 32;
  }

  // The ids of the loads of the runtime array's elements through `pointer`,
  // a chain that has taken `taken` indices.
  std::vector<uint32_t> loads(uint32_t pointer, size_t taken, uint32_t member) const {
    std::vector<uint32_t> out;
    for (const ir::Instruction* use : module_.uses(pointer)) {
      if (use->opcode() == Op::OpLoad && taken >= 2) out.push_back(use->result_id());
      if ((use->opcode() != Op::OpAccessChain && use->opcode() != Op::OpInBoundsAccessChain) ||
          use->word(2) != pointer) {
        continue;
      }
      const size_t count = use->operands().size() - 3;
      if (taken == 0 && count > 0) {
        std::optional<uint64_t> index = module_.constant_value(use->word(3));
        if (!index || *index != member) continue;
      }
      for (uint32_t id : loads(use->result_id(), taken + count, member)) out.push_back(id);
    }
    return out;
  }

  static bool carries(Op op) {
    switch (op) {
      case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpUConvert: case Op::OpSConvert:
      case Op::OpBitcast: case Op::OpCopyObject: case Op::OpPhi: case Op::OpSelect: case Op::OpExtInst:
        return true;
      default:
        return false;
    }
  }

  using Found = std::map<std::pair<uint32_t, uint32_t>, IndexBuffer>;

  void follow(uint32_t loaded, std::pair<uint32_t, uint32_t> key, Found& found) {
    std::set<uint32_t> seen{loaded};
    std::vector<uint32_t> work{loaded};
    while (!work.empty() && seen.size() < 64) {
      const uint32_t id = work.back();
      work.pop_back();
      for (const ir::Instruction* use : module_.uses(id)) {
        const Op op = use->opcode();
        if (op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain) {
          for (size_t k = 3; k < use->operands().size(); ++k) {
            if (use->word(k) == id) indexed(*use, k, loaded, key, found);
          }
          continue;
        }
        if (carries(op) && use->result_id() && seen.insert(use->result_id()).second) work.push_back(use->result_id());
      }
    }
  }

  // The word `loaded` reached index `k` of `chain`.
  void indexed(const ir::Instruction& chain, size_t k, uint32_t loaded, std::pair<uint32_t, uint32_t> key,
               Found& found) {
    std::optional<uint64_t> length = length_at(chain, k);
    if (!length || *length == 0) return;
    // The largest multiple of the word the index takes: the coefficient of
    // its symbol, with the other factors of each term at their largest.
    const Polynomial& index = module_.symbolic(function_).value(chain.word(k));
    const Symbol word{Symbol::Kind::Value, loaded};
    int64_t multiple = 0;
    for (const auto& [monomial, coefficient] : index.terms()) {
      if (std::count(monomial.begin(), monomial.end(), word) != 1) continue;
      Polynomial rest = Polynomial::constant(coefficient);
      for (const Symbol& s : monomial) {
        if (s == word) continue;
        std::optional<Polynomial> next = Polynomial::multiply(rest, Polynomial::symbol(s));
        if (!next) return;
        rest = *next;
      }
      std::optional<Range> range = bounds_.of(rest, 0);
      if (!range || range->high < 1) return;
      multiple += range->high;
    }
    const uint64_t values = std::max<uint64_t>(*length / static_cast<uint64_t>(std::max<int64_t>(multiple, 1)), 1);
    const Location at = module_.nearest_location(chain);
    std::string name = array_name(chain);
    auto [it, fresh] = found.try_emplace(key);
    if (fresh || values < it->second.values) {
      it->second = IndexBuffer{key.first, key.second, values,
                               fmt::format("its words index {}{}", name.empty() ? "an array" : "'" + name + "'",
                                           at.has_line() ? fmt::format(" at line {}", at.line) : "")};
    }
  }

  // A buffer's array by its member's name ('x' of `buffer X { float x[]; }`),
  // any other by its variable's.
  std::string array_name(const ir::Instruction& chain) const {
    const ir::Instruction* first = &chain;
    while (const ir::Instruction* def = module_.def(first->word(2))) {
      if (def->opcode() != Op::OpAccessChain && def->opcode() != Op::OpInBoundsAccessChain) break;
      first = def;
    }
    const ir::Instruction* variable = module_.def(first->word(2));
    if (variable && is_storage_buffer(*variable) && first->operands().size() > 3) {
      const ir::Instruction* pointer = module_.def(variable->type_id());
      std::optional<uint64_t> member = module_.constant_value(first->word(3));
      if (pointer && member) {
        std::string name = module_.member_name(pointer->word(2), static_cast<uint32_t>(*member));
        if (!name.empty()) return name;
      }
    }
    return module_.variable_name(first->word(2));
  }

  // The length of the array that index `k` of `chain` indexes: a fixed
  // array's, a vector's, or the elements the harness gives a storage
  // buffer's runtime array.
  std::optional<uint64_t> length_at(const ir::Instruction& chain, size_t k) const {
    const ir::Instruction* base = module_.def(chain.word(2));
    const ir::Instruction* pointer = base ? module_.def(base->type_id()) : nullptr;
    if (!pointer || pointer->opcode() != Op::OpTypePointer) return std::nullopt;
    const ir::Instruction* type = module_.def(pointer->word(2));
    for (size_t i = 3; i < k && type; ++i) {
      if (type->opcode() == Op::OpTypeStruct) {
        std::optional<uint64_t> member = module_.constant_value(chain.word(i));
        if (!member || *member + 1 >= type->operands().size()) return std::nullopt;
        type = module_.def(type->word(static_cast<uint32_t>(*member) + 1));
      } else {
        type = module_.def(type->word(1));
      }
    }
    if (!type) return std::nullopt;
    switch (type->opcode()) {
      case Op::OpTypeArray: return module_.constant_value(type->word(2));
      case Op::OpTypeVector: case Op::OpTypeMatrix: return type->word(2);
      case Op::OpTypeRuntimeArray: break;
      default: return std::nullopt;
    }
    // A runtime array: of a storage buffer reached straight from its variable.
    uint32_t root = chain.word(2);
    size_t before = 0;
    while (const ir::Instruction* def = module_.def(root)) {
      if (def->opcode() != Op::OpAccessChain && def->opcode() != Op::OpInBoundsAccessChain) break;
      before += def->operands().size() - 3;
      root = def->word(2);
    }
    const ir::Instruction* variable = module_.def(root);
    if (!variable || !is_storage_buffer(*variable) || before + k - 3 != 1) return std::nullopt;
    const auto [set, binding] = binding_of(module_, root);
    for (const Extent& e : options_.extents) {
      if (e.set == set && e.binding == binding) return e.elements;
    }
    for (const reflect::Binding& b : entry_.bindings) {
      if (b.set != set || b.binding != binding || !b.block || b.block->members.empty()) continue;
      const uint32_t stride = std::max<uint32_t>(b.block->members.back().array_stride.value_or(4), 1);
      return guessed_runtime_elements(entry_, setup_.grid, options_, stride);
    }
    return std::nullopt;
  }

  const Module& module_;
  const ir::Function& function_;
  const reflect::EntryPoint& entry_;
  const Harness& setup_;
  const HarnessOptions& options_;
  Bounds& bounds_;
};

// The entry point's function, where the setup's workgroup is the module's
// default (which the symbolic forms split the global id at).
const ir::Function* analyzed_function(const Module& module, const reflect::EntryPoint& entry, const Harness& setup) {
  auto own = std::find_if(module.entry_points().begin(), module.entry_points().end(),
                          [&](const EntryPoint& e) { return e.name == entry.name && e.function; });
  if (own == module.entry_points().end()) return nullptr;
  const std::array<uint32_t, 3> workgroup = workgroup_size(entry, setup);
  const std::array<uint64_t, 3>& assumed = module.symbolic(*own->function).workgroup_size();
  for (size_t axis = 0; axis < 3; ++axis) {
    if (assumed[axis] != workgroup[axis]) return nullptr;
  }
  return own->function;
}

// The extents of the runtime arrays of the storage buffers `function` indexes.
std::vector<Extent> extents_of(const Module& module, const ir::Function& function, Bounds& bounds) {
  std::vector<Extent> extents;
  // Per binding, the largest index over the views declared on it; a binding
  // one of whose views klint cannot bound gets none.
  std::map<std::pair<uint32_t, uint32_t>, std::optional<int64_t>> largest;
  for (const ir::Instruction& variable : module.ir().globals) {
    if (!is_storage_buffer(variable) || !module.decoration(variable.result_id(), spv::Decoration::Binding)) continue;
    const std::pair<uint32_t, uint32_t> key = binding_of(module, variable.result_id());
    const std::optional<uint32_t> last = runtime_member(module, variable);
    if (!last) continue;
    std::optional<int64_t> index = largest_index(module, function, bounds, variable.result_id(), 0, *last);
    auto [it, fresh] = largest.try_emplace(key, index);
    if (!fresh) it->second = it->second && index ? std::optional(std::max(*it->second, *index)) : std::nullopt;
  }
  for (const auto& [key, index] : largest) {
    if (index) {
      extents.push_back(Extent{key.first, key.second, static_cast<uint64_t>(std::max<int64_t>(*index, 0)) + 1});
    }
  }
  return extents;
}

}  // namespace

std::vector<Extent> index_extents(const Module& module, const reflect::EntryPoint& entry, const Harness& setup) {
  const ir::Function* function = analyzed_function(module, entry, setup);
  if (!function) return {};
  Bounds bounds(module, *function, entry, setup, workgroup_size(entry, setup));
  return extents_of(module, *function, bounds);
}

void size_from_indices(const Module& module, const reflect::EntryPoint& entry, const Harness& setup,
                       HarnessOptions& options) {
  options.extents.clear();
  options.index_buffers.clear();
  const ir::Function* function = analyzed_function(module, entry, setup);
  if (!function) return;
  // One set of bounds for both: the values each looks up are the same.
  Bounds bounds(module, *function, entry, setup, workgroup_size(entry, setup));
  options.extents = extents_of(module, *function, bounds);
  options.index_buffers = IndexFinder(module, *function, entry, setup, options, bounds).find();
}

void size_from_indices(const std::vector<uint32_t>& spirv, spv_target_env env, const ModuleOrigin& origin,
                       const reflect::EntryPoint& entry, const Harness& setup, HarnessOptions& options) {
  std::string error;
  std::optional<std::vector<uint32_t>> normalized = normalize(spirv, env, &error);
  std::optional<ir::Module> decoded = normalized ? ir::decode(*normalized, nullptr) : std::nullopt;
  if (!decoded) return;
  const Module module(std::move(*decoded), origin);
  size_from_indices(module, entry, setup, options);
}

}  // namespace klint::runner
