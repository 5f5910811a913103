#include <fmt/format.h>

#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/layout_padding.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/symbolic.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "uncoalesced-global-access",
    .category = Category::Performance,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::Coalescing,
    .summary = "adjacent invocations access a storage buffer more than one element apart",
    .doc = R"md(
## What it finds
A load, store or atomic on a storage buffer whose address steps by more than
the element it touches from one invocation to the next along x
(`gl_LocalInvocationID.x`, or the first dimension of the workgroup wider than
one): each invocation walking a row of its own (`x[tid * D + col]` in a loop
over `col`), reading every other element, or reading one member of an array
of large structs. klint follows the index through arithmetic, copies and loop
counters, so a counter that starts at `tid * K` and counts up by one is the
same row walk. The message gives the stride in bytes and the cache lines one
subgroup's access touches. A stride that is a run-time value (a push
constant) is reported when the invocation walks its row one element at a
time in a loop, which makes the multiplier a row length.

## Why it matters
Memory moves in cache lines (128 bytes on most GPUs, in 32-byte sectors).
When the 32 invocations of a subgroup read 32 consecutive floats, one load
instruction is served by one line. Step 16 floats apart and the same
instruction needs 16 lines, of which it uses 4 bytes each; the rest is
fetched and, unless the cache keeps it until the invocation's next iteration
asks for it, fetched again. Kernels written this way run at a fraction of the
bandwidth the GPU has, however simple they are.

## Bad
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; };
void main() {
    uint tid = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (uint col = 0; col < D; ++col) sum += x[tid * D + col];   // a row per invocation
    y[tid] = sum;
}
```

## Fix
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; uint rows; };
void main() {
    uint tid = gl_GlobalInvocationID.x;
    float sum = 0.0;
    // column-major: the invocations of a subgroup read consecutive elements
    for (uint col = 0; col < D; ++col) sum += x[col * rows + tid];
    y[tid] = sum;
}
```
Or give each row to a workgroup and let its invocations split the row
(`for (i = tid; i < D; i += 256) x[row * D + i]`), or stage tiles through
shared memory.

## Exceptions
- Loops that let invocations interleave, such as `y[base + tid + i * 256]`,
  step by one element between neighbours and are silent.
- A record is judged whole: the accesses of one invocation to one buffer
  that move together (a struct read member by member, a vector by
  component, its neighbours' records read alike) count as one, with the
  padding its layout leaves (a `vec3` at the end of a struct, an std430
  array of `vec3`) counted as read. A record some of whose bytes no access
  uses is reported once, with notes on its other parts, and only when the
  cache lines a subgroup touches for it are more than its used bytes would
  fill packed: a 12-byte read from each 16-byte record by 16 invocations
  touches 2 lines where 2 would do, and is silent.
- An invocation that reads or writes every byte of a block of its own, in a
  burst: up to 128 bytes (a cache line) in straight-line code or in loops of
  constant trip count, which compilers unroll (`x[tid * 4 + 0]` to
  `x[tid * 4 + 3]`, a struct member by member, four `vec4`s); up to 32 bytes
  over a loop of run-time length. The cache serves the rest of each line to
  the next instruction.
- Run-time strides without a row walk (a tensor stride such as `i * nb0` is
  one element in the common case), and row walks in loops marked
  `[[unroll]]`: a short loop over a filter's taps, whose run-time stride is
  most likely its own length.
- Indices klint cannot follow (loaded from memory, `tid % n` with `n`
  unknown, `tid ^ 1`), accesses that one invocation of each subgroup makes
  (`if (tid == 0)`, `subgroupElect()`), and workgroups one invocation wide.
- Only the first dimension of the workgroup wider than one is weighed: with
  `local_size_x = 8` a subgroup also spans rows along y, which this rule does
  not look at.
)md",
};

using spv::Op;

