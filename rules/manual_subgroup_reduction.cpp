#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/barriers.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/symbolic.h"
#include "rules/support/reduction_tree.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "manual-subgroup-reduction",
    .category = Category::Performance,
    .default_severity = Severity::Note,
};

constexpr RuleDescription kDescription{
    .summary = "shared-memory tree reduction within one subgroup, which subgroup arithmetic does in registers",
    .doc = R"md(
## What it finds
A tree reduction through `shared` (`groupshared`) memory whose steps all run
within one subgroup: a loop that halves or doubles a stride `s` and combines
`sh[i]` with `sh[i + s]` (or `sh[i ^ s]`) by `+`, `*`, `min`, `max`, `&`, `|`
or `^`, or the same steps written out one by one (the warp-synchronous tail
`sh[tid] += sh[tid + 16]; sh[tid] += sh[tid + 8]; ...`), where the
invocations that write lie within 32 neighbouring invocations of one subgroup
(klint takes subgroups as 32 wide, in local index order). Where each subgroup
holds several such trees (one per group of 8 invocations), the finding names
the clustered operation instead. The message names the array and the
operation that does the work: `subgroupAdd()`, `subgroupMax()`, ... in GLSL,
`WaveActiveSum()`, `WaveActiveMax()`, ... in HLSL.

## Why it matters
Each step of the tree is a store and a load through shared memory and, when
the steps are synchronized, a barrier that waits for the whole workgroup:
log2(n) round trips for work that the invocations of one subgroup do in
registers with one subgroup operation. The subgroup operation needs no shared
memory (more workgroups fit on a compute unit) and no barrier. The written-out
tail without barriers is worse: it relies on the invocations running in
lockstep, which the Vulkan memory model does not promise (see
`shared-memory-race`).

## Bad
```glsl
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[32];
void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 16; s > 0; s >>= 1) {   // five barriers for one subgroup's sum
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
```

## Fix
```glsl
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[32];
void main() {
    float sum = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = sum;   // one slot per subgroup
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint i = 0; i < gl_NumSubgroups; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
```

## Exceptions
- A tree across the whole workgroup whose first step spans more than 32
  invocations is not reported, although its last steps run within one
  subgroup: it stays portable to every subgroup size and needs no extension.
  Only trees that never leave one subgroup are.
- Nothing is reported when a selected target lacks subgroup arithmetic in
  compute shaders (`--target=vulkan-1.3-minimum`).
- Trees whose stride or bounds depend on a specialization constant that also
  sizes the workgroup are not reported: the size the pipeline is created with
  is unknown, and is usually larger than the default.
- Arrays that hold subgroup results (written at `gl_SubgroupID`, or with the
  value of a subgroup operation) are the second stage of a subgroup
  reduction, and are not reported.
- Prefix scans, Walsh-Hadamard transforms and sorting networks are not
  reductions and are not reported: a Blelloch scan adds the lower element
  into the upper one, a Hillis-Steele scan's doubling steps read elements
  that the same step writes, a transform writes the partner too.
- Trees whose loop bounds or indices klint cannot evaluate (a bound from a
  push constant) are not reported.
- The subgroup operation may sum in another order than the tree; results can
  differ in the last bits of a float.
)md",
};

using spv::Op;

struct OperatorNames {
  const char* text;     // for messages
  const char* glsl;     // the subgroup operation, e.g. "Add" in subgroupAdd
  const char* hlsl;     // the wave intrinsic
};

OperatorNames names(ReductionOperator op) {
  switch (op) {
    case ReductionOperator::Add: return {"'+'", "Add", "WaveActiveSum"};
    case ReductionOperator::Mul: return {"'*'", "Mul", "WaveActiveProduct"};
    case ReductionOperator::Min: return {"min()", "Min", "WaveActiveMin"};
    case ReductionOperator::Max: return {"max()", "Max", "WaveActiveMax"};
    case ReductionOperator::And: return {"'&'", "And", "WaveActiveBitAnd"};
    case ReductionOperator::Or: return {"'|'", "Or", "WaveActiveBitOr"};
    case ReductionOperator::Xor: return {"'^'", "Xor", "WaveActiveBitXor"};
  }
  return {"", "", ""};
}

