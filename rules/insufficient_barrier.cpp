#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/barriers.h"
#include "analyzer/ir/opcodes.h"
#include "analyzer/loops.h"
#include "analyzer/pointers.h"
#include "analyzer/uniformity.h"
#include "rules/rule.h"

namespace klint {
namespace {

constexpr RuleInfo kInfo{
    .id = "insufficient-barrier",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

constexpr RuleDescription kDescription{
    .run_evidence = RunEvidence::Race,
    .summary = "barrier between a write and a read of workgroup memory that does not both wait for the "
               "workgroup and make the write visible",
    .doc = R"md(
## What it finds
A barrier between a write to a `shared` (`groupshared`, Workgroup) variable and
a later read of the same variable that does not do both halves of the job:
- a memory barrier alone (`memoryBarrierShared()`, `groupMemoryBarrier()`,
  `memoryBarrier()`, HLSL `GroupMemoryBarrier()`, `AllMemoryBarrier()`,
  `OpMemoryBarrier`) where `barrier()` belongs: it orders the accesses of the
  invocation that runs it, but does not wait for the other invocations;
- a control barrier whose memory semantics leave out workgroup memory (HLSL
  `DeviceMemoryBarrierWithGroupSync()`, `OpControlBarrier` with semantics `None`
  or only `UniformMemory`): it waits for the workgroup, but does not make the
  shared writes visible. This is Metal's `threadgroup_barrier(mem_flags::mem_device)`
  guarding `threadgroup` memory.

Reads after the barrier include reads in the next iteration of a loop.

## Why it matters
The read may see the variable before the other invocations wrote it, or an old
value from a cache: a data race that passes on one GPU and returns garbage on
another, or after a driver update.

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    memoryBarrierShared();                  // orders this invocation's write only
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];  // the neighbour may not have written yet
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
    barrier();                              // waits for the workgroup, makes its shared writes visible
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
```

## Exceptions
- `memoryBarrierShared(); barrier();` and the like are silent: the control
  barrier right after the memory barrier does the waiting. So is a control
  barrier without workgroup semantics between workgroup memory barriers
  (`OpMemoryBarrier`, `OpControlBarrier` with semantics `None`,
  `OpMemoryBarrier`). klint accepts a memory barrier on either side of it;
  strictly, the release before it and the acquire after it are both needed.
- Memory barriers whose semantics leave out workgroup memory
  (`memoryBarrierBuffer()`, `memoryBarrierImage()`, HLSL `DeviceMemoryBarrier()`)
  and subgroup-scope barriers (`subgroupMemoryBarrierShared()`,
  `subgroupBarrier()`) are not checked: they do not claim to synchronize the
  workgroup's shared memory.
- A barrier is silent when every write and read of the variable that cross it
  use one and the same address built only from `gl_LocalInvocationID`,
  `gl_LocalInvocationIndex` and constants (`tile[tid] = v; memoryBarrierShared();
  w = tile[tid];`): each invocation reads back its own element. Two invocations
  writing the same element is a different race.
- Atomic reads after the barrier are not counted as reads: invocations that
  communicate through atomics do not rely on the barrier.
- Only a write before the barrier and a read after it count. A memory barrier
  between a read and another invocation's later overwrite (write after read)
  is a hazard too, but is not reported.
- Accesses in a called function that klint could not inline count as made at
  the call, and a call into a function that holds a barrier ends the search
  there. The search does not leave the function that holds the barrier.
- Barriers whose scope or semantics are not constants are trusted, and so is a
  workgroup control barrier that names workgroup memory at a memory scope
  narrower than the workgroup.
)md",
};

using spv::Op;

// Semantics glslang emits, by the functions that emit them (see the table below).
constexpr uint32_t kSharedSemantics = 0x108;  // AcquireRelease | WorkgroupMemory
constexpr uint32_t kDeviceSemantics = 0x848;  // AcquireRelease | UniformMemory | ImageMemory
constexpr uint32_t kAllSemantics = 0xD48;     // AcquireRelease | UniformMemory | WorkgroupMemory | ImageMemory

// What glslang emits (GLSL450 memory model; under `#pragma
// use_vulkan_memory_model` the Device scopes of memoryBarrierShared() and
// memoryBarrier() become QueueFamily, the semantics stay):
//   barrier(), HLSL GroupMemoryBarrierWithGroupSync()  OpControlBarrier Workgroup Workgroup 0x108
//   HLSL DeviceMemoryBarrierWithGroupSync()            OpControlBarrier Workgroup Device    0x848
//   HLSL AllMemoryBarrierWithGroupSync()               OpControlBarrier Workgroup Device    0xD48
//   memoryBarrierShared()                              OpMemoryBarrier Device    0x108
//   groupMemoryBarrier()                               OpMemoryBarrier Workgroup 0xD48
//   memoryBarrier()                                    OpMemoryBarrier Device    0xD48
//   memoryBarrierBuffer() / memoryBarrierImage()       OpMemoryBarrier Device    0x48 / 0x808
//   HLSL GroupMemoryBarrier()                          OpMemoryBarrier Workgroup 0x108
//   HLSL DeviceMemoryBarrier() / AllMemoryBarrier()    OpMemoryBarrier Device    0x848 / 0xD48
//   controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease)
//                                                      OpControlBarrier Workgroup Workgroup 0x48
enum class BarrierKind {
  Sufficient,           // a control barrier over the workgroup that includes workgroup memory
  WithoutSharedMemory,  // a control barrier over the workgroup that leaves workgroup memory out
  SharedFence,          // a memory barrier over workgroup memory, wide enough to reach the workgroup
  Other,                // subgroup barriers, memory barriers for buffers and images, non-barriers
};

enum class Language { Glsl, Hlsl, Assembly };

// A scope or semantics klint cannot read is trusted to do the whole job
// (barriers.h: Unknown never makes a finding).
BarrierKind classify(const Module& module, const ir::Instruction& instruction) {
  std::optional<Barrier> barrier = barrier_of(module, instruction);
  if (!barrier) return BarrierKind::Other;
  if (barrier->control) {
    if (may(barrier->synchronizes_workgroup_memory())) return BarrierKind::Sufficient;
    // A control barrier with a narrower memory scope than the workgroup is
    // left to the race rules: this rule's finding is the missing semantics.
    if (may(barrier->waits_for_workgroup()) && barrier->names_workgroup_memory() == Truth::No) {
      return BarrierKind::WithoutSharedMemory;
    }
    return BarrierKind::Other;
  }
  return may(barrier->orders_workgroup_memory()) ? BarrierKind::SharedFence : BarrierKind::Other;
}

// Only a barrier whose every operand klint reads is reported.
bool fully_known(const Module& module, const ir::Instruction& instruction) {
  std::optional<Barrier> barrier = barrier_of(module, instruction);
  return barrier && barrier->semantics && barrier->memory != Reach::Unknown &&
         (!barrier->control || barrier->execution != Reach::Unknown);
}

// What ends a search from a barrier of this kind: the barrier that does the
// missing half of the job, or all of it.
bool ends_search(BarrierKind from, BarrierKind at) {
  if (at == BarrierKind::Sufficient) return true;
  if (from == BarrierKind::SharedFence) return at == BarrierKind::WithoutSharedMemory;
  return at == BarrierKind::SharedFence;
}

Language language_of(const Module& module) {
  if (module.is_hlsl()) return Language::Hlsl;
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() != Op::OpSource) continue;
    auto language = static_cast<spv::SourceLanguage>(global.word(0));
    if (language == spv::SourceLanguage::GLSL || language == spv::SourceLanguage::ESSL) return Language::Glsl;
  }
  return Language::Assembly;
}

struct Access {
  const ir::Instruction* instruction = nullptr;
  uint32_t variable = 0;
  uint32_t pointer = 0;
  uint32_t block = 0;
  size_t index = 0;
};

enum class AccessKind { Write, Read };

// The workgroup accesses `instruction` makes of `kind`: writes are stores,
// atomics that write and the destination of a copy; reads are loads and the
// source of a copy. A pointer that may point into several variables (through
// OpPhi, OpSelect or a function parameter) reaches each.
void collect(const Module& module, const ir::Instruction& instruction, AccessKind kind, uint32_t block,
             size_t index, std::vector<Access>& out) {
  const ir::Block* owner = module.block_of(instruction);
  const ir::Function* function = owner ? module.function_of(*owner) : nullptr;
  if (!function) return;
  for (const MemoryAccess& access : module.accesses(*function).of(instruction)) {
    if (access.storage != spv::StorageClass::Workgroup) continue;
    const bool writes = access.kind == MemoryAccess::Kind::Write ||
                        (access.kind == MemoryAccess::Kind::Atomic && instruction.opcode() != Op::OpAtomicLoad);
    const bool reads = access.kind == MemoryAccess::Kind::Read;
    if (!(kind == AccessKind::Write ? writes : reads)) continue;
    out.push_back({&instruction, access.variable, access.pointer, block, index});
  }
}

// What a called function does, callees included. Normalization inlines every
// call it can, but SPIRV-Tools' inliner keeps functions that return early.
struct CallSummary {
  std::vector<BarrierKind> barriers;
  std::vector<Access> reads;
  std::vector<Access> writes;
};

class CallSummaries {
 public:
  explicit CallSummaries(const Module& module) : module_(module) {}

