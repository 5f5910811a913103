#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "analyzer/builtin_names.h"
#include "analyzer/accesses.h"
#include "analyzer/barrier_intervals.h"
#include "analyzer/symbolic.h"
#include "analyzer/uniformity.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "global-memory-race",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::WorkgroupOverlap,
    .summary = "invocations of one workgroup write one storage-buffer element because its index ignores a dimension of the workgroup",
    .doc = R"md(
## What it finds
A store to a storage buffer whose element depends on the invocation (its
index uses `gl_GlobalInvocationID.x`, say) but not on one dimension of a
workgroup that has more than one invocation along it: a 16x16 workgroup over
a one-dimensional index. Every invocation along the ignored dimension then
writes the same element. klint reports it when the invocations also read that
element before they write it with no barrier between (a read-modify-write:
one may read what another already wrote), or when the value they write
depends on the ignored dimension (the last writer wins).

klint looks at the index, at every condition that decides whether the store
runs, and at the value stored: each must not depend on the ignored dimension
through anything klint cannot follow (a value loaded at a per-invocation
address, a subgroup id), or the store is not reported.

## Why it matters
The invocations along the ignored dimension run concurrently. In a
read-modify-write each of them reads the element, some after another has
already written it, so the element is updated a different number of times on
each run and on each device. Even where the result happens to come out the
same, the workgroup does the work of one invocation many times over. The
usual cause is a workgroup shape copied from a two-dimensional kernel into a
one-dimensional one.

## Bad
```glsl
layout(local_size_x = 16, local_size_y = 16) in;   // 256 invocations, 16 per x
layout(binding = 0) buffer Particles { vec4 pos[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;               // ignores y
    pos[i] += vec4(0.01);                           // 16 invocations update pos[i]
}
```

## Fix
```glsl
layout(local_size_x = 256) in;                     // one invocation per element
layout(binding = 0) buffer Particles { vec4 pos[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    pos[i] += vec4(0.01);
}
```

## Exceptions
- Atomics are not races.
- A store under a condition on the ignored dimension (`if (gl_LocalInvocationID.y == 0)`)
  runs once per element: the idiom of a reduction across that dimension.
- Invocations that write the same value to an element they did not read
  first are not reported: the result is right, if wasteful.
- An index that depends on no invocation id at all (a shared counter, a flag
  any invocation may set) is a deliberate meeting point, not a mapping from
  invocations to elements, and is not judged here.
- Stores in functions other than the entry point, and sizes set by
  specialization constants, are judged as the lint sees them (constants at
  their defaults, or as given with `--specialization` / `--workgroup-size`).
)md",
};

constexpr std::array<const char*, 3> kAxis{"x", "y", "z"};

// Which dimensions of the workgroup's local ids a value depends on, as far
// as klint follows it; `unknown` where it reaches a value that differs
// between invocations in a way klint cannot place (a subgroup id, a load at
// a per-invocation address it cannot see through).
struct Dependence {
  std::array<bool, 3> local{};
  bool unknown = false;
};

Dependence leaves_dependence(const SymbolicValues& values, Evaluator& evaluator, size_t handle) {
  Dependence dependence;
  for (const Symbol& symbol : evaluator.unassigned(handle)) {
    switch (symbol.kind) {
      case Symbol::Kind::LocalId: dependence.local[symbol.id] = true; break;
      case Symbol::Kind::SubgroupLane: case Symbol::Kind::SubgroupId: dependence.unknown = true; break;
      case Symbol::Kind::Induction: case Symbol::Kind::Value:
        if (values.per_invocation(symbol)) dependence.unknown = true;
        break;
      case Symbol::Kind::WorkgroupId: case Symbol::Kind::NumWorkgroups: case Symbol::Kind::SubgroupSize:
      case Symbol::Kind::NumSubgroups:
        break;
    }
  }
  return dependence;
}

// Whether the value `id` provably depends on the local id along `axis`:
// through its integer form, or through the operands of the instructions that
// compute it (a float computed from `gl_GlobalInvocationID.y`, a load at an
// address that does). Control dependence is not followed: this proves, it
// does not suspect.
class AxisDependence {
 public:
  AxisDependence(const Module& module, const SymbolicValues& values, uint32_t axis)
      : module_(module), values_(values), axis_(axis) {}

  bool depends(uint32_t id, int depth = 0) {
    if (depth > 48 || !seen_.insert(id).second) return false;
    const ir::Instruction* def = module_.def(id);
    if (!def || def->opcode() == spv::Op::OpVariable || def->opcode() == spv::Op::OpFunctionParameter) return false;
    if (const ir::Instruction* type = module_.def(def->type_id())) {
      if (type->opcode() == spv::Op::OpTypeInt && mentions(values_.value(id), id, depth)) return true;
      if (type->opcode() == spv::Op::OpTypeVector) {
        const ir::Instruction* element = module_.def(type->word(1));
        if (element && element->opcode() == spv::Op::OpTypeInt) {
          for (uint32_t c = 0; c < type->word(2); ++c) {
            std::optional<Polynomial> component = values_.component(id, c);
            if (component && mentions(*component, id, depth)) return true;
          }
        }
      }
    }
    for (uint32_t input : def->input_ids()) {
      if (depends(input, depth + 1)) return true;
    }
    return false;
  }

