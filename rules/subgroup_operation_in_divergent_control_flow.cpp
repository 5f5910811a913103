#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <set>

#include "analyzer/builtin_names.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/lane_groups.h"
#include "analyzer/loops.h"
#include "analyzer/subgroup_facts.h"
#include "analyzer/symbolic.h"
#include "analyzer/uniformity.h"
#include "rules/rule.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "subgroup-operation-in-divergent-control-flow",
    .category = Category::Correctness,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::PartialGroup,
    .summary = "subgroup operation that may run with only part of its subgroup active",
    .doc = R"md(
## What it finds
A subgroup operation under a branch, a loop or after an early `return` whose
condition can differ between the invocations it works with, so that some of
them are not active when it runs, where that gives a wrong answer:

- an operation that reads another lane's value (`subgroupShuffle`,
  `subgroupShuffleXor`, `subgroupShuffleUp`/`Down`, `subgroupBroadcast`, the
  quad operations; HLSL `WaveReadLaneAt`, `QuadReadAcrossX`/`Y`/`Diagonal`,
  `QuadReadLaneAt`), when the lanes it may read can be inactive: the value it
  reads from an inactive lane is undefined;
- a reduction, scan, vote or ballot (`subgroupAdd`, `subgroupBallot`,
  `subgroupAll`, ...; HLSL `WaveActiveSum`, `WaveActiveCountBits`, ...)
  whose author evidently meant the whole subgroup (or cluster): its result
  is combined with `gl_SubgroupSize` (`WaveGetLaneCount()`), or a clustered
  one's with its cluster size (an average, a count compared with the size),
  or it runs where one lane of each subgroup is active (inside
  `subgroupElect()`, `WaveIsFirstLane()`, `gl_SubgroupInvocationID == 0`),
  where it combines that lane alone.

The condition differs because it derives from `gl_LocalInvocationID`,
`gl_GlobalInvocationID`, `gl_SubgroupInvocationID`, an atomic result or
another per-invocation value.

## Why it matters
A lane that branched away holds no value for the others to read: a shuffle
or broadcast from it returns garbage, and which lanes are gone depends on the
subgroup size and on where the driver reconverges, so the result changes
between GPUs. A reduction covers only the active lanes; that is what it is
for after an early return, but an average divided by `gl_SubgroupSize`
then comes out too small, and a "sum" inside `subgroupElect()` is one value.

## Bad
```glsl
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float dx[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;                           // lanes past n leave...
    float next = subgroupShuffleDown(x[i], 1u);   // ...and the last one left reads a lane that is gone
    dx[i] = next - x[i];
}
```

## Fix
```glsl
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float dx[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = i < n ? x[i] : 0.0;                 // every lane takes part, idle ones with a neutral value
    float next = subgroupShuffleDown(v, 1u);
    if (i < n) dx[i] = next - v;
}
```

## Exceptions
- Operations defined on the active lanes are not reported where nothing
  shows that the author meant every lane: a reduction, scan, vote or ballot
  after an early return or under a branch (`if (i >= n) return; s =
  subgroupAdd(v); if (subgroupElect()) atomicAdd(total, s);`, compaction
  slots from `subgroupExclusiveAdd` or `WavePrefixCountBits`), and
  `subgroupElect`, `subgroupBroadcastFirst` (`WaveReadLaneFirst`),
  `subgroupBallot(true)` and the functions of a ballot value, which are about
  the active lanes themselves.
- An operation that reads within a group of lanes is silent under conditions
  every lane of that group agrees on: a quad (lanes 4k to 4k + 3) for the
  quad operations, a cluster for clustered ones, and for a shuffle by xor
  with a mask below 2^k, the aligned group of 2^k lanes. Such conditions are
  `idx < 64u` where `idx` is the local invocation index and 64 a multiple of
  the group, a test of `idx / 4`, `idx >> 3` or `idx & ~3u`, or of
  `gl_SubgroupInvocationID & 7u` against 4. So an early return on
  `(tid / 8) / 4 >= n` keeps clusters of 8 whole, whatever n is.
