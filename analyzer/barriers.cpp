#include "analyzer/barriers.h"

namespace klint {

namespace {

using spv::Op;

// The value of a scope or semantics operand when it is an OpConstant.
std::optional<uint32_t> fixed_value(const Module& module, uint32_t id) {
  const ir::Instruction* def = module.def(id);
  if (!def || def->opcode() != Op::OpConstant) return std::nullopt;
  std::optional<uint64_t> value = module.constant_value(id);
  if (!value) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

Reach reach_of(std::optional<uint32_t> scope) {
  if (!scope) return Reach::Unknown;
  switch (static_cast<spv::Scope>(*scope)) {
    case spv::Scope::CrossDevice:
    case spv::Scope::Device:
    case spv::Scope::Workgroup:
    case spv::Scope::QueueFamily:
      return Reach::Workgroup;
    case spv::Scope::Subgroup:
      return Reach::Subgroup;
    case spv::Scope::Invocation:
      return Reach::Invocation;
    default:
      return Reach::Unknown;
  }
}

Truth reaches_workgroup(Reach reach) {
  if (reach == Reach::Unknown) return Truth::Unknown;
  return reach == Reach::Workgroup ? Truth::Yes : Truth::No;
}

Truth both(Truth a, Truth b) {
  if (a == Truth::No || b == Truth::No) return Truth::No;
  if (a == Truth::Unknown || b == Truth::Unknown) return Truth::Unknown;
  return Truth::Yes;
}

}  // namespace

Truth Barrier::waits_for_workgroup() const {
  return control ? reaches_workgroup(execution) : Truth::No;
}

Truth Barrier::names_workgroup_memory() const {
  if (!semantics) return Truth::Unknown;
  return *semantics & static_cast<uint32_t>(spv::MemorySemanticsMask::WorkgroupMemory) ? Truth::Yes : Truth::No;
}

Truth Barrier::orders_workgroup_memory() const { return both(reaches_workgroup(memory), names_workgroup_memory()); }

Truth Barrier::synchronizes_workgroup_memory() const { return both(waits_for_workgroup(), orders_workgroup_memory()); }

std::optional<Barrier> barrier_of(const Module& module, const ir::Instruction& instruction) {
  Barrier barrier;
  barrier.instruction = &instruction;
  if (instruction.opcode() == Op::OpControlBarrier && instruction.operands().size() >= 3) {
    barrier.control = true;
    barrier.execution_scope = fixed_value(module, instruction.word(0));
    barrier.memory_scope = fixed_value(module, instruction.word(1));
    barrier.semantics = fixed_value(module, instruction.word(2));
    barrier.execution = reach_of(barrier.execution_scope);
    barrier.memory = reach_of(barrier.memory_scope);
    return barrier;
  }
  if (instruction.opcode() == Op::OpMemoryBarrier && instruction.operands().size() >= 2) {
    barrier.memory_scope = fixed_value(module, instruction.word(0));
    barrier.semantics = fixed_value(module, instruction.word(1));
    barrier.memory = reach_of(barrier.memory_scope);
    return barrier;
  }
  return std::nullopt;
}

}  // namespace klint
