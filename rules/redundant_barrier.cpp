#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/barrier_intervals.h"
#include "analyzer/barriers.h"
#include "analyzer/disjointness.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/uniformity.h"
#include "rules/rule.h"

namespace klint {
namespace {

using spv::Op;

constexpr RuleInfo kInfo{
    .id = "redundant-barrier",
    .category = Category::Performance,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kDescription{
    .summary = "workgroup barrier that orders no access of one invocation against another's",
    .doc = R"md(
## What it finds
A `barrier()` (`GroupMemoryBarrierWithGroupSync()`, `OpControlBarrier` of
workgroup scope) that no pair of accesses needs. A barrier is needed when an
access on one side of it and an access on the other, with no other barrier
between them, touch the same shared or buffer memory from two different
invocations and at least one of them writes. Accesses after the barrier include
the next iteration's when it sits in a loop; a path that comes around the loop
takes a barrier that runs on every iteration after the first (`if (i > 0)
barrier();`). klint reports the barrier when on every path:
- nothing touches shared memory or buffers since the previous barrier (two
  barriers in a row), or before it, or after it until the next barrier or the
  end of the shader;
- only reads happen on both sides;
- what one side writes, the other side does not access;
- each invocation only touches elements that no other invocation touches on
  the other side (`tile[tid]` written, then read by the same `tid`).

Of two barriers that are each redundant only while the other stays, klint
reports one.

## Why it matters
Every invocation of the workgroup waits at the barrier for the slowest one,
and the compiler cannot move loads and stores across it. A barrier that orders
nothing costs that stall for no benefit; in a loop it costs it on every
iteration.

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    barrier();                      // nothing happened since the previous barrier
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
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
- Storage-buffer accesses count like shared ones, and any two buffer variables
  may be bound to the same buffer: a barrier between a buffer write and a read
  of another buffer stays.
- Image reads and writes, accesses through pointers klint cannot follow, and
  calls to functions that touch memory or wait at barriers count as accesses
  to everything.
- "Each invocation touches its own elements" is only claimed when klint can
  evaluate both indices for every invocation and loop iteration, and never when
  the module has specialization constants (the workgroup size or an array
  bound could change it).
- Barriers in control flow that differs between invocations are left to
  `barrier-in-divergent-control-flow`, and do not count as barriers for
  their neighbours.
- Barriers in helper functions are not reported: klint sees each call inlined,
  and a barrier that one call does not need may guard the next call (a
  reduction helper that ends with `barrier()` so that it can be called again).
- A barrier next to a data race on shared memory is more likely misplaced than
  redundant; `shared-memory-race` reports the race and this rule stays silent.
- A memory barrier alone (`memoryBarrierShared()`) is not reported, and does
  not count as a barrier for its neighbours.
- The last iteration of a loop passes a barrier that only guards the next
  iteration; that is not reported.
)md",
};

// Memory that other invocations may see: the workgroup's, or buffers and images.
enum class Family { Workgroup, Global, Any };

bool overlaps(Family a, Family b) { return a == Family::Any || b == Family::Any || a == b; }

// An effect on memory that klint does not place: an access through a pointer
// it cannot follow, an image read or write, a call that touches memory. A null
// instruction stands for what a caller does before or after a helper function.
struct Opaque {
  const ir::Instruction* instruction = nullptr;
  Family family = Family::Any;
  bool writes = true;
};

struct Touch {
  Family family;
  bool writes;
};

// A control barrier the whole workgroup waits at. One whose execution scope
// klint cannot read is neither reported nor trusted to order anything.
bool is_workgroup_control_barrier(const Module& module, const ir::Instruction& instruction) {
  std::optional<Barrier> barrier = barrier_of(module, instruction);
  return barrier && surely(barrier->waits_for_workgroup());
}

// A Uniform-class pointer is a storage buffer when its block says BufferBlock;
// when klint cannot find the variable, it may be one.
bool is_buffer_block(const Module& module, uint32_t pointer) {
  const ir::Instruction* def = pointer_variable(module, pointer);
  if (!def) return true;
  const ir::Instruction* pointer_type = module.def(def->type_id());
  const ir::Instruction* type = pointer_type ? module.def(pointer_type->word(2)) : nullptr;
  while (type && (type->opcode() == Op::OpTypeArray || type->opcode() == Op::OpTypeRuntimeArray)) {
    type = module.def(type->word(1));
  }
  return !type || module.has_decoration(type->result_id(), spv::Decoration::BufferBlock);
}

// nullopt for memory that no other invocation sees: function variables,
// inputs, push constants, uniform buffers. Also for ids that are no pointers.
std::optional<Family> visible_family(const Module& module, uint32_t pointer) {
  auto storage = module.storage_class(pointer);
  if (!storage) return std::nullopt;
  switch (*storage) {
    case spv::StorageClass::Function: case spv::StorageClass::Private: case spv::StorageClass::Input:
    case spv::StorageClass::Output: case spv::StorageClass::PushConstant: case spv::StorageClass::UniformConstant:
      return std::nullopt;
    case spv::StorageClass::Uniform:
      return is_buffer_block(module, pointer) ? std::optional(Family::Global) : std::nullopt;
    case spv::StorageClass::Workgroup: return Family::Workgroup;
    case spv::StorageClass::StorageBuffer: case spv::StorageClass::PhysicalStorageBuffer:
    case spv::StorageClass::Image: case spv::StorageClass::CrossWorkgroup:
      return Family::Global;
    default: return Family::Any;
  }
}

// Instructions that take pointers without reading or writing through them.
bool only_computes_pointers(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Op::OpAccessChain: case Op::OpInBoundsAccessChain: case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain: case Op::OpCopyObject: case Op::OpSelect: case Op::OpPhi:
    case Op::OpBitcast: case Op::OpArrayLength: case Op::OpConvertPtrToU: case Op::OpPtrEqual:
    case Op::OpPtrNotEqual: case Op::OpPtrDiff: case Op::OpImageTexelPointer: case Op::OpVariable:
      return true;
    case Op::OpExtInst: return instruction.ext_inst_type() != SPV_EXT_INST_TYPE_GLSL_STD_450;
    default: return false;
  }
}

// What an instruction (other than a call) does to visible memory.
std::vector<Touch> touches(const Module& module, const ir::Instruction& instruction) {
  std::vector<Touch> result;
  auto through = [&](uint32_t pointer, bool writes) {
    if (auto family = visible_family(module, pointer)) result.push_back({*family, writes});
  };
  Op op = instruction.opcode();
  if (op == Op::OpLoad) {
    through(instruction.word(2), false);
  } else if (op == Op::OpStore) {
    through(instruction.word(0), true);
  } else if (op == Op::OpCopyMemory || op == Op::OpCopyMemorySized) {
    through(instruction.word(0), true);
    through(instruction.word(1), false);
  } else if (op == Op::OpImageRead || op == Op::OpImageSparseRead) {
    result.push_back({Family::Global, false});
  } else if (op == Op::OpImageWrite) {
    result.push_back({Family::Global, true});
  } else if (op != Op::OpFunctionCall && !only_computes_pointers(instruction)) {
    // Atomics, cooperative-matrix loads and stores, and anything else that
    // takes a pointer: taken to read and write through it.
    for (uint32_t id : instruction.input_ids()) through(id, true);
  }
  return result;
}

// Whether calling a function may touch visible memory or wait at a barrier.
class CallSummary {
 public:
  explicit CallSummary(const Module& module) : module_(module) {}

