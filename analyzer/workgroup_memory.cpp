#include "analyzer/workgroup_memory.h"

#include <algorithm>
#include <set>

namespace klint {
namespace {

bool is_workgroup_variable(const Module& module, uint32_t id) {
  const ir::Instruction* def = module.def(id);
  return def && def->opcode() == spv::Op::OpVariable &&
         static_cast<spv::StorageClass>(def->word(2)) == spv::StorageClass::Workgroup;
}

// Whether the size of `type` is known: no array length a specialization
// constant the lint was not given sets.
bool fixed_size(const Module& module, uint32_t type, int depth = 0) {
  const ir::Instruction* def = module.def(type);
  if (!def || depth > 8) return false;
  switch (def->opcode()) {
    case spv::Op::OpTypeArray:
      return !module.reads_specialization_default(def->word(2)) && fixed_size(module, def->word(1), depth + 1);
    case spv::Op::OpTypeStruct:
      for (size_t i = 1; i < def->operands().size(); ++i) {
        if (!fixed_size(module, def->word(i), depth + 1)) return false;
      }
      return true;
    case spv::Op::OpTypeRuntimeArray: return false;
    default: return true;
  }
}

}  // namespace

const MemoryAccess* single_workgroup_access(const Module& module, const EntryPoint& entry, int dim) {
  if (!entry.function || !entry.workgroup_size || dim < 0 || dim > 2) return nullptr;
  if ((*entry.workgroup_size)[dim].spec_id) return nullptr;
  const Accesses& accesses = module.accesses(*entry.function);
  const Symbol workgroup{Symbol::Kind::WorkgroupId, static_cast<uint32_t>(dim)};
  for (const MemoryAccess& access : accesses.all()) {
    if (access.storage != spv::StorageClass::Workgroup || !access.offset || access.offset->degree() != 1) continue;
    const Polynomial& offset = *access.offset;
    const int64_t step = offset.coefficient(workgroup);
    if (step <= 0 || offset.constant_term() < 0 || is_explicit_layout_block(module, access.variable) ||
        module.reads_specialization_default(access.pointer)) {
      continue;
    }
    bool ids_only = true;
    for (const Symbol& symbol : offset.symbols()) {
      ids_only &= (symbol.kind == Symbol::Kind::LocalId || symbol.kind == Symbol::Kind::WorkgroupId) &&
                  offset.coefficient(symbol) >= 0;
    }
    if (!ids_only) continue;
    const std::vector<Constraint>& guards = accesses.guards(access.block);
    const bool guarded = std::any_of(guards.begin(), guards.end(), [&](const Constraint& guard) {
      return !guard.stated || guard.expression.mentions(workgroup);
    });
    if (guarded) continue;
    const ir::Instruction* pointer = module.def(module.def(access.variable)->type_id());
    if (!pointer || !fixed_size(module, pointer->word(2))) continue;
    const std::optional<uint64_t> bytes = module.type_size(pointer->word(2));
    // The least offset of the second workgroup: every other id at 0.
    if (bytes && static_cast<uint64_t>(offset.constant_term() + step) >= *bytes) return &access;
  }
  return nullptr;
}

bool is_explicit_layout_block(const Module& module, uint32_t variable) {
  if (!is_workgroup_variable(module, variable)) return false;
  const ir::Instruction* pointer = module.def(module.def(variable)->type_id());
  return pointer && module.has_decoration(pointer->word(2), spv::Decoration::Block);
}

uint32_t workgroup_memory_of(const Module& module, uint32_t variable) {
  if (!is_explicit_layout_block(module, variable)) return variable;
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() == spv::Op::OpVariable && is_explicit_layout_block(module, global.result_id())) {
      return global.result_id();
    }
  }
  return variable;
}

bool has_explicit_layout_workgroup_blocks(const Module& module) {
  return std::any_of(module.ir().globals.begin(), module.ir().globals.end(), [&](const ir::Instruction& global) {
    return global.opcode() == spv::Op::OpVariable && is_explicit_layout_block(module, global.result_id());
  });
}

WorkgroupMemory workgroup_memory(const Module& module, const EntryPoint& entry) {
  std::set<uint32_t> ids;
  std::set<uint32_t> referenced;
  for (size_t i = 3; i < entry.instruction->operands().size(); ++i) {
    if (is_workgroup_variable(module, entry.instruction->word(i))) ids.insert(entry.instruction->word(i));
  }
  std::set<uint32_t> visited;
  std::vector<const ir::Function*> work{entry.function};
  while (!work.empty()) {
    const ir::Function* function = work.back();
    work.pop_back();
    if (!function || !visited.insert(function->id()).second) continue;
    for (const ir::Block& block : function->blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.opcode() == spv::Op::OpFunctionCall) work.push_back(module.function(instruction.word(2)));
        for (uint32_t input : instruction.input_ids()) {
          if (is_workgroup_variable(module, input)) {
            ids.insert(input);
            referenced.insert(input);
          }
        }
      }
    }
  }
  WorkgroupMemory memory;
  uint64_t aliased_bytes = 0;
  uint64_t referenced_aliased_bytes = 0;
  for (uint32_t id : ids) {
    const ir::Instruction* pointer = module.def(module.def(id)->type_id());
    auto bytes = pointer ? module.type_size(pointer->word(2)) : std::nullopt;
    if (!bytes) {
      memory.unsized.push_back(id);
      continue;
    }
    const bool aliased = is_explicit_layout_block(module, id);
    const bool named = referenced.count(id) != 0;
    memory.variables.push_back({id, *bytes, aliased, named});
    if (aliased) {
      aliased_bytes = std::max(aliased_bytes, *bytes);
      if (named) referenced_aliased_bytes = std::max(referenced_aliased_bytes, *bytes);
    } else {
      memory.total += *bytes;
      if (named) memory.referenced += *bytes;
    }
  }
  memory.total += aliased_bytes;
  memory.referenced += referenced_aliased_bytes;
  std::sort(memory.variables.begin(), memory.variables.end(), [](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.id < b.id;
  });
  return memory;
}

}  // namespace klint
