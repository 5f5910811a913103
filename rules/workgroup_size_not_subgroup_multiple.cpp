#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "analyzer/source_names.h"
#include "rules/rule.h"
#include "rules/support/target_limits.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "workgroup-size-not-subgroup-multiple",
    .category = Category::Performance,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .summary = "workgroup smaller than a subgroup, or not a multiple of one, so lanes of its last subgroup idle",
    .doc = R"md(
## What it finds
A compute entry point whose workgroup, x * y * z invocations, is smaller than
a target's subgroup or not a multiple of it, so that the last subgroup of every
workgroup runs with lanes that have no invocation. The finding names the
failing targets grouped by subgroup size and how many lanes idle.

Each target is judged at its `subgroup_size.preferred`: the size a pipeline
runs at when it does not request one through VK_EXT_subgroup_size_control
(with it, any power of two from `min` to `max` may be chosen). Where
`preferred` is also the target's `min` (Adreno, AMD in wave32, Mali, NVIDIA,
lavapipe), a workgroup that is not a multiple of it is not a multiple of any
larger size a driver may pick either, so the finding holds whichever runs.
Apple GPUs always run 32-wide SIMD groups; the `min` of 4 MoltenVK reports is
its guess.

## Why it matters
A GPU schedules whole subgroups (warps, waves, SIMD groups): a workgroup of 48
invocations on 32-wide hardware occupies two subgroups, 64 lanes, and a quarter
of that work is thrown away in every workgroup of the dispatch. The seeds'
Apple tuning guide sweeps threadgroup sizes from 32 to 1024 and notes that the
SIMD width is fixed at 32 on Apple Silicon.

## Bad
```glsl
layout(local_size_x = 48) in;   // 2 subgroups of 32: 16 of 64 lanes idle
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
```

## Fix
```glsl
layout(local_size_x = 64) in;   // a multiple of every default target's subgroup
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
```

## Exceptions
The rule stays silent where the waste is small or not the kernel's to fix:

- A workgroup of a power of two of at least 32 invocations is not reported.
  Such a size is a multiple of every 32-wide and narrower subgroup; the one
  cost it can have is a 32-invocation workgroup on 64-wide hardware (Adreno,
  AMD in wave64), which leaves half a wave idle. That waste is real, but 32 is
  the size portable kernels choose for 32-wide GPUs and reporting it would
  flag most of them, so the rule does not; a kernel tuned for Adreno should
  still use 64.
- Idle lanes are reported only when they are at least an eighth of the lanes
  the workgroup occupies: 100 invocations on 32 lanes (28 of 128 idle) is
  reported, 1000 invocations (24 of 1024, 2%) is not, nor 100 invocations on
  Mali's 16 lanes (12 of 112).
- Targets whose compiler picks the width per shader (`subgroup_size.varies_per_shader`,
  set for Intel, whose compiler picks SIMD8, 16 or 32 whatever `subgroupSize`
  says) are not judged: whether lanes idle there is a choice klint cannot see.
- A kernel that reads none of gl_WorkGroupID, gl_GlobalInvocationID and
  gl_NumWorkGroups (HLSL: SV_GroupID, SV_DispatchThreadID) does the same work
  in every workgroup, so it is dispatched as a single workgroup (a setup step
  such as writing indirect dispatch arguments, or one tile in shared memory),
  and its idle lanes cost nothing measurable. This also silences a persistent
  kernel that hands out work through atomics instead of workgroup ids.
- A dimension from a specialization constant is judged at the default its
  declaration gives, and a note says so; the size an application specializes
  it to (often the device's subgroup size) is what runs, and klint cannot see
  it. A `local_size_x_id` with no declared constant behind it has no default
  anyone chose (the compiler assumes 1 and the application must specialize
  it), so such a workgroup is not judged at all.
)md",
};

// Below this share of a workgroup's lanes, idle lanes are not reported (1/8).
constexpr uint64_t kReportedIdleShare = 8;

struct LaneUse {
  uint64_t subgroups = 0;
  uint64_t lanes = 0;  // subgroups * subgroup size
  uint64_t idle = 0;   // lanes - invocations
};

using Failures = std::vector<std::pair<const Target*, uint32_t>>;  // target, judged subgroup size

LaneUse lane_use(uint64_t invocations, uint64_t subgroup_size) {
  uint64_t subgroups = (invocations + subgroup_size - 1) / subgroup_size;
  return {subgroups, subgroups * subgroup_size, subgroups * subgroup_size - invocations};
}

bool is_power_of_two_of_at_least_32(uint64_t invocations) {
  return invocations >= 32 && (invocations & (invocations - 1)) == 0;
}

bool idles_a_significant_share(const LaneUse& use) { return use.idle > 0 && use.idle * kReportedIdleShare >= use.lanes; }

// OpEntryPoint and decorations name a variable too; only code reads it.
bool read_in_a_function(const Module& module, uint32_t variable) {
  const auto& uses = module.uses(variable);
  return std::any_of(uses.begin(), uses.end(), [&](const ir::Instruction* use) { return module.block_of(*use); });
}