  const CallSummary& of(uint32_t function_id) {
    if (auto it = summaries_.find(function_id); it != summaries_.end()) return it->second;
    CallSummary& summary = summaries_[function_id];  // empty while under construction: no recursion in SPIR-V
    const ir::Function* function = module_.function(function_id);
    if (!function) return summary;
    CallSummary built;
    for (uint32_t b = 0; b < function->blocks.size(); ++b) {
      const auto& instructions = function->blocks[b].instructions;
      for (size_t i = 0; i < instructions.size(); ++i) {
        const ir::Instruction& instruction = instructions[i];
        BarrierKind kind = classify(module_, instruction);
        if (kind != BarrierKind::Other) built.barriers.push_back(kind);
        collect(module_, instruction, AccessKind::Read, b, i, built.reads);
        collect(module_, instruction, AccessKind::Write, b, i, built.writes);
        if (instruction.opcode() == Op::OpFunctionCall) {
          const CallSummary& callee = of(instruction.word(2));
          built.barriers.insert(built.barriers.end(), callee.barriers.begin(), callee.barriers.end());
          built.reads.insert(built.reads.end(), callee.reads.begin(), callee.reads.end());
          built.writes.insert(built.writes.end(), callee.writes.begin(), callee.writes.end());
        }
      }
    }
    return summaries_[function_id] = std::move(built);
  }

