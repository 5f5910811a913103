#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "analyzer/builtin_names.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/source_names.h"
#include "analyzer/ssa.h"
#include "analyzer/uniformity.h"
#include "rules/rule.h"

namespace klint {
namespace {

// Above this many bytes (64 32-bit words) a per-invocation array is more than
// a GPU keeps in registers for one invocation alongside everything else the
// kernel holds: AMD and Apple GPUs give an invocation 128 to 256 32-bit
// registers at full occupancy and fewer as pressure rises, so an array of 64
// words takes a quarter to half of them before any other value.
constexpr uint64_t kRegisterArrayBytes = 256;
// Arrays of at most this many elements, indexed only by the counters of loops
// with a constant trip count, are routinely unrolled by drivers and then live
// in registers; larger ones need the loop marked [[unroll]].
constexpr uint64_t kUnrolledElements = 16;

constexpr RuleInfo kInfo{
    .id = "private-array-spill",
    .category = Category::Performance,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::PipelineStatistics,
    .summary = "per-invocation array that lives in scratch memory instead of registers",
    .doc = R"md(
## What it finds
A per-invocation array (a local array in a function, a global array without
`shared`, or an array inside such a struct, HLSL `static` arrays included)
that the GPU has to keep in scratch memory rather than registers, because

- it is indexed with a value only known at run time: data, an invocation id,
  or the counter of a loop whose trip count is not a compile-time constant;
  or it has more than 16 elements and is indexed by the counter of a loop
  not marked `[[unroll]]`; or
- it is larger than 256 bytes (64 32-bit words).

## Why it matters
Registers cannot be indexed. An array indexed at run time, or too large for
the register file, goes to scratch memory: per-invocation memory backed by
the caches and VRAM, hundreds of cycles away instead of one. The compiler
also needs more registers per invocation to stage it, so fewer invocations
run at once. The kernel is correct but its bandwidth drops to a fraction
(the seeds' "register spilling": very low bandwidth despite coalesced
access and a good workgroup size).

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Data { uint values[]; };
layout(binding = 1) buffer Counts { uint counts[]; };
void main() {
    uint bins[32];                           // a histogram per invocation
    for (int b = 0; b < 32; ++b) bins[b] = 0u;
    for (uint i = 0; i < 256; ++i) {
        uint v = values[gl_GlobalInvocationID.x * 256 + i];
        bins[v & 31u] += 1u;                 // an index known only at run time
    }
    for (int b = 0; b < 32; ++b) atomicAdd(counts[b], bins[b]);
}
```

## Fix
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Data { uint values[]; };
layout(binding = 1) buffer Counts { uint counts[]; };
shared uint bins[32];                        // one histogram per workgroup
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < 32) bins[tid] = 0u;
    barrier();
    for (uint i = 0; i < 256; ++i) {
        uint v = values[gl_GlobalInvocationID.x * 256 + i];
        atomicAdd(bins[v & 31u], 1u);
    }
    barrier();
    if (tid < 32) atomicAdd(counts[tid], bins[tid]);
}
```

## Exceptions
Arrays indexed only with values that are constants once loops whose trip
count is a compile-time constant are unrolled, when the array has at most 16
elements or every such loop is marked `[[unroll]]`: drivers unroll those
loops and keep the elements in registers. Such values are the loops'
counters, expressions of them, and any integer carried around such loops by
constant steps, such as a counter kept by hand (`taps[n++]` inside two 3x3
loops), as long as constants decide every branch that chooses its value. A
counter stepped only where the data says so (`if (v > 0.0) kept[n++] = v;`),
or read after a loop that may stop early on the data, is a run-time index.
Specialization constants count at their defaults, for array
sizes, loop bounds and the booleans that choose between them; an array of
one element is never indexed dynamically. Tables only ever written with
constants (`const float lut[] = ...`) are silent: drivers put them in
constant memory, not scratch. Both thresholds are rules of thumb: a GPU with
a large register file may keep more than 256 bytes, and some drivers turn a
tiny dynamically indexed array into a chain of selects instead of scratch
accesses. `klint --confirm --device N` asks the device's compiler: it
confirms the finding where the pipeline's statistics show scratch or local
memory, and says "not reproduced" where they show none. NVIDIA's compiler
kept 8 of the 12 arrays of klint's own examples in registers.
)md",
};

using spv::Op;

bool is_access_chain(const ir::Instruction& instruction) {
  return instruction.opcode() == Op::OpAccessChain || instruction.opcode() == Op::OpInBoundsAccessChain;
}

bool is_one_of(Op op, std::initializer_list<Op> ops) { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

bool is_constant(const Module& module, uint32_t id) {
  if (module.constant_value(id)) return true;
  const ir::Instruction* definition = module.def(id);
  return definition &&
         is_one_of(definition->opcode(), {Op::OpConstant, Op::OpConstantTrue, Op::OpConstantFalse,
                                          Op::OpConstantComposite, Op::OpConstantNull, Op::OpSpecConstant,
                                          Op::OpSpecConstantTrue, Op::OpSpecConstantFalse,
                                          Op::OpSpecConstantComposite, Op::OpSpecConstantOp, Op::OpUndef});
}

// The type a pointer points to.
uint32_t pointee(const Module& module, uint32_t pointer_id) {
  const ir::Instruction* pointer = module.def(pointer_id);
  const ir::Instruction* type = pointer ? module.def(pointer->type_id()) : nullptr;
  return type && type->opcode() == Op::OpTypePointer ? type->word(2) : 0;
}

// Elements of an array, counting through nested arrays (float[4][8] has 32).
uint64_t element_count(const Module& module, uint32_t type_id) {
  uint64_t count = 1;
  for (const ir::Instruction* type = module.def(type_id); type && type->opcode() == Op::OpTypeArray;
       type = module.def(type->word(1))) {
    count *= module.constant_value(type->word(2)).value_or(1);
  }
  return count;
}

// The GLSL spelling of a scalar or vector type ("float", "uvec4", "f16vec2"),
// or "element" for anything else.
std::string element_name(const Module& module, uint32_t type_id) {
  const ir::Instruction* type = module.def(type_id);
  uint32_t components = 0;
  if (type && type->opcode() == Op::OpTypeVector) {
    components = type->word(2);
    type = module.def(type->word(1));
  }
  if (!type || (type->opcode() != Op::OpTypeFloat && type->opcode() != Op::OpTypeInt)) return "element";
  uint32_t width = type->word(1);
  bool is_float = type->opcode() == Op::OpTypeFloat;
  bool is_signed = !is_float && type->word(2) != 0;
  if (components == 0) {
    if (is_float) return width == 16 ? "float16_t" : width == 64 ? "double" : "float";
    if (width == 32) return is_signed ? "int" : "uint";
    return fmt::format("{}int{}_t", is_signed ? "" : "u", width);
  }
  std::string prefix = is_float ? (width == 16 ? "f16" : width == 64 ? "d" : "")
                                : fmt::format("{}{}", is_signed ? "i" : "u", width == 32 ? "" : std::to_string(width));
  return fmt::format("{}vec{}", prefix, components);
}

// "128 floats", "4x8 vec4s".
std::string describe_array(const Module& module, uint32_t type_id) {
  std::vector<uint64_t> dimensions;
  const ir::Instruction* type = module.def(type_id);
  while (type && type->opcode() == Op::OpTypeArray) {
    dimensions.push_back(module.constant_value(type->word(2)).value_or(0));
    type = module.def(type->word(1));
  }
  std::string count;
  for (uint64_t dimension : dimensions) count += (count.empty() ? "" : "x") + std::to_string(dimension);
  bool plural = dimensions.size() > 1 || (dimensions.size() == 1 && dimensions[0] != 1);
  return fmt::format("{} {}{}", count, element_name(module, type ? type->result_id() : 0), plural ? "s" : "");
}

// The name a member of a struct type was declared with, if OpMemberName says.
std::string member_name(const Module& module, uint32_t struct_type, uint32_t member) {
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() == Op::OpMemberName && global.word(0) == struct_type && global.word(1) == member) {
      return global.string(2);
    }
  }
  return fmt::format("{}", member);
}

