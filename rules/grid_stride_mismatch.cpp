#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "analyzer/builtin_names.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/ssa.h"
#include "analyzer/symbolic.h"
#include "analyzer/workgroup_memory.h"
#include "rules/rule.h"
#include "rules/support/loop_counter.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "grid-stride-mismatch",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::GridStrideRepeat,
    .summary = "loop that starts at the global invocation id but steps by the workgroup size, or the reverse",
    .doc = R"md(
## What it finds
A loop whose counter starts at the invocation's index in the whole dispatch
(`gl_GlobalInvocationID.x`, `gl_WorkGroupID.x * gl_WorkGroupSize.x +
gl_LocalInvocationID.x`, HLSL `SV_DispatchThreadID.x`) but adds the size of
one workgroup on each iteration (`gl_WorkGroupSize.x`, the `local_size_x`
literal, its specialization constant, the `[numthreads]` count), or one that
starts at the index within the workgroup (`gl_LocalInvocationID.x`,
`gl_LocalInvocationIndex` in a one-dimensional workgroup) but adds the size of
the whole dispatch (`gl_NumWorkGroups.x * gl_WorkGroupSize.x`). The start and
the step are followed through arithmetic, copies and conversions, along each
dimension separately.

## Why it matters
A loop that lets many invocations share a range of elements must start each
invocation at its index in some set of invocations and step by the size of
that same set. Start at the global index and step by the workgroup size, and
invocation `k` of workgroup `w + 1` starts on the element that invocation `k`
of workgroup `w` handles next: every element past the first workgroup is
processed again by each workgroup below it, which races on read-modify-write
updates and double-counts sums. Start at the local index and step by the size
of the dispatch, and every workgroup processes the same elements while those
between one workgroup's width and the dispatch's are never touched. Both
loops give the right answer when the dispatch has exactly one workgroup, which
is how such kernels pass their first test.

## Bad
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    // each workgroup redoes the elements of all the workgroups above it
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_WorkGroupSize.x) x[i] *= 2.0;
}
```

## Fix
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;  // the whole dispatch
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) x[i] *= 2.0;
}
```
When one workgroup is meant to cover the range (a row per workgroup), start
at `gl_LocalInvocationID.x` and keep the workgroup-size step.

## Exceptions
Loops that stay within one workgroup's part of the data are silent: those
whose bound depends on the workgroup id (`i < (gl_WorkGroupID.x + 1) * D`),
and starts such as `row * n + gl_LocalInvocationID.x` that klint cannot prove
to be the global index. Steps it cannot tie to a workgroup or dispatch size
(push constants, literals other than the workgroup size) are silent too, as
are dimensions along which the workgroup is one invocation wide, where the
step is an ordinary count. A kernel that is always dispatched as a single
workgroup (along the loop's dimension) runs these loops correctly; say so by
starting at `gl_LocalInvocationID`, which means the same there. A kernel that
says so itself is silent too: one that indexes shared memory by the same
global id (`tile[gl_GlobalInvocationID.x]` with a tile as wide as the
workgroup, unguarded) would index past the tile in every workgroup but the
first, so it is written for one workgroup along that axis.
)md",
};

using spv::Op;

constexpr int kMaxDepth = 32;
constexpr const char* kAxis[] = {"x", "y", "z"};

// The built-ins a loop's start and step are made of, each along one dimension.
enum class Source : int8_t { None = -1, GlobalId, LocalId, LocalIndex, WorkgroupId, NumWorkgroups };

// One product in a sum: a built-in along a dimension (or none), times the
// workgroup sizes of the dimensions in `sizes` that specialization constants
// give (bit d for dimension d). Fixed workgroup sizes are folded into the
// product's integer factor.
struct Term {
  Source source = Source::None;
  int8_t dim = 0;
  uint8_t sizes = 0;
  auto operator<=>(const Term&) const = default;
};

// An integer expression as a sum of terms with their factors; no zero
// factors. Factors wrap around as unsigned integers do.
using Sum = std::map<Term, uint64_t>;

Sum add(Sum a, const Sum& b, bool subtract = false) {
  for (const auto& [term, factor] : b) {
    if ((a[term] += subtract ? 0 - factor : factor) == 0) a.erase(term);
  }
  return a;
}