 private:
  const Module& module_;
  std::unordered_map<uint32_t, CallSummary> summaries_;
};

// A call ends the search when its callee holds a barrier that would; else its
// accesses count as made at the call.
bool scan_call(const ir::Instruction& call, BarrierKind from, AccessKind kind, uint32_t block, size_t index,
               CallSummaries& calls, std::vector<Access>& found) {
  const CallSummary& callee = calls.of(call.word(2));
  for (BarrierKind barrier : callee.barriers) {
    if (ends_search(from, barrier)) return false;
  }
  for (Access access : kind == AccessKind::Read ? callee.reads : callee.writes) {
    access.block = block;
    access.index = index;
    found.push_back(access);
  }
  return true;
}

// The workgroup writes that reach the barrier at (block, index), or the reads
// it reaches, along paths on which no barrier ends the search. A path follows
// only the side of a branch that a loop's iteration decides: coming around the
// loop it takes `if (i > 0) barrier();` at the top.
std::vector<Access> crossing_accesses(const Module& module, const ir::Function& function, const Cfg& cfg,
                                      const LoopIterations& iterations, CallSummaries& calls, BarrierKind from,
                                      uint32_t block, size_t index, AccessKind kind) {
  using State = LoopIterations::State;
  const bool back = kind == AccessKind::Write;
  std::vector<Access> found;
  auto scan = [&](uint32_t b, size_t begin, size_t end) {  // [begin, end), walked away from the barrier
    const auto& instructions = function.blocks[b].instructions;
    for (size_t n = 0; n < end - begin; ++n) {
      size_t i = back ? end - 1 - n : begin + n;
      if (ends_search(from, classify(module, instructions[i]))) return false;
      if (instructions[i].opcode() == Op::OpFunctionCall) {
        if (!scan_call(instructions[i], from, kind, b, i, calls, found)) return false;
        continue;
      }
      collect(module, instructions[i], kind, b, i, found);
    }
    return true;
  };
  size_t size = function.blocks[block].instructions.size();
  bool open = back ? scan(block, 0, index) : scan(block, index + 1, size);
  if (!open) return found;
  // Each block once per state of the loop iterations (always 0 without a
  // branch on one).
  std::vector<std::vector<State>> seen(cfg.size());
  std::deque<std::pair<uint32_t, State>> work{{block, back ? iterations.back_start(block) : 0}};
  bool first = true;
  while (!work.empty()) {
    auto [b, state] = work.front();
    work.pop_front();
    if (!first) {
      if (!cfg.reachable(b) || std::find(seen[b].begin(), seen[b].end(), state) != seen[b].end()) continue;
      seen[b].push_back(state);
      if (!scan(b, 0, function.blocks[b].instructions.size())) continue;
    }
    first = false;
    std::optional<uint32_t> only = back ? std::nullopt : iterations.decided_successor(b, state);
    for (uint32_t next : back ? cfg.predecessors(b) : cfg.successors(b)) {
      if (only && next != *only) continue;
      std::optional<State> followed = back ? iterations.follow_back(state, block, b, next) : iterations.follow(state, b, next);
      if (followed) work.emplace_back(next, *followed);
    }
  }
  return found;
}

// A pointer to gl_LocalInvocationID (or one of its components) or gl_LocalInvocationIndex.
bool is_local_invocation_id(const Module& module, uint32_t pointer) {
  const ir::Instruction* variable = pointer_variable(module, pointer);
  if (!variable) return false;
  auto builtin = module.builtin(variable->result_id());
  return builtin == spv::BuiltIn::LocalInvocationId || builtin == spv::BuiltIn::LocalInvocationIndex;
}

// Whether `id` is computed from the local invocation id or index and constants
// only, so that it has one value per invocation wherever it is evaluated.
// `per_invocation` is set when it depends on the invocation at all.
bool invocation_private(const Module& module, uint32_t id, bool& per_invocation, int depth = 0) {
  const ir::Instruction* def = module.def(id);
  if (!def || depth > 32) return false;
  switch (def->opcode()) {
    case Op::OpConstant:
    case Op::OpConstantComposite:
    case Op::OpConstantNull:
    case Op::OpSpecConstant:
    case Op::OpSpecConstantComposite:
    case Op::OpSpecConstantOp:
      return true;
    case Op::OpVariable:
      return module.storage_class(id) == spv::StorageClass::Workgroup;  // the base of an access chain
    case Op::OpLoad:
      per_invocation = per_invocation || is_local_invocation_id(module, def->word(2));
      return is_local_invocation_id(module, def->word(2));
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpCompositeExtract:
    case Op::OpCompositeConstruct:
    case Op::OpCopyObject:
    case Op::OpBitcast:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSMod:
    case Op::OpSRem:
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
      for (uint32_t input : def->input_ids()) {
        if (!invocation_private(module, input, per_invocation, depth + 1)) return false;
      }
      return true;
    default:
      return false;
  }
}

// Whether two ids compute the same value: the same id, or the same operation
// on operands that compute the same values (the normalized module has no
// common-subexpression elimination, so `gl_LocalInvocationID.x` is loaded anew
// at each use).
bool same_value(const Module& module, uint32_t a, uint32_t b, int depth = 0) {
  if (a == b) return true;
  const ir::Instruction* x = module.def(a);
  const ir::Instruction* y = module.def(b);
  if (!x || !y || depth > 32 || x->opcode() != y->opcode() || x->type_id() != y->type_id() ||
      x->operands().size() != y->operands().size() || x->opcode() == Op::OpPhi || x->opcode() == Op::OpVariable) {
    return false;
  }
  if (x->opcode() == Op::OpLoad && !is_local_invocation_id(module, x->word(2))) return false;
  for (size_t i = x->result_id() ? 2 : 0; i < x->operands().size(); ++i) {
    bool is_id = ir::is_id_type(x->operands()[i].type);
    if (is_id ? !same_value(module, x->word(i), y->word(i), depth + 1) : x->word(i) != y->word(i)) return false;
  }
  return true;
}

// A write and a read that only this invocation's own element connects.
bool own_element(const Module& module, const Access& write, const Access& read) {
  bool per_invocation = false;
  return same_value(module, write.pointer, read.pointer) &&
         invocation_private(module, write.pointer, per_invocation) && per_invocation;
}

bool before(const Access& access, uint32_t block, size_t index) {
  return access.block < block || (access.block == block && access.index < index);
}

struct Crossing {
  Access write;
  Access read;
};

// The first write and read of one variable that cross the barrier without
// being the same invocation-private element; writes before the barrier and
// reads after it in program order come first, so that the notes read
// top-down when they can.
std::optional<Crossing> find_crossing(const Module& module, std::vector<Access> writes, std::vector<Access> reads,
                                      uint32_t block, size_t index) {
  auto position = [](const Access& a) { return std::pair(a.block, a.index); };
  std::sort(writes.begin(), writes.end(), [&](const Access& a, const Access& b) {
    bool a_before = before(a, block, index), b_before = before(b, block, index);
    if (a_before != b_before) return a_before;
    return position(a) > position(b);  // nearest to the barrier first
  });
  std::sort(reads.begin(), reads.end(), [&](const Access& a, const Access& b) {
    bool a_after = !before(a, block, index), b_after = !before(b, block, index);
    if (a_after != b_after) return a_after;
    return position(a) < position(b);
  });
  for (const Access& read : reads) {
    for (const Access& write : writes) {
      if (write.variable == read.variable && !own_element(module, write, read)) return Crossing{write, read};
    }
  }
  return std::nullopt;
}

// The source-level name of a barrier, from its encoding (see the table above).
std::optional<std::string> barrier_function(const Module& module, const ir::Instruction& instruction,
                                           Language language) {
  std::optional<Barrier> barrier = barrier_of(module, instruction);
  if (!barrier || !barrier->memory_scope || !barrier->semantics) return std::nullopt;
  const std::optional<uint32_t>& scope = barrier->memory_scope;
  const std::optional<uint32_t>& semantics = barrier->semantics;
  bool device = *scope == static_cast<uint32_t>(spv::Scope::Device) ||
                *scope == static_cast<uint32_t>(spv::Scope::QueueFamily);
  bool workgroup = *scope == static_cast<uint32_t>(spv::Scope::Workgroup);
  if (barrier->control) {
    if (language == Language::Hlsl && device && *semantics == kDeviceSemantics) {
      return "DeviceMemoryBarrierWithGroupSync";
    }
    if (language == Language::Glsl) return "controlBarrier";
    return std::nullopt;
  }
  if (language == Language::Glsl) {
    if (device && *semantics == kSharedSemantics) return "memoryBarrierShared";
    if (workgroup && *semantics == kAllSemantics) return "groupMemoryBarrier";
    if (device && *semantics == kAllSemantics) return "memoryBarrier";
  }
  if (language == Language::Hlsl) {
    if (workgroup && *semantics == kSharedSemantics) return "GroupMemoryBarrier";
    if (device && *semantics == kAllSemantics) return "AllMemoryBarrier";
  }
  return std::nullopt;
}

// The name of the control barrier that fix_title advises, as a replacement
// for the name of the memory barrier `function` where the two order the same
// memory (the table above): nullopt where the advised barrier would order
// less (groupMemoryBarrier(), memoryBarrier(), AllMemoryBarrier()).
std::optional<std::string> synchronizing_replacement(const std::string& function) {
  if (function == "memoryBarrierShared") return "barrier";
  if (function == "GroupMemoryBarrier") return "GroupMemoryBarrierWithGroupSync";
  return std::nullopt;
}

std::string fix_title(Language language) {
  switch (language) {
    case Language::Glsl:
      return "use barrier(), which waits for the workgroup and makes its shared writes visible";
    case Language::Hlsl:
      return "use GroupMemoryBarrierWithGroupSync(), which waits for the workgroup and makes its shared writes visible";
    case Language::Assembly:
      break;
  }
  return "use OpControlBarrier with Workgroup execution and memory scope and AcquireRelease|WorkgroupMemory "
         "semantics, which waits for the workgroup and makes its shared writes visible";
}

class InsufficientBarrier final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  const RuleDescription& description() const override { return kDescription; }

