#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analyzer/builtin_names.h"
#include "analyzer/barrier_intervals.h"
#include "analyzer/collision.h"
#include "analyzer/workgroup_memory.h"
#include "rules/rule.h"
#include "rules/support/call_sites.h"
#include "rules/support/shared_access_text.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "shared-memory-race",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::Race,
    .summary = "two invocations access one workgroup-memory element, at least one writing, with no barrier between",
    .doc = R"md(
## What it finds
Two accesses to the same element of a `shared` (`groupshared`, Workgroup)
variable by different invocations of a workgroup, at least one of them a
write, with no barrier between them on some path. klint evaluates each
access's index for every invocation of the workgroup and every iteration of
loops with constant bounds, and names a pair of invocations that collide:
- reading a neighbour's slot before the barrier that publishes it;
- a broadcast read of `s[0]` with the second barrier missing, so invocation 0
  overwrites it while others still read;
- write-after-read across loop iterations: the next iteration's write lands
  while another invocation still reads the last one's value;
- every lane of a subgroup writing the one slot of its subgroup;
- warp-synchronous reductions (`if (tid < 32) s[tid] += s[tid + 16]` with no
  barrier), which the Vulkan memory model does not order.

## Why it matters
Without a barrier nothing orders the two accesses: the reader sees the old
value on one GPU and the new one on another, or a different one on each run.
Subgroups that happen to run in lockstep on one vendor hide the bug until the
shader meets a device with narrower subgroups or independent thread
scheduling.

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];   // the neighbour may not have written yet
}
```

## Fix
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
```

## Exceptions
- Atomics do not race with atomics.
- Accesses whose index klint cannot evaluate for a given invocation (an index
  read from a buffer, a loop bound from a push constant that the index
  depends on) are not reported: klint reports a race only with a concrete
  pair of invocations.
- A barrier under a test of the loop's counter alone (`if (i > 0) barrier();`
  at the top of the body) runs on every iteration after the first, in every
  invocation: it orders the previous iteration's accesses before this one's.
- A loop body that every invocation skips alike (`if (w < n) { ... }`, a
  `continue` or an early `return` on a uniform value) keeps the invocations in
  the same iteration at every barrier; a skip that differs between
  invocations lets some run iterations ahead of the others.
- Guards are evaluated on each invocation, bit-field extracts and inserts,
  shifts, masks, `all()`/`any()` of vector comparisons and the `else` of
  each included. A value the same across the workgroup that klint cannot see
  (`n` in `if (tid < n)`, from a push constant or a buffer) is tried at a
  few values (the workgroup size, 0, 1, half of it, one less) and the finding
  names the one it took (`when n = 64`); `if (tid == pc.first)` thus admits
  one writer, whatever `first` is.
- A condition klint cannot evaluate and that differs between invocations
  (`if (data[tid] > 0)`, `if (atomicAdd(count, 1u) + 1u == total)`) is not
  taken to hold for two invocations at once: two writes under it are not
  reported, since klint cannot show that two invocations pass it. It may
  hold for one: a write under it still races with a read that every
  invocation makes, and a note names the condition klint took to hold.
- Subgroups are taken as 32 invocations wide in local-index order; the
  collision rarely depends on it.
- Addresses computed from a specialization constant's default, where the
  lint was not given the constant (`--specialization`, klint.toml), are not
  reported: hosts often replace such defaults. Branches on constants alone
  (`if (ALIGNED != 0)`) are decided at the defaults, as the index
  arithmetic is.
- A memory barrier alone (`memoryBarrierShared()`) between the accesses is
  reported by `insufficient-barrier`, not here.
)md",
};

// ", when n = 64" for the values klint chose for what the guards read.
std::string chosen_text(const Module& module, const ir::Function& function, const Collision& collision) {
  std::string text;
  for (const auto& [symbol, value] : collision.chosen) {
    text += fmt::format("{}{} = {}", text.empty() ? ", when " : " and ", module.symbolic(function).describe(symbol), value);
  }
  return text;
}

// A note at each condition klint could not evaluate and took to hold (or
// fail) for an invocation of the pair: the finding rests on it.
void note_assumed(const Module& module, DiagnosticBuilder& builder, const Collision& collision,
                  const std::string& first, const std::string& second) {
  std::vector<std::pair<AssumedCondition, std::string>> notes;
  for (const auto& [invocation, text] : {std::pair{&collision.first, &first}, std::pair{&collision.second, &second}}) {
    for (const AssumedCondition& condition : invocation->assumed) {
      auto same = std::find_if(notes.begin(), notes.end(), [&](const auto& note) { return note.first == condition; });
      if (same == notes.end()) {
        notes.emplace_back(condition, "invocation " + *text);
      } else if (same->second != "invocation " + *text) {
        same->second = fmt::format("invocations {} and {}", first, second);
      }
    }
  }
  for (const auto& [condition, who] : notes) {
    const ir::Instruction* def = module.def(condition.condition);
    if (!def) continue;
    builder.note(module.location(*def), fmt::format("klint cannot evaluate this condition and takes it to be {} for {}",
                                                    condition.holds ? "true" : "false", who));
  }
}

bool writes(const MemoryAccess& access) {
  return access.kind == MemoryAccess::Kind::Write || access.kind == MemoryAccess::Kind::Atomic;
}