std::optional<Sum> multiply(const Sum& a, const Sum& b) {
  Sum out;
  for (const auto& [x, fx] : a) {
    for (const auto& [y, fy] : b) {
      if ((x.source != Source::None && y.source != Source::None) || (x.sizes & y.sizes)) return std::nullopt;
      Term term = x.source != Source::None ? x : y;
      term.sizes = x.sizes | y.sizes;
      if ((out[term] += fx * fy) == 0) out.erase(term);
    }
  }
  return out;
}

// A built-in value read along a dimension, and where it was read.
struct Read {
  spv::BuiltIn builtin;
  int dim;
  const ir::Instruction* load;
};

// Evaluates integer values of one entry point as sums of built-ins and
// constants, knowing its workgroup size. Anything else (push constants, buffer
// loads, other specialization constants) makes the value unknown.
class Evaluator {
 public:
  Evaluator(const Module& module, const std::array<WorkgroupDimension, 3>& size) : module_(module), size_(size) {}

  struct Value {
    Sum sum;
    std::vector<Read> reads;  // in the order they were met
  };

  std::optional<Value> evaluate(uint32_t id) {
    reads_.clear();
    auto sum = component(id, 0, 0);
    if (!sum) return std::nullopt;
    return Value{*sum, reads_};
  }

  // The workgroup size along `dim`, as a sum.
  Sum size(int dim) const {
    if (size_[dim].spec_id) return {{Term{Source::None, 0, static_cast<uint8_t>(1u << dim)}, 1}};
    return {{Term{}, size_[dim].value}};
  }
  uint64_t size_value(int dim) const { return size_[dim].value; }
  bool one_dimensional() const {
    return !size_[1].spec_id && !size_[2].spec_id && size_[1].value == 1 && size_[2].value == 1;
  }

 private:
  static Sum of(Source source, int dim) { return {{Term{source, static_cast<int8_t>(dim), 0}, 1}}; }

  // Component `index` of `id` (0 for scalars).
  std::optional<Sum> component(uint32_t id, uint32_t index, int depth) {
    if (depth > kMaxDepth) return std::nullopt;
    id = copied_value(module_, id);
    const ir::Instruction* definition = module_.def(id);
    if (!definition) return std::nullopt;
    if (module_.builtin(id) == spv::BuiltIn::WorkgroupSize && index < 3) return size(static_cast<int>(index));
    Op op = definition->opcode();
    size_t first = 2;  // operands of the operation
    if (op == Op::OpSpecConstantOp) {
      op = static_cast<Op>(definition->word(2));
      first = 3;
    }
    auto operand = [&](size_t i, uint32_t at) { return component(definition->word(first + i), at, depth + 1); };
    switch (op) {
      case Op::OpConstant:
        if (auto value = module_.constant_value(id)) return Sum{{Term{}, *value}};
        return std::nullopt;
      case Op::OpConstantNull:
        return Sum{};
      case Op::OpSpecConstant:
        return specialization_constant(id);
      case Op::OpConstantComposite:
      case Op::OpSpecConstantComposite:
      case Op::OpCompositeConstruct:
        return element(*definition, index, depth);
      case Op::OpCompositeExtract:
        if (definition->operands().size() != first + 2) return std::nullopt;
        return operand(0, definition->word(first + 1));
      case Op::OpVectorShuffle:
        return shuffle(*definition, index, depth);
      case Op::OpLoad:
        return load(*definition, index, depth);
      case Op::OpCopyObject:
      case Op::OpBitcast:
      case Op::OpUConvert:
      case Op::OpSConvert:
        return operand(0, index);
      case Op::OpIAdd:
      case Op::OpISub: {
        auto a = operand(0, index), b = operand(1, index);
        if (!a || !b) return std::nullopt;
        return add(*a, *b, op == Op::OpISub);
      }
      case Op::OpIMul: {
        auto a = operand(0, index), b = operand(1, index);
        if (!a || !b) return std::nullopt;
        return multiply(*a, *b);
      }
      case Op::OpShiftLeftLogical: {
        auto a = operand(0, index), b = operand(1, index);
        if (!a || !b || b->size() > 1 || (b->size() == 1 && b->begin()->first != Term{})) return std::nullopt;
        uint64_t shift = b->empty() ? 0 : b->begin()->second;
        if (shift > 63) return std::nullopt;
        return multiply(*a, Sum{{Term{}, uint64_t{1} << shift}});
      }
      default:
        return std::nullopt;
    }
  }

