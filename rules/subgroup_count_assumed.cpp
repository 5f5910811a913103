#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analyzer/builtin_names.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/ssa.h"
#include "rules/rule.h"
#include "rules/support/subgroup_width.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "subgroup-count-assumed",
    .category = Category::Portability,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::SubgroupSizeDependence,
    .summary = "per-subgroup array, loop bound or guard sized for a fixed number of subgroups",
    .doc = R"md(
## What it finds
Shared arrays with one element per subgroup, indexed by `gl_SubgroupID` (or
by an invocation id divided by `gl_SubgroupSize`, HLSL `WaveGetLaneCount()`,
or by a literal width such as `tid / 32`), and the code around them that
counts subgroups with a literal:

- the array has fewer elements than a target has subgroups in a workgroup, so
  the index runs past its end: an **error**, naming each such target and its
  count of subgroups (the workgroup's invocations over the target's width);
- a guard such as `gl_SubgroupID < 8` keeps the results of some subgroups out
  of the array;
- a loop `for (uint i = 0; i < 8; ++i) sum += partial[i]`, or a guard
  `if (tid < 8) v = partial[tid]`, reads a fixed number of elements where a
  target has another number of subgroups;
- each lane of a subgroup reads one element, `partial[gl_SubgroupInvocationID]`,
  with no guard, as if a workgroup had as many subgroups as a subgroup has
  lanes.

## Why it matters
How many subgroups a workgroup has depends on the GPU: 256 invocations are 8
subgroups on NVIDIA and Apple, 4 on Adreno, 16 on Mali and 32 on lavapipe and
Intel's SIMD8. An array sized for 8 is overrun on the narrow GPUs, a shared
memory write out of bounds that corrupts other data or is dropped; a loop over
8 elements ignores the partial sums of the subgroups past the eighth, or, on
Adreno, adds 4 elements no subgroup wrote. Metal kernels declare
`threadgroup float shared_sums[8]; // assuming max 8 SIMD groups` and loop to
8, which is right only on 32-wide hardware with 256 threads.

## Bad
```glsl
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[8];   // 8 subgroups: 256 invocations on 32-wide GPUs only
void main() {
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint i = 0; i < 8; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
```

## Fix
```glsl
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[gl_WorkGroupSize.x / 4];   // enough for subgroups of 4 and wider
void main() {
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint i = 0; i < gl_NumSubgroups; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
```