// An array object inside a per-invocation variable: the variable itself, or
// a member of it, named as the source writes it ('state', 's.v').
struct ArrayObject {
  uint32_t type = 0;
  std::string path;  // appended to the variable's name
};

bool is_integer_arithmetic(Op op) {
  return is_one_of(op, {Op::OpIAdd, Op::OpISub, Op::OpIMul, Op::OpUDiv, Op::OpSDiv, Op::OpUMod, Op::OpSMod, Op::OpSRem,
                        Op::OpSNegate, Op::OpShiftLeftLogical, Op::OpShiftRightLogical, Op::OpShiftRightArithmetic,
                        Op::OpBitwiseAnd, Op::OpBitwiseOr, Op::OpBitwiseXor, Op::OpBitcast, Op::OpSConvert,
                        Op::OpUConvert, Op::OpCopyObject});
}

// What an index is computed from, beyond constants.
enum class Index {
  ConstantTripCounters,  // counters of loops with a constant trip count: constants once unrolled
  NotUnrolled,           // those, where the loops are not unrolled
  RunTimeTripCounter,    // the counter of a loop whose trip count is a run-time value
  RunTime,               // data, an invocation id, anything else
};

struct IndexKind {
  Index kind = Index::ConstantTripCounters;
  bool all_loops_unrolled = true;  // every counter's loop is marked [[unroll]]
};