constexpr int64_t kSubgroupSize = 32;
constexpr int64_t kCacheLine = 128;
// A block of its own up to this size that an invocation reads whole is a
// vector load done in scalar steps; up to a cache line, read in a burst, the
// cache serves the rest of the line to the following instructions.
constexpr int64_t kWholeBlockLimit = 32;
constexpr int kExpansionDepth = 8;
// Records are weighed byte by byte up to this size; a larger stride puts
// every invocation on lines of its own whatever the record holds.
constexpr int64_t kLargestRecord = int64_t{1} << 16;
constexpr const char* kAxis[] = {"x", "y", "z"};

bool is_induction(Symbol symbol) { return symbol.kind == Symbol::Kind::Induction; }

// Offsets with every counted loop's induction variable written as its start
// plus `step * n`, where `n` counts the iterations. In the forms this returns,
// Symbol{Induction, phi} stands for that count, which all invocations share
// at a given iteration; a counter that starts at `tid * K` thus keeps its
// per-invocation part in sight.
class Expander {
 public:
  explicit Expander(const SymbolicValues& values) : values_(values) {}

  std::optional<Polynomial> expand(const Polynomial& polynomial, int depth = 0) const {
    if (depth > kExpansionDepth) return std::nullopt;
    Polynomial total;
    for (const auto& [monomial, coefficient] : polynomial.terms()) {
      std::optional<Polynomial> term = Polynomial::constant(coefficient);
      for (Symbol symbol : monomial) {
        std::optional<Polynomial> factor = expand_symbol(symbol, depth);
        if (!factor) return std::nullopt;
        term = Polynomial::multiply(*term, *factor);
        if (!term) return std::nullopt;
      }
      auto sum = Polynomial::add(total, *term);
      if (!sum) return std::nullopt;
      total = *sum;
    }
    return total;
  }

 private:
  std::optional<Polynomial> expand_symbol(Symbol symbol, int depth) const {
    if (!is_induction(symbol)) return Polynomial::symbol(symbol);
    const Induction* induction = values_.induction(symbol.id);
    if (induction && induction->step == Induction::Step::Add) {
      auto start = expand(values_.value(induction->initial), depth + 1);
      auto step = expand(values_.value(induction->step_value), depth + 1);
      if (start && step && !varies(*step)) {
        auto walked = Polynomial::multiply(*step, Polynomial::symbol(symbol));
        return walked ? Polynomial::add(*start, *walked) : std::nullopt;
      }
    }
    // Halving loops and the like: fine while every invocation has the same.
    if (values_.per_invocation(symbol)) return std::nullopt;
    return Polynomial::symbol(symbol);
  }

  bool varies(const Polynomial& polynomial) const {
    for (Symbol symbol : polynomial.symbols()) {
      if (!is_induction(symbol) && values_.per_invocation(symbol)) return true;
    }
    return false;
  }

  const SymbolicValues& values_;
};

// The symbols that grow by one from an invocation to its neighbour in a
// subgroup: the local id along the first dimension wider than one, and the
// subgroup lane where lanes follow that dimension.
struct Neighbours {
  Symbol local;
  bool lanes_follow = false;
  uint64_t width = 1;  // invocations along that dimension
};

std::optional<Neighbours> neighbours(const SymbolicValues& values) {
  const auto& size = values.workgroup_size();
  for (uint32_t d = 0; d < 3; ++d) {
    if (size[d] < 2) continue;
    bool lanes_follow = d == 0 && (size[0] % kSubgroupSize == 0 || values.invocations() == size[0]);
    return Neighbours{{Symbol::Kind::LocalId, d}, lanes_follow, size[d]};
  }
  return std::nullopt;
}