  void check(const Module& module, const RuleOptions&, Reporter& report) const override {
    Language language = language_of(module);
    CallSummaries calls(module);
    for (const ir::Function& function : module.functions()) {
      const Cfg& cfg = module.cfg(function);
      std::optional<LoopIterations> iterations;  // made for the first barrier that needs it
      for (uint32_t block = 0; block < function.blocks.size(); ++block) {
        if (!cfg.reachable(block)) continue;
        const auto& instructions = function.blocks[block].instructions;
        for (size_t index = 0; index < instructions.size(); ++index) {
          BarrierKind kind = classify(module, instructions[index]);
          if (kind != BarrierKind::WithoutSharedMemory && kind != BarrierKind::SharedFence) continue;
          if (!fully_known(module, instructions[index])) continue;
          if (!iterations) iterations.emplace(module, function);
          auto writes =
              crossing_accesses(module, function, cfg, *iterations, calls, kind, block, index, AccessKind::Write);
          if (writes.empty()) continue;
          auto reads =
              crossing_accesses(module, function, cfg, *iterations, calls, kind, block, index, AccessKind::Read);
          auto crossing = find_crossing(module, std::move(writes), std::move(reads), block, index);
          if (crossing) {
            report_barrier(module, function, language, kind, instructions[index], block, index, *crossing, report);
          }
        }
      }
    }
  }