bool is_comparison(Op op) {
  return is_one_of(op, {Op::OpIEqual, Op::OpINotEqual, Op::OpULessThan, Op::OpULessThanEqual, Op::OpUGreaterThan,
                        Op::OpUGreaterThanEqual, Op::OpSLessThan, Op::OpSLessThanEqual, Op::OpSGreaterThan,
                        Op::OpSGreaterThanEqual});
}

// Pure operations on integers and booleans: constant when their inputs are.
bool is_pure_integer_operation(const ir::Instruction& instruction) {
  Op op = instruction.opcode();
  if (op == Op::OpExtInst) {
    return instruction.ext_inst_type() == SPV_EXT_INST_TYPE_GLSL_STD_450 &&
           std::set<uint32_t>{GLSLstd450UMin, GLSLstd450UMax, GLSLstd450SMin, GLSLstd450SMax, GLSLstd450UClamp,
                              GLSLstd450SClamp, GLSLstd450SAbs}
               .count(instruction.word(3));
  }
  return is_integer_arithmetic(op) || is_comparison(op) ||
         is_one_of(op, {Op::OpLogicalAnd, Op::OpLogicalOr, Op::OpLogicalNot, Op::OpLogicalEqual,
                        Op::OpLogicalNotEqual, Op::OpSelect});
}

// The value of a boolean constant, specialization constants at their default.
std::optional<bool> constant_bool(const Module& module, uint32_t id) {
  const ir::Instruction* definition = module.def(id);
  if (!definition) return std::nullopt;
  switch (definition->opcode()) {
    case Op::OpConstantTrue:
    case Op::OpSpecConstantTrue:
      return true;
    case Op::OpConstantFalse:
    case Op::OpSpecConstantFalse:
      return false;
    default:
      return std::nullopt;
  }
}