// How much the offset grows from an invocation to its neighbour; nullopt when
// that is not one value for all of them (an index klint cannot follow, or one
// that is not linear in the invocation's id).
std::optional<Polynomial> neighbour_step(const Polynomial& offset, const SymbolicValues& values,
                                         const Neighbours& along) {
  Symbol lane{Symbol::Kind::SubgroupLane, 0};
  Polynomial step;
  for (const auto& [monomial, coefficient] : offset.terms()) {
    size_t moving = 0;
    bool other_ids = false;
    Polynomial rest = Polynomial::constant(coefficient);
    for (Symbol symbol : monomial) {
      if (symbol == along.local || (symbol == lane && along.lanes_follow)) {
        ++moving;
        continue;
      }
      if (symbol == lane) return std::nullopt;
      if (symbol.kind == Symbol::Kind::LocalId || symbol.kind == Symbol::Kind::SubgroupId) {
        other_ids = true;
      } else if (!is_induction(symbol) && values.per_invocation(symbol)) {
        return std::nullopt;
      }
      rest = *Polynomial::multiply(rest, Polynomial::symbol(symbol));
    }
    if (moving == 0) continue;
    if (moving > 1 || other_ids) return std::nullopt;
    auto sum = Polynomial::add(step, rest);
    if (!sum) return std::nullopt;
    step = *sum;
  }
  return step;
}

int64_t positive_modulo(int64_t value, int64_t modulus) { return ((value % modulus) + modulus) % modulus; }

// Which values are computed inside a loop, and so may change between its
// iterations.
class LoopValues {
 public:
  LoopValues(const Module& module, const ir::Function& function)
      : module_(module), cfg_(module.cfg(function)), in_loop_(function.blocks.size(), false) {
    for (const Loop& loop : find_loops(module, function)) {
      for (size_t block = 0; block < loop.body.size() && block < in_loop_.size(); ++block) {
        if (loop.body[block]) in_loop_[block] = true;
      }
    }
  }

  bool changes(uint32_t id) const {
    const ir::Instruction* def = module_.def(id);
    int block = def ? block_index(module_, cfg_, *def) : -1;
    return block >= 0 && in_loop_[static_cast<size_t>(block)];
  }

 private:
  const Module& module_;
  const Cfg& cfg_;
  std::vector<bool> in_loop_;
};

// Where in its `stride`-byte block an access lands, for the accesses with a
// constant stride: the offsets modulo the stride it can take, what of the
// offset klint cannot reduce (shared by accesses that move together), and
// whether a loop without a constant trip count moves it along the block.
struct BlockPosition {
  std::set<int64_t> residues;
  Polynomial unknown;
  bool run_time_walk = false;
  // The unknown part changes from one iteration to the next (a loop's value
  // klint does not see as a counter): the residues say nothing then.
  bool unknown_moves = false;
};

BlockPosition block_position(const Polynomial& offset, int64_t stride, const Neighbours& along,
                             const CollisionFinder& finder, const LoopValues& loop_values) {
  BlockPosition position;
  position.residues.insert(positive_modulo(offset.constant_term(), stride));
  Symbol lane{Symbol::Kind::SubgroupLane, 0};
  for (const auto& [monomial, coefficient] : offset.terms()) {
    if (monomial.empty() || coefficient % stride == 0) continue;
    bool moving =
        std::any_of(monomial.begin(), monomial.end(), [&](Symbol s) { return s == along.local || s == lane; });
    if (moving) continue;
    if (monomial.size() == 1 && is_induction(monomial[0])) {
      // An iteration count: 0, 1, ... up to the trip count when it is a
      // constant, else taken to run long enough to visit every residue.
      std::set<int64_t> steps;
      if (const std::vector<int64_t>* trips = finder.iteration_values(monomial[0].id)) {
        for (size_t n = 0; n < trips->size(); ++n) {
          steps.insert(positive_modulo(coefficient * static_cast<int64_t>(n), stride));
        }
      } else {
        position.run_time_walk = true;
        int64_t gcd = std::gcd(positive_modulo(coefficient, stride), stride);
        for (int64_t k = 0; k < stride; k += gcd) steps.insert(k);
      }
      std::set<int64_t> next;
      for (int64_t residue : position.residues) {
        for (int64_t step : steps) next.insert((residue + step) % stride);
      }
      position.residues = std::move(next);
      continue;
    }
    // Loop counters stand for any loop: unrolled copies of one loop each
    // have their own inner loops, which move their accesses alike.
    Polynomial term = Polynomial::constant(coefficient);
    for (Symbol symbol : monomial) {
      position.unknown_moves |= symbol.kind == Symbol::Kind::Value && loop_values.changes(symbol.id);
      Symbol named = is_induction(symbol) ? Symbol{Symbol::Kind::Induction, 0} : symbol;
      term = *Polynomial::multiply(term, Polynomial::symbol(named));
    }
    position.unknown = Polynomial::add(position.unknown, term).value_or(position.unknown);
  }
  return position;
}