  bool touches_memory(uint32_t function_id) const {
    auto [it, inserted] = memo_.try_emplace(function_id, true);  // recursion: assume it does
    if (!inserted) return it->second;
    const ir::Function* function = module_.function(function_id);
    bool result = !function || std::any_of(function->blocks.begin(), function->blocks.end(), [&](const ir::Block& b) {
      return std::any_of(b.instructions.begin(), b.instructions.end(), [&](const ir::Instruction& i) {
        if (std::optional<Barrier> barrier = barrier_of(module_, i); barrier && barrier->control) return true;
        if (i.opcode() == Op::OpFunctionCall) return call_touches(i);
        return !touches(module_, i).empty();
      });
    });
    memo_[function_id] = result;
    return result;
  }

  bool call_touches(const ir::Instruction& call) const {
    if (touches_memory(call.word(2))) return true;
    for (size_t i = 3; i < call.operands().size(); ++i) {
      if (visible_family(module_, call.word(i))) return true;
    }
    return false;
  }

 private:
  const Module& module_;
  mutable std::unordered_map<uint32_t, bool> memo_;
};

bool writes(const MemoryAccess& access) { return access.kind != MemoryAccess::Kind::Read; }

Family family(const MemoryAccess& access) {
  return access.storage == spv::StorageClass::Workgroup ? Family::Workgroup : Family::Global;
}

bool has_capability(const Module& module, spv::Capability capability) {
  return std::any_of(module.ir().globals.begin(), module.ir().globals.end(), [&](const ir::Instruction& i) {
    return i.opcode() == Op::OpCapability && static_cast<spv::Capability>(i.word(0)) == capability;
  });
}

// What invocations do between a barrier and the barriers around it, on one side.
struct Side {
  std::vector<size_t> accesses;  // into Accesses::all()
  std::vector<Opaque> opaque;
  std::vector<const ir::Instruction*> barriers;  // nearest first
  bool empty() const { return accesses.empty() && opaque.empty(); }
  bool writes(const std::vector<MemoryAccess>& all) const {
    return std::any_of(opaque.begin(), opaque.end(), [](const Opaque& o) { return o.writes; }) ||
           std::any_of(accesses.begin(), accesses.end(), [&](size_t i) { return klint::writes(all[i]); });
  }
};

enum class Verdict { Needed, NothingBefore, NothingAfter, OnlyReads, Unrelated, OwnElements };

struct Judgement {
  Verdict verdict = Verdict::Needed;
  Side before, after;
  std::optional<std::pair<size_t, size_t>> example;  // a pair proven not to share an element
};

// The workgroup barriers of one function and the sides of each, with the
// barriers already found redundant taken out.
class FunctionBarriers {
 public:
  FunctionBarriers(const Module& module, const ir::Function& function, bool is_entry, const CallSummary& calls)
      : module_(module), function_(function), cfg_(module.cfg(function)), all_(module.accesses(function).all()),
        uniformity_(module.uniformity(function)), iterations_(module, function), calls_(calls), is_entry_(is_entry),
        explicit_layout_(has_capability(module, spv::Capability::WorkgroupMemoryExplicitLayoutKHR)) {
    if (is_entry) disjointness_.emplace(module, function);
    for (size_t i = 0; i < all_.size(); ++i) modelled_[all_[i].instruction].push_back(i);
  }