// Decides whether an index turns into a constant once the loops it depends
// on are fully unrolled. In each unrolled copy of a loop whose trip count is a
// constant, every integer computed from constants by pure arithmetic is a
// constant too, and so is every value carried around such a loop: the
// counter `i`, and as much a hand-kept `n++` stepped by an inner loop. Where
// paths join, the value is a constant when constants decide which path was
// taken. The classifier takes the largest set of values closed under these
// rules (a counter depends on itself, so this is a greatest fixed point: all
// values start constant and only ever get worse) and grades the others by
// what breaks them.
class IndexClassifier {
 public:
  IndexClassifier(const Module& module, const ir::Function& function, const Cfg& cfg, const std::vector<Loop>& loops)
      : module_(module), function_(function), cfg_(cfg), loops_(loops) {}

  IndexKind classify(const ir::Instruction& chain, uint32_t index) {
    if (!solved_) solve();
    const ir::Block* block = module_.block_of(chain);
    int at = block ? cfg_.index_of(block->id()) : -1;
    return at < 0 ? state(index) : operand(static_cast<uint32_t>(at), index);
  }

 private:
  static IndexKind worse(IndexKind a, IndexKind b) {
    return {std::max(a.kind, b.kind), a.all_loops_unrolled && b.all_loops_unrolled};
  }

  IndexKind state(uint32_t id) const {
    if (is_constant(module_, id)) return {};
    auto it = states_.find(id);
    return it == states_.end() ? IndexKind{Index::RunTime, false} : it->second;
  }

  // A value as an instruction in block `user` reads it: a value that changes
  // in a loop the user is outside of is the one of the iteration that left,
  // so it is a constant only when every way out of that loop is decided by
  // constants. (SSA threads values through the loops they cross as phis of
  // themselves: those are the value, from outside.)
  IndexKind operand(uint32_t user, uint32_t id) const {
    id = copied_value(module_, id);
    IndexKind kind = state(id);
    const ir::Instruction* definition = module_.def(id);
    const ir::Block* block = definition ? module_.block_of(*definition) : nullptr;
    int defined = block ? cfg_.index_of(block->id()) : -1;
    if (defined < 0) return kind;
    for (size_t l = 0; l < loops_.size(); ++l) {
      const Loop& loop = loops_[l];
      if (loop.body[static_cast<uint32_t>(defined)] && !loop.body[user] && !invariant(l, id)) {
        kind = worse(kind, every_exit(l));
      }
    }
    return kind;
  }

  bool invariant(size_t loop, uint32_t id) const {
    auto [cached, fresh] = invariants_.try_emplace({loop, id}, false);
    if (fresh) cached->second = is_loop_invariant(module_, cfg_, loops_[loop], id);
    return cached->second;
  }