// Whether the entry point reads which workgroup it runs in. One that does not
// does the same work in every workgroup and is dispatched once.
bool identifies_its_workgroup(const Module& module, const EntryPoint& entry) {
  // Built-in inputs are always in OpEntryPoint's interface (operands 3 on).
  for (size_t i = 3; i < entry.instruction->operands().size(); ++i) {
    uint32_t variable = entry.instruction->word(i);
    auto builtin = module.builtin(variable);
    bool names_its_workgroup = builtin && (*builtin == spv::BuiltIn::WorkgroupId ||
                                           *builtin == spv::BuiltIn::GlobalInvocationId ||
                                           *builtin == spv::BuiltIn::NumWorkgroups);
    if (names_its_workgroup && read_in_a_function(module, variable)) return true;
  }
  return false;
}

bool has_undeclared_default(const std::array<WorkgroupDimension, 3>& size) {
  return std::any_of(size.begin(), size.end(),
                     [](const WorkgroupDimension& d) { return d.left_to_host(); });
}

// The number a source line states after `word =` (`local_size_x = 64`), or
// nullopt when it names none or a macro stands there.
std::optional<uint64_t> stated_number(std::string_view line, std::string_view word) {
  for (size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_');
    size_t i = at + word.size();
    if (!starts || (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))) continue;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size() || line[i] != '=') continue;
    ++i;
    while (i < line.size() && line[i] == ' ') ++i;
    uint64_t value = 0;
    size_t digits = 0;
    for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i, ++digits) {
      value = value * 10 + static_cast<uint64_t>(line[i] - '0');
    }
    return digits > 0 ? std::optional(value) : std::nullopt;
  }
  return std::nullopt;
}

// The three numbers of `[numthreads(X, Y, Z)]`, each nullopt where a macro
// stands.
std::array<std::optional<uint64_t>, 3> stated_numthreads(std::string_view line) {
  std::array<std::optional<uint64_t>, 3> numbers;
  size_t at = line.find("numthreads");
  size_t open = at == std::string_view::npos ? at : line.find('(', at);
  if (open == std::string_view::npos) return numbers;
  size_t i = open + 1;
  for (size_t d = 0; d < 3 && i < line.size(); ++d) {
    size_t end = line.find_first_of(",)", i);
    if (end == std::string_view::npos) break;
    std::string_view token = line.substr(i, end - i);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
    if (!token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return std::isdigit(c); })) {
      numbers[d] = std::stoull(std::string(token));
    }
    i = end + 1;
  }
  return numbers;
}

// Whether a line that declares a workgroup size can be the declaration the
// module was compiled from: every number it states is the entry point's. A
// declaration in a preprocessor branch the compiler skipped (`#if ...
// local_size_x = 16 #else local_size_x = 1`) states other numbers.
bool states_size(std::string_view line, const std::array<WorkgroupDimension, 3>& size) {
  static constexpr const char* kSizes[] = {"local_size_x", "local_size_y", "local_size_z"};
  static constexpr const char* kIds[] = {"local_size_x_id", "local_size_y_id", "local_size_z_id"};
  std::array<std::optional<uint64_t>, 3> threads = stated_numthreads(line);
  for (size_t d = 0; d < 3; ++d) {
    if (auto value = stated_number(line, kSizes[d]); value && (size[d].spec_id || *value != size[d].value)) {
      return false;
    }
    if (auto id = stated_number(line, kIds[d]); id && size[d].spec_id != *id) return false;
    if (threads[d] && (size[d].spec_id || *threads[d] != size[d].value)) return false;
  }
  return true;
}

// The line of `layout(local_size_x = ...)` or `[numthreads(...)]` that
// declares this entry point's size, else the entry point's function (a source
// the module does not carry, e.g. one with #include, or SPIR-V, whose
// execution modes have no line). Of several such lines (one per preprocessor
// branch), the first whose numbers are the size compiled.
Location workgroup_size_location(const Module& module, const EntryPoint& entry) {
  static constexpr std::string_view kWords[] = {"local_size_x", "local_size_x_id", "local_size_y", "local_size_y_id",
                                                "local_size_z", "local_size_z_id", "numthreads"};
  std::optional<Location> first;
  for (std::string_view word : kWords) {
    if ((first = module.source_line(word))) break;
  }
  if (!first) return module.location(entry.function->definition);
  SourceText source = source_text(module);
  const std::vector<std::string>* lines = source.lines(first->file);
  if (!lines || !entry.workgroup_size) return *first;
  for (uint32_t line = first->line; line < lines->size(); ++line) {
    std::string_view text = (*lines)[line];
    text = text.substr(0, text.find("//"));
    bool declares_size = std::any_of(std::begin(kWords), std::end(kWords), [&](std::string_view word) {
      return stated_number(text, word) || (word == "numthreads" && text.find(word) != std::string_view::npos);
    });
    if (!declares_size || !states_size(text, *entry.workgroup_size)) continue;
    Location at = *first;
    at.line = line;
    return at;
  }
  return *first;
}

