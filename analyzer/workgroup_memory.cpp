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

WorkgroupMemory workgroup_memory(const Module& module, const EntryPoint& entry) {
  std::set<uint32_t> ids;
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
          if (is_workgroup_variable(module, input)) ids.insert(input);
        }
      }
    }
  }
  WorkgroupMemory memory;
  for (uint32_t id : ids) {
    const ir::Instruction* pointer = module.def(module.def(id)->type_id());
    auto bytes = pointer ? module.type_size(pointer->word(2)) : std::nullopt;
    if (!bytes) {
      memory.unsized.push_back(id);
      continue;
    }
    memory.variables.push_back({id, *bytes});
    memory.total += *bytes;
  }
  std::sort(memory.variables.begin(), memory.variables.end(), [](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.id < b.id;
  });
  return memory;
}

}  // namespace klint