  void solve() {
    solved_ = true;
    std::vector<const ir::Instruction*> values;
    for (const ir::Block& block : function_.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.result_id() == 0) continue;
        values.push_back(&instruction);
        states_[instruction.result_id()] = IndexKind{};
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const ir::Instruction* value : values) {
        IndexKind& current = states_[value->result_id()];
        IndexKind next = worse(current, transfer(*value));
        if (next.kind != current.kind || next.all_loops_unrolled != current.all_loops_unrolled) {
          current = next;
          changed = true;
        }
      }
    }
  }

  IndexKind transfer(const ir::Instruction& instruction) const {
    uint32_t id = instruction.result_id();
    uint32_t block = static_cast<uint32_t>(block_index(module_, cfg_, instruction));
    if (uint32_t copied = copied_value(module_, id); copied != id) return operand(block, copied);
    if (instruction.opcode() == Op::OpPhi) return phi(instruction, block);
    if (instruction.opcode() == Op::OpSelect) {
      if (auto condition = constant_bool(module_, instruction.word(2))) {
        return operand(block, instruction.word(*condition ? 3 : 4));  // a specialization constant, at its default
      }
    }
    if (!is_pure_integer_operation(instruction)) return {Index::RunTime, false};
    IndexKind kind;
    // An extended instruction's first input is its instruction set.
    size_t first = instruction.opcode() == Op::OpExtInst ? 4 : 2;
    for (size_t i = first; i < instruction.operands().size(); ++i) kind = worse(kind, operand(block, instruction.word(i)));
    return kind;
  }

  IndexKind phi(const ir::Instruction& phi, uint32_t block) const {
    IndexKind kind;
    for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) kind = worse(kind, operand(block, phi.word(i)));
    if (std::optional<size_t> loop = loop_with_header(block)) {
      // A value carried around the loop: one constant per unrolled iteration
      // when some way out of the loop is decided by constants.
      IndexKind exit = some_exit(*loop);
      if (exit.kind != Index::ConstantTripCounters) return worse(kind, {Index::RunTimeTripCounter, false});
      constexpr uint32_t kUnroll = static_cast<uint32_t>(spv::LoopControlMask::Unroll);
      bool unrolled = (loops_[*loop].merge->word(2) & kUnroll) != 0;
      return worse(kind, {Index::ConstantTripCounters, exit.all_loops_unrolled && unrolled});
    }
    if (uint32_t chosen = chosen_value(phi)) return operand(block, chosen);
    for (uint32_t decider : deciders(block)) {
      const ir::Instruction& branch = function_.blocks[decider].terminator();
      kind = worse(kind, operand(decider, branch.word(0)));
    }
    return kind;
  }

  std::optional<size_t> loop_with_header(uint32_t block) const {
    for (size_t l = 0; l < loops_.size(); ++l) {
      if (loops_[l].header == block) return l;
    }
    return std::nullopt;
  }

  // The conditions of the branches that leave a loop, each as the branch reads it.
  std::vector<IndexKind> exits(size_t loop) const {
    auto [cached, fresh] = exit_blocks_.try_emplace(loop);
    if (fresh) {
      const Loop& body = loops_[loop];
      for (uint32_t b = 0; b < cfg_.size(); ++b) {
        if (!body.body[b] || !branches(b)) continue;
        bool leaves = false;
        for (uint32_t next : cfg_.successors(b)) leaves |= !body.body[next];
        if (leaves) cached->second.push_back(b);
      }
    }
    std::vector<IndexKind> conditions;
    for (uint32_t b : cached->second) conditions.push_back(operand(b, function_.blocks[b].terminator().word(0)));
    return conditions;
  }

  bool branches(uint32_t block) const {
    Op op = function_.blocks[block].terminator().opcode();
    return op == Op::OpBranchConditional || op == Op::OpSwitch;
  }

  // The best way out: the trip count is a constant when one exit is.
  IndexKind some_exit(size_t loop) const {
    IndexKind best{Index::RunTime, false};
    for (IndexKind exit : exits(loop)) {
      if (exit.kind < best.kind || (exit.kind == best.kind && exit.all_loops_unrolled)) best = exit;
    }
    return best;
  }

  // The worst way out: which iteration leaves is a constant when every exit is.
  IndexKind every_exit(size_t loop) const {
    IndexKind worst;
    for (IndexKind exit : exits(loop)) worst = worse(worst, exit);
    if (worst.kind != Index::ConstantTripCounters) return {Index::RunTimeTripCounter, false};
    return worst;
  }

  // The blocks whose branches decide along which edge control enters `block`:
  // those on the paths from its immediate dominator to it.
  const std::vector<uint32_t>& deciders(uint32_t block) const {
    auto [cached, fresh] = deciders_.try_emplace(block);
    std::vector<uint32_t>& found = cached->second;
    int top = module_.dominators(function_).idom(block);
    if (!fresh || top < 0) return found;
    std::vector<bool> seen(cfg_.size(), false);
    std::vector<uint32_t> work(cfg_.predecessors(block));
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      if (seen[b]) continue;
      seen[b] = true;
      if (branches(b) && !is_constant(module_, function_.blocks[b].terminator().word(0))) found.push_back(b);
      if (static_cast<int>(b) == top) continue;
      for (uint32_t previous : cfg_.predecessors(b)) work.push_back(previous);
    }
    return found;
  }

  // The value a phi takes when the branch that decides between its inputs
  // tests a constant (a specialization constant, at its default), or 0.
  uint32_t chosen_value(const ir::Instruction& phi) const {
    int block = block_index(module_, cfg_, phi);
    const DominatorTree& dominators = module_.dominators(function_);
    int decider = block < 0 ? -1 : dominators.idom(static_cast<uint32_t>(block));
    if (decider < 0) return 0;
    const ir::Instruction& branch = function_.blocks[static_cast<uint32_t>(decider)].terminator();
    if (branch.opcode() != Op::OpBranchConditional) return 0;
    auto condition = constant_bool(module_, branch.word(0));
    if (!condition) return 0;
    int taken = cfg_.index_of(branch.word(*condition ? 1 : 2));
    if (taken < 0) return 0;
    uint32_t chosen = 0;
    for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
      int from = cfg_.index_of(phi.word(i + 1));
      if (from < 0) return 0;
      bool on_taken_path = taken == block ? from == decider
                                          : dominators.dominates(static_cast<uint32_t>(taken), static_cast<uint32_t>(from));
      if (!on_taken_path) continue;
      if (chosen != 0 && chosen != phi.word(i)) return 0;
      chosen = phi.word(i);
    }
    return chosen;
  }

  const Module& module_;
  const ir::Function& function_;
  const Cfg& cfg_;
  const std::vector<Loop>& loops_;
  bool solved_ = false;
  std::unordered_map<uint32_t, IndexKind> states_;
  mutable std::unordered_map<size_t, std::vector<uint32_t>> exit_blocks_;  // by loop
  mutable std::unordered_map<uint32_t, std::vector<uint32_t>> deciders_;   // by block
  mutable std::map<std::pair<size_t, uint32_t>, bool> invariants_;         // by loop and value
};