std::string workgroup_text(const std::array<WorkgroupDimension, 3>& size, uint64_t invocations) {
  std::string text = fmt::format("workgroup of {} invocation{}", invocations, invocations == 1 ? "" : "s");
  if (size[1].value == 1 && size[2].value == 1) return text;
  return fmt::format("{} ({}x{}x{})", text, size[0].value, size[1].value, size[2].value);
}

// "workgroup of 48 invocations leaves 16 of 64 lanes idle in its last subgroup
// on qualcomm-adreno-6xx (subgroup size 64)", or with several subgroup sizes
// each group's count in its parentheses.
std::string message(const std::string& workgroup, uint64_t invocations, const Failures& failures) {
  uint32_t smallest = failures.front().second, largest = failures.front().second;
  for (const auto& [target, size] : failures) {
    smallest = std::min(smallest, size);
    largest = std::max(largest, size);
  }
  bool smaller_than_every = invocations < smallest;
  if (smallest == largest) {
    uint64_t idle = lane_use(invocations, largest).idle;
    std::string targets = failing_targets(failures, [](uint32_t s) { return fmt::format("subgroup size {}", s); });
    return smaller_than_every
               ? fmt::format("{} is smaller than a subgroup on {}: {} of {} lanes idle", workgroup, targets, idle, largest)
               : fmt::format("{} leaves {} of {} lanes idle in its last subgroup on {}", workgroup, idle, largest,
                             targets);
  }
  std::string targets = failing_targets(failures, [&](uint32_t s) {
    return fmt::format("subgroup size {}, {} of {} lanes idle", s, lane_use(invocations, s).idle, s);
  });
  return smaller_than_every ? fmt::format("{} is smaller than a subgroup on {}", workgroup, targets)
                            : fmt::format("{} leaves lanes idle in its last subgroup on {}", workgroup, targets);
}

Failures targets_with_idle_lanes(uint64_t invocations, const std::vector<const Target*>& targets) {
  Failures failures;
  for (const Target* target : targets) {
    uint32_t subgroup = target->subgroup_size.preferred;
    if (subgroup == 0 || target->subgroup_size.varies_per_shader) continue;
    if (idles_a_significant_share(lane_use(invocations, subgroup))) failures.emplace_back(target, subgroup);
  }
  return failures;
}

uint32_t widest_subgroup(const std::vector<const Target*>& targets) {
  uint32_t widest = 0;
  for (const Target* target : targets) {
    if (!target->subgroup_size.varies_per_shader) widest = std::max(widest, target->subgroup_size.preferred);
  }
  return widest;
}

void explain(DiagnosticBuilder& diagnostic, const Location& at, const std::array<WorkgroupDimension, 3>& size,
             uint64_t invocations, const Failures& failures) {
  std::set<uint32_t> subgroups;
  for (const auto& failure : failures) subgroups.insert(failure.second);
  for (uint32_t subgroup : subgroups) {
    LaneUse use = lane_use(invocations, subgroup);
    diagnostic.note(at, fmt::format("{} invocation{} {} {} subgroup{} of {} lanes: {} of {} lanes ({}%) do no work",
                                    invocations, invocations == 1 ? "" : "s", invocations == 1 ? "takes" : "take",
                                    use.subgroups, use.subgroups == 1 ? "" : "s", subgroup, use.idle, use.lanes,
                                    use.idle * 100 / use.lanes));
  }
  for (size_t i = 0; i < 3; ++i) {
    if (!size[i].spec_id) continue;
    diagnostic.note(at, fmt::format("dimension {} comes from specialization constant {} (default {}); the size a "
                                    "pipeline specializes it to is what runs",
                                    "xyz"[i], *size[i].spec_id, size[i].value));
  }
}

class WorkgroupSizeNotSubgroupMultiple final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions& options, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function || !entry.workgroup_size) continue;
      const auto& size = *entry.workgroup_size;
      if (has_undeclared_default(size)) continue;
      uint64_t invocations = size[0].value * size[1].value * size[2].value;
      if (invocations == 0 || is_power_of_two_of_at_least_32(invocations)) continue;
      if (!identifies_its_workgroup(module, entry)) continue;
      Failures failures = targets_with_idle_lanes(invocations, options.targets);
      if (failures.empty()) continue;
      Location at = workgroup_size_location(module, entry);
      auto diagnostic = report.at(at, message(workgroup_text(size, invocations), invocations, failures));
      explain(diagnostic, at, size, invocations, failures);
      diagnostic.fix_title(fmt::format("make the workgroup a multiple of the subgroup size ({} covers every target)",
                                       widest_subgroup(options.targets)));
    }
  }
};

KLINT_REGISTER_RULE(WorkgroupSizeNotSubgroupMultiple);

}  // namespace
}  // namespace klint
