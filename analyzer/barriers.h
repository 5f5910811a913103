// What a barrier instruction does, as SPIR-V defines it: who waits, whose
// memory it orders and which storage its semantics name. The one place klint
// reads OpControlBarrier and OpMemoryBarrier; the rules, the barrier intervals
// and the runner's instrumentation all ask it, so a static finding and its
// dynamic confirmation agree on what a barrier is.
//
// A scope or semantics that is not an OpConstant (a specialization constant,
// which the host may set, or something klint cannot evaluate) is Unknown.
// Callers decide what Unknown means, and the rule is the same everywhere:
// Unknown never makes a finding. Where a barrier silences findings (an
// interval ends, a race is ordered), ask may(); where it makes one (a barrier
// in divergent control flow, a redundant barrier), ask surely().
#pragma once

#include <cstdint>
#include <optional>

#include "analyzer/module.h"

namespace klint {

enum class Truth { No, Yes, Unknown };

inline bool may(Truth truth) { return truth != Truth::No; }
inline bool surely(Truth truth) { return truth == Truth::Yes; }

// How far a scope reaches, for a compute shader: the invocation alone, its
// subgroup, or its workgroup and beyond (Workgroup, Device, QueueFamily,
// CrossDevice all include every invocation of the workgroup).
enum class Reach { Invocation, Subgroup, Workgroup, Unknown };

struct Barrier {
  const ir::Instruction* instruction = nullptr;
  // OpControlBarrier: the invocations of `execution` wait for each other.
  // OpMemoryBarrier orders memory and waits for no one.
  bool control = false;
  Reach execution = Reach::Invocation;  // Invocation for OpMemoryBarrier
  Reach memory = Reach::Unknown;
  // The operands as written, nullopt when Unknown: spv::Scope values and the
  // MemorySemantics mask, for naming the source function that emitted them.
  std::optional<uint32_t> execution_scope;
  std::optional<uint32_t> memory_scope;
  std::optional<uint32_t> semantics;

  // Every invocation of the workgroup waits here.
  Truth waits_for_workgroup() const;
  // The semantics name workgroup memory (shared, groupshared).
  Truth names_workgroup_memory() const;
  // Workgroup memory is made visible across the whole workgroup: the memory
  // scope reaches the workgroup and the semantics name workgroup memory.
  Truth orders_workgroup_memory() const;
  // Both: a control barrier after which every invocation sees the workgroup
  // memory the others wrote before it (barrier(), GroupMemoryBarrierWithGroupSync()).
  Truth synchronizes_workgroup_memory() const;
};

// The barrier `instruction` is, or nullopt for any other instruction.
std::optional<Barrier> barrier_of(const Module& module, const ir::Instruction& instruction);

}  // namespace klint