  void remove(const ir::Instruction* barrier) { removed_.push_back(barrier); }

  Judgement judge(uint32_t block, size_t position) const {
    Judgement judgement;
    judgement.before = walk(block, position, false);
    judgement.after = walk(block, position, true);
    const Side& before = judgement.before;
    const Side& after = judgement.after;
    if (before.empty()) {
      judgement.verdict = Verdict::NothingBefore;
    } else if (after.empty()) {
      judgement.verdict = Verdict::NothingAfter;
    } else {
      if (near_race(before) || near_race(after)) return judgement;
      for (const Opaque& o : before.opaque) {
        if (meets(o, after)) return judgement;
      }
      for (const Opaque& o : after.opaque) {
        if (meets(o, before)) return judgement;
      }
      for (size_t a : before.accesses) {
        for (size_t b : after.accesses) {
          if (conflict(a, b, judgement.example)) return judgement;
        }
      }
      bool any_write = before.writes(all_) || after.writes(all_);
      judgement.verdict = judgement.example ? Verdict::OwnElements : any_write ? Verdict::Unrelated : Verdict::OnlyReads;
    }
    return judgement;
  }

 private:
  // A barrier that only some invocations reach orders nothing for the others.
  bool stops(const ir::Instruction& instruction) const {
    if (!is_workgroup_control_barrier(module_, instruction) ||
        std::find(removed_.begin(), removed_.end(), &instruction) != removed_.end()) {
      return false;
    }
    const ir::Block* block = module_.block_of(instruction);
    int index = block ? cfg_.index_of(block->id()) : -1;
    return index >= 0 && !uniformity_.divergent_branch(static_cast<uint32_t>(index));
  }

