#include <algorithm>
#include <deque>

#include "analyzer/ir/opcodes.h"
#include "analyzer/uniformity.h"
#include "analyzer/loops.h"
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
    .summary = "subgroup operation that may run with only part of its subgroup active",
    .doc = R"md(
## What it finds
A subgroup operation (GLSL `subgroupAdd`, `subgroupShuffle`, `subgroupBroadcast`,
`subgroupBallot`, `subgroupAll`, ...; HLSL `WaveActiveSum`, `WavePrefixSum`,
`WaveReadLaneAt`, ...) under a branch, a loop or after an early `return` whose
condition can differ between the invocations of one subgroup, because it
derives from `gl_LocalInvocationID`, `gl_GlobalInvocationID`,
`gl_SubgroupInvocationID`, an atomic result or another per-invocation value.
The operation then runs with only the invocations that took the same path.

## Why it matters
A subgroup operation combines the values of the *active* invocations of the
subgroup. Under a divergent branch, a reduction covers fewer lanes than the
code assumes (an average divided by `gl_SubgroupSize` comes out too small), a
vote or a ballot answers for part of the subgroup, and a shuffle or broadcast
that reads a lane which branched away reads an undefined value. Which lanes
are active where depends on the subgroup size and on where the driver
reconverges, so the result changes between GPUs.

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
- Conditions that every invocation of a subgroup agrees on keep the subgroup
  whole and stay silent, even where invocations of a workgroup differ:
  `gl_SubgroupID`, `gl_NumSubgroups`, `gl_SubgroupSize`, `gl_WorkGroupID`,
  push constants and uniform buffers, and the results of reductions
  (`subgroupAdd`, `subgroupMax`, ...), votes (`subgroupAll`, `subgroupAny`,
  `subgroupAllEqual`), ballots and broadcasts. So the usual second stage of a
  reduction, `if (gl_SubgroupID == 0) { ... subgroupAdd(v) ... }`, is silent,
  and so is code after a loop, whatever its trip count.
- A range of invocation indexes, `gl_LocalInvocationIndex < K` (or the x of
  `gl_LocalInvocationID` or `gl_GlobalInvocationID` where each row of the
  workgroup is a multiple of the subgroup), holds whole subgroups when K is a
  multiple of the widest subgroup any selected target may run (`--target`;
  up to 128 invocations on Adreno). A note names the targets whose subgroups
  straddle K. This assumes each subgroup holds consecutive invocation
  indexes, which every known driver does but Vulkan does not promise.
- Operations that are about the active invocations are not reported:
  `subgroupElect` (`WaveIsFirstLane`), `subgroupBroadcastFirst`
  (`WaveReadLaneFirst`: it reads the first active lane, the one
  `subgroupElect` picks), `subgroupBallot(true)` (asking which lanes are
  active, as in `WaveActiveCountBits(true)`), and the functions of a ballot
  value (`subgroupBallotBitCount`, `subgroupBallotExclusiveBitCount`,
  `subgroupBallotBitExtract`, `subgroupBallotFindLSB`, ...), which read no
  other lane. The idiom of one atomic per subgroup under a branch is silent.
- Subgroup barriers (`subgroupBarrier()`) are not checked here.
)md",
};

using spv::Op;

// Whether the operation's result depends on which lanes of the subgroup are
// active in a way the code cannot have meant to depend on.
bool assumes_full_subgroup(const Module& module, const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Op::OpGroupNonUniformElect:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return false;
    case Op::OpGroupNonUniformBallot: {
      const ir::Instruction* predicate = module.def(instruction.word(3));
      return !predicate || predicate->opcode() != Op::OpConstantTrue;
    }
    default:
      return ir::is_subgroup_operation(instruction.opcode());
  }
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
  if (auto builtin = uniformity.source_builtin(condition)) return glsl_name(*builtin);
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
    return fmt::format("{} differs between the invocations of a subgroup", glsl_name(*why->builtin));
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

class SubgroupOperationInDivergentControlFlow final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    uint32_t widest = widest_subgroup(options.targets);
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      const Uniformity& uniformity = module.subgroup_uniformity(function, widest);
      for (uint32_t block = 0; block < function.blocks.size(); ++block) {
        const ir::Instruction* branch = uniformity.divergent_branch(block);
        if (!branch || !cfg.reachable(block)) continue;
        for (const ir::Instruction& operation : function.blocks[block].instructions) {
          if (!assumes_full_subgroup(module, operation)) continue;
          report_operation(module, options, function, cfg, uniformity, block, operation, *branch, report);
        }
      }
    }
  }

 private:
  static void report_operation(const Module& module, const RuleOptions& options, const ir::Function& function,
                               const Cfg& cfg, const Uniformity& uniformity, uint32_t block,
                               const ir::Instruction& operation, const ir::Instruction& branch, Reporter& report) {
    uint32_t condition = branch.word(0);
    std::string source = source_name(module, uniformity, condition);
    std::string name = operation_name(module, operation);
    std::string named = name.empty() ? "the subgroup operation" : name;
    Location at = module.location(operation);
    at.token = name;
    auto diagnostic = report.at(
        std::move(at), fmt::format("{} in control flow that depends on {}, so only part of its subgroup may take part",
                                   name.empty() ? "subgroup operation" : name, source));
    uint32_t branch_block = static_cast<uint32_t>(cfg.index_of(module.block_of(branch)->id()));
    diagnostic.note(module.nearest_location(branch), branch_note(function, cfg, branch_block, block, named, source));
    if (const ir::Instruction* comparison = index_split(module, uniformity, condition)) {
      uint64_t split = uniformity.value(comparison->result_id())->split;
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
      diagnostic.note(module.nearest_location(*comparison),
                      fmt::format("invocation index {} falls inside a subgroup on {}, so one subgroup has "
                                  "invocations on both sides of this comparison",
                                  split, where));
    }
    auto chain = uniformity.chain(condition);
    if (!chain.empty()) {
      Location origin = module.location(*chain.back());
      if (auto builtin = uniformity.source_builtin(condition)) origin.token = glsl_name(*builtin);
      diagnostic.note(std::move(origin), source_note(module, uniformity, *chain.back()));
    }
    diagnostic.fix_title(
        "branch on a value the whole subgroup agrees on (gl_SubgroupID, a subgroup vote), or run the operation where "
        "every invocation of the subgroup reaches it and give the idle ones a neutral value");
  }
};

KLINT_REGISTER_RULE(SubgroupOperationInDivergentControlFlow);

}  // namespace
}  // namespace klint