bool may_race(const Module& module, const MemoryAccess& a, const MemoryAccess& b) {
  if (a.storage != spv::StorageClass::Workgroup || b.storage != spv::StorageClass::Workgroup) return false;
  if (a.variable != b.variable && workgroup_memory_of(module, a.variable) != workgroup_memory_of(module, b.variable)) {
    return false;
  }
  if (a.kind == MemoryAccess::Kind::Atomic && b.kind == MemoryAccess::Kind::Atomic) return false;
  return writes(a) || writes(b);
}

class SharedMemoryRace final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      const ir::Function& function = *entry.function;
      const Accesses& accesses = module.accesses(function);
      const BarrierIntervals& intervals = module.barrier_intervals(function);
      const CollisionFinder& finder = module.collisions(function);
      // One finding per source line: the pair whose first access is nearest before it.
      struct Finding {
        const MemoryAccess* at;
        const MemoryAccess* other;
        Collision collision;
      };
      std::map<std::pair<std::string, uint32_t>, Finding> findings;
      auto closeness = [&](const Finding& finding) {
        uint32_t at_line = module.nearest_location(*finding.at->instruction).line;
        uint32_t other_line = module.nearest_location(*finding.other->instruction).line;
        return other_line <= at_line ? at_line - other_line : UINT32_MAX / 2 + other_line - at_line;
      };
      // Too many pairs to check: the function is left out (the module notes it).
      const std::vector<ConcurrentPair>* pairs = intervals.concurrent_pairs(spv::StorageClass::Workgroup);
      if (!pairs) continue;
      for (const ConcurrentPair& pair : *pairs) {
        const MemoryAccess& a = accesses.all()[pair.a];
        const MemoryAccess& b = accesses.all()[pair.b];
        if (!may_race(module, a, b)) continue;
        // Report where the barrier is missing: at the access that runs second,
        // or, for accesses on two sides of a branch, at the write.
        const MemoryAccess& at = (pair.ordered || writes(b) || !writes(a)) ? b : a;
        const MemoryAccess& other = &at == &b ? a : b;
        // The collision names a's invocation first, b's second.
        bool swapped = &at == &b;
        std::optional<Collision> collision = intervals.collision(finder, pair, UnknownGuards::HoldForOne);
        if (collision && swapped) std::swap(collision->first, collision->second);
        if (!collision) continue;
        // Addresses computed from a specialization constant's default show a
        // pipeline the host may never create (a placeholder it overrides):
        // klint judges them when it is given the values.
        if (module.reads_specialization_default(a.pointer) || module.reads_specialization_default(b.pointer)) continue;
        Location location = report_location(module, at, other);
        Finding finding{&at, &other, *collision};
        auto [it, inserted] = findings.try_emplace({location.file, location.line}, finding);
        if (!inserted && closeness(finding) < closeness(it->second)) it->second = finding;
      }
      for (const auto& [line, finding] : findings) {
        report_race(module, report, *finding.at, *finding.other, finding.collision, entry);
      }
    }
  }

 private:
  // The access's own line, or the call it runs in when the two accesses come
  // from different calls.
  static Location report_location(const Module& module, const MemoryAccess& at, const MemoryAccess& other) {
    if (auto calls = diverging_calls(module, *at.instruction, *other.instruction)) {
      return Location{calls->first->file, calls->first->line, 0, 0, {}, calls->first->function};
    }
    return module.nearest_location(*at.instruction);
  }

  static void report_race(const Module& module, Reporter& report, const MemoryAccess& at, const MemoryAccess& other,
                          const Collision& collision, const EntryPoint& entry) {
    std::string variable = module.variable_name(at.variable);
    std::string element = element_text(module, at.variable, collision.first.offset);
    std::string first = invocation_text(collision.first, entry);
    std::string second = invocation_text(collision.second, entry);
    std::string message;
    if (&at == &other || at.instruction == other.instruction) {
      message = fmt::format("data race on '{}': invocations {} and {} both {} {} with no barrier between", variable,
                            first, second, verb(at, true), element);
    } else {
      message = fmt::format("data race on '{}': invocation {} {} {} while invocation {} {} it, with no barrier between",
                            variable, first, verb(at, false), element, second, verb(other, false));
    }
    message += chosen_text(module, *entry.function, collision);
    // Accesses in two calls race between the calls: the finding is at the
    // call that runs second, with notes at the accesses in the functions.
    std::optional<DivergingCalls> calls = diverging_calls(module, *at.instruction, *other.instruction);
    auto builder = calls ? report.at(report_location(module, at, other), message) : report.at(*at.instruction, message);
    if (calls) {
      builder.about(*at.instruction);
      builder.note(*at.instruction, fmt::format("in '{}', invocation {} {} {} here", calls->first->function, first,
                                                verb(at, false), element));
    }
    if (at.instruction != other.instruction) {
      const std::string where =
          calls && calls->second ? fmt::format("in '{}', called at line {}, ", calls->second->function,
                                               calls->second->line)
                                 : std::string();
      builder.note(*other.instruction, fmt::format("{}invocation {} {} {} here{}", where, second, verb(other, false),
                                                   element_text(module, other.variable, collision.second.offset),
                                                   iteration_text(module, collision)));
    }
    note_assumed(module, builder, collision, first, second);
    builder.fix_title(fmt::format("separate the accesses with {}, or give each invocation its own element",
                                  workgroup_barrier(module)));
  }
};

KLINT_REGISTER_RULE(SharedMemoryRace);

}  // namespace
}  // namespace klint