// Whether `id` is computed from a specialization constant that sizes the
// workgroup (directly, or through gl_WorkGroupSize).
bool depends_on_workgroup_size(const Module& module, const EntryPoint& entry, uint32_t id, int depth = 0) {
  if (depth > 12 || !entry.workgroup_size) return false;
  if (auto spec = module.spec_id(id)) {
    for (const WorkgroupDimension& dimension : *entry.workgroup_size) {
      if (dimension.spec_id == spec) return true;
    }
  }
  const ir::Instruction* def = module.def(id);
  if (!def) return false;
  switch (def->opcode()) {
    case Op::OpSpecConstantOp: case Op::OpSpecConstantComposite: case Op::OpCompositeExtract:
    case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpUDiv: case Op::OpSDiv:
    case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic: case Op::OpShiftLeftLogical:
    case Op::OpBitcast: case Op::OpUConvert: case Op::OpSConvert: case Op::OpCopyObject:
      for (uint32_t input : def->input_ids()) {
        if (input != id && depends_on_workgroup_size(module, entry, input, depth + 1)) return true;
      }
      return false;
    default:
      return false;
  }
}

bool is_subgroup_result(const Module& module, uint32_t id, int depth = 0) {
  const ir::Instruction* def = module.def(id);
  if (!def || depth > 6 || def->opcode() == Op::OpLoad || def->opcode() == Op::OpPhi) return false;
  if (ir::is_subgroup_operation(def->opcode())) return true;
  for (uint32_t input : def->input_ids()) {
    if (is_subgroup_result(module, input, depth + 1)) return true;
  }
  return false;
}

// Steps that make one tree: the iterations of one loop's store, or steps
// written out one after another.
struct Tree {
  std::vector<ReductionStep> steps;
  const Loop* loop = nullptr;
};

bool writes(const MemoryAccess& access) { return access.kind != MemoryAccess::Kind::Read; }

// Arrays that hold subgroup results: combining them is the second stage of a
// reduction that already uses subgroup operations.
std::set<uint32_t> subgroup_staging(const Module& module, const Accesses& accesses) {
  std::set<uint32_t> staging;
  for (const MemoryAccess& access : accesses.all()) {
    if (access.storage != spv::StorageClass::Workgroup || !writes(access)) continue;
    // One slot per subgroup: the subgroup's id picks it, no lane or local id does.
    std::vector<Symbol> symbols = access.offset ? access.offset->symbols() : std::vector<Symbol>{};
    bool at_subgroup = access.offset && access.offset->mentions({Symbol::Kind::SubgroupId}) &&
                       std::none_of(symbols.begin(), symbols.end(), [](Symbol s) {
                         return s.kind == Symbol::Kind::SubgroupLane || s.kind == Symbol::Kind::LocalId;
                       });
    bool of_subgroup =
        access.instruction->opcode() == Op::OpStore && is_subgroup_result(module, access.instruction->word(1));
    if (at_subgroup || of_subgroup) staging.insert(access.variable);
  }
  return staging;
}

// The loop whose stride a step uses, when the store sits in it and is the
// loop's only write to the array.
const Loop* loop_of(const Module& module, const ir::Function& function, const std::vector<Loop>& loops,
                    const Accesses& accesses, const ReductionStep& step) {
  const Induction* induction = module.symbolic(function).induction(step.induction);
  if (!induction) return nullptr;
  for (const Loop& loop : loops) {
    if (loop.header != induction->header || !loop.body[step.store->block]) continue;
    for (const MemoryAccess& other : accesses.all()) {
      if (&other != step.store && other.variable == step.store->variable && writes(other) && loop.body[other.block]) {
        return nullptr;
      }
    }
    return &loop;
  }
  return nullptr;
}

