#include <deque>
#include <filesystem>

#include "analyzer/builtin_names.h"
#include "analyzer/barriers.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/uniformity.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "barrier-in-divergent-control-flow",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::BarrierArrival,
    .summary = "workgroup barrier that only some invocations of a workgroup may reach",
    .doc = R"md(
## What it finds
A workgroup barrier (GLSL `barrier()`, HLSL `GroupMemoryBarrierWithGroupSync()`
and its relatives, `OpControlBarrier` with workgroup execution scope) that sits
under a branch, a loop or after an early `return` whose condition can differ
between the invocations of one workgroup, because it derives from
`gl_LocalInvocationID`, `gl_GlobalInvocationID`, a subgroup id, an atomic
result or another per-invocation value. A value loaded from a storage buffer
that the shader itself writes (a store or an atomic on the same variable, at
bytes the load may read) is one of them, even at an address every invocation
shares: an invocation of this workgroup or of another one running alongside
may write it between the loads of two invocations. The classic case is an
error flag that every invocation tests on entry (`if (failed != 0) return;`)
while an allocator in the same shader sets it when it runs out of memory.

## Why it matters
Every invocation of a workgroup must execute the same barrier, the same number
of times (Vulkan requires barriers in uniform control flow). When some
invocations skip it, the others wait forever or run on with memory the rest
has not written: the shader hangs, loses the device, or computes garbage, and
which of these happens changes between GPUs and drivers.