// One access chain into a per-invocation variable, walked down its type.
struct Access {
  const ir::Instruction* chain = nullptr;
  ArrayObject array;       // the array a run-time index selects from
  Index kind = Index::RunTime;
  uint32_t index = 0;
};

// The first array level of an access (its indices from the variable down)
// whose index stays a run-time value after unrolling, or nullopt. The array
// it reports is the whole array that level belongs to (`t` for `t[i][j]`).
std::optional<Access> dynamic_access(const Module& module, IndexClassifier& classifier, const ir::Instruction& chain,
                                     const std::vector<uint32_t>& indices, uint32_t variable_type) {
  uint32_t type_id = variable_type;
  ArrayObject outer;
  for (uint32_t index : indices) {
    const ir::Instruction* type = module.def(type_id);
    if (!type) return std::nullopt;
    if (type->opcode() == Op::OpTypeStruct) {
      uint32_t member = static_cast<uint32_t>(module.constant_value(index).value_or(0));
      outer = ArrayObject{0, outer.path + "." + member_name(module, type_id, member)};
      type_id = type->word(1 + member);
      continue;
    }
    if (type->opcode() != Op::OpTypeArray) return std::nullopt;  // a vector component or a matrix column
    if (outer.type == 0) outer.type = type_id;
    // An index into one element can only be 0.
    bool single = module.constant_value(type->word(2)) == 1u;
    if (!single && !is_constant(module, index)) {
      IndexKind kind = classifier.classify(chain, index);
      if (kind.kind != Index::ConstantTripCounters) return Access{&chain, outer, kind.kind, index};
      if (!kind.all_loops_unrolled && element_count(module, outer.type) > kUnrolledElements) {
        return Access{&chain, outer, Index::NotUnrolled, index};
      }
    }
    type_id = type->word(1);
  }
  return std::nullopt;
}