## Exceptions
- Counts that are not literals are silent: `gl_NumSubgroups`, an expression of
  `gl_SubgroupSize`, and specialization constants. An array whose size comes
  from a specialization constant other than the workgroup size's (`shared
  float partial[NUM_SUBGROUPS]`) is not judged: the application sets it for
  each device.
- A workgroup size from specialization constants is judged at their defaults.
- Each target is judged at its `subgroup_size.preferred`, or, where the
  compiler picks the width per shader (Intel), at its `min`. A pipeline that
  requests a width with `requiredSubgroupSize` has the count that width gives;
  lint it with the targets that support that width. A target whose limit
  the workgroup exceeds is left to `workgroup-size-over-limit`.
- Only an index that is the subgroup's id itself counts:
  `partial[gl_SubgroupID * 4 + j]` and `partial[gl_SubgroupID + s]` are not
  judged.
- An array indexed by `tid / 32` has a fixed number of elements in use, which
  this rule checks; that the literal width is a subgroup's is
  `subgroup-size-assumed`'s finding.
- A read by `gl_SubgroupInvocationID` under any condition on it
  (`gl_SubgroupInvocationID < gl_NumSubgroups`) is silent, and so are targets
  whose compiler picks the width per shader, where lanes and subgroups vary
  together.
- A loop that reads more elements than subgroups wrote is silent when the
  array is also written by other code (cleared to zero before the subgroups
  store), which makes the extra elements harmless for sums.
)md",
};

using spv::Op;

struct Workgroup {
  std::array<WorkgroupDimension, 3> size;
  uint64_t invocations = 0;
};

// What a subgroup index counts: `range` invocations in subgroups of the
// target's width, or in groups of a literal width.
struct SubgroupIndex {
  uint64_t range = 0;
  uint32_t literal_width = 0;  // 0: the target's width
  std::string text;            // "gl_SubgroupID"
};

struct Count {
  uint64_t slots = 0;
  uint32_t width = 0;
  friend auto operator<=>(const Count&, const Count&) = default;
};

// nullopt where the target's width is unknown, or where the workgroup is
// larger than the target runs at all (workgroup-size-over-limit's finding).
std::optional<Count> count_on(const SubgroupIndex& index, const Target& target, uint64_t invocations) {
  uint32_t limit = target.max_compute_work_group_invocations;
  if (limit != 0 && invocations > limit) return std::nullopt;
  uint32_t width = index.literal_width;
  if (width == 0) {
    auto widths = run_widths(target);
    if (!widths) return std::nullopt;
    width = widths->min;
  }
  return Count{(index.range + width - 1) / width, width};
}

std::string describe(const Count& count) {
  return fmt::format("{} subgroup{} of {}", count.slots, count.slots == 1 ? "" : "s", count.width);
}

std::string invocation_text(const Module& module, const InvocationId& id) {
  switch (id.source.builtin) {
    case spv::BuiltIn::LocalInvocationIndex: return builtin_name(module, id.source.builtin);
    case spv::BuiltIn::LocalInvocationId:
      return builtin_component(module, id.source.builtin, static_cast<uint32_t>(id.source.component));
    default: return "an invocation id";
  }
}

// How many values a direct local invocation id takes; nullopt for others.
std::optional<uint64_t> invocation_range(const InvocationId& id, const Workgroup& workgroup) {
  if (!id.direct) return std::nullopt;
  if (id.source.builtin == spv::BuiltIn::LocalInvocationIndex) return workgroup.invocations;
  if (id.source.builtin == spv::BuiltIn::LocalInvocationId && id.source.component >= 0 && id.source.component < 3) {
    return workgroup.size[static_cast<size_t>(id.source.component)].value;
  }
  return std::nullopt;
}

std::optional<SubgroupIndex> subgroup_index(const Module& module, uint32_t id, const Workgroup& workgroup,
                                            const std::vector<WidthLiteral>& literals) {
  id = copied_value(module, id);
  auto builtin = loaded_builtin(module, id);
  if (builtin && builtin->builtin == spv::BuiltIn::SubgroupId) {
    return SubgroupIndex{workgroup.invocations, 0, builtin_name(module, spv::BuiltIn::SubgroupId)};
  }
  const ir::Instruction* definition = module.def(id);
  if (definition && (definition->opcode() == Op::OpUDiv || definition->opcode() == Op::OpSDiv)) {
    auto divisor = loaded_builtin(module, definition->word(3));
    auto invocation = invocation_id(module, definition->word(2));
    if (divisor && divisor->builtin == spv::BuiltIn::SubgroupSize && invocation) {
      if (auto range = invocation_range(*invocation, workgroup)) {
        return SubgroupIndex{*range, 0, fmt::format("{} / {}", invocation_text(module, *invocation),
                                                    builtin_name(module, spv::BuiltIn::SubgroupSize))};
      }
    }
  }
  for (const WidthLiteral& literal : literals) {
    if (literal.lane || literal.instruction->result_id() != id) continue;
    if (auto range = invocation_range(literal.invocation, workgroup)) {
      return SubgroupIndex{*range, literal.width,
                           fmt::format("{} {}", invocation_text(module, literal.invocation), literal.spelling)};
    }
  }
  return std::nullopt;
}

// An array's length, where nothing but literals and the workgroup size's
// specialization constants decide it.
std::optional<uint64_t> array_length(const Module& module, uint32_t id, const Workgroup& workgroup, int depth = 0) {
  const ir::Instruction* definition = module.def(id);
  if (!definition || depth > 16) return std::nullopt;
  switch (definition->opcode()) {
    case Op::OpConstant:
      return module.constant_value(id);
    case Op::OpSpecConstant: {
      // The workgroup's value for the SpecId: glslang gives gl_WorkGroupSize
      // a constant of its own, defaulting to 1, beside the declared one.
      auto spec = module.spec_id(id);
      for (const WorkgroupDimension& d : workgroup.size) {
        if (spec && d.spec_id == spec) return d.value;
      }
      return std::nullopt;
    }
    case Op::OpSpecConstantOp: {
      auto op = static_cast<Op>(definition->word(2));
      if (op == Op::OpCompositeExtract && definition->operands().size() > 4) {
        const ir::Instruction* composite = module.def(definition->word(3));
        size_t member = definition->word(4);
        if (!composite || composite->operands().size() <= member + 2) return std::nullopt;
        return array_length(module, composite->word(member + 2), workgroup, depth + 1);
      }
      if (definition->operands().size() != 5) return std::nullopt;
      auto a = array_length(module, definition->word(3), workgroup, depth + 1);
      auto b = array_length(module, definition->word(4), workgroup, depth + 1);
      if (!a || !b) return std::nullopt;
      switch (op) {
        case Op::OpIAdd: return *a + *b;
        case Op::OpISub: return *a - *b;
        case Op::OpIMul: return *a * *b;
        case Op::OpUDiv: case Op::OpSDiv: return *b ? std::optional<uint64_t>(*a / *b) : std::nullopt;
        case Op::OpShiftRightLogical: return *b < 64 ? std::optional<uint64_t>(*a >> *b) : std::nullopt;
        case Op::OpShiftLeftLogical: return *b < 64 ? std::optional<uint64_t>(*a << *b) : std::nullopt;
        default: return std::nullopt;
      }
    }
    default:
      return std::nullopt;
  }
}

// The constant K of `for (i = start; i < K; ++i)` when `id` is such an i.
std::optional<uint64_t> loop_bound(const Module& module, uint32_t id) {
  const ir::Instruction* phi = module.def(id);
  if (!phi || phi->opcode() != Op::OpPhi) return std::nullopt;
  const ir::Block* header = module.block_of(*phi);
  const ir::Instruction* merge = header ? header->merge() : nullptr;
  if (!merge || merge->opcode() != Op::OpLoopMerge) return std::nullopt;
  bool counts_up = false;
  for (size_t i = 2; i + 1 < phi->operands().size(); i += 2) {
    const ir::Instruction* step = module.def(phi->word(i));
    if (!step || step->opcode() != Op::OpIAdd) continue;
    bool adds_to_phi = step->word(2) == id || step->word(3) == id;
    uint32_t other = step->word(2) == id ? step->word(3) : step->word(2);
    counts_up |= adds_to_phi && literal_value(module, other) == 1;
  }
  if (!counts_up) return std::nullopt;
  for (const ir::Instruction* use : module.uses(id)) {
    Op op = use->opcode();
    if (op != Op::OpULessThan && op != Op::OpSLessThan && op != Op::OpULessThanEqual && op != Op::OpSLessThanEqual) {
      continue;
    }
    if (use->word(2) != id) continue;
    auto bound = literal_value(module, use->word(3));
    if (!bound) continue;
    for (const ir::Instruction* branch : module.uses(use->result_id())) {
      if (branch->opcode() != Op::OpBranchConditional) continue;
      if (branch->word(1) == merge->word(0) || branch->word(2) == merge->word(0)) {
        return op == Op::OpULessThan || op == Op::OpSLessThan ? *bound : *bound + 1;
      }
    }
  }
  return std::nullopt;
}

bool writes_through(const Module& module, const ir::Instruction& chain) {
  for (const ir::Instruction* use : module.uses(chain.result_id())) {
    if (use->opcode() == Op::OpStore && use->word(0) == chain.result_id()) return true;
    if (ir::is_atomic_with_result(use->opcode())) return true;
  }
  return false;
}

bool reads_through(const Module& module, const ir::Instruction& chain) {
  const auto& uses = module.uses(chain.result_id());
  return std::any_of(uses.begin(), uses.end(), [](const ir::Instruction* use) { return use->opcode() == Op::OpLoad; });
}

struct Site {
  const ir::Instruction* chain;
  uint32_t index;
  std::optional<SubgroupIndex> by_subgroup;
};

// One level of a Workgroup array that some access indexes by subgroup.
struct PerSubgroupArray {
  uint32_t variable = 0;
  const ir::Instruction* type = nullptr;  // OpTypeArray
  SubgroupIndex index;  // what the subgroup-indexed stores count: a target's subgroups if any store counts them
  std::vector<Site> by_subgroup;
  std::vector<Site> other;  // accesses at this level with other indices
};

using Failures = std::vector<std::pair<const Target*, Count>>;

// The guard every subgroup-indexed store of an array is under, when each is
// under one: the first such store and the largest bound.
struct WriteGuard {
  const ir::Instruction* first = nullptr;
  uint64_t bound = 0;
};

std::optional<WriteGuard> write_guard(const Module& module, const PerSubgroupArray& array) {
  std::optional<WriteGuard> guard;
  for (const Site& site : array.by_subgroup) {
    if (!writes_through(module, *site.chain)) continue;
    auto bound = guard_bound(module, *site.chain, site.index);
    if (!bound) return std::nullopt;
    if (!guard) guard = WriteGuard{site.chain, *bound};
    guard->bound = std::max(guard->bound, *bound);
  }
  return guard;
}

// "on lavapipe (32 subgroups of 8) and ...", or for a literal width, which
// counts the same everywhere, "when 512 invocations make 16 subgroups of 32".
std::string where(const SubgroupIndex& index, const Failures& failures) {
  if (index.literal_width) {
    return fmt::format("when {} invocations make {}", index.range, describe(failures.front().second));
  }
  return fmt::format("on {}", failing_targets(failures, describe));
}

class SubgroupCountAssumed final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    SubgroupValues values(module);
    if (!values.any()) return;
    std::vector<WidthLiteral> literals = width_literals(module);
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function || !entry.workgroup_size) continue;
      Workgroup workgroup{*entry.workgroup_size};
      bool undeclared = false;
      workgroup.invocations = 1;
      for (const WorkgroupDimension& d : workgroup.size) {
        workgroup.invocations *= d.value;
        undeclared |= d.left_to_host();
      }
      if (undeclared || workgroup.invocations == 0) continue;
      for (PerSubgroupArray& array : per_subgroup_arrays(module, values, *entry.function, workgroup, literals)) {
        check_array(module, options, workgroup, array, report);
      }
    }
  }

 private:
  static std::vector<PerSubgroupArray> per_subgroup_arrays(const Module& module, const SubgroupValues& values,
                                                           const ir::Function& function, const Workgroup& workgroup,
                                                           const std::vector<WidthLiteral>& literals) {
    std::map<std::pair<uint32_t, size_t>, PerSubgroupArray> arrays;
    std::map<std::pair<uint32_t, size_t>, std::vector<Site>> others;
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& chain : block.instructions) {
        if (chain.opcode() != Op::OpAccessChain && chain.opcode() != Op::OpInBoundsAccessChain) continue;
        Access access = access_of(module, chain.result_id());
        if (!access.variable || module.storage_class(access.variable) != spv::StorageClass::Workgroup) continue;
        for (size_t level = 0; level < access.indices.size(); ++level) {
          const ir::Instruction* type = array_at(module, access.variable, level);
          if (!type) continue;
          uint32_t index = access.indices[level];
          auto key = std::make_pair(access.variable, level);
          auto by_subgroup = subgroup_index(module, index, workgroup, literals);
          // `tid / 32` is a subgroup index only into memory that holds subgroup results.
          if (by_subgroup && by_subgroup->literal_width && !values.holds_results(access.variable)) by_subgroup.reset();
          if (!by_subgroup) {
            others[key].push_back({&chain, index, std::nullopt});
            continue;
          }
          PerSubgroupArray& array = arrays[key];
          if (array.by_subgroup.empty() || (array.index.literal_width && !by_subgroup->literal_width)) {
            array.variable = access.variable;
            array.type = type;
            array.index = *by_subgroup;
          }
          array.by_subgroup.push_back({&chain, index, by_subgroup});
        }
      }
    }
    std::vector<PerSubgroupArray> out;
    for (auto& [key, array] : arrays) {
      array.other = std::move(others[key]);
      out.push_back(std::move(array));
    }
    return out;
  }

  static void check_array(const Module& module, const RuleOptions& options, const Workgroup& workgroup,
                          const PerSubgroupArray& array, Reporter& report) {
    std::optional<uint64_t> length = array_length(module, array.type->word(2), workgroup);
    // Targets where the array overruns: the other findings leave them to that error.
    std::set<const Target*> overrun;
    if (length) overrun = check_overrun(module, options, workgroup, array, *length, report);
    std::optional<WriteGuard> guard = write_guard(module, array);
    if (guard) check_write_guard(module, options, workgroup, array, *guard, overrun, report);
    bool cleared = std::any_of(array.other.begin(), array.other.end(),
                               [&](const Site& site) { return writes_through(module, *site.chain); });
    std::set<uint32_t> reported_lines;
    for (const Site& site : array.other) {
      if (!reads_through(module, *site.chain) || literal_value(module, site.index)) continue;
      // How many elements the reads take on a target, against how many subgroups stored.
      auto loop = loop_bound(module, site.index);
      auto bound = loop ? loop : guard_bound(module, *site.chain, site.index);
      if (bound && ((length && *bound > *length) || compared(module, *site.chain, site.index, false))) continue;
      auto index = loaded_builtin(module, site.index);
      bool per_lane = !bound && index && index->builtin == spv::BuiltIn::SubgroupLocalInvocationId &&
                      !compared(module, *site.chain, site.index);
      if (!bound && !per_lane) continue;
      Failures mismatched;
      for (const Target* target : options.targets) {
        auto count = count_on(array.index, *target, workgroup.invocations);
        auto widths = run_widths(*target);
        if (!count || overrun.count(target) || (per_lane && (!widths || widths->min != widths->max))) continue;
        uint64_t read = per_lane ? widths->min : *bound;
        uint64_t written = guard ? std::min(count->slots, guard->bound) : count->slots;
        if (written == read || (cleared && written < read)) continue;
        mismatched.emplace_back(target, *count);
      }
      if (mismatched.empty()) continue;
      Location at = module.nearest_location(*site.chain);
      if (!reported_lines.insert(at.line).second) continue;
      report.at(std::move(at), read_message(module, workgroup, array, loop.has_value(), bound, mismatched))
          .about(*site.chain)
          .note(*array.by_subgroup.front().chain,
                fmt::format("each subgroup stores its result at {} here", array.index.text))
          .fix_title(module.is_hlsl()
                         ? "count the waves: (invocations + WaveGetLaneCount() - 1) / WaveGetLaneCount()"
                         : per_lane ? "read only below gl_NumSubgroups, and loop while more subgroups than lanes remain"
                                    : "loop to gl_NumSubgroups");
    }
  }

  static std::string read_message(const Module& module, const Workgroup& workgroup, const PerSubgroupArray& array,
                                  bool loop, std::optional<uint64_t> bound, const Failures& mismatched) {
    std::string name = module.variable_name(array.variable);
    if (!bound) {
      return fmt::format("each lane reads one element of '{}', as if there were as many subgroups as lanes, which "
                         "does not hold on {}",
                         name, failing_targets(mismatched, describe));
    }
    std::string what = loop ? fmt::format("loop reads {} elements of '{}'", *bound, name)
                            : fmt::format("a guard of {} reads that many elements of '{}'", *bound, name);
    if (array.index.literal_width) {
      return fmt::format("{}, one per subgroup, but {} invocations make {}", what, array.index.range,
                         describe(mismatched.front().second));
    }
    return fmt::format("{}, one per subgroup, but the workgroup of {} invocations is not {} subgroups on {}", what,
                       workgroup.invocations, *bound, failing_targets(mismatched, describe));
  }

  static std::set<const Target*> check_overrun(const Module& module, const RuleOptions& options,
                                               const Workgroup& workgroup, const PerSubgroupArray& array,
                                               uint64_t length, Reporter& report) {
    std::set<const Target*> overrun;
    for (const Site& site : array.by_subgroup) {
      auto bound = guard_bound(module, *site.chain, site.index);
      Failures failures;
      for (const Target* target : options.targets) {
        auto count = count_on(*site.by_subgroup, *target, workgroup.invocations);
        if (!count) continue;
        uint64_t reach = bound ? std::min(count->slots, *bound) : count->slots;
        if (reach > length) failures.emplace_back(target, *count);
      }
      if (failures.empty()) continue;
      for (const auto& failure : failures) overrun.insert(failure.first);
      report_overrun(module, workgroup, array, *site.by_subgroup, *site.chain, length, failures, report);
      break;  // once per array
    }
    return overrun;
  }

  static void check_write_guard(const Module& module, const RuleOptions& options, const Workgroup& workgroup,
                                const PerSubgroupArray& array, const WriteGuard& guard,
                                const std::set<const Target*>& overrun, Reporter& report) {
    Failures dropped;
    for (const Target* target : options.targets) {
      auto count = count_on(array.index, *target, workgroup.invocations);
      if (count && count->slots > guard.bound && !overrun.count(target)) dropped.emplace_back(target, *count);
    }
    if (dropped.empty()) return;
    std::string name = module.variable_name(array.variable);
    report.at(module.nearest_location(*guard.first),
              fmt::format("only subgroups below {} store to '{}'; the results of the others are dropped {}",
                          guard.bound, name, where(array.index, dropped)))
        .about(*guard.first)
        .note(module.declaration(array.variable), fmt::format("'{}' holds one result per subgroup", name))
        .fix_title(fmt::format("give '{}' an element for every subgroup and drop the guard", name));
  }

  static void report_overrun(const Module& module, const Workgroup& workgroup, const PerSubgroupArray& array,
                             const SubgroupIndex& index, const ir::Instruction& chain, uint64_t length, const Failures& failures,
                             Reporter& report) {
    std::string name = module.variable_name(array.variable);
    uint64_t needed = 0;
    for (const auto& failure : failures) needed = std::max(needed, failure.second.slots);
    std::string message =
        fmt::format("{} runs past the {} elements of '{}' {}", index.text, length, name, where(index, failures));
    auto diagnostic = report.at(module.nearest_location(chain), std::move(message));
    diagnostic.about(chain)
        .severity(Severity::Error)
        .note(module.declaration(array.variable),
              fmt::format("'{}' is declared with {} element{}", name, length, length == 1 ? "" : "s"));
    for (size_t i = 0; i < 3; ++i) {
      if (!workgroup.size[i].spec_id) continue;
      diagnostic.note(module.declaration(array.variable),
                      fmt::format("workgroup dimension {} comes from specialization constant {} (default {}); "
                                  "judged at the default",
                                  "xyz"[i], *workgroup.size[i].spec_id, workgroup.size[i].value));
    }
    diagnostic.fix_title(fmt::format("give '{}' {} elements, one per subgroup of the narrowest width{}", name,
                                     needed,
                                     index.literal_width ? ""
                                     : module.is_hlsl()
                                         ? ", and count the waves as (invocations + WaveGetLaneCount() - 1) / "
                                           "WaveGetLaneCount()"
                                         : ", and count them with gl_NumSubgroups"));
  }
};

KLINT_REGISTER_RULE(SubgroupCountAssumed);

}  // namespace
}  // namespace klint