 private:
  bool mentions(const Polynomial& form, uint32_t self, int depth) {
    if (form.mentions(Symbol{Symbol::Kind::LocalId, axis_})) return true;
    for (const Symbol& symbol : form.symbols()) {
      if (symbol.kind == Symbol::Kind::Value && symbol.id != self && depends(symbol.id, depth + 1)) return true;
    }
    return false;
  }

  const Module& module_;
  const SymbolicValues& values_;
  uint32_t axis_;
  std::unordered_set<uint32_t> seen_;
};

// What a store writes, as a reader names it: the buffer's member (`p`, for
// an anonymous `buffer B { P p[]; }`, whose instance has no name of its own)
// or variable, and the indexes of the access chain that are not constants,
// as klint reads them ("gl_WorkGroupID.x * 16 + gl_LocalInvocationID.x").
struct StoreText {
  std::string buffer;
  std::string index;
};

StoreText store_text(const Module& module, const SymbolicValues& values, const MemoryAccess& store) {
  StoreText text{module.variable_name(store.variable), {}};
  std::vector<std::string> indexes;
  uint32_t pointer = store.pointer;
  for (int depth = 0; depth < 8; ++depth) {
    const ir::Instruction* def = module.def(pointer);
    if (!def) break;
    const spv::Op op = def->opcode();
    if (op != spv::Op::OpAccessChain && op != spv::Op::OpInBoundsAccessChain) break;
    std::vector<std::string> here;
    for (size_t k = 3; k < def->operands().size(); ++k) {
      const uint32_t index = def->word(k);
      if (!module.constant_value(index)) here.push_back(values.describe(values.value(index)));
    }
    indexes.insert(indexes.begin(), here.begin(), here.end());
    pointer = def->word(2);
    if (pointer == store.variable && def->operands().size() > 3 && module.name(store.variable).starts_with('%')) {
      const ir::Instruction* variable = module.def(store.variable);
      const ir::Instruction* type = variable ? module.def(variable->type_id()) : nullptr;
      std::optional<uint64_t> member = module.constant_value(def->word(3));
      if (type && member) {
        if (std::string name = module.member_name(type->word(2), static_cast<uint32_t>(*member)); !name.empty()) {
          text.buffer = name;
        }
      }
    }
  }
  for (const std::string& index : indexes) text.index += (text.index.empty() ? "" : ", ") + index;
  return text;
}

// Whether two byte ranges at forms that differ by a constant overlap.
bool overlaps(const MemoryAccess& a, const MemoryAccess& b) {
  if (a.variable != b.variable || !a.offset || !b.offset || a.width == 0 || b.width == 0) return false;
  std::optional<Polynomial> negated = b.offset->negated();
  if (!negated) return false;
  std::optional<Polynomial> difference = Polynomial::add(*a.offset, *negated);
  if (!difference || !difference->is_constant()) return false;
  int64_t d = *difference->constant_value();
  return d > -static_cast<int64_t>(a.width) && d < static_cast<int64_t>(b.width);
}

// Whether some path runs `read` and `write` with no barrier between.
bool concurrent(const Accesses& accesses, const BarrierIntervals& intervals, const MemoryAccess& read,
                const MemoryAccess& write) {
  const MemoryAccess* base = accesses.all().data();
  for (const ConcurrentPair& pair : intervals.concurrent_pairs(
           [&](const MemoryAccess& access) { return &access == &read || &access == &write; })) {
    const MemoryAccess* a = base + pair.a;
    const MemoryAccess* b = base + pair.b;
    if ((a == &read && b == &write) || (a == &write && b == &read)) return true;
  }
  return false;
}