// The largest array in a type: itself, or the largest in its members.
std::optional<ArrayObject> largest_array(const Module& module, uint32_t type_id, std::string path) {
  const ir::Instruction* type = module.def(type_id);
  if (!type) return std::nullopt;
  if (type->opcode() == Op::OpTypeArray) return ArrayObject{type_id, path};
  if (type->opcode() != Op::OpTypeStruct) return std::nullopt;
  std::optional<ArrayObject> largest;
  for (size_t i = 1; i < type->operands().size(); ++i) {
    auto member = largest_array(module, type->word(i),
                                path + "." + member_name(module, type_id, static_cast<uint32_t>(i - 1)));
    if (member && (!largest || module.type_size(member->type).value_or(0) > module.type_size(largest->type).value_or(0))) {
      largest = member;
    }
  }
  return largest;
}

// Every access chain into a variable, through chains of chains.
std::vector<const ir::Instruction*> access_chains(const Module& module, uint32_t variable) {
  std::vector<const ir::Instruction*> chains;
  std::vector<uint32_t> work{variable};
  while (!work.empty()) {
    uint32_t pointer = work.back();
    work.pop_back();
    for (const ir::Instruction* use : module.uses(pointer)) {
      if (is_access_chain(*use) && use->word(2) == pointer) {
        chains.push_back(use);
        work.push_back(use->result_id());
      }
    }
  }
  return chains;
}

// The indices of an access chain from the variable down, through the chains
// it is built on (every chain access_chains() finds leads to its variable).
std::vector<uint32_t> chain_indices(const Module& module, const ir::Instruction& chain) {
  std::optional<PointerPath> path = pointer_path(module, chain.result_id());
  return path ? std::move(path->indices) : std::vector<uint32_t>{};
}

// A table: every write to the variable (its initializer, stores through it
// or into it at constant indices) writes a constant. Drivers keep those in
// constant memory.
bool is_constant_table(const Module& module, const ir::Instruction& variable) {
  if (variable.operands().size() > 3 && !is_constant(module, variable.word(3))) return false;
  std::vector<const ir::Instruction*> pointers{&variable};
  for (const ir::Instruction* chain : access_chains(module, variable.result_id())) pointers.push_back(chain);
  for (const ir::Instruction* pointer : pointers) {
    for (const ir::Instruction* use : module.uses(pointer->result_id())) {
      if (use->opcode() == Op::OpCopyMemory && use->word(0) == pointer->result_id()) return false;
      if (use->opcode() != Op::OpStore || use->word(0) != pointer->result_id()) continue;
      if (!is_constant(module, use->word(1))) return false;
      for (uint32_t index : chain_indices(module, *pointer)) {
        if (!is_constant(module, index)) return false;
      }
    }
  }
  return true;
}

