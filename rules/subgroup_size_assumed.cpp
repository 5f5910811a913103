#include <fmt/format.h>

#include <set>
#include <tuple>

#include "analyzer/builtin_names.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/accesses.h"
#include "analyzer/symbolic.h"
#include "rules/rule.h"
#include "rules/support/subgroup_width.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "subgroup-size-assumed",
    .category = Category::Portability,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::SubgroupSizeDependence,
    .summary = "literal subgroup width (% 32, / 32, & 31, >> 5, lane 31) where targets run other widths",
    .doc = R"md(
## What it finds
An invocation id taken modulo or divided by a literal subgroup width, `% 32`,
`& 31`, `/ 32`, `>> 5` (and 64 likewise, `& 63`, `>> 6`), where the result is
used as a subgroup lane or a subgroup index: it is an operand of a subgroup
operation, it indexes memory that holds subgroup results, or it decides which
invocations store one (`if (lane == 0) partial[warp] = subgroupAdd(v)`). Also
`gl_SubgroupInvocationID == 31` (the last lane of a 32-wide subgroup) and
`gl_SubgroupID * 32` (its first invocation), with 63 and 64 likewise, and
`if (tid < 32)` around a subgroup operation, which takes the first 32
invocations for the first subgroup (reported for narrower targets only: on
wider ones the operation runs on the active lanes of one subgroup). HLSL is
checked the same way (`SV_GroupThreadID % 32`, `WaveGetLaneIndex() == 31`).

Lane masks kept in 32-bit words are checked the same way: `gl_SubgroupSize >>
5` (or `/ 32`) for the words of a subgroup, which is 0 where subgroups are
narrower than 32; `1u << gl_SubgroupInvocationID` in a 32-bit word, which is
undefined for lanes 32 and up; and a ballot read only through its first word
(`subgroupBallot(p).x`, `WaveActiveBallot(p).x`), which leaves lanes 32 and
up out. Code that compares the lane with 32 (`if (gl_SubgroupInvocationID <
32u)`) keeps those lanes out of its words itself, and a workgroup of at most
32 invocations never fills them: neither is reported for the last two.

In a workgroup of several rows (`local_size_x = 32, local_size_y = 4`),
`gl_LocalInvocationID.x` taken for the lane is the same assumption without a
literal: when it decides which invocation stores a subgroup result
(`if (gl_LocalInvocationID.x == 0) row_sum[row] = subgroupAdd(v)`), or names
the lane a shuffle or broadcast reads, each row is taken for one subgroup,
which holds only where subgroups are exactly as wide as a row. When the row
width is a specialization constant, the host sets it to the device's width,
and only targets whose compiler picks the width per shader are named: there
the pipeline runs another width unless it requires one.
The finding names the targets that run another width.

## Why it matters
Subgroups are 32 wide on NVIDIA, Apple and AMD in wave32, but 16 on Mali, 64
on Adreno and AMD in wave64, 8 on lavapipe, and Intel's compiler picks 8, 16
or 32 for each shader. Code that computes its lane as `tid % 32` and its
subgroup as `tid / 32` is right only where subgroups are 32 wide: on 16-wide
hardware `lane == 0` holds for the first invocation of every second subgroup,
so half of the `subgroupAdd` results are never stored; on 64-wide hardware
two invocations of each subgroup store the same sum, which is then counted
twice. The results are wrong without any error. Metal kernels hardcode
`simd_lane_id = tid % 32` and `simd_group_id = tid / 32`, which holds on Apple
GPUs, and such code carries over to Vulkan unchanged.

