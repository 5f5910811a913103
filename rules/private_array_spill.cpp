#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

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
Arrays indexed only with constants, or with expressions of the counters of
loops whose trip count is a compile-time constant once the enclosing loops
are unrolled, when the array has at most 16 elements or every such loop is
marked `[[unroll]]`: drivers unroll those loops and keep the elements in
registers. Specialization constants count at their defaults, for array
sizes, loop bounds and the booleans that choose between them; an array of
one element is never indexed dynamically. Tables only ever written with
constants (`const float lut[] = ...`) are silent: drivers put them in
constant memory, not scratch. Both thresholds are rules of thumb: a GPU with
a large register file may keep more than 256 bytes, and some drivers turn a
tiny dynamically indexed array into a chain of selects instead of scratch
accesses.
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
// on are unrolled: it is computed from constants and from counters of loops
// whose start, step and bound are themselves such values.
class IndexClassifier {
 public:
  IndexClassifier(const Module& module, const Cfg& cfg, const std::vector<Loop>& loops)
      : module_(module), cfg_(cfg), loops_(loops) {}

  IndexKind classify(uint32_t index) {
    IndexKind result;
    std::vector<uint32_t> work{index};
    std::set<uint32_t> seen;
    while (!work.empty()) {
      uint32_t id = work.back();
      work.pop_back();
      if (!seen.insert(id).second || is_constant(module_, id)) continue;
      const ir::Instruction* definition = module_.def(id);
      if (!definition) return {Index::RunTime, false};
      if (uint32_t copied = copied_value(module_, id); copied != id) {
        work.push_back(copied);
        continue;
      }
      if (definition->opcode() == Op::OpPhi) {
        const Loop* loop = loop_with_header(*definition);
        if (!loop) {
          uint32_t chosen = chosen_value(*definition);
          if (!chosen) return {Index::RunTime, false};
          work.push_back(chosen);
          continue;
        }
        if (!steps_itself(*loop, *definition)) return {Index::RunTime, false};  // a value carried around a loop
        std::optional<IndexKind> kind = counter(*loop, *definition);
        if (!kind) {
          result.kind = std::max(result.kind, Index::RunTimeTripCounter);
        } else {
          result.kind = std::max(result.kind, kind->kind);
          result.all_loops_unrolled = result.all_loops_unrolled && kind->all_loops_unrolled;
        }
        continue;
      }
      if (definition->opcode() == Op::OpSelect) {
        if (auto condition = constant_bool(module_, definition->word(2))) {
          work.push_back(definition->word(*condition ? 3 : 4));  // a specialization constant, at its default
          continue;
        }
      }
      if (!is_pure_integer_operation(*definition)) return {Index::RunTime, false};
      // An extended instruction's first input is its instruction set.
      size_t first = definition->opcode() == Op::OpExtInst ? 4 : 2;
      for (size_t i = first; i < definition->operands().size(); ++i) work.push_back(definition->word(i));
    }
    return result;
  }

 private:
  const Loop* loop_with_header(const ir::Instruction& phi) const {
    int block = block_index(module_, cfg_, phi);
    for (const Loop& loop : loops_) {
      if (static_cast<int>(loop.header) == block) return &loop;
    }
    return nullptr;
  }

  // The value a phi takes when the branch that decides between its inputs
  // tests a constant (a specialization constant, at its default), or 0.
  uint32_t chosen_value(const ir::Instruction& phi) const {
    int block = block_index(module_, cfg_, phi);
    int decider = block < 0 ? -1 : module_.dominators(*function_of(phi)).idom(static_cast<uint32_t>(block));
    if (decider < 0) return 0;
    const ir::Instruction& branch = function_of(phi)->blocks[static_cast<uint32_t>(decider)].terminator();
    if (branch.opcode() != Op::OpBranchConditional) return 0;
    auto condition = constant_bool(module_, branch.word(0));
    if (!condition) return 0;
    int taken = cfg_.index_of(branch.word(*condition ? 1 : 2));
    if (taken < 0) return 0;
    const DominatorTree& dominators = module_.dominators(*function_of(phi));
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

  const ir::Function* function_of(const ir::Instruction& instruction) const {
    return module_.function_of(*module_.block_of(instruction));
  }

  // Whether `id` is the counter (or the stepped counter) itself, through copies and conversions.
  bool is_counter_value(uint32_t id, const ir::Instruction& phi, uint32_t step) const {
    for (int depth = 0; depth < 8; ++depth) {
      if (id == phi.result_id() || id == step) return true;
      const ir::Instruction* definition = module_.def(id);
      if (!definition) return false;
      if (uint32_t copied = copied_value(module_, id); copied != id) {
        id = copied;
      } else if (definition->opcode() == Op::OpBitcast || definition->opcode() == Op::OpSConvert ||
                 definition->opcode() == Op::OpUConvert || definition->opcode() == Op::OpCopyObject) {
        id = definition->word(2);
      } else {
        return false;
      }
    }
    return false;
  }

  bool unrollable(uint32_t id, IndexKind& kind) {
    IndexKind value = classify(id);
    kind.all_loops_unrolled = kind.all_loops_unrolled && value.all_loops_unrolled;
    return value.kind == Index::ConstantTripCounters;
  }

  // Whether a loop header phi is a counter: the next iteration's value is
  // the phi stepped by integer arithmetic.
  bool steps_itself(const Loop& loop, const ir::Instruction& phi) const {
    for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
      int from = cfg_.index_of(phi.word(i + 1));
      if (from < 0 || !loop.body[static_cast<uint32_t>(from)]) continue;
      const ir::Instruction* next = module_.def(phi.word(i));
      if (!next || !is_integer_arithmetic(next->opcode()) || next->operands().size() != 4) return false;
      if (!is_counter_value(next->word(2), phi, 0) && !is_counter_value(next->word(3), phi, 0)) return false;
    }
    return true;
  }