- Conditions that every invocation of a subgroup agrees on keep the subgroup
  whole and stay silent, even where invocations of a workgroup differ:
  `gl_SubgroupID`, `gl_NumSubgroups`, `gl_SubgroupSize`, `gl_WorkGroupID`,
  push constants and uniform buffers, and the results of reductions
  (`subgroupAdd`, `subgroupMax`, ...), votes (`subgroupAll`, `subgroupAny`,
  `subgroupAllEqual`), ballots and broadcasts. So is code after a loop,
  whatever its trip count.
- A range of invocation indexes, `gl_LocalInvocationIndex < K` (or the x of
  `gl_LocalInvocationID` or `gl_GlobalInvocationID` where each row of the
  workgroup is a multiple of the group), holds whole subgroups when K is a
  multiple of the widest subgroup any selected target may run (`--target`;
  up to 128 invocations on Adreno). A note names the targets whose subgroups
  straddle K.
- This assumes what every known driver does and Vulkan does not promise:
  that each subgroup holds consecutive values of `gl_LocalInvocationIndex`
  starting at a multiple of its size, and that the subgroup size is a
  multiple of the quad or cluster. Workgroup sizes from specialization
  constants are not trusted to keep rows whole.
- A broadcast from a lane that is active whatever the condition (lane 0
  after `if (i >= n) return;`) is still reported: klint does not follow
  which lanes stay.
- Subgroup barriers (`subgroupBarrier()`) are not checked here.
)md",
};

using spv::Op;

// What an operation does with the lanes that are not active, and over which
// lanes: a quad, a cluster, or (group 0) the whole subgroup.
struct OperationKind {
  enum class Reads {
    Nothing,     // about the active lanes themselves: an election, a ballot's bits
    ActiveSet,   // combines the active lanes' values: reductions, scans, votes, ballots
    OtherLanes,  // reads another lane's value, undefined where that lane is inactive
  } reads = Reads::Nothing;
  uint32_t group = 0;
};

// The largest value `value` can have where `instruction` runs, from the
// conditions on the way to it that compare the value with a literal
// (`m < 4` on the side that holds, `m >= 4` on the side that fails).
std::optional<int64_t> bound_where_it_runs(const Module& module, const ir::Function& function,
                                           const ir::Instruction& instruction, uint32_t value) {
  const Cfg& cfg = module.cfg(function);
  const DominatorTree& dominators = module.dominators(function);
  int block = cfg.index_of(module.block_of(instruction)->id());
  if (block < 0) return std::nullopt;
  std::optional<int64_t> bound;
  for (int at = dominators.idom(static_cast<uint32_t>(block)); at >= 0; at = dominators.idom(static_cast<uint32_t>(at))) {
    const ir::Instruction& branch = function.blocks[static_cast<uint32_t>(at)].terminator();
    if (branch.opcode() != Op::OpBranchConditional) continue;
    int yes = cfg.index_of(branch.word(1)), no = cfg.index_of(branch.word(2));
    if (yes < 0 || no < 0) continue;
    bool holds = dominators.dominates(static_cast<uint32_t>(yes), static_cast<uint32_t>(block));
    bool fails = dominators.dominates(static_cast<uint32_t>(no), static_cast<uint32_t>(block));
    const ir::Instruction* comparison = module.def(branch.word(0));
    if (holds == fails || !comparison || comparison->operands().size() != 4) continue;
    bool value_first = comparison->word(2) == value;
    if (!value_first && comparison->word(3) != value) continue;
    auto literal = literal_value(module, comparison->word(value_first ? 3 : 2));
    if (!literal || *literal >= (uint64_t{1} << 31)) continue;
    // As `value < K` (strict) or `value <= K` where the branch lets it through.
    std::optional<int64_t> most;
    auto k = static_cast<int64_t>(*literal);
    switch (comparison->opcode()) {
      case Op::OpULessThan: case Op::OpSLessThan:  // v < K, or K < v
        if (value_first && holds) most = k - 1;
        if (!value_first && fails) most = k;
        break;
      case Op::OpULessThanEqual: case Op::OpSLessThanEqual:
        if (value_first && holds) most = k;
        if (!value_first && fails) most = k - 1;
        break;
      case Op::OpUGreaterThan: case Op::OpSGreaterThan:
        if (value_first && fails) most = k;
        if (!value_first && holds) most = k - 1;
        break;
      case Op::OpUGreaterThanEqual: case Op::OpSGreaterThanEqual:
        if (value_first && fails) most = k - 1;
        if (!value_first && holds) most = k;
        break;
      default:
        break;
    }
    if (most) bound = bound ? std::min(*bound, *most) : *most;
  }
  return bound;
}

