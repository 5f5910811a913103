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

}  // namespace

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