  // A barrier next to a race is more likely misplaced than redundant: its
  // fix is to move it, which shared-memory-race already asks for.
  bool near_race(const Side& side) const {
    if (!racing_) {
      racing_.emplace(all_.size(), false);
      if (is_entry_) {
        const BarrierIntervals& intervals = module_.barrier_intervals(function_);
        const CollisionFinder& finder = module_.collisions(function_);
        const std::vector<ConcurrentPair>* pairs = intervals.concurrent_pairs(spv::StorageClass::Workgroup);
        if (!pairs) {
          // Too many pairs to check: any workgroup access may race, so no
          // barrier next to one is called redundant.
          for (size_t i = 0; i < all_.size(); ++i) {
            if (all_[i].storage == spv::StorageClass::Workgroup) (*racing_)[i] = true;
          }
        }
        for (const ConcurrentPair& pair : pairs ? *pairs : std::vector<ConcurrentPair>{}) {
          const MemoryAccess& a = all_[pair.a];
          const MemoryAccess& b = all_[pair.b];
          if (a.variable != b.variable || (!writes(a) && !writes(b))) continue;
          if (a.kind == MemoryAccess::Kind::Atomic && b.kind == MemoryAccess::Kind::Atomic) continue;
          if (intervals.collision(finder, pair)) (*racing_)[pair.a] = (*racing_)[pair.b] = true;
        }
      }
    }
    return std::any_of(side.accesses.begin(), side.accesses.end(), [&](size_t i) { return (*racing_)[i]; });
  }

  void take(const ir::Instruction& instruction, Side& side) const {
    auto found = modelled_.find(&instruction);
    size_t modelled = found == modelled_.end() ? 0 : found->second.size();
    if (found != modelled_.end()) side.accesses.insert(side.accesses.end(), found->second.begin(), found->second.end());
    if (instruction.opcode() == Op::OpFunctionCall) {
      if (calls_.call_touches(instruction)) side.opaque.push_back({&instruction, Family::Any, true});
      return;
    }
    std::vector<Touch> touched = touches(module_, instruction);
    if (touched.size() <= modelled) return;
    Opaque opaque{&instruction, touched.front().family, false};
    for (const Touch& touch : touched) {
      if (touch.family != opaque.family) opaque.family = Family::Any;
      opaque.writes = opaque.writes || touch.writes;
    }
    side.opaque.push_back(opaque);
  }

  // Everything reachable from the barrier, forward or backward, without
  // passing another barrier. The barrier's own block is scanned once more
  // when a loop leads back to it, up to the barrier itself.
  //
  // Where a branch tests a loop's iteration (`if (i > 0) barrier();` at the
  // top of the loop), a path follows only the side that iteration takes: one
  // that came around the back edge takes the barrier. Walking back from a
  // barrier that runs on no first iteration, nothing before the loop comes
  // directly before it; from one that runs on the first alone, nothing of the
  // iteration before.
  Side walk(uint32_t start, size_t position, bool forward) const {
    using State = LoopIterations::State;
    State initial = forward ? 0 : iterations_.back_start(start);
    struct Item {
      uint32_t block;
      size_t from;
      State state;
    };
    Side side;
    std::vector<std::vector<State>> visited(cfg_.size());
    std::vector<State> rescanned;
    auto first_time = [](std::vector<State>& seen, State state) {
      if (std::find(seen.begin(), seen.end(), state) != seen.end()) return false;
      seen.push_back(state);
      return true;
    };
    bool boundary = false;
    std::deque<Item> work{{start, forward ? position + 1 : position, initial}};
    while (!work.empty()) {
      auto [block, from, state] = work.front();
      work.pop_front();
      const auto& instructions = function_.blocks[block].instructions;
      bool stopped = false;
      // Forward: positions from..end; backward: from-1 down to 0.
      for (size_t step = 0; !stopped && step < (forward ? instructions.size() - std::min(from, instructions.size()) : from);
           ++step) {
        const ir::Instruction& instruction = instructions[forward ? from + step : from - 1 - step];
        if (stops(instruction)) {
          if (std::find(side.barriers.begin(), side.barriers.end(), &instruction) == side.barriers.end()) {
            side.barriers.push_back(&instruction);
          }
          stopped = true;
        } else {
          take(instruction, side);
        }
      }
      if (stopped) continue;
      if (forward ? cfg_.is_exit(block) : block == 0) boundary = true;
      std::optional<uint32_t> only = forward ? iterations_.decided_successor(block, state) : std::nullopt;
      for (uint32_t next : forward ? cfg_.successors(block) : cfg_.predecessors(block)) {
        if (!cfg_.reachable(next) || (only && next != *only)) continue;
        std::optional<State> followed =
            forward ? iterations_.follow(state, block, next) : iterations_.follow_back(state, start, block, next);
        if (!followed) continue;
        State next_state = *followed;
        size_t next_from = forward ? 0 : function_.blocks[next].instructions.size();
        if (next == start) {
          if (first_time(rescanned, next_state)) work.push_back({next, next_from, next_state});
          continue;
        }
        if (!first_time(visited[next], next_state)) continue;
        work.push_back({next, next_from, next_state});
      }
    }
    // Past the start or end of a helper function lies whatever its callers do.
    if (boundary && !is_entry_) side.opaque.push_back({nullptr, Family::Any, true});
    // A block walked in two iterations adds its accesses twice.
    std::vector<size_t> unique;
    for (size_t access : side.accesses) {
      if (std::find(unique.begin(), unique.end(), access) == unique.end()) unique.push_back(access);
    }
    side.accesses = std::move(unique);
    return side;
  }