// The lanes a shuffle by xor stays within: an aligned group of the next power
// of two above the largest mask, or the subgroup (0). The mask is a literal,
// a value of known range, or one a condition bounds where the shuffle runs
// (the counter of `for (m = 1; m < 4; m <<= 1)`).
uint32_t xor_group(const Module& module, const ir::Function& function, const ir::Instruction& shuffle) {
  uint32_t mask = shuffle.word(4);
  std::optional<int64_t> high;
  if (auto literal = literal_value(module, mask)) {
    high = static_cast<int64_t>(*literal);
  } else {
    const SymbolicValues& values = module.symbolic(function);
    Interval range = values.range(values.value(mask));
    if (range.low && *range.low >= 0) high = range.high;
    if (!high) high = bound_where_it_runs(module, function, shuffle, mask);
  }
  if (!high || *high < 0 || *high >= (int64_t{1} << 16)) return 0;
  return static_cast<uint32_t>(std::bit_ceil(static_cast<uint64_t>(*high) + 1));
}

OperationKind operation_kind(const Module& module, const ir::Function& function, const ir::Instruction& instruction) {
  using Reads = OperationKind::Reads;
  switch (instruction.opcode()) {
    case Op::OpGroupNonUniformElect:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return {};
    case Op::OpGroupNonUniformBallot: {
      const ir::Instruction* predicate = module.def(instruction.word(3));
      if (predicate && predicate->opcode() == Op::OpConstantTrue) return {};  // which lanes are active
      return {Reads::ActiveSet};
    }
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
      return {Reads::OtherLanes};
    case Op::OpGroupNonUniformShuffleXor:
      return {Reads::OtherLanes, xor_group(module, function, instruction)};
    case Op::OpGroupNonUniformQuadBroadcast:
    case Op::OpGroupNonUniformQuadSwap:
      return {Reads::OtherLanes, 4};
    case Op::OpGroupNonUniformRotateKHR: {
      auto cluster = instruction.operands().size() > 5 ? literal_value(module, instruction.word(5)) : std::nullopt;
      return {Reads::OtherLanes, cluster ? static_cast<uint32_t>(*cluster) : 0};
    }
    default:
      break;
  }
  if (!ir::is_subgroup_operation(instruction.opcode())) return {};
  auto op = static_cast<uint32_t>(instruction.opcode());
  bool arithmetic = op >= static_cast<uint32_t>(Op::OpGroupNonUniformIAdd) &&
                    op <= static_cast<uint32_t>(Op::OpGroupNonUniformLogicalXor);
  if (arithmetic && instruction.operands().size() > 5 &&
      static_cast<spv::GroupOperation>(instruction.word(3)) == spv::GroupOperation::ClusteredReduce) {
    auto cluster = literal_value(module, instruction.word(5));
    return {Reads::ActiveSet, cluster ? static_cast<uint32_t>(*cluster) : 0};
  }
  return {Reads::ActiveSet};
}

// Through conversions: the value a count or scale is made from.
uint32_t unconverted(const Module& module, uint32_t id) {
  for (int depth = 0; depth < 8; ++depth) {
    const ir::Instruction* definition = module.def(id);
    if (!definition) break;
    switch (definition->opcode()) {
      case Op::OpUConvert: case Op::OpSConvert: case Op::OpFConvert: case Op::OpConvertUToF:
      case Op::OpConvertSToF: case Op::OpBitcast: case Op::OpCopyObject:
        id = definition->word(2);
        continue;
      default:
        return id;
    }
  }
  return id;
}