 private:
  static void report_barrier(const Module& module, const ir::Function& in_function, Language language, BarrierKind kind,
                             const ir::Instruction& barrier, uint32_t block, size_t index, const Crossing& crossing,
                             Reporter& report) {
    std::string variable = module.variable_name(crossing.write.variable);
    auto function = barrier_function(module, barrier, language);
    Location at = module.location(barrier);
    if (function) at.token = *function;
    std::string message;
    std::string read_note;
    if (kind == BarrierKind::SharedFence) {
      std::string what = function ? *function + "()" : language == Language::Assembly ? "OpMemoryBarrier"
                                                                                      : "this memory barrier";
      message = fmt::format("{} orders this invocation's accesses to '{}' but does not wait for the other invocations",
                            what, variable);
      read_note = fmt::format("'{}' is read here, possibly where another invocation has not written yet", variable);
    } else {
      std::string what = function ? *function + "()" : "barrier";
      message = fmt::format(
          "{}'s memory semantics do not include workgroup memory, but '{}' is written before it and read after it",
          what, variable);
      read_note = fmt::format("'{}' is read here; the barrier waits for the other invocations but need not make "
                              "their writes to workgroup memory visible",
                              variable);
    }
    bool write_after = !before(crossing.write, block, index);
    bool read_before = before(crossing.read, block, index);
    std::string write_note = fmt::format("'{}' is written here{}", variable,
                                         write_after ? ", and the loop comes back to the barrier" : "");
    if (read_before) read_note = "in the next iteration of the loop, " + read_note;
    std::optional<std::string> replacement = kind == BarrierKind::SharedFence && function
                                                 ? synchronizing_replacement(*function)
                                                 : std::nullopt;
    Location fix_at = at;
    auto builder = report.at(std::move(at), std::move(message))
                       .note(*crossing.write.instruction, std::move(write_note))
                       .note(*crossing.read.instruction, std::move(read_note))
                       .fix_title(fix_title(language));
    // The control barrier the fix puts in waits for the whole workgroup: a
    // mechanical fix only where every invocation reaches it, else a new
    // barrier-in-divergent-control-flow.
    if (replacement && !module.uniformity(in_function).divergent_branch(block)) {
      fix_at.column = fix_at.end_column = 0;  // the call's name, wherever the compiler's column points
      builder.fix(std::move(fix_at), *replacement);
    }
  }
};

KLINT_REGISTER_RULE(InsufficientBarrier);

}  // namespace
}  // namespace klint