  bool meets(const Opaque& opaque, const Side& other) const {
    for (const Opaque& o : other.opaque) {
      if (overlaps(opaque.family, o.family) && (opaque.writes || o.writes)) return true;
    }
    return std::any_of(other.accesses.begin(), other.accesses.end(), [&](size_t i) {
      return overlaps(opaque.family, family(all_[i])) && (opaque.writes || writes(all_[i]));
    });
  }

  bool conflict(size_t a, size_t b, std::optional<std::pair<size_t, size_t>>& example) const {
    const MemoryAccess& first = all_[a];
    const MemoryAccess& second = all_[b];
    if ((!writes(first) && !writes(second)) || family(first) != family(second)) return false;
    // Two buffer variables may be bound to one buffer; shared variables alias
    // only with an explicit layout.
    if (first.variable != second.variable) return family(first) == Family::Global || explicit_layout_;
    auto [it, inserted] = proven_.try_emplace({a, b}, false);
    if (inserted) it->second = disjointness_ && disjointness_->proven(first, second);
    if (!it->second) return true;
    if (!example) example = {a, b};
    return false;
  }

  const Module& module_;
  const ir::Function& function_;
  const Cfg& cfg_;
  const std::vector<MemoryAccess>& all_;
  const Uniformity& uniformity_;
  LoopIterations iterations_;
  const CallSummary& calls_;
  bool is_entry_;
  std::optional<Disjointness> disjointness_;  // entry points only: it needs the workgroup size
  bool explicit_layout_;
  std::unordered_map<const ir::Instruction*, std::vector<size_t>> modelled_;
  std::vector<const ir::Instruction*> removed_;
  mutable std::map<std::pair<size_t, size_t>, bool> proven_;
  mutable std::optional<std::vector<bool>> racing_;  // by access, computed on first use
};

// "'tile'", or "the buffer" for a block without an instance name.
std::string subject(const Module& module, const MemoryAccess& access) {
  std::string name = module.name(access.variable);
  if (name.empty() || name.front() == '%') {
    return access.storage == spv::StorageClass::Workgroup ? "shared memory" : "the buffer";
  }
  return fmt::format("'{}'", name);
}

std::string participle(const MemoryAccess& access) {
  switch (access.kind) {
    case MemoryAccess::Kind::Read: return "read";
    case MemoryAccess::Kind::Write: return "written";
    case MemoryAccess::Kind::Atomic: return "updated atomically";
  }
  return "";
}

class RedundantBarrier final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    CallSummary calls(module);
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      std::vector<std::pair<uint32_t, size_t>> sites;
      for (uint32_t block = 0; block < function.blocks.size(); ++block) {
        if (!cfg.reachable(block)) continue;
        const auto& instructions = function.blocks[block].instructions;
        for (size_t position = 0; position < instructions.size(); ++position) {
          if (is_workgroup_control_barrier(module, instructions[position])) sites.emplace_back(block, position);
        }
      }
      if (sites.empty()) continue;
      const Uniformity& uniformity = module.uniformity(function);
      bool entry = is_compute_entry(module, function);
      FunctionBarriers barriers(module, function, entry, calls);
      // Barriers with nothing on one side first, as the clearest case; then
      // the rest. Last first: of two barriers in a row, the second is the one
      // reported, and the first is judged as if the second were gone.
      std::vector<bool> reported(sites.size(), false);
      for (bool empty_side_only : {true, false}) {
        for (size_t i = sites.size(); i-- > 0;) {
          auto [block, position] = sites[i];
          const ir::Instruction& barrier = function.blocks[block].instructions[position];
          if (reported[i] || uniformity.divergent_branch(block)) continue;
          if (entry && inlined_from_helper(module, function, barrier)) continue;
          Judgement judgement = barriers.judge(block, position);
          if (judgement.verdict == Verdict::Needed) continue;
          bool empty_side = judgement.verdict == Verdict::NothingBefore || judgement.verdict == Verdict::NothingAfter;
          if (empty_side_only && !empty_side) continue;
          reported[i] = true;
          barriers.remove(&barrier);
          report_redundant(module, function, barrier, judgement, report);
        }
      }
    }
  }

 private:
  static bool is_compute_entry(const Module& module, const ir::Function& function) {
    const auto& entries = module.entry_points();
    return std::any_of(entries.begin(), entries.end(), [&](const EntryPoint& entry) {
      return entry.function == &function && entry.model == spv::ExecutionModel::GLCompute;
    });
  }

  // Normalization inlines helper functions into the entry point. A helper's
  // barriers guard its other call sites and the code around each: one call's
  // copy being redundant says little about the helper. Helpers come before
  // the entry point in the source (or in an included file), since GLSL and
  // HLSL declare before use.
  static bool inlined_from_helper(const Module& module, const ir::Function& entry, const ir::Instruction& barrier) {
    Location start = module.location(entry.definition);
    Location at = module.location(barrier);
    if (!start.has_line() || !at.has_line()) return false;
    return at.file != start.file || at.line < start.line;
  }

  static Location barrier_location(const Module& module, const ir::Instruction& barrier) {
    Location at = module.location(barrier);
    at.token = module.is_hlsl() ? "" : "barrier";
    return at;
  }

  static void report_redundant(const Module& module, const ir::Function& function, const ir::Instruction& barrier,
                               const Judgement& judgement, Reporter& report) {
    const auto& all = module.accesses(function).all();
    const Side& neighbours = judgement.verdict == Verdict::NothingBefore ? judgement.before : judgement.after;
    std::string message;
    switch (judgement.verdict) {
      case Verdict::NothingBefore:
        message = neighbours.barriers.empty() ? "barrier with no shared-memory or buffer access before it"
                                              : "barrier with no shared-memory or buffer access since the previous barrier";
        break;
      case Verdict::NothingAfter:
        message = neighbours.barriers.empty() ? "barrier with no shared-memory or buffer access after it"
                                              : "barrier with no shared-memory or buffer access before the next barrier";
        break;
      case Verdict::OnlyReads: message = "barrier with no write to shared memory or buffers on either side"; break;
      case Verdict::Unrelated:
        message = "barrier between unrelated accesses: nothing written on one side is accessed on the other";
        break;
      case Verdict::OwnElements:
        message = "barrier between accesses that no two invocations make to the same element";
        break;
      case Verdict::Needed: return;
    }
    auto diagnostic = report.at(barrier_location(module, barrier), message);
    if (judgement.verdict == Verdict::NothingBefore || judgement.verdict == Verdict::NothingAfter) {
      if (!neighbours.barriers.empty()) {
        const char* which = judgement.verdict == Verdict::NothingBefore ? "the previous barrier" : "the next barrier";
        diagnostic.note(barrier_location(module, *neighbours.barriers.front()), which);
      }
    } else if (judgement.example) {
      const MemoryAccess& first = all[judgement.example->first];
      const MemoryAccess& second = all[judgement.example->second];
      diagnostic.note(module.nearest_location(*first.instruction),
                      fmt::format("{} {} here before the barrier", subject(module, first), participle(first)));
      diagnostic.note(module.nearest_location(*second.instruction),
                      fmt::format("{} here after it; no other invocation touches these elements on the other side",
                                  participle(second)));
    } else if (judgement.verdict == Verdict::Unrelated) {
      for (const Side* side : {&judgement.before, &judgement.after}) {
        auto written = std::find_if(side->accesses.begin(), side->accesses.end(), [&](size_t i) { return writes(all[i]); });
        if (written == side->accesses.end()) continue;
        const MemoryAccess& access = all[*written];
        diagnostic.note(module.nearest_location(*access.instruction),
                        fmt::format("{} {} here; nothing on the other side of the barrier accesses it",
                                    subject(module, access), participle(access)));
        break;
      }
    }
    diagnostic.fix_title("remove the barrier");
  }
};

KLINT_REGISTER_RULE(RedundantBarrier);

}  // namespace
}  // namespace klint