// The pointer an access goes through.
uint32_t access_pointer(const MemoryAccess& access) {
  const ir::Instruction& instruction = *access.instruction;
  switch (instruction.opcode()) {
    case Op::OpLoad: return instruction.word(2);
    case Op::OpStore: case Op::OpAtomicStore: return instruction.word(0);
    case Op::OpCopyMemory: return instruction.word(access.kind == MemoryAccess::Kind::Read ? 1 : 0);
    default: return instruction.word(2);
  }
}

std::string member_name(const Module& module, uint32_t struct_type, uint32_t member) {
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() == Op::OpMemberName && global.word(0) == struct_type && global.word(1) == member) {
      return global.string(2);
    }
  }
  return "";
}

// The buffer as the source names it: the block's instance name, or for an
// anonymous block (`buffer X { float x[]; };`) the member the access reads.
std::string buffer_name(const Module& module, const MemoryAccess& access) {
  std::string name = module.name(access.variable);
  if (!name.empty() && name[0] != '%') return name;
  const ir::Instruction* variable = module.def(access.variable);
  const ir::Instruction* pointer = variable ? module.def(variable->type_id()) : nullptr;
  const ir::Instruction* type = pointer ? module.def(pointer->word(2)) : nullptr;
  size_t member_index = 3;  // the chain's first index
  while (type && (type->opcode() == Op::OpTypeArray || type->opcode() == Op::OpTypeRuntimeArray)) {
    type = module.def(type->word(1));  // an array of blocks: the index before the member
    ++member_index;
  }
  if (!type || type->opcode() != Op::OpTypeStruct) return name;
  std::optional<PointerPath> path = pointer_path(module, access_pointer(access));
  const size_t level = member_index - 3;
  if (!path || path->element_step || path->variable->result_id() != access.variable || path->indices.size() <= level) {
    return name;
  }
  auto member = module.constant_value(path->indices[level]);
  std::string text = member ? member_name(module, type->result_id(), static_cast<uint32_t>(*member)) : "";
  return text.empty() ? name : text;
}

// A run-time value as the source names it: the push-constant or uniform
// member it loads, simple arithmetic on such values (`nb01 / 4`), else its
// OpName; "a run-time value" when nothing names it.
std::string value_name(const Module& module, uint32_t id, int depth = 0) {
  std::string name = module.name(id);
  if (!name.empty() && name[0] != '%') return name;
  const ir::Instruction* def = module.def(id);
  if (!def || depth > 3) return "a run-time value";
  if (auto constant = module.constant_value(id)) return std::to_string(*constant);
  switch (def->opcode()) {
    case Op::OpLoad: {
      const ir::Instruction* chain = module.def(def->word(2));
      if (!chain || chain->opcode() != Op::OpAccessChain || chain->operands().size() != 4) break;
      const ir::Instruction* variable = module.def(chain->word(2));
      const ir::Instruction* pointer = variable ? module.def(variable->type_id()) : nullptr;
      auto member = module.constant_value(chain->word(3));
      std::string text = pointer && member ? member_name(module, pointer->word(2), static_cast<uint32_t>(*member)) : "";
      if (!text.empty()) return text;
      break;
    }
    case Op::OpBitcast: case Op::OpUConvert: case Op::OpSConvert: case Op::OpCopyObject:
      return value_name(module, def->word(2), depth + 1);
    case Op::OpUDiv: case Op::OpSDiv: case Op::OpIMul: case Op::OpIAdd: case Op::OpISub:
    case Op::OpShiftRightLogical: case Op::OpShiftLeftLogical: {
      static const std::map<Op, const char*> kOperators{
          {Op::OpUDiv, "/"}, {Op::OpSDiv, "/"}, {Op::OpIMul, "*"}, {Op::OpIAdd, "+"},
          {Op::OpISub, "-"}, {Op::OpShiftRightLogical, ">>"}, {Op::OpShiftLeftLogical, "<<"}};
      return fmt::format("({} {} {})", value_name(module, def->word(2), depth + 1), kOperators.at(def->opcode()),
                         value_name(module, def->word(3), depth + 1));
    }
    default:
      break;
  }
  return "a run-time value";
}