  // The counter of a loop whose trip count is known once enclosing loops are
  // unrolled, or nullopt.
  std::optional<IndexKind> counter(const Loop& loop, const ir::Instruction& phi) {
    if (auto known = counters_.find(phi.result_id()); known != counters_.end()) return known->second;
    counters_[phi.result_id()] = std::nullopt;  // a cycle through this counter is no counter
    std::optional<IndexKind> result = judge_counter(loop, phi);
    counters_[phi.result_id()] = result;
    return result;
  }

  std::optional<IndexKind> judge_counter(const Loop& loop, const ir::Instruction& phi) {
    uint32_t start = 0, step = 0;
    for (size_t i = 2; i + 1 < phi.operands().size(); i += 2) {
      int from = cfg_.index_of(phi.word(i + 1));
      if (from < 0) return std::nullopt;
      uint32_t& slot = loop.body[static_cast<uint32_t>(from)] ? step : start;
      if (slot != 0 && slot != phi.word(i)) return std::nullopt;
      slot = phi.word(i);
    }
    constexpr uint32_t kUnroll = static_cast<uint32_t>(spv::LoopControlMask::Unroll);
    IndexKind kind{Index::ConstantTripCounters, (loop.merge->word(2) & kUnroll) != 0};
    const ir::Instruction* next = step ? module_.def(step) : nullptr;
    if (!start || !next || !unrollable(start, kind) || !is_integer_arithmetic(next->opcode()) ||
        next->operands().size() != 4) {
      return std::nullopt;
    }
    uint32_t a = next->word(2), b = next->word(3);
    bool steps = (is_counter_value(a, phi, 0) && unrollable(b, kind)) ||
                 (is_counter_value(b, phi, 0) && unrollable(a, kind));
    if (!steps) return std::nullopt;
    for (const ir::Block& block : module_.function_of(*module_.block_of(phi))->blocks) {
      int index = cfg_.index_of(block.id());
      if (index < 0 || !loop.body[static_cast<uint32_t>(index)]) continue;
      const ir::Instruction& branch = block.terminator();
      if (branch.opcode() != Op::OpBranchConditional || !leaves(loop, branch)) continue;
      const ir::Instruction* compare = module_.def(branch.word(0));
      if (!compare || !is_comparison(compare->opcode())) continue;
      uint32_t left = compare->word(2), right = compare->word(3);
      IndexKind bound = kind;
      if ((is_counter_value(left, phi, step) && unrollable(right, bound)) ||
          (is_counter_value(right, phi, step) && unrollable(left, bound))) {
        return bound;
      }
    }
    return std::nullopt;
  }

  bool leaves(const Loop& loop, const ir::Instruction& branch) const {
    for (size_t target = 1; target <= 2; ++target) {
      int block = cfg_.index_of(branch.word(target));
      if (block >= 0 && !loop.body[static_cast<uint32_t>(block)]) return true;
    }
    return false;
  }

  const Module& module_;
  const Cfg& cfg_;
  const std::vector<Loop>& loops_;
  std::unordered_map<uint32_t, std::optional<IndexKind>> counters_;
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
      IndexKind kind = classifier.classify(index);
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
      IndexClassifier classifier(module, cfg, loops);
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
        dynamic ? fmt::format("per-invocation array{} {} is indexed dynamically and will spill to scratch memory",
                              shown, size)
                : fmt::format("per-invocation array{} {} is larger than {} bytes and is likely to spill to scratch "
                              "memory",
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
                               glsl_name(*builtin));
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