## Bad
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint n; };
shared float partial[256];
void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid >= n) return;             // idle invocations leave early...
    partial[tid] = x[tid];
    barrier();                        // ...and never arrive here
    x[tid] = partial[255 - tid];
}
```

## Fix
```glsl
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint n; };
shared float partial[256];
void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = tid < n ? x[tid] : 0.0;  // idle invocations contribute zero
    barrier();                              // and every invocation arrives
    if (tid < n) x[tid] = partial[255 - tid];
}
```

## Exceptions
Conditions on values that are the same for the whole workgroup stay silent:
`gl_WorkGroupID`, `gl_NumWorkGroups`, push constants, specialization constants,
uniform buffers, and loads at uniform addresses from workgroup memory or from
storage buffers the shader does not write (`readonly` ones, or members no
store or atomic of the shader reaches: a write in bounds of an array never
reaches the member beside it). To test a flag the shader may set, let one
invocation load it into shared memory and test that after a barrier, or let
the flag guard each invocation's work without skipping a barrier
(`bool ok = failed == 0; if (ok) { ... } barrier();`). A barrier with subgroup
execution scope is not a workgroup barrier and is not checked here, nor is one
whose execution scope is a specialization constant the host may set.

A test that the workgroup's size decides is the same for every invocation:
in a workgroup 128 wide, `if (tid >= 128 || row >= rows) return;` returns for
all of them or none, since no local id reaches 128. klint reads such tests on
local ids and `gl_LocalInvocationIndex` (and sums of their multiples) against
constants, where the size is written as a number; a size the host may
specialize is not trusted, so the same test there is still reported.

Where a condition says that one subgroup is the whole workgroup
(`gl_SubgroupSize == gl_WorkGroupSize.x`, `gl_NumSubgroups == 1`), votes,
broadcasts and reductions under it are the workgroup's too. A condition that
the workgroup agrees on by voting is silent as well: each subgroup publishes
`subgroupAll(x <= T)` (or `subgroupAny`) to its slot of a shared array, a
barrier follows, and every invocation folds its own `x` with all the slots by
`max` or `min`. The fold differs between invocations, but a comparison of it
that has one answer whether every subgroup voted yes or some voted no is the
same everywhere. This assumes that a device's `max` either ignores a NaN or
returns it, alike in every invocation.
)md",
};

using spv::Op;

// A barrier the whole workgroup must reach. One whose execution scope is a
// specialization constant may be a subgroup barrier: not reported.
bool makes_workgroup_wait(const Module& module, const ir::Instruction& instruction) {
  std::optional<Barrier> barrier = barrier_of(module, instruction);
  return barrier && surely(barrier->waits_for_workgroup());
}

// The load of buffer memory the shader writes that a divergent condition
// comes from, if it does: the value before the write in the chain.
const ir::Instruction* written_load(const Module& module, const Uniformity& uniformity, uint32_t condition) {
  auto chain = uniformity.chain(condition);
  if (chain.empty()) return nullptr;
  const ir::Instruction* load = chain.size() > 1 ? chain[chain.size() - 2] : module.def(condition);
  const Divergence* why = load ? uniformity.value(load->result_id()) : nullptr;
  if (!why || why->kind != Divergence::Kind::Memory || why->cause != chain.back() || load->opcode() != Op::OpLoad) {
    return nullptr;
  }
  return load;
}

std::string source_name(const Module& module, const Uniformity& uniformity, uint32_t condition) {
  if (auto builtin = uniformity.source_builtin(condition)) return builtin_name(module, *builtin);
  if (written_load(module, uniformity, condition)) return "a value loaded from buffer memory that the shader writes";
  return "a value that differs between invocations";
}

// "`name`" for a load of a buffer's member `name` (the innermost named member
// on the way), else the buffer's name.
std::string loaded_name(const Module& module, const ir::Instruction& load) {
  std::optional<PointerPath> path = pointer_path(module, load.word(2));
  if (!path) return "this value";
  std::string name = module.variable_name(path->variable->result_id());
  const ir::Instruction* pointer_type = module.def(path->variable->type_id());
  const ir::Instruction* type =
      pointer_type && pointer_type->opcode() == Op::OpTypePointer ? module.def(pointer_type->word(2)) : nullptr;
  for (uint32_t index : path->indices) {
    if (!type) break;
    if (type->opcode() == Op::OpTypeStruct) {
      auto member = module.constant_value(index);
      if (!member || *member + 1 >= type->operands().size()) break;
      std::string member_name = module.member_name(type->result_id(), static_cast<uint32_t>(*member));
      if (!member_name.empty() && member_name.front() != '@') name = member_name;  // not HLSL's `@data`
      type = module.def(type->word(1 + static_cast<size_t>(*member)));
    } else if (type->opcode() == Op::OpTypeArray || type->opcode() == Op::OpTypeRuntimeArray) {
      type = module.def(type->word(1));
    } else {
      break;
    }
  }
  return fmt::format("`{}`", name);
}

// Where the write is, for a note at the load: its line, with its file when
// that is another.
std::string write_place(const Module& module, const ir::Instruction& load, const ir::Instruction& write) {
  Location at = module.nearest_location(write), from = module.location(load);
  if (!at.has_line()) return "";
  if (at.file != from.file && !at.file.empty()) {
    return fmt::format(" ({}:{})", std::filesystem::path(at.file).filename().string(), at.line);
  }
  return fmt::format(" (line {})", at.line);
}

std::string branch_note(const ir::Function& function, const Cfg& cfg, uint32_t branch, uint32_t barrier,
                        const std::string& source) {
  if (is_loop_branch(function, cfg, branch)) {
    return fmt::format("this loop condition depends on {}, so invocations leave the loop at different iterations",
                       source);
  }
  for (uint32_t next : cfg.successors(branch)) {
    if (!cfg.reaches(next, barrier)) {
      return fmt::format("invocations that branch away here never reach the barrier; the condition depends on {}",
                         source);
    }
  }
  return fmt::format("this condition depends on {}", source);
}

std::string source_note(const Module& module, const Uniformity& uniformity, const ir::Instruction& source) {
  const Divergence* why = uniformity.value(source.result_id());
  if (why && why->kind == Divergence::Kind::BuiltIn) {
    return fmt::format("{} differs between the invocations of a workgroup", builtin_name(module, *why->builtin));
  }
  if (why && why->kind == Divergence::Kind::Atomic) return "the result of an atomic differs between invocations";
  if (why && why->kind == Divergence::Kind::Subgroup) {
    return "the result of a subgroup operation differs between subgroups";
  }
  return "this value differs between invocations";
}

class BarrierInDivergentControlFlow final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      const Uniformity& uniformity = module.uniformity(function);
      for (uint32_t block = 0; block < function.blocks.size(); ++block) {
        const ir::Instruction* branch = uniformity.divergent_branch(block);
        if (!branch || !cfg.reachable(block)) continue;
        for (const ir::Instruction& barrier : function.blocks[block].instructions) {
          if (!makes_workgroup_wait(module, barrier)) continue;
          report_barrier(module, function, cfg, uniformity, block, barrier, *branch, report);
        }
      }
    }
  }

 private:
  static void report_barrier(const Module& module, const ir::Function& function, const Cfg& cfg,
                             const Uniformity& uniformity, uint32_t block, const ir::Instruction& barrier,
                             const ir::Instruction& branch, Reporter& report) {
    uint32_t condition = branch.word(0);
    std::string source = source_name(module, uniformity, condition);
    const ir::Block* branch_block = module.block_of(branch);
    uint32_t branch_index = static_cast<uint32_t>(cfg.index_of(branch_block->id()));
    Location at = module.location(barrier);
    at.token = module.is_hlsl() ? "" : "barrier";
    auto diagnostic = report.at(std::move(at), fmt::format("barrier in control flow that depends on {}", source));
    diagnostic.about(barrier);
    diagnostic.note(branch, branch_note(function, cfg, branch_index, block, source));
    auto chain = uniformity.chain(condition);
    if (const ir::Instruction* load = written_load(module, uniformity, condition)) {
      diagnostic.note(*load, fmt::format("{} is loaded from buffer memory that this shader writes{}: an invocation of "
                                         "this workgroup or of another may write it between the loads of two "
                                         "invocations, so they may read different values",
                                         loaded_name(module, *load), write_place(module, *load, *chain.back())));
    } else if (!chain.empty()) {
      Location origin = module.location(*chain.back());
      if (auto builtin = uniformity.source_builtin(condition)) origin = builtin_origin(module, *builtin, origin);
      diagnostic.note(std::move(origin), source_note(module, uniformity, *chain.back()));
    }
    diagnostic.fix_title(
        "make the condition uniform across the workgroup, or move the barrier where every invocation reaches it");
  }
};

KLINT_REGISTER_RULE(BarrierInDivergentControlFlow);

}  // namespace
}  // namespace klint