  std::optional<Sum> specialization_constant(uint32_t id) const {
    auto spec = module_.spec_id(id);
    for (int dim = 0; dim < 3; ++dim) {
      if (spec && size_[dim].spec_id == spec) return size(dim);
    }
    return std::nullopt;  // may be specialized to anything
  }

  std::optional<Sum> element(const ir::Instruction& composite, uint32_t index, int depth) {
    size_t at = 2 + index;
    if (at >= composite.operands().size()) return std::nullopt;
    const ir::Instruction* part = module_.def(composite.word(at));
    const ir::Instruction* type = part ? module_.def(part->type_id()) : nullptr;
    if (!type || type->opcode() == Op::OpTypeVector) return std::nullopt;  // only one scalar per component
    return component(composite.word(at), 0, depth + 1);
  }

  std::optional<Sum> shuffle(const ir::Instruction& shuffle, uint32_t index, int depth) {
    if (4 + index >= shuffle.operands().size()) return std::nullopt;
    uint32_t pick = shuffle.word(4 + index);
    const ir::Instruction* first = module_.def(shuffle.word(2));
    const ir::Instruction* type = first ? module_.def(first->type_id()) : nullptr;
    if (!type || type->opcode() != Op::OpTypeVector) return std::nullopt;
    uint32_t count = type->word(2);
    if (pick < count) return component(shuffle.word(2), pick, depth + 1);
    return component(shuffle.word(3), pick - count, depth + 1);
  }

  std::optional<Sum> load(const ir::Instruction& load, uint32_t index, int depth) {
    std::optional<PointerPath> path = pointer_path(module_, load.word(2));
    if (!path || path->element_step || path->indices.size() > 1) return std::nullopt;
    if (!path->indices.empty()) {
      auto at = module_.constant_value(path->indices.front());
      if (!at || *at > 2) return std::nullopt;
      index = static_cast<uint32_t>(*at);
    }
    const ir::Instruction* pointer = path->variable;
    if (uint32_t stored = stored_once(module_, pointer->result_id())) return component(stored, index, depth + 1);
    auto builtin = module_.builtin(pointer->result_id());
    if (!builtin || index > 2) return std::nullopt;
    int dim = static_cast<int>(index);
    Source source = Source::None;
    switch (*builtin) {
      case spv::BuiltIn::GlobalInvocationId: source = Source::GlobalId; break;
      case spv::BuiltIn::LocalInvocationId: source = Source::LocalId; break;
      case spv::BuiltIn::WorkgroupId: source = Source::WorkgroupId; break;
      case spv::BuiltIn::NumWorkgroups: source = Source::NumWorkgroups; break;
      case spv::BuiltIn::LocalInvocationIndex:
        // The local id along x when the workgroup has no other dimension.
        source = one_dimensional() ? Source::LocalId : Source::LocalIndex;
        dim = 0;
        break;
      case spv::BuiltIn::WorkgroupSize:
        return size(dim);
      default:
        return std::nullopt;
    }
    reads_.push_back({*builtin, dim, &load});
    return of(source, dim);
  }

  const Module& module_;
  const std::array<WorkgroupDimension, 3>& size_;
  std::vector<Read> reads_;
};

// What a loop's start or step is, along one dimension.
enum class Shape { GlobalId, LocalId, WorkgroupSize, DispatchSize };

bool is_shape(const Evaluator& evaluator, const Sum& sum, Shape shape, int dim) {
  auto of = [&](Source source) { return Sum{{Term{source, static_cast<int8_t>(dim), 0}, 1}}; };
  switch (shape) {
    case Shape::GlobalId:
      return sum == of(Source::GlobalId) ||
             sum == add(*multiply(of(Source::WorkgroupId), evaluator.size(dim)), of(Source::LocalId));
    case Shape::LocalId:
      return sum == of(Source::LocalId);
    case Shape::WorkgroupSize:
      return evaluator.size_value(dim) > 1 && sum == evaluator.size(dim);
    case Shape::DispatchSize:
      return evaluator.size_value(dim) > 1 && sum == *multiply(of(Source::NumWorkgroups), evaluator.size(dim));
  }
  return false;
}