bool bounds_depend_on_workgroup_size(const Module& module, const ir::Function& function, const EntryPoint& entry,
                                     const Tree& tree) {
  const Induction* induction = module.symbolic(function).induction(tree.steps.front().induction);
  if (!induction || depends_on_workgroup_size(module, entry, induction->initial)) return true;
  uint32_t merge = tree.loop->merge->word(0);
  for (uint32_t block = 0; block < tree.loop->body.size(); ++block) {
    if (!tree.loop->body[block]) continue;
    const ir::Instruction& branch = function.blocks[block].terminator();
    if (branch.opcode() != Op::OpBranchConditional || (branch.word(1) != merge && branch.word(2) != merge)) continue;
    const ir::Instruction* test = module.def(branch.word(0));
    if (!test) continue;
    for (uint32_t input : test->input_ids()) {
      if (depends_on_workgroup_size(module, entry, input)) return true;
    }
  }
  return false;
}

// Written-out steps: those of one array, element, operation and kind, in
// order, a new tree starting where a distance comes again. A block that
// writes the array otherwise (a transform writing the partner too) breaks
// the pattern.
std::vector<Tree> written_out_trees(const std::vector<ReductionStep>& steps, const Accesses& accesses) {
  std::set<uint32_t> blocks_with_other_writes;
  for (const MemoryAccess& access : accesses.all()) {
    if (access.storage != spv::StorageClass::Workgroup || !writes(access)) continue;
    bool is_step = std::any_of(steps.begin(), steps.end(), [&](const ReductionStep& s) { return s.store == &access; });
    if (!is_step) blocks_with_other_writes.insert(access.block);
  }
  std::vector<Tree> trees;
  std::vector<std::set<int64_t>> distances;
  for (const ReductionStep& step : steps) {
    if (step.induction || blocks_with_other_writes.count(step.store->block)) continue;
    auto same = [&](const Tree& tree) {
      const ReductionStep& first = tree.steps.front();
      return first.store->variable == step.store->variable && *first.store->offset == *step.store->offset &&
             first.op == step.op && first.butterfly == step.butterfly;
    };
    size_t index = trees.size();
    for (size_t i = trees.size(); i-- > 0;) {
      if (same(trees[i])) {
        index = i;
        break;
      }
    }
    if (index == trees.size() || !distances[index].insert(step.distance).second) {
      trees.push_back({{step}, nullptr});
      distances.push_back({step.distance});
    } else {
      trees[index].steps.push_back(step);
    }
  }
  return trees;
}

bool all_targets(const RuleOptions& options, uint32_t operations) {
  return std::all_of(options.targets.begin(), options.targets.end(), [&](const Target* target) {
    return target->subgroup_supported_in_compute && (target->subgroup_supported_operations & operations) == operations;
  });
}