## Bad
```glsl
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[8];
void main() {
    uint tid = gl_LocalInvocationID.x;
    uint lane = tid % 32;    // the lane, if subgroups are 32 wide
    uint warp = tid / 32;    // the subgroup, likewise
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (lane == 0) partial[warp] = s;
    barrier();
    if (tid == 0) {
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
shared float partial[64];    // a slot per subgroup of 4 invocations or more
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
- `tid % 32` that has nothing to do with subgroups (a 32-wide tile, a bank
  swizzle) is silent: only a result that reaches a subgroup operation, memory
  holding subgroup results, or a branch that stores one counts.
- Code under a check of the width (`if (gl_SubgroupSize == 32)`) is silent, and
  such checks are never reported.
- A width from a specialization constant (`layout(constant_id = 0) const uint
  SUBGROUP_SIZE = 32;`) is silent: the application sets it to the device's
  width, or requests that width through VK_EXT_subgroup_size_control.
- Targets that run the width the code assumes are not named, and when every
  selected target runs it (`--target nvidia-ampere` for 32) the rule is
  silent. Each target is judged at its `subgroup_size.preferred`; a target
  whose compiler picks the width per shader (Intel) at every width from `min`
  to `max`. A pipeline that requests a width with `requiredSubgroupSize` runs
  it where supported: lint it with the targets that support that width.
- Only 32 and 64 are taken as subgroup widths; `% 16` and `% 8` are too
  common in tiling code to mean a subgroup.
)md",
};

using spv::Op;

std::string invocation_name(const Module& module, const InvocationId& id) {
  std::string name = "an invocation id";
  switch (id.source.builtin) {
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::LocalInvocationIndex:
    case spv::BuiltIn::GlobalInvocationId: name = builtin_name(module, id.source.builtin); break;
    default: break;
  }
  if (!id.direct) return fmt::format("an index computed from {}", name);
  if (id.source.component >= 0 && id.source.component < 3) return fmt::format("{}.{}", name, "xyz"[id.source.component]);
  return name;
}

using Failures = std::vector<std::pair<const Target*, WidthRange>>;

Failures other_widths(const std::vector<const Target*>& targets, uint32_t width) {
  Failures failures;
  for (const Target* target : targets) {
    auto widths = run_widths(*target);
    if (widths && (widths->min != width || widths->max != width)) failures.emplace_back(target, *widths);
  }
  return failures;
}

std::string message(std::string_view what, uint32_t width, const Failures& failures,
                    std::string_view other = "other widths") {
  std::string targets = failing_targets(failures, [](const WidthRange& r) {
    return r.min == r.max ? fmt::format("{} wide", r.min) : fmt::format("{} to {} wide, chosen per shader", r.min, r.max);
  });
  return fmt::format("{} assumes {}-wide subgroups; {} {} {}", what, width, targets,
                     failures.size() == 1 ? "runs" : "run", other);
}

Location at_literal(const Module& module, const ir::Instruction& instruction, uint64_t literal) {
  Location at = module.nearest_location(instruction);
  at.token = fmt::format("{}", literal);
  return at;
}

void explain_use(const Module& module, DiagnosticBuilder& diagnostic, const SubgroupUse& use) {
  switch (use.kind) {
    case SubgroupUse::Kind::Operand:
      diagnostic.note(*use.at, "the result is an operand of a subgroup operation here");
      break;
    case SubgroupUse::Kind::Index:
      diagnostic.note(*use.at, use.result == nullptr
                                   ? fmt::format("the result indexes '{}', which holds subgroup results",
                                                 module.variable_name(use.variable))
                                   : std::string("the result indexes where a subgroup result is stored"));
      break;
    case SubgroupUse::Kind::Guard:
      diagnostic.note(*use.at, "the result decides which invocations run this branch");
      diagnostic.note(*use.result, ir::is_subgroup_operation(use.result->opcode())
                                       ? "which holds a subgroup operation"
                                       : "which stores a subgroup result");
      break;
  }
}

// gl_SubgroupInvocationID == 31, gl_SubgroupID * 32 and their 64-wide forms.
struct BuiltinLiteral {
  const ir::Instruction* instruction;
  std::string what;
  uint32_t width;
  uint64_t literal;
};

std::optional<BuiltinLiteral> builtin_literal(const Module& module, const ir::Instruction& instruction) {
  Op op = instruction.opcode();
  bool compares = op == Op::OpIEqual || op == Op::OpINotEqual;
  bool scales = op == Op::OpIMul || op == Op::OpShiftLeftLogical;
  if ((!compares && !scales) || instruction.operands().size() != 4) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    if (op == Op::OpShiftLeftLogical && side == 1) break;  // the shift amount comes second
    auto builtin = loaded_builtin(module, instruction.word(2 + side));
    auto literal = literal_value(module, instruction.word(3 - side));
    if (!builtin || !literal) continue;
    std::string name = builtin_name(module, builtin->builtin);
    if (compares && builtin->builtin == spv::BuiltIn::SubgroupLocalInvocationId && (*literal == 31 || *literal == 63)) {
      return BuiltinLiteral{&instruction, fmt::format("{} {} {} (the last lane)", name,
                                                      op == Op::OpIEqual ? "==" : "!=", *literal),
                            static_cast<uint32_t>(*literal + 1), *literal};
    }
    if (scales && builtin->builtin == spv::BuiltIn::SubgroupId) {
      uint64_t width = op == Op::OpIMul ? *literal : (*literal < 32 ? uint64_t{1} << *literal : 0);
      if (width != 32 && width != 64) continue;
      return BuiltinLiteral{&instruction, fmt::format("{} {} {} (its first invocation)", name,
                                                      op == Op::OpIMul ? "*" : "<<", *literal),
                            static_cast<uint32_t>(width), *literal};
    }
  }
  return std::nullopt;
}

// `tid < 32` deciding whether a subgroup operation runs: the first 32
// invocations taken for the first subgroup. Where subgroups are wider, the
// operation runs on the active lanes of the first and is still right.
struct FirstInvocations {
  InvocationId invocation;
  uint32_t width = 0;
  uint64_t literal = 0;
  std::string spelling;
  const ir::Instruction* operation = nullptr;
};

// The values a local invocation id takes, or 0 where it is not one.
uint64_t local_range(const Module& module, const InvocationId& id) {
  if (!id.direct) return 0;
  for (const EntryPoint& entry : module.entry_points()) {
    if (entry.model != spv::ExecutionModel::GLCompute || !entry.workgroup_size) continue;
    const auto& size = *entry.workgroup_size;
    if (id.source.builtin == spv::BuiltIn::LocalInvocationIndex) return size[0].value * size[1].value * size[2].value;
    if (id.source.builtin == spv::BuiltIn::LocalInvocationId && id.source.component >= 0 && id.source.component < 3) {
      return size[static_cast<size_t>(id.source.component)].value;
    }
  }
  return 0;
}

// The branches a condition decides, through &&, || and !.
std::vector<const ir::Instruction*> branches_on(const Module& module, uint32_t condition) {
  std::vector<const ir::Instruction*> out;
  std::vector<uint32_t> work{condition};
  std::set<uint32_t> seen;
  while (!work.empty() && seen.size() < 64) {
    uint32_t value = work.back();
    work.pop_back();
    if (!seen.insert(value).second) continue;
    for (const ir::Instruction* use : module.uses(value)) {
      switch (use->opcode()) {
        case Op::OpBranchConditional: if (use->word(0) == value) out.push_back(use); break;
        case Op::OpLogicalAnd: case Op::OpLogicalOr: case Op::OpLogicalNot: case Op::OpPhi: case Op::OpCopyObject:
          work.push_back(use->result_id());
          break;
        default: break;
      }
    }
  }
  return out;
}

// Whether the operation's result ends up where one invocation speaks for the
// group: stored under `tid == 0` or `subgroupElect()`, or to one address for
// all. Each invocation keeping its own subgroup's result assumes no width.
bool taken_for_the_group(const Module& module, const ir::Instruction& operation) {
  const ir::Block* block = module.block_of(operation);
  const ir::Function* function = block ? module.function_of(*block) : nullptr;
  if (!function) return false;
  const SymbolicValues& values = module.symbolic(*function);
  const Accesses& accesses = module.accesses(*function);
  auto per_invocation = [&](const Polynomial& p) {
    auto symbols = p.symbols();
    return std::any_of(symbols.begin(), symbols.end(), [&](Symbol s) { return values.per_invocation(s); });
  };
  std::vector<uint32_t> work{operation.result_id()};
  std::set<uint32_t> seen;
  while (!work.empty() && seen.size() < 64) {
    uint32_t id = work.back();
    work.pop_back();
    if (!seen.insert(id).second) continue;
    for (const ir::Instruction* use : module.uses(id)) {
      if (use->opcode() != Op::OpStore) {
        if (use->result_id()) work.push_back(use->result_id());
        continue;
      }
      for (const MemoryAccess& access : accesses.all()) {
        if (access.instruction != use || access.kind != MemoryAccess::Kind::Write) continue;
        if (access.offset && !per_invocation(*access.offset)) return true;
        for (const Constraint& guard : accesses.guards(access.block)) {
          if (guard.equality && per_invocation(guard.expression)) return true;
        }
      }
    }
  }
  return false;
}

std::optional<FirstInvocations> first_invocations(const Module& module, const ir::Instruction& comparison) {
  if (comparison.operands().size() != 4) return std::nullopt;
  uint32_t invocation = 0, literal = 0;
  int below = 0;  // K where the comparison is `id < K`
  switch (comparison.opcode()) {
    case Op::OpULessThan: case Op::OpSLessThan: invocation = comparison.word(2); literal = comparison.word(3); break;
    case Op::OpULessThanEqual: case Op::OpSLessThanEqual:
      invocation = comparison.word(2), literal = comparison.word(3), below = 1;
      break;
    case Op::OpUGreaterThan: case Op::OpSGreaterThan: invocation = comparison.word(3); literal = comparison.word(2); break;
    default: return std::nullopt;
  }
  auto value = literal_value(module, literal);
  if (!value) return std::nullopt;
  uint64_t width = *value + static_cast<uint64_t>(below);
  if (width != 32 && width != 64) return std::nullopt;
  auto id = invocation_id(module, invocation);
  if (!id || local_range(module, *id) <= width) return std::nullopt;
  for (const ir::Instruction* branch : branches_on(module, comparison.result_id())) {
    const ir::Instruction* operation = decided_subgroup_code(module, nullptr, *branch);
    if (operation && taken_for_the_group(module, *operation)) {
      std::string spelling = below ? fmt::format("<= {}", *value) : fmt::format("< {}", *value);
      return FirstInvocations{*id, static_cast<uint32_t>(width), *value, std::move(spelling), operation};
    }
  }
  return std::nullopt;
}

class SubgroupSizeAssumed final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    SubgroupValues values(module);
    if (!values.any()) return;
    Once once;
    check_width_literals(module, options, values, once, report);
    check_rows_as_subgroups(module, options, values, once, report);
    for (const ir::Function& function : module.functions()) {
      for (const ir::Block& block : function.blocks) {
        for (const ir::Instruction& instruction : block.instructions) {
          check_builtin_literal(module, options, instruction, once, report);
          check_lane_words(module, options, instruction, once, report);
          check_first_invocations(module, options, instruction, once, report);
        }
      }
    }
  }

 private:
  // One finding per source line and construct, however often inlining copied it.
  struct Once {
    std::set<std::tuple<std::string, uint32_t, std::string>> reported;
    bool first_time(const Location& at, const std::string& what) { return reported.emplace(at.file, at.line, what).second; }
  };

  static void check_width_literals(const Module& module, const RuleOptions& options, const SubgroupValues& values,
                                   Once& once, Reporter& report) {
    for (const WidthLiteral& literal : width_literals(module)) {
      if (checked_for_width(module, *literal.instruction, literal.width)) continue;
      Failures failures = other_widths(options.targets, literal.width);
      if (failures.empty()) continue;
      auto use = subgroup_use(module, values, literal.instruction->result_id());
      if (!use) continue;
      Location at = at_literal(module, *literal.instruction, literal.literal);
      std::string what = fmt::format("'{}' on {}", literal.spelling, invocation_name(module, literal.invocation));
      if (!once.first_time(at, what)) continue;
      auto diagnostic = report.at(std::move(at), message(what, literal.width, failures)).about(*literal.instruction);
      explain_use(module, diagnostic, *use);
      diagnostic.fix_title(fix(module, literal.lane));
    }
  }

  // Whether a use takes the value for a lane: it decides which invocations
  // store a subgroup result (`if (x == 0) out[row] = s`), or it is the lane a
  // shuffle or broadcast reads.
  static bool names_a_lane(const SubgroupUse& use) {
    if (use.kind == SubgroupUse::Kind::Guard) return use.result && !ir::is_subgroup_operation(use.result->opcode());
    return use.kind == SubgroupUse::Kind::Operand &&
           (use.at->opcode() == Op::OpGroupNonUniformShuffle || use.at->opcode() == Op::OpGroupNonUniformBroadcast);
  }

  // gl_LocalInvocationID.x used as the lane in a workgroup of several rows: each row of local_size_x invocations taken for
  // one subgroup, which holds only where subgroups are exactly that wide. A
  // row width from a specialization constant is the host's to set to the
  // device's width, which is the width a pipeline runs at except where the
  // compiler picks it per shader: only those targets are named then.
  static void check_rows_as_subgroups(const Module& module, const RuleOptions& options, const SubgroupValues& values,
                                      Once& once, Reporter& report) {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.workgroup_size) continue;
      const auto& size = *entry.workgroup_size;
      const uint64_t width = size[0].value;
      if (width < 2 || width > 128 || size[1].value * size[2].value < 2) continue;
      Failures failures;
      for (const auto& failure : other_widths(options.targets, static_cast<uint32_t>(width))) {
        if (!size[0].spec_id || failure.first->subgroup_size.varies_per_shader) failures.push_back(failure);
      }
      if (failures.empty()) continue;
      for (const ir::Function& function : module.functions()) {
        for (const ir::Block& block : function.blocks) {
          for (const ir::Instruction& instruction : block.instructions) {
            if (instruction.result_id() == 0) continue;
            auto id = invocation_id(module, instruction.result_id());
            if (!id || !id->direct || id->source.builtin != spv::BuiltIn::LocalInvocationId) continue;
            if (id->source.component != 0 || !loaded_builtin(module, instruction.result_id())) continue;
            if (checked_for_width(module, instruction, static_cast<uint32_t>(width))) continue;
            auto use = subgroup_use(module, values, instruction.result_id());
            if (!use || !names_a_lane(*use) || checked_for_width(module, *use->at, static_cast<uint32_t>(width))) {
              continue;
            }
            std::string what = fmt::format("{} as the subgroup lane of a {}x{}x{} workgroup", invocation_name(module, *id),
                                           size[0].value, size[1].value, size[2].value);
            Location at = module.nearest_location(instruction);
            if (!once.first_time(at, what)) continue;
            auto diagnostic = report.at(std::move(at), message(what, static_cast<uint32_t>(width), failures))
                                  .about(instruction);
            if (size[0].spec_id) {
              diagnostic.note(entry.function->definition,
                              fmt::format("local_size_x comes from specialization constant {} (default {}): a host "
                                          "that sets it to the device's subgroup size still gets another width "
                                          "where the compiler picks it per shader, unless the pipeline requires one",
                                          *size[0].spec_id, width));
            }
            explain_use(module, diagnostic, *use);
            diagnostic.fix_title(fix(module, true));
          }
        }
      }
    }
  }

  // Ballots and lane masks in 32-bit words, taken as one word per subgroup
  // or as whole words: `gl_SubgroupSize >> 5` (0 on narrower subgroups),
  // `1u << gl_SubgroupInvocationID` (a shift past the word for lanes 32 and
  // up) and a ballot read only through `.x` (lanes 32 and up left out).
  // Whether the module compares the lane with 32 (`if (gl_SubgroupInvocationID
  // < 32u)`), or its workgroup has no more than 32 invocations: either way no
  // lane from 32 up reaches its words.
  static bool compares_lane_with_32(const Module& module) {
    // A workgroup of at most 32 invocations never fills more than 32 lanes.
    bool small = false, large = false;
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.workgroup_size) continue;
      const auto& size = *entry.workgroup_size;
      bool fits = !size[0].spec_id && !size[1].spec_id && !size[2].spec_id &&
                  size[0].value * size[1].value * size[2].value <= 32;
      small |= fits;
      large |= !fits;
    }
    if (small && !large) return true;
    for (const ir::Function& function : module.functions()) {
      for (const ir::Block& block : function.blocks) {
        for (const ir::Instruction& comparison : block.instructions) {
          if (!ir::is_comparison(comparison.opcode()) || comparison.operands().size() != 4) continue;
          for (int side = 0; side < 2; ++side) {
            auto builtin = loaded_builtin(module, comparison.word(2 + side));
            auto literal = literal_value(module, comparison.word(3 - side));
            if (builtin && builtin->builtin == spv::BuiltIn::SubgroupLocalInvocationId && literal &&
                (*literal == 31 || *literal == 32)) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  static void check_lane_words(const Module& module, const RuleOptions& options, const ir::Instruction& instruction,
                               Once& once, Reporter& report) {
    const Op op = instruction.opcode();
    auto builtin_is = [&](uint32_t id, spv::BuiltIn builtin) {
      auto loaded = loaded_builtin(module, id);
      return loaded && loaded->builtin == builtin;
    };
    auto targets = [&](bool wider) {
      Failures failures;
      for (const auto& failure : other_widths(options.targets, 32)) {
        if (wider ? failure.second.max > 32 : failure.second.min < 32) failures.push_back(failure);
      }
      return failures;
    };
    auto describe = [](const WidthRange& r) {
      return r.min == r.max ? fmt::format("{} wide", r.min) : fmt::format("{} to {} wide, chosen per shader", r.min, r.max);
    };
    std::string size = builtin_name(module, spv::BuiltIn::SubgroupSize);
    std::string lane = builtin_name(module, spv::BuiltIn::SubgroupLocalInvocationId);
    if ((op == Op::OpShiftRightLogical || op == Op::OpUDiv) && instruction.operands().size() == 4 &&
        builtin_is(instruction.word(2), spv::BuiltIn::SubgroupSize)) {
      const uint64_t literal = op == Op::OpShiftRightLogical ? 5 : 32;
      if (literal_value(module, instruction.word(3)) != literal) return;
      Failures narrower = targets(false);
      if (narrower.empty() || checked_for_width(module, instruction, 32)) return;
      std::string what = fmt::format("{} {} {}", size, op == Op::OpShiftRightLogical ? ">>" : "/", literal);
      Location at = at_literal(module, instruction, literal);
      if (!once.first_time(at, what)) return;
      report.at(std::move(at), fmt::format("'{}' counts the subgroup's 32-lane words and is 0 where subgroups are "
                                           "narrower than 32; {} {} narrower ones",
                                           what, failing_targets(narrower, describe),
                                           narrower.size() == 1 ? "runs" : "run"))
          .about(instruction)
          .fix_title(fmt::format("round up: ({} + 31) / 32", size));
      return;
    }
    if (op == Op::OpShiftLeftLogical && instruction.operands().size() == 4 &&
        builtin_is(instruction.word(3), spv::BuiltIn::SubgroupLocalInvocationId) && !compares_lane_with_32(module)) {
      const ir::Instruction* type = module.def(instruction.type_id());
      if (!type || type->opcode() != Op::OpTypeInt || type->word(1) != 32) return;
      Failures wider = targets(true);
      if (wider.empty() || checked_for_width(module, instruction, 32)) return;
      std::string what = fmt::format("a 32-bit shift by {}", lane);
      Location at = module.nearest_location(instruction);
      if (!once.first_time(at, what)) return;
      report.at(std::move(at), fmt::format("{} is undefined for lanes 32 and up; {} {} wider subgroups", what,
                                           failing_targets(wider, describe), wider.size() == 1 ? "runs" : "run"))
          .about(instruction)
          .fix_title(module.is_hlsl() ? "use the uint4 of WaveActiveBallot and its word lane / 32"
                                      : "use subgroupBallot and gl_SubgroupEqMask / gl_SubgroupLtMask, which hold every lane");
      return;
    }
    if (op == Op::OpGroupNonUniformBallot && instruction.result_id() != 0 && !compares_lane_with_32(module)) {
      // The ballot's uses, through a function variable it is stored to.
      const ir::Instruction* first_word = nullptr;
      std::vector<uint32_t> values{instruction.result_id()};
      for (size_t i = 0; i < values.size() && i < 16; ++i) {
        for (const ir::Instruction* use : module.uses(values[i])) {
          if (use->opcode() == Op::OpStore && use->word(1) == values[i] &&
              module.storage_class(use->word(0)) == spv::StorageClass::Function) {
            for (const ir::Instruction* access : module.uses(use->word(0))) {
              if (access->opcode() == Op::OpLoad) {
                values.push_back(access->result_id());
              } else if (access->opcode() == Op::OpAccessChain && access->word(2) == use->word(0) &&
                         access->operands().size() == 4 && module.constant_value(access->word(3)) == 0u) {
                for (const ir::Instruction* load : module.uses(access->result_id())) {
                  if (load->opcode() == Op::OpName) continue;
                  if (load->opcode() != Op::OpLoad) return;
                  if (!first_word) first_word = load;
                }
              } else if (access->opcode() != Op::OpStore && access->opcode() != Op::OpName) {
                return;  // another word, or a call that may read any
              }
            }
            continue;
          }
          if (use->opcode() != Op::OpCompositeExtract || use->operands().size() != 4 || use->word(3) != 0) return;
          if (!first_word) first_word = use;
        }
      }
      Failures wider = targets(true);
      if (!first_word || wider.empty() || checked_for_width(module, instruction, 32)) return;
      std::string what = "only the first word of a ballot";
      Location at = module.nearest_location(*first_word);
      if (!once.first_time(at, what)) return;
      report.at(std::move(at), fmt::format("{} is read: it holds lanes 0 to 31, and {} {} wider subgroups, whose "
                                           "other lanes it leaves out",
                                           what, failing_targets(wider, describe), wider.size() == 1 ? "runs" : "run"))
          .about(*first_word)
          .note(instruction, "the ballot is taken here")
          .fix_title(module.is_hlsl() ? "count with WaveActiveCountBits, or read every word of the ballot"
                                      : "count with subgroupBallotBitCount, or read every word of the ballot");
    }
  }

  static void check_builtin_literal(const Module& module, const RuleOptions& options,
                                    const ir::Instruction& instruction, Once& once, Reporter& report) {
    auto found = builtin_literal(module, instruction);
    if (!found || checked_for_width(module, instruction, found->width)) return;
    Failures failures = other_widths(options.targets, found->width);
    if (failures.empty()) return;
    Location at = at_literal(module, instruction, found->literal);
    if (!once.first_time(at, found->what)) return;
    bool last_lane = instruction.opcode() == Op::OpIEqual || instruction.opcode() == Op::OpINotEqual;
    std::string size = builtin_name(module, spv::BuiltIn::SubgroupSize);
    report.at(std::move(at), message(found->what, found->width, failures))
        .about(instruction)
        .fix_title(last_lane ? fmt::format("compare with {} - 1", size) : fmt::format("multiply by {}", size));
  }

  static void check_first_invocations(const Module& module, const RuleOptions& options,
                                      const ir::Instruction& instruction, Once& once, Reporter& report) {
    auto found = first_invocations(module, instruction);
    if (!found || checked_for_width(module, instruction, found->width)) return;
    Failures narrower;
    for (const auto& failure : other_widths(options.targets, found->width)) {
      if (failure.second.min < found->width) narrower.push_back(failure);
    }
    if (narrower.empty()) return;
    Location at = at_literal(module, instruction, found->literal);
    std::string what = fmt::format("'{}' on {}, taking the first {} invocations for one subgroup,", found->spelling,
                                   invocation_name(module, found->invocation), found->width);
    if (!once.first_time(at, what)) return;
    report.at(std::move(at), message(what, found->width, narrower, "narrower ones"))
        .about(instruction)
        .note(*found->operation, "the subgroup operation here then spans several subgroups")
        .fix_title(module.is_hlsl() ? "select the first wave with an index over WaveGetLaneCount()"
                                    : "select the first subgroup with gl_SubgroupID == 0");
  }

 private:
  static std::string fix(const Module& module, bool lane) {
    if (module.is_hlsl()) {
      return lane ? "use WaveGetLaneIndex() for the lane, and WaveGetLaneCount() for the width"
                  : "divide by WaveGetLaneCount() instead of a literal width";
    }
    return lane ? "use gl_SubgroupInvocationID for the lane, and gl_SubgroupSize for the width"
                : "use gl_SubgroupID and gl_NumSubgroups, or divide by gl_SubgroupSize";
  }
};

KLINT_REGISTER_RULE(SubgroupSizeAssumed);

}  // namespace
}  // namespace klint