// Whether `id` is computed from the workgroup's id (directly or through the
// global invocation id), not looking into the phis of the loop's header.
bool depends_on_workgroup(const Module& module, const Cfg& cfg, const Loop& loop, uint32_t id) {
  std::vector<uint32_t> work{id};
  std::set<uint32_t> seen;
  while (!work.empty()) {
    uint32_t next = work.back();
    work.pop_back();
    if (!seen.insert(next).second) continue;
    const ir::Instruction* definition = module.def(next);
    if (!definition) continue;
    if (definition->opcode() == Op::OpPhi && block_index(module, cfg, *definition) == static_cast<int>(loop.header)) {
      continue;
    }
    auto builtin = module.builtin(next);
    if (builtin == spv::BuiltIn::WorkgroupId || builtin == spv::BuiltIn::GlobalInvocationId) return true;
    if (definition->opcode() == Op::OpVariable) {
      // What a local variable holds is what was stored to it (HLSL's parameters).
      for (const ir::Instruction* use : module.uses(next)) {
        if (use->opcode() == Op::OpStore && use->word(0) == next) work.push_back(use->word(1));
      }
    }
    for (uint32_t input : definition->input_ids()) {
      const ir::Instruction* in = module.def(input);
      if (in && in->opcode() != Op::OpLabel) work.push_back(input);
    }
  }
  return false;
}

// Whether the loop's range belongs to one workgroup: a condition on which it
// exits depends on the workgroup id, as in `i < (gl_WorkGroupID.x + 1) * D`.
bool bounded_per_workgroup(const Module& module, const ir::Function& function, const Loop& loop) {
  const Cfg& cfg = module.cfg(function);
  for (uint32_t block = 0; block < function.blocks.size(); ++block) {
    if (!loop.body[block]) continue;
    const ir::Instruction& branch = function.blocks[block].terminator();
    if (branch.opcode() != Op::OpBranchConditional) continue;
    bool exits = false;
    for (uint32_t next : cfg.successors(block)) exits |= !loop.body[next];
    if (exits && depends_on_workgroup(module, cfg, loop, branch.word(0))) return true;
  }
  return false;
}

// A read's built-in as the source spells it: "gl_LocalInvocationID.x", "SV_GroupIndex".
std::string read_name(const Module& module, const Read& read) {
  if (read.builtin == spv::BuiltIn::LocalInvocationIndex) return builtin_name(module, read.builtin);
  return builtin_component(module, read.builtin, static_cast<uint32_t>(read.dim));
}

struct Mismatch {
  const Loop* loop;
  const Induction* variable;
  Shape start;  // GlobalId or LocalId
  int dim;
  std::vector<Read> start_reads;
};