class ManualSubgroupReduction final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    if (!all_targets(options, kSubgroupBasic | kSubgroupArithmetic)) return;
    bool clustered = all_targets(options, kSubgroupClustered);
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      const ir::Function& function = *entry.function;
      const Accesses& accesses = module.accesses(function);
      const SymbolicValues& values = module.symbolic(function);
      std::map<const ir::Instruction*, const MemoryAccess*> loads;
      for (const MemoryAccess& access : accesses.all()) {
        if (access.storage == spv::StorageClass::Workgroup && access.kind == MemoryAccess::Kind::Read) {
          loads.emplace(access.instruction, &access);
        }
      }
      std::set<uint32_t> staging = subgroup_staging(module, accesses);
      std::vector<ReductionStep> steps;
      for (const MemoryAccess& access : accesses.all()) {
        if (access.storage != spv::StorageClass::Workgroup || staging.count(access.variable)) continue;
        if (auto step = reduction_step(module, values, loads, access)) steps.push_back(std::move(*step));
      }
      if (steps.empty()) continue;
      std::vector<Loop> loops = find_loops(module, function);
      std::vector<Tree> trees = written_out_trees(steps, accesses);
      for (const ReductionStep& step : steps) {
        if (!step.induction) continue;
        const Loop* loop = loop_of(module, function, loops, accesses, step);
        if (loop) trees.push_back({{step}, loop});
      }
      TreeEvaluator evaluator(module, function);
      for (Tree& tree : trees) {
        if (tree.loop && bounds_depend_on_workgroup_size(module, function, entry, tree)) continue;
        std::optional<TreeShape> shape = evaluator.shape(tree.steps);
        if (!shape && !tree.loop) {
          // Steps across the workgroup, then the last ones in one block (the
          // warp-synchronous tail under `if (tid < 32)`): the tail is the
          // subgroup's reduction.
          uint32_t last = tree.steps.back().store->block;
          std::erase_if(tree.steps, [&](const ReductionStep& step) { return step.store->block != last; });
          if (tree.steps.size() >= 2) shape = evaluator.shape(tree.steps);
        }
        if (shape) report_tree(module, function, tree, *shape, clustered, report);
      }
    }
  }

 private:
  static void report_tree(const Module& module, const ir::Function& function, const Tree& tree,
                          const TreeShape& shape, bool clustered, Reporter& report) {
    const ReductionStep& first = tree.steps.front();
    std::string variable = module.variable_name(first.store->variable);
    OperatorNames op = names(first.op);
    bool hlsl = module.is_hlsl();
    std::string operation = hlsl ? std::string(op.hlsl) : fmt::format("subgroup{}", op.glsl);
    std::string message, fix;
    if (shape.trees_per_subgroup == 1) {
      message = fmt::format("tree reduction over '{}' runs within {} invocations: {}() does it without shared memory "
                            "or barriers", variable, shape.invocations, operation);
      fix = fmt::format("reduce in registers with {}(); where the values span several subgroups, combine the "
                        "per-subgroup results", operation);
    } else {
      message = fmt::format("tree reductions over '{}' each combine {} values within one subgroup: {} does them "
                            "without shared memory or barriers", variable, shape.values,
                            hlsl ? std::string("a wave operation") : fmt::format("subgroupClustered{}()", op.glsl));
      if (hlsl) {
        fix = fmt::format("exchange values with WaveReadLaneAt(v, WaveGetLaneIndex() ^ k), or give each tree a wave "
                          "of its own and use {}()", operation);
      } else {
        fix = fmt::format("combine each group of {} values with subgroupClustered{}(v, {}){}", shape.values, op.glsl,
                          shape.values, clustered ? "" : ", or with subgroupShuffleXor() where a target lacks "
                                                         "clustered operations");
      }
    }
    const ir::Instruction& at = tree.loop ? *tree.loop->merge : *first.store->instruction;
    DiagnosticBuilder finding = report.at(at, std::move(message));
    const ir::Instruction& last = *tree.steps.back().store->instruction;
    if (tree.loop) {
      finding.note(last, fmt::format("each of the {} steps combines two elements with {} here", shape.steps, op.text));
      if (const ir::Instruction* barrier = barrier_in(module, function, *tree.loop)) {
        finding.note(*barrier, "and waits for the whole workgroup here");
      }
    } else {
      finding.note(last, fmt::format("the last of {} steps, each combining two elements with {}", shape.steps,
                                     op.text));
    }
    finding.fix_title(std::move(fix));
  }

  static const ir::Instruction* barrier_in(const Module& module, const ir::Function& function, const Loop& loop) {
    for (uint32_t block = 0; block < loop.body.size(); ++block) {
      if (!loop.body[block]) continue;
      for (const ir::Instruction& instruction : function.blocks[block].instructions) {
        std::optional<Barrier> barrier = barrier_of(module, instruction);
        if (barrier && surely(barrier->waits_for_workgroup())) return &instruction;
      }
    }
    return nullptr;
  }
};

KLINT_REGISTER_RULE(ManualSubgroupReduction);
}  // namespace
}  // namespace klint