// Whether a value counts every lane of the group, active or not:
// gl_SubgroupSize for the subgroup, the cluster's size (or its inverse, a
// float) for a cluster.
bool counts_every_lane(const Module& module, uint32_t id, uint32_t cluster) {
  id = unconverted(module, id);
  if (cluster == 0) {
    auto builtin = loaded_builtin(module, id);
    return builtin && builtin->builtin == spv::BuiltIn::SubgroupSize;
  }
  const ir::Instruction* constant = module.def(id);
  if (!constant || constant->opcode() != Op::OpConstant) return false;
  const ir::Instruction* type = module.def(constant->type_id());
  if (type && type->opcode() == Op::OpTypeInt) return literal_value(module, id) == cluster;
  if (type && type->opcode() == Op::OpTypeFloat && type->word(1) == 32) {
    float value = std::bit_cast<float>(constant->word(2));
    return value == static_cast<float>(cluster) || value == 1.0f / static_cast<float>(cluster);
  }
  return false;
}

bool carries_a_count(Op op) {
  switch (op) {
    case Op::OpIAdd: case Op::OpISub: case Op::OpIMul: case Op::OpUDiv: case Op::OpSDiv: case Op::OpFAdd:
    case Op::OpFSub: case Op::OpFMul: case Op::OpFDiv: case Op::OpVectorTimesScalar: case Op::OpIEqual:
    case Op::OpINotEqual: case Op::OpULessThan: case Op::OpULessThanEqual: case Op::OpUGreaterThan:
    case Op::OpUGreaterThanEqual: case Op::OpSLessThan: case Op::OpSLessThanEqual: case Op::OpSGreaterThan:
    case Op::OpSGreaterThanEqual: case Op::OpFOrdEqual: case Op::OpFOrdNotEqual: case Op::OpFOrdLessThan:
    case Op::OpFOrdGreaterThan: case Op::OpFOrdLessThanEqual: case Op::OpFOrdGreaterThanEqual:
    case Op::OpUConvert: case Op::OpSConvert: case Op::OpFConvert: case Op::OpConvertUToF: case Op::OpConvertSToF:
    case Op::OpConvertFToU: case Op::OpConvertFToS: case Op::OpBitcast: case Op::OpCopyObject:
    case Op::OpCompositeExtract: case Op::OpSelect: case Op::OpGroupNonUniformBallotBitCount:
      return true;
    default:
      return false;
  }
}

// Where the result of an operation on the active lanes meets a count of
// every lane of its group (an average divided by gl_SubgroupSize, a ballot's
// bit count compared with it): the author took the group to be whole.
const ir::Instruction* use_as_whole_group(const Module& module, const ir::Instruction& operation, uint32_t cluster) {
  std::vector<uint32_t> values{operation.result_id()};
  std::set<uint32_t> seen;
  for (int depth = 0; depth < 6 && !values.empty(); ++depth) {
    std::vector<uint32_t> next;
    for (uint32_t value : values) {
      for (const ir::Instruction* use : module.uses(value)) {
        if (!carries_a_count(use->opcode()) || !seen.insert(use->result_id()).second) continue;
        for (uint32_t input : use->input_ids()) {
          if (input != value && counts_every_lane(module, input, cluster)) return use;
        }
        next.push_back(use->result_id());
      }
    }
    values = std::move(next);
  }
  return nullptr;
}

// A condition that holds in at most one lane of a subgroup: subgroupElect(),
// or an invocation index compared for equality with a value its subgroup
// agrees on.
bool one_lane(const Module& module, const Uniformity& uniformity, uint32_t condition, bool holds) {
  const ir::Instruction* definition = module.def(condition);
  for (int depth = 0; definition && definition->opcode() == Op::OpLogicalNot && depth < 4; ++depth) {
    holds = !holds;
    definition = module.def(definition->word(2));
  }
  if (!definition) return false;
  if (definition->opcode() == Op::OpGroupNonUniformElect) return holds;
  bool equal = definition->opcode() == Op::OpIEqual;
  if (!(equal ? holds : definition->opcode() == Op::OpINotEqual && !holds)) return false;
  for (size_t side = 2; side <= 3; ++side) {
    uint32_t index = definition->word(side), other = definition->word(5 - side);
    auto builtin = loaded_builtin(module, unconverted(module, index));
    bool is_index = builtin && (builtin->builtin == spv::BuiltIn::SubgroupLocalInvocationId ||
                                builtin->builtin == spv::BuiltIn::LocalInvocationIndex);
    if (is_index && !uniformity.value(other)) return true;
  }
  return false;
}