std::string value_name(const Module& module, const SymbolicValues& values, Symbol symbol) {
  if (symbol.kind == Symbol::Kind::Value) return value_name(module, symbol.id);
  return values.describe(symbol);
}

std::string polynomial_text(const Module& module, const SymbolicValues& values, const Polynomial& polynomial) {
  std::string text;
  for (auto it = polynomial.terms().rbegin(); it != polynomial.terms().rend(); ++it) {
    const auto& [monomial, coefficient] = *it;
    std::string term;
    for (Symbol symbol : monomial) term += (term.empty() ? "" : " * ") + value_name(module, values, symbol);
    int64_t magnitude = coefficient < 0 ? -coefficient : coefficient;
    if (term.empty()) {
      term = std::to_string(magnitude);
    } else if (magnitude != 1) {
      term = fmt::format("{} * {}", magnitude, term);
    }
    text += text.empty() ? (coefficient < 0 ? "-" : "") + term : (coefficient < 0 ? " - " : " + ") + term;
  }
  return text.empty() ? "0" : text;
}

// Cache lines the first subgroup's invocations touch.
int64_t lines_touched(int64_t stride, int64_t width, int64_t invocations) {
  std::set<int64_t> lines;
  for (int64_t i = 0; i < invocations; ++i) {
    int64_t start = i * (stride < 0 ? -stride : stride);
    for (int64_t line = start / kCacheLine; line <= (start + width - 1) / kCacheLine; ++line) lines.insert(line);
  }
  return static_cast<int64_t>(lines.size());
}

const char* verb(const MemoryAccess& access) {
  switch (access.kind) {
    case MemoryAccess::Kind::Read: return "read";
    case MemoryAccess::Kind::Write: return "write";
    case MemoryAccess::Kind::Atomic: return "update";
  }
  return "access";
}

// Whether one invocation of each subgroup, or of the workgroup, runs the
// access: then it has no neighbours to coalesce with.
bool single_invocation(const Accesses& accesses, const MemoryAccess& access, const SymbolicValues& values) {
  for (const Constraint& guard : accesses.guards(access.block)) {
    if (guard.same_in_subgroup) return true;
    if (!guard.equality) continue;
    for (Symbol symbol : guard.expression.symbols()) {
      if (symbol.kind == Symbol::Kind::LocalId || symbol.kind == Symbol::Kind::SubgroupLane) return true;
      if (!is_induction(symbol) && values.per_invocation(symbol)) return true;
    }
  }
  return false;
}

struct Candidate {
  const MemoryAccess* access;
  Polynomial offset;  // expanded
  Polynomial step;    // bytes between neighbours
};