class GridStrideMismatch final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (!entry.function || !entry.workgroup_size) continue;
      Evaluator evaluator(module, *entry.workgroup_size);
      const SymbolicValues& values = module.symbolic(*entry.function);
      for (const Loop& loop : module.loops(*entry.function)) {
        for (const ir::Instruction& phi : entry.function->blocks[loop.header].instructions) {
          if (phi.opcode() != Op::OpPhi) continue;
          const Induction* counting = values.induction(phi.result_id());
          if (!counting || !counting->counts()) continue;
          const Induction& variable = *counting;
          auto mismatch = find_mismatch(evaluator, loop, variable);
          if (!mismatch || bounded_per_workgroup(module, *entry.function, loop)) continue;
          // A kernel that indexes shared memory by its global id is written
          // for one workgroup along that axis, where these loops are right.
          if (single_workgroup_access(module, entry, mismatch->dim)) continue;
          report_mismatch(module, evaluator, *mismatch, report);
          break;
        }
      }
    }
  }

 private:
  static std::optional<Mismatch> find_mismatch(Evaluator& evaluator, const Loop& loop,
                                               const Induction& variable) {
    auto step = evaluator.evaluate(variable.step_value);
    auto start = evaluator.evaluate(variable.initial);
    if (!step || !start) return std::nullopt;
    for (int dim = 0; dim < 3; ++dim) {
      if (is_shape(evaluator, start->sum, Shape::GlobalId, dim) &&
          is_shape(evaluator, step->sum, Shape::WorkgroupSize, dim)) {
        return Mismatch{&loop, &variable, Shape::GlobalId, dim, start->reads};
      }
      if (is_shape(evaluator, start->sum, Shape::LocalId, dim) &&
          is_shape(evaluator, step->sum, Shape::DispatchSize, dim)) {
        return Mismatch{&loop, &variable, Shape::LocalId, dim, start->reads};
      }
    }
    return std::nullopt;
  }

  static void report_mismatch(const Module& module, const Evaluator& evaluator, const Mismatch& mismatch,
                              Reporter& report) {
    const bool hlsl = module.is_hlsl();
    auto local = builtin_component(module, spv::BuiltIn::LocalInvocationId, static_cast<uint32_t>(mismatch.dim));
    auto global = builtin_component(module, spv::BuiltIn::GlobalInvocationId, static_cast<uint32_t>(mismatch.dim));
    uint64_t size = evaluator.size_value(mismatch.dim);
    const char* axis = kAxis[mismatch.dim];
    std::string start;
    for (size_t i = 0; i < mismatch.start_reads.size(); ++i) {
      const Read& read = mismatch.start_reads[i];
      start += (i ? " + " : "") + read_name(module, read);
      if (read.builtin == spv::BuiltIn::WorkgroupId) start += fmt::format(" * {}", size);
    }
    std::string counter = counter_name(module, *mismatch.variable);
    std::string loop = counter.empty() ? "grid-stride loop" : fmt::format("grid-stride loop over '{}'", counter);
    Location at = module.nearest_location(*mismatch.loop->merge);
    at.token = counter;
    Location step = module.nearest_location(*module.def(mismatch.variable->update));
    step.token = counter;

    bool overlap = mismatch.start == Shape::GlobalId;
    auto diagnostic = report.at(
        std::move(at),
        overlap ? fmt::format("{} starts at the global invocation id but steps by the workgroup size ({}), so the "
                              "workgroups overlap and redo each other's elements",
                              loop, size)
                : fmt::format("{} starts at the local invocation id but steps by the whole dispatch "
                              "({} * {}), so every workgroup does the same elements and skips the rest",
                              loop, builtin_component(module, spv::BuiltIn::NumWorkgroups, static_cast<uint32_t>(mismatch.dim)), size));
    // The loop's instructions are what a run's evidence joins (runner/confirm.cpp).
    diagnostic.about(*mismatch.loop->merge).about(*module.def(mismatch.variable->update));
    if (!mismatch.start_reads.empty()) {
      diagnostic.about(*mismatch.start_reads.front().load);
      Location read = builtin_origin(module, mismatch.start_reads.front().builtin,
                                     module.nearest_location(*mismatch.start_reads.front().load));
      diagnostic.note(std::move(read),
                      overlap ? fmt::format("the loop starts at {}, the invocation's index in the whole dispatch", start)
                              : fmt::format("the loop starts at {}, which repeats in every workgroup", start));
    }
    if (overlap) {
      diagnostic
          .note(std::move(step), fmt::format("each iteration adds {}, the invocations of one workgroup along {}: the "
                                             "next workgroup's invocations start where this one's go next",
                                             size, axis))
          .fix_title(hlsl
                         ? fmt::format("step by the number of threads in the dispatch along {}, or start at {} "
                                       "when one group covers the range",
                                       axis, local)
                         : fmt::format("step by gl_NumWorkGroups.{0} * gl_WorkGroupSize.{0}, or start at {1} when "
                                       "one workgroup covers the range",
                                       axis, local));
      return;
    }
    diagnostic
        .note(std::move(step), fmt::format("each iteration adds the invocations of the whole dispatch along {}: the "
                                           "elements from {} up to that step are never visited",
                                           axis, size))
        .fix_title(fmt::format("start at {}, or step by gl_WorkGroupSize.{} when each workgroup covers the range",
                               global, axis));
  }
};

KLINT_REGISTER_RULE(GridStrideMismatch);

}  // namespace
}  // namespace klint