// The branch, among those deciding whether invocations reach `block`, that
// lets through one lane of each subgroup at most, or nullptr.
const ir::Instruction* single_lane_branch(const Module& module, const ir::Function& function,
                                          const Uniformity& uniformity, uint32_t block) {
  const Cfg& cfg = module.cfg(function);
  const DominatorTree& dominators = module.dominators(function);
  const ControlDependence& dependence = module.control_dependence(function);
  std::vector<bool> seen(cfg.size(), false);
  std::vector<uint32_t> work(dependence.controllers(block).begin(), dependence.controllers(block).end());
  while (!work.empty()) {
    uint32_t controller = work.back();
    work.pop_back();
    if (seen[controller]) continue;
    seen[controller] = true;
    for (uint32_t next : dependence.controllers(controller)) work.push_back(next);
    const ir::Instruction& branch = function.blocks[controller].terminator();
    if (branch.opcode() != Op::OpBranchConditional) continue;
    int taken = cfg.index_of(branch.word(1)), other = cfg.index_of(branch.word(2));
    if (taken < 0 || other < 0) continue;
    bool through_true = dominators.dominates(static_cast<uint32_t>(taken), block);
    bool through_false = dominators.dominates(static_cast<uint32_t>(other), block);
    if (through_true == through_false) continue;
    if (one_lane(module, uniformity, branch.word(0), through_true)) return &branch;
  }
  return nullptr;
}