class UncoalescedGlobalAccess final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      const SymbolicValues& values = module.symbolic(*entry.function);
      const Accesses& accesses = module.accesses(*entry.function);
      std::optional<Neighbours> along = neighbours(values);
      if (!along) continue;
      Expander expander(values);
      std::vector<Candidate> candidates;
      for (const MemoryAccess& access : accesses.all()) {
        if (access.storage != spv::StorageClass::StorageBuffer || !access.offset || access.width == 0) continue;
        if (single_invocation(accesses, access, values)) continue;
        std::optional<Polynomial> offset = expander.expand(*access.offset);
        if (!offset) continue;
        std::optional<Polynomial> step = neighbour_step(*offset, values, *along);
        if (!step || step->terms().empty()) continue;
        candidates.push_back({&access, *offset, *step});
      }
      if (candidates.empty()) continue;
      const CollisionFinder& finder = module.collisions(*entry.function);
      Context context{module, *along, finder, LoopValues(module, *entry.function)};
      int64_t invocations = std::min<int64_t>(kSubgroupSize, static_cast<int64_t>(along->width));
      std::set<std::pair<std::string, uint32_t>> reported;
      std::set<const MemoryAccess*> judged;  // the members of records already reported
      for (const Candidate& candidate : candidates) {
        if (judged.count(candidate.access)) continue;
        Judgement judgement = judge(candidate, candidates, context, invocations);
        if (!judgement.strided) continue;
        if (judgement.partial) {
          // One finding for the record: its accesses are judged together.
          for (const Candidate* member : judgement.record->members) judged.insert(member->access);
        }
        Location location = module.nearest_location(*candidate.access->instruction);
        std::string name = buffer_name(module, *candidate.access);
        if (!reported.insert({location.file + ":" + name, location.line}).second) continue;
        report_access(module, values, report, candidate, judgement, *along, name, invocations);
      }
    }
  }

 private:
  // What judging an access's block needs to know about its function.
  struct Context {
    const Module& module;
    Neighbours along;
    const CollisionFinder& finder;
    LoopValues loop_values;
  };

  // The accesses to one buffer that move together with an access, each
  // invocation's block of `stride` bytes, and the bytes of it they touch: a
  // struct read member by member, a vec4 read by component, is one record.
  struct Record {
    std::vector<const Candidate*> members;  // in the function's order, the access itself included
    int64_t stride = 0;
    std::vector<bool> covered;  // by byte of the block: touched by an access, or padding of the layout
    int64_t used() const { return std::count(covered.begin(), covered.end(), true); }
    int64_t unused() const { return stride - used(); }
  };

  struct Judgement {
    bool strided = false;
    std::optional<Record> record;  // for a constant stride
    bool partial = false;          // the record's accesses leave bytes of each block untouched
  };

  // Whether the access wastes the lines it touches: a constant stride larger
  // than the element, unless the accesses that move with it fill each
  // invocation's block and the block is small, or the lines the record's
  // accesses touch are no more than its bytes need; or a run-time stride that
  // is a row length.
  static Judgement judge(const Candidate& candidate, const std::vector<Candidate>& all, const Context& context,
                         int64_t invocations) {
    const MemoryAccess& access = *candidate.access;
    int64_t width = static_cast<int64_t>(access.width);
    if (std::optional<int64_t> stride = candidate.step.constant_value()) {
      int64_t magnitude = *stride < 0 ? -*stride : *stride;
      if (magnitude <= width) return {};
      if (magnitude > kLargestRecord) {
        // Every invocation on lines of its own: no record to weigh, and a map
        // of its bytes would take the lint's time and memory.
        return {true, Record{{&candidate}, magnitude, {}}, false};
      }
      Record record;
      BlockUse use = block_use(candidate, all, magnitude, context, record);
      bool strided = false;
      switch (use) {
        case BlockUse::Gaps: strided = record_lines(record, invocations) > packed_lines(record, invocations); break;
        case BlockUse::Burst: strided = magnitude > kCacheLine; break;
        case BlockUse::Walk: strided = magnitude > kWholeBlockLimit; break;
      }
      return {strided, std::move(record), use == BlockUse::Gaps};
    }
    const Symbol* walk = row_walk(candidate.offset, width);
    return {walk && !marked_short(context.module, *walk), std::nullopt};
  }

  // Cache lines the first subgroup's invocations touch with the record's
  // accesses together, and the fewest its bytes could fill packed.
  static int64_t record_lines(const Record& record, int64_t invocations) {
    std::set<int64_t> lines;
    for (int64_t i = 0; i < invocations; ++i) {
      for (int64_t byte = 0; byte < record.stride; ++byte) {
        if (record.covered[static_cast<size_t>(byte)]) lines.insert((i * record.stride + byte) / kCacheLine);
      }
    }
    return static_cast<int64_t>(lines.size());
  }
  static int64_t packed_lines(const Record& record, int64_t invocations) {
    return lines_touched(record.used(), record.used(), invocations);
  }

  // A loop the source asks to unroll (`[[unroll]]`) although its trip count
  // is a run-time value: its author expects few iterations, and the run-time
  // stride is then as likely the loop's own length, a block read whole.
  static bool marked_short(const Module& module, Symbol counter) {
    const ir::Instruction* phi = module.def(counter.id);
    const ir::Block* header = phi ? module.block_of(*phi) : nullptr;
    const ir::Instruction* merge = header ? header->merge() : nullptr;
    if (!merge || merge->opcode() != Op::OpLoopMerge || merge->operands().size() < 3) return false;
    return (merge->word(2) & static_cast<uint32_t>(spv::LoopControlMask::Unroll)) != 0;
  }

  // How an invocation uses its block: with bytes no access touches, or every
  // byte, in a burst (straight-line code and loops of constant trip count,
  // which compilers unroll) or over a loop of run-time length. Accesses to
  // the same buffer with the same stride and the same unknown part fill the
  // block together. Where the unknown part changes between iterations, no
  // gap is certain: a burst then.
  enum class BlockUse { Gaps, Burst, Walk };
  static BlockUse block_use(const Candidate& candidate, const std::vector<Candidate>& all, int64_t stride,
                            const Context& context, Record& record) {
    auto position_of = [&](const Candidate& c) {
      return block_position(c.offset, stride, context.along, context.finder, context.loop_values);
    };
    record = Record{{&candidate}, stride, std::vector<bool>(static_cast<size_t>(stride), false)};
    BlockPosition own = position_of(candidate);
    if (own.unknown_moves) {
      std::fill(record.covered.begin(), record.covered.end(), true);
      return BlockUse::Burst;
    }
    record.members.clear();
    bool burst = true;
    for (const Candidate& other : all) {
      if (other.access->variable != candidate.access->variable || !(other.step == candidate.step)) continue;
      BlockPosition position = position_of(other);
      if (!(position.unknown == own.unknown)) continue;
      record.members.push_back(&other);
      burst &= !position.run_time_walk;
      for (int64_t residue : position.residues) {
        for (int64_t byte = 0; byte < static_cast<int64_t>(other.access->width) && byte < stride; ++byte) {
          record.covered[static_cast<size_t>((residue + byte) % stride)] = true;
        }
      }
    }
    if (record.used() < stride) {
      // A record one invocation reads whole but for the layout's padding is read whole.
      std::vector<bool> padding = element_padding(context.module, access_pointer(*candidate.access), stride);
      for (size_t b = 0; b < padding.size(); ++b) record.covered[b] = record.covered[b] || padding[b];
    }
    if (record.used() < stride) return BlockUse::Gaps;
    return burst ? BlockUse::Burst : BlockUse::Walk;
  }

  // A loop that moves the access one element at a time, not with the
  // invocation: each invocation walks a row of its own. Its counter, or null.
  static const Symbol* row_walk(const Polynomial& offset, int64_t width) {
    for (const auto& [monomial, coefficient] : offset.terms()) {
      if (monomial.size() == 1 && is_induction(monomial[0]) && (coefficient == width || coefficient == -width)) {
        return &monomial[0];
      }
    }
    return nullptr;
  }

  static void report_access(const Module& module, const SymbolicValues& values, Reporter& report,
                            const Candidate& candidate, const Judgement& judgement, const Neighbours& along,
                            const std::string& name, int64_t invocations) {
    const MemoryAccess& access = *candidate.access;
    int64_t width = static_cast<int64_t>(access.width);
    std::string where = fmt::format("adjacent invocations along {} {} '{}'", kAxis[along.local.id], verb(access), name);
    std::string message;
    const Record* record = judgement.record ? &*judgement.record : nullptr;
    if (std::optional<int64_t> stride = candidate.step.constant_value()) {
      int64_t bytes = *stride < 0 ? -*stride : *stride;
      std::string apart = bytes % width == 0 ? fmt::format("{} bytes apart, {} times the {} bytes each one {}s", bytes,
                                                           bytes / width, width, verb(access))
                                             : fmt::format("{} bytes apart in {}-byte {}s", bytes, width, verb(access));
      int64_t touched = lines_touched(bytes, width, invocations), needed = lines_touched(width, width, invocations);
      if (record && judgement.partial) {
        // The record's accesses together: the lines they touch and the lines their bytes need.
        touched = record_lines(*record, invocations);
        needed = packed_lines(*record, invocations);
        if (record->used() != width) {
          apart = fmt::format("{} bytes apart and leave {} bytes of each one's {}-byte record unused", bytes,
                              record->unused(), bytes);
        }
      }
      message = fmt::format("{} {}; a subgroup touches {} cache lines where {} would do", where, apart, touched, needed);
    } else {
      std::string bytes = polynomial_text(module, values, candidate.step);
      std::optional<Polynomial> elements = divided(candidate.step, width);
      std::string apart =
          elements ? fmt::format("{} elements ({} bytes)", polynomial_text(module, values, *elements), bytes)
                   : bytes + " bytes";
      message = fmt::format("{} {} apart, a row each; a subgroup touches up to {} cache lines where 1 would do", where,
                            apart, invocations);
    }
    auto diagnostic = report.at(*access.instruction, message);
    if (record && judgement.partial) note_other_members(module, diagnostic, candidate, *record);
    if (const Symbol* walk = row_walk(candidate.offset, width)) {
      const ir::Instruction* phi = module.def(walk->id);
      const ir::Block* header = phi ? module.block_of(*phi) : nullptr;
      if (header && header->merge()) {
        diagnostic.note(module.nearest_location(*header->merge()),
                        fmt::format("each invocation walks its own part of '{}' one element per iteration here", name));
      }
    }
    diagnostic.fix_title(
        "let adjacent invocations take adjacent elements (the invocation index as the fastest-moving term of the "
        "index), or stage the data through shared memory");
  }

  // Where the record's other accesses touch other bytes of it: one note per
  // line, for the first few lines that touch a part the reported line does not.
  static void note_other_members(const Module& module, DiagnosticBuilder& diagnostic, const Candidate& candidate,
                                 const Record& record) {
    constexpr size_t kMostNotes = 4;
    struct Part {
      const Candidate* first;
      int64_t begin, end;  // bytes of the record, end exclusive
    };
    auto part_of = [&](const Candidate& c) {
      int64_t begin = positive_modulo(c.offset.constant_term(), record.stride);
      return Part{&c, begin, begin + static_cast<int64_t>(c.access->width)};
    };
    std::map<uint32_t, Part> by_line;
    std::vector<uint32_t> order;
    for (const Candidate* member : record.members) {
      uint32_t line = module.nearest_location(*member->access->instruction).line;
      Part part = part_of(*member);
      auto [it, fresh] = by_line.emplace(line, part);
      if (fresh) {
        order.push_back(line);
      } else {
        it->second.begin = std::min(it->second.begin, part.begin);
        it->second.end = std::max(it->second.end, part.end);
      }
    }
    uint32_t reported = module.nearest_location(*candidate.access->instruction).line;
    std::set<std::pair<int64_t, int64_t>> shown;
    if (auto own = by_line.find(reported); own != by_line.end()) shown.insert({own->second.begin, own->second.end});
    for (uint32_t line : order) {
      const Part& part = by_line.at(line);
      if (shown.size() > kMostNotes || line == reported || !shown.insert({part.begin, part.end}).second) continue;
      diagnostic.note(module.nearest_location(*part.first->access->instruction),
                      fmt::format("the same invocation {}s bytes {} to {} of its record here", verb(*part.first->access),
                                  part.begin, part.end - 1));
    }
  }

  // The polynomial divided by `divisor`, when every coefficient divides.
  static std::optional<Polynomial> divided(const Polynomial& polynomial, int64_t divisor) {
    Polynomial result;
    for (const auto& [monomial, coefficient] : polynomial.terms()) {
      if (coefficient % divisor != 0) return std::nullopt;
      Polynomial term = Polynomial::constant(coefficient / divisor);
      for (Symbol symbol : monomial) term = *Polynomial::multiply(term, Polynomial::symbol(symbol));
      result = *Polynomial::add(result, term);
    }
    return result;
  }
};

KLINT_REGISTER_RULE(UncoalescedGlobalAccess);

}  // namespace
}  // namespace klint