class PrivateArraySpill final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }
  bool needs_workgroup_size() const override { return false; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    SourceText source = source_text(module);
    std::vector<const ir::Instruction*> privates;
    for (const ir::Instruction& global : module.ir().globals) {
      if (global.opcode() == Op::OpVariable && global.word(2) == static_cast<uint32_t>(spv::StorageClass::Private)) {
        privates.push_back(&global);
      }
    }
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      std::vector<Loop> loops = find_loops(module, function);
      std::vector<const ir::Instruction*> variables = privates;
      if (!function.blocks.empty()) {
        for (const ir::Instruction& instruction : function.blocks.front().instructions) {
          if (instruction.opcode() == Op::OpVariable) variables.push_back(&instruction);
        }
      }
      IndexClassifier classifier(module, function, cfg, loops);
      for (const ir::Instruction* variable : variables) check_variable(module, cfg, classifier, source, *variable, report);
    }
  }

 private:
  static void check_variable(const Module& module, const Cfg& cfg, IndexClassifier& classifier,
                             const SourceText& source, const ir::Instruction& variable, Reporter& report) {
    uint32_t type = pointee(module, variable.result_id());
    std::optional<ArrayObject> largest = largest_array(module, type, "");
    if (!largest || is_constant_table(module, variable)) return;
    std::vector<const ir::Instruction*> chains = access_chains(module, variable.result_id());
    if (chains.empty()) return;  // never indexed: dead, or only copied whole
    std::optional<Access> dynamic = most_telling_access(module, cfg, classifier, chains, type);
    if (!dynamic && module.type_size(largest->type).value_or(0) <= kRegisterArrayBytes) return;

    // Inlined code may have lost its lines: name and point at accesses that have one.
    auto has_line = [&](const ir::Instruction* chain) { return module.nearest_location(*chain).has_line(); };
    auto with_line = std::find_if(chains.begin(), chains.end(), has_line);
    const ir::Instruction* first = with_line != chains.end() ? *with_line : chains.front();
    std::string name =
        variable_name(module, source, variable.result_id(), true, {first, dynamic ? dynamic->chain : nullptr});
    const ArrayObject& array = dynamic ? dynamic->array : *largest;
    std::string shown = name.empty() ? "" : fmt::format(" '{}{}'", name, array.path);
    std::string size = fmt::format("of {} ({} bytes)", describe_array(module, array.type),
                                   module.type_size(array.type).value_or(0));
    std::string message =
        dynamic ? fmt::format("per-invocation array{} {} is indexed dynamically and may spill to scratch memory",
                              shown, size)
                : fmt::format("per-invocation array{} {} is larger than {} bytes and may spill to scratch memory",
                              shown, size, kRegisterArrayBytes);
    Location at = module.nearest_location(*first);
    Location before = dynamic && has_line(dynamic->chain) ? module.nearest_location(*dynamic->chain) : at;
    if (auto declared = declaration_line(source, name, before)) at = *declared;
    at.token = name;
    auto diagnostic = report.at(std::move(at), std::move(message));
    if (dynamic) diagnostic.note(module.nearest_location(*dynamic->chain), index_note(module, *dynamic));
    diagnostic.fix_title(
        "keep per-invocation state small, index it with constants (unrolled loops), or stage it in shared memory");
  }

  // The access whose index is the most clearly a run-time value, preferring
  // one with a line; nullopt when every index is a constant once unrolled.
  static std::optional<Access> most_telling_access(const Module& module, const Cfg& cfg, IndexClassifier& classifier,
                                                   const std::vector<const ir::Instruction*>& chains, uint32_t type) {
    std::optional<Access> most;
    for (const ir::Instruction* chain : chains) {
      const ir::Block* block = module.block_of(*chain);
      if (!block || cfg.index_of(block->id()) < 0) continue;  // another function's use of a Private variable
      std::optional<Access> access = dynamic_access(module, classifier, *chain, chain_indices(module, *chain), type);
      if (!access) continue;
      bool better = !most || access->kind > most->kind ||
                    (access->kind == most->kind && !module.nearest_location(*most->chain).has_line() &&
                     module.nearest_location(*access->chain).has_line());
      if (better) most = access;
    }
    return most;
  }

  static std::string index_note(const Module& module, const Access& access) {
    switch (access.kind) {
      case Index::RunTime: {
        const ir::Block* block = module.block_of(*access.chain);
        const ir::Function* function = block ? module.function_of(*block) : nullptr;
        if (function) {
          if (auto builtin = module.uniformity(*function).source_builtin(access.index)) {
            return fmt::format("indexed here with a value computed from {}, known only at run time",
                               builtin_name(module, *builtin));
          }
        }
        return "indexed here with a value known only at run time";
      }
      case Index::RunTimeTripCounter:
        return "indexed here by the counter of a loop whose trip count is only known at run time";
      case Index::NotUnrolled:
      case Index::ConstantTripCounters:
        break;
    }
    return fmt::format("indexed here by the counter of a loop not marked [[unroll]]; drivers unroll such loops on "
                       "their own only for arrays of up to {} elements",
                       kUnrolledElements);
  }
};

KLINT_REGISTER_RULE(PrivateArraySpill);

}  // namespace
}  // namespace klint