// The GLSL or HLSL function that compiles to a subgroup operation, or "".
std::string operation_name(const Module& module, const ir::Instruction& instruction) {
  bool hlsl = module.is_hlsl();
  auto group_operation = [&] { return static_cast<spv::GroupOperation>(instruction.word(3)); };
  auto arithmetic = [&](const char* glsl, const char* hlsl_reduce, const char* hlsl_prefix) -> std::string {
    switch (group_operation()) {
      case spv::GroupOperation::Reduce: return hlsl ? hlsl_reduce : fmt::format("subgroup{}", glsl);
      case spv::GroupOperation::InclusiveScan: return hlsl ? "" : fmt::format("subgroupInclusive{}", glsl);
      case spv::GroupOperation::ExclusiveScan: return hlsl ? hlsl_prefix : fmt::format("subgroupExclusive{}", glsl);
      case spv::GroupOperation::ClusteredReduce: return hlsl ? "" : fmt::format("subgroupClustered{}", glsl);
      default: return "";
    }
  };
  switch (instruction.opcode()) {
    case Op::OpGroupNonUniformAll: return hlsl ? "WaveActiveAllTrue" : "subgroupAll";
    case Op::OpGroupNonUniformAny: return hlsl ? "WaveActiveAnyTrue" : "subgroupAny";
    case Op::OpGroupNonUniformAllEqual: return hlsl ? "WaveActiveAllEqual" : "subgroupAllEqual";
    case Op::OpGroupNonUniformBroadcast: return hlsl ? "WaveReadLaneAt" : "subgroupBroadcast";
    case Op::OpGroupNonUniformShuffle: return hlsl ? "WaveReadLaneAt" : "subgroupShuffle";
    case Op::OpGroupNonUniformShuffleXor: return hlsl ? "" : "subgroupShuffleXor";
    case Op::OpGroupNonUniformShuffleUp: return hlsl ? "" : "subgroupShuffleUp";
    case Op::OpGroupNonUniformShuffleDown: return hlsl ? "" : "subgroupShuffleDown";
    case Op::OpGroupNonUniformQuadBroadcast: return hlsl ? "QuadReadLaneAt" : "subgroupQuadBroadcast";
    case Op::OpGroupNonUniformQuadSwap: {
      static constexpr const char* kGlsl[] = {"subgroupQuadSwapHorizontal", "subgroupQuadSwapVertical",
                                              "subgroupQuadSwapDiagonal"};
      static constexpr const char* kHlsl[] = {"QuadReadAcrossX", "QuadReadAcrossY", "QuadReadAcrossDiagonal"};
      auto direction = module.constant_value(instruction.word(4));
      if (!direction || *direction > 2) return "";
      return hlsl ? kHlsl[*direction] : kGlsl[*direction];
    }
    case Op::OpGroupNonUniformBallot:
      if (!hlsl) return "subgroupBallot";
      // WaveActiveCountBits and WavePrefixCountBits are a ballot and a count.
      for (const ir::Instruction* use : module.uses(instruction.result_id())) {
        if (use->opcode() != Op::OpGroupNonUniformBallotBitCount) continue;
        auto operation = static_cast<spv::GroupOperation>(use->word(3));
        if (operation == spv::GroupOperation::Reduce) return "WaveActiveCountBits";
        if (operation == spv::GroupOperation::ExclusiveScan) return "WavePrefixCountBits";
      }
      return "WaveActiveBallot";
    case Op::OpGroupNonUniformIAdd: case Op::OpGroupNonUniformFAdd:
      return arithmetic("Add", "WaveActiveSum", "WavePrefixSum");
    case Op::OpGroupNonUniformIMul: case Op::OpGroupNonUniformFMul:
      return arithmetic("Mul", "WaveActiveProduct", "WavePrefixProduct");
    case Op::OpGroupNonUniformSMin: case Op::OpGroupNonUniformUMin: case Op::OpGroupNonUniformFMin:
      return arithmetic("Min", "WaveActiveMin", "");
    case Op::OpGroupNonUniformSMax: case Op::OpGroupNonUniformUMax: case Op::OpGroupNonUniformFMax:
      return arithmetic("Max", "WaveActiveMax", "");
    case Op::OpGroupNonUniformBitwiseAnd: return arithmetic("And", "WaveActiveBitAnd", "");
    case Op::OpGroupNonUniformBitwiseOr: return arithmetic("Or", "WaveActiveBitOr", "");
    case Op::OpGroupNonUniformBitwiseXor: return arithmetic("Xor", "WaveActiveBitXor", "");
    case Op::OpGroupNonUniformLogicalAnd: return arithmetic("And", "", "");
    case Op::OpGroupNonUniformLogicalOr: return arithmetic("Or", "", "");
    case Op::OpGroupNonUniformLogicalXor: return arithmetic("Xor", "", "");
    default: return "";
  }
}

// The widest subgroup any of the targets may run a shader with.
uint32_t widest_subgroup(const std::vector<const Target*>& targets) {
  uint32_t widest = 0;
  for (const Target* target : targets) widest = std::max(widest, target->subgroup_size.max);
  return widest;
}

std::string source_name(const Module& module, const Uniformity& uniformity, uint32_t condition) {
  if (auto builtin = uniformity.source_builtin(condition)) return builtin_name(module, *builtin);
  auto chain = uniformity.chain(condition);
  if (!chain.empty()) {
    const ir::Instruction& source = *chain.back();
    if (source.opcode() == Op::OpGroupNonUniformElect) {
      return module.is_hlsl() ? "WaveIsFirstLane()" : "subgroupElect()";
    }
    const Divergence* why = uniformity.value(source.result_id());
    if (why && why->kind == Divergence::Kind::Atomic) return "the result of an atomic";
  }
  return "a value that differs between invocations";
}

std::string branch_note(const ir::Function& function, const Cfg& cfg, uint32_t branch, uint32_t operation_block,
                        const std::string& operation, const std::string& source) {
  if (is_loop_branch(function, cfg, branch)) {
    return fmt::format(
        "this loop condition depends on {}, so invocations leave the loop at different iterations and the later "
        "ones run with part of the subgroup",
        source);
  }
  for (uint32_t next : cfg.successors(branch)) {
    if (!cfg.reaches(next, operation_block)) {
      return fmt::format("invocations that branch away here never reach {}; the condition depends on {}", operation,
                         source);
    }
  }
  return fmt::format("this condition depends on {}", source);
}