class GlobalMemoryRace final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    for (const EntryPoint& entry : module.entry_points()) {
      if (entry.model != spv::ExecutionModel::GLCompute || !entry.function) continue;
      check_function(module, *entry.function, report);
    }
  }

 private:
  struct Shared {
    const MemoryAccess* store;
    uint32_t axis;
    const MemoryAccess* read;  // the read of the element before the store, if any
    bool values_differ;
  };

  static void check_function(const Module& module, const ir::Function& function, Reporter& report) {
    const SymbolicValues& values = module.symbolic(function);
    const std::array<uint64_t, 3>& size = values.workgroup_size();
    if (values.invocations() < 2) return;
    const Accesses& accesses = module.accesses(function);
    const Uniformity& uniformity = module.uniformity(function);
    const BarrierIntervals& intervals = module.barrier_intervals(function);
    Evaluator evaluator(values, {});
    // Where an access runs: every condition that decides it.
    auto placement = [&](const MemoryAccess& access) {
      Dependence where;
      std::vector<uint32_t> conditions;
      for (const Constraint& constraint : accesses.guards(access.block)) conditions.push_back(constraint.condition);
      if (const ir::Instruction* branch = uniformity.divergent_branch(access.block)) {
        if (branch->opcode() == spv::Op::OpBranchConditional) conditions.push_back(branch->word(0));
        else where.unknown = true;  // a switch
      }
      for (uint32_t condition : conditions) {
        if (condition == 0) continue;
        Dependence d = leaves_dependence(values, evaluator, evaluator.add_condition(condition));
        for (size_t k = 0; k < 3; ++k) where.local[k] = where.local[k] || d.local[k];
        where.unknown = where.unknown || d.unknown;
      }
      return where;
    };
    // One finding per variable and ignored dimension, at its first store.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<Shared>> found;
    for (const MemoryAccess& store : accesses.all()) {
      if (store.kind != MemoryAccess::Kind::Write || !store.offset) continue;
      if (store.storage != spv::StorageClass::StorageBuffer &&
          store.storage != spv::StorageClass::PhysicalStorageBuffer) {
        continue;
      }
      Dependence index = leaves_dependence(values, evaluator, evaluator.add(*store.offset));
      if (index.unknown || std::none_of(index.local.begin(), index.local.end(), [](bool b) { return b; })) continue;
      Dependence where = placement(store);
      if (where.unknown) continue;
      for (uint32_t axis = 0; axis < 3; ++axis) {
        if (size[axis] < 2 || index.local[axis] || where.local[axis]) continue;
        Shared shared{&store, axis, nullptr, false};
        for (const MemoryAccess& read : accesses.all()) {
          if (read.kind != MemoryAccess::Kind::Read || !overlaps(read, store)) continue;
          Dependence read_where = placement(read);
          if (read_where.unknown || read_where.local[axis]) continue;
          // A barrier between the read and the write lets every invocation
          // read before any writes: then only values that differ race.
          if (!concurrent(accesses, intervals, read, store)) continue;
          shared.read = &read;
          break;
        }
        const uint32_t stored = store.instruction->opcode() == spv::Op::OpStore ? store.instruction->word(1) : 0;
        shared.values_differ = stored != 0 && AxisDependence(module, values, axis).depends(stored);
        if (!shared.read && !shared.values_differ) continue;
        found[{store.variable, axis}].push_back(shared);
      }
    }
    for (const auto& [key, stores] : found) report_shared(module, values, report, stores);
  }

  static void report_shared(const Module& module, const SymbolicValues& values, Reporter& report,
                            const std::vector<Shared>& stores) {
    auto line_of = [&](const Shared& s) { return module.nearest_location(*s.store->instruction).line; };
    const Shared& first = *std::min_element(stores.begin(), stores.end(),
                                            [&](const Shared& a, const Shared& b) { return line_of(a) < line_of(b); });
    const std::array<uint64_t, 3>& size = values.workgroup_size();
    const char* axis = kAxis[first.axis];
    const std::string local = builtin_component(module, spv::BuiltIn::LocalInvocationId, first.axis);
    const StoreText text = store_text(module, values, *first.store);
    std::string message = fmt::format(
        "data race on '{}': the {} invocations along {} of a {}x{}x{} workgroup all write one element, {}, "
        "which does not depend on {}",
        text.buffer, size[first.axis], axis, size[0], size[1], size[2],
        text.index.empty() ? "at byte offset " + values.describe(*first.store->offset) : "at index " + text.index, local);
    auto builder = report.at(*first.store->instruction, message);
    if (first.read) {
      builder.note(*first.read->instruction,
                   "each of them reads the element here before writing it, so one may read what another already wrote");
    }
    if (first.values_differ) {
      builder.note(*first.store->instruction,
                   fmt::format("the value written depends on {}: the last writer wins", local));
    }
    std::vector<uint32_t> lines;
    for (const Shared& other : stores) {
      uint32_t line = line_of(other);
      if (other.store == first.store || line == line_of(first) ||
          std::find(lines.begin(), lines.end(), line) != lines.end()) {
        continue;
      }
      lines.push_back(line);
      builder.note(*other.store->instruction, fmt::format("the same invocations write '{}' here too", text.buffer));
    }
    builder.fix_title(fmt::format("index by {} too, or make the workgroup 1 invocation along {}",
                                  builtin_component(module, spv::BuiltIn::GlobalInvocationId, first.axis), axis));
  }
};

KLINT_REGISTER_RULE(GlobalMemoryRace);

}  // namespace
}  // namespace klint