std::string source_note(const Module& module, const Uniformity& uniformity, const ir::Instruction& source) {
  const Divergence* why = uniformity.value(source.result_id());
  if (why && why->kind == Divergence::Kind::BuiltIn) {
    return fmt::format("{} differs between the invocations of a subgroup", builtin_name(module, *why->builtin));
  }
  if (why && why->kind == Divergence::Kind::Atomic) return "the result of an atomic differs between invocations";
  if (why && why->kind == Divergence::Kind::Subgroup) {
    if (source.opcode() == Op::OpGroupNonUniformElect) {
      return fmt::format("{} is true in one invocation of each subgroup",
                         module.is_hlsl() ? "WaveIsFirstLane" : "subgroupElect");
    }
    return "the result of this subgroup operation differs between the invocations of a subgroup";
  }
  return "this value differs between invocations";
}

// The comparison of an invocation index against a bound inside a subgroup
// that the condition derives from, if any.
const ir::Instruction* index_split(const Module& module, const Uniformity& uniformity, uint32_t condition) {
  std::vector<uint32_t> ids{condition};
  for (const ir::Instruction* link : uniformity.chain(condition)) ids.push_back(link->result_id());
  for (uint32_t id : ids) {
    const Divergence* why = uniformity.value(id);
    if (why && why->kind == Divergence::Kind::IndexSplit) return module.def(id);
  }
  return nullptr;
}

// The lanes an operation works on, in words: "subgroup", "quad", "cluster of 8 lanes".
std::string group_name(const OperationKind& kind, uint32_t group) {
  if (kind.group == 0) return "subgroup";
  if (group == 4 && kind.reads == OperationKind::Reads::OtherLanes) return "quad";
  return fmt::format("{} of {} lanes", kind.reads == OperationKind::Reads::ActiveSet ? "cluster" : "group", group);
}

class SubgroupOperationInDivergentControlFlow final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    uint32_t widest = widest_subgroup(options.targets);
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      std::map<uint32_t, std::unique_ptr<LaneGroups>> groups;  // by group size
      auto lanes = [&](uint32_t size) -> const LaneGroups& {
        auto& slot = groups[size];
        if (!slot) slot = std::make_unique<LaneGroups>(module, function, size);
        return *slot;
      };
      for (uint32_t block = 0; block < function.blocks.size(); ++block) {
        if (!cfg.reachable(block)) continue;
        for (const ir::Instruction& operation : function.blocks[block].instructions) {
          OperationKind kind = operation_kind(module, function, operation);
          if (kind.reads == OperationKind::Reads::Nothing) continue;
          // A group as wide as the subgroup may be is the subgroup.
          if (kind.group != 0 && widest != 0 && kind.group >= widest) kind.group = 0;
          uint32_t size = kind.group != 0 ? kind.group : widest;
          const LaneGroups& groups_of_size = lanes(size);
          const ir::Instruction* branch = groups_of_size.splitting_branch(block);
          if (!branch) continue;
          Judgement judgement{kind, size, branch};
          if (kind.reads == OperationKind::Reads::ActiveSet) {
            judgement.whole_count = use_as_whole_group(module, operation, kind.group);
            if (kind.group == 0 && !judgement.whole_count) {
              judgement.single_lane = single_lane_branch(module, function, groups_of_size.uniformity(), block);
              if (judgement.single_lane) judgement.branch = judgement.single_lane;
            }
            if (!judgement.whole_count && !judgement.single_lane) continue;  // defined on the active lanes
          }
          report_operation(module, options, function, cfg, groups_of_size.uniformity(), block, operation, judgement,
                           report);
        }
      }
    }
  }

 private:
  // Why an operation is reported.
  struct Judgement {
    OperationKind kind;
    uint32_t size = 0;                                  // lanes of its group
    const ir::Instruction* branch = nullptr;            // a branch that may split the group
    const ir::Instruction* whole_count = nullptr;       // ActiveSet: where the result meets the group's size
    const ir::Instruction* single_lane = nullptr;       // ActiveSet: the branch that lets one lane through
  };

  static void report_operation(const Module& module, const RuleOptions& options, const ir::Function& function,
                               const Cfg& cfg, const Uniformity& uniformity, uint32_t block,
                               const ir::Instruction& operation, const Judgement& judgement, Reporter& report) {
    const ir::Instruction& branch = *judgement.branch;
    uint32_t condition = branch.word(0);
    std::string source = source_name(module, uniformity, condition);
    std::string name = operation_name(module, operation);
    std::string named = name.empty() ? "the subgroup operation" : name;
    std::string group = group_name(judgement.kind, judgement.size);
    std::string consequence;
    if (judgement.kind.reads == OperationKind::Reads::OtherLanes) {
      consequence = fmt::format("so it may read a lane of its {} that is not active", group);
    } else if (judgement.single_lane) {
      consequence = "where one lane of each subgroup is active, so it combines that lane alone";
    } else {
      consequence = fmt::format("so it combines only the active lanes, but its result is used as if every lane of the "
                                "{} took part",
                                group);
    }
    Location at = module.location(operation);
    at.token = name;
    auto diagnostic = report.at(std::move(at), fmt::format("{} in control flow that depends on {}, {}",
                                                           name.empty() ? "subgroup operation" : name, source,
                                                           consequence));
    diagnostic.about(operation);
    uint32_t branch_block = static_cast<uint32_t>(cfg.index_of(module.block_of(branch)->id()));
    // The branch too, so that a run logs which way each lane went.
    diagnostic.note(module.nearest_location(branch), branch_note(function, cfg, branch_block, block, named, source))
        .about(branch);
    if (const ir::Instruction* comparison = index_split(module, uniformity, condition)) {
      uint64_t split = uniformity.value(comparison->result_id())->split;
      if (judgement.kind.group != 0) {
        diagnostic.note(module.nearest_location(*comparison),
                        fmt::format("invocation index {} is not a multiple of {}, so one {} has invocations on both "
                                    "sides of this comparison",
                                    split, judgement.size, group));
      } else {
        note_straddling_targets(module, options, *comparison, split, diagnostic);
      }
    }
    auto chain = uniformity.chain(condition);
    if (!chain.empty()) {
      Location origin = module.location(*chain.back());
      if (auto builtin = uniformity.source_builtin(condition)) origin = builtin_origin(module, *builtin, origin);
      diagnostic.note(std::move(origin), source_note(module, uniformity, *chain.back()));
    }
    if (judgement.whole_count) {
      diagnostic.note(module.nearest_location(*judgement.whole_count),
                      judgement.kind.group == 0
                          ? fmt::format("the result meets {} here, which counts every lane of the subgroup, active "
                                        "or not",
                                        builtin_name(module, spv::BuiltIn::SubgroupSize))
                          : fmt::format("the result meets the cluster size {} here, which counts every lane of the "
                                        "cluster, active or not",
                                        judgement.size));
    }
    diagnostic.fix_title(fmt::format("branch on a value the whole subgroup agrees on ({}), or run the operation where "
                                     "every invocation of the subgroup reaches it and give the idle ones a neutral "
                                     "value",
                                     module.is_hlsl() ? "a wave vote such as WaveActiveAnyTrue()"
                                                      : "gl_SubgroupID, a subgroup vote"));
  }

  static void note_straddling_targets(const Module& module, const RuleOptions& options,
                                      const ir::Instruction& comparison, uint64_t split,
                                      DiagnosticBuilder& diagnostic) {
    std::vector<std::pair<const Target*, uint32_t>> straddling;
    for (const Target* target : options.targets) {
      if (target->subgroup_size.max != 0 && split % target->subgroup_size.max != 0) {
        straddling.emplace_back(target, target->subgroup_size.max);
      }
    }
    std::string where = straddling.size() == options.targets.size()
                            ? std::string("every target")
                            : failing_targets(straddling, [](uint32_t size) {
                                return fmt::format("subgroups of up to {} invocations", size);
                              });
    diagnostic.note(module.nearest_location(comparison),
                    fmt::format("invocation index {} falls inside a subgroup on {}, so one subgroup has invocations "
                                "on both sides of this comparison",
                                split, where));
  }
};

KLINT_REGISTER_RULE(SubgroupOperationInDivergentControlFlow);

}  // namespace
}  // namespace klint
