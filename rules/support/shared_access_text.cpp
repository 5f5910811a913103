#include "rules/support/shared_access_text.h"

#include <fmt/core.h>

#include "analyzer/source_names.h"

namespace klint {

std::string element_text(const Module& module, uint32_t variable, int64_t offset) {
  std::string text = module.variable_name(variable);
  const ir::Instruction* def = module.def(variable);
  const ir::Instruction* pointer = def ? module.def(def->type_id()) : nullptr;
  const ir::Instruction* type = pointer ? module.def(pointer->word(2)) : nullptr;
  // An anonymous block's instance goes by its block's name (Module::name);
  // its members are named alone, as the source names them.
  bool block_instance = type && type->opcode() == spv::Op::OpTypeStruct && module.name(type->result_id()) == text;
  while (type && offset >= 0) {
    if (type->opcode() == spv::Op::OpTypeArray) {
      auto stride = module.type_size(type->word(1));
      if (!stride || *stride == 0) break;
      text += fmt::format("[{}]", offset / static_cast<int64_t>(*stride));
      offset %= static_cast<int64_t>(*stride);
      type = module.def(type->word(1));
      continue;
    }
    if (type->opcode() != spv::Op::OpTypeStruct) break;
    // Explicit layouts (blocks) give members offsets: the member at `offset`
    // is the last one that starts at or before it.
    std::optional<uint32_t> member;
    uint32_t member_offset = 0;
    for (uint32_t m = 0; m + 1 < type->operands().size(); ++m) {
      auto at = module.member_decoration(type->result_id(), m, spv::Decoration::Offset);
      if (at && *at <= offset && (!member || *at >= member_offset)) member = m, member_offset = *at;
    }
    const std::string name = member ? module.member_name(type->result_id(), *member) : std::string();
    if (name.empty()) break;
    text = block_instance ? name : text + "." + name;
    block_instance = false;
    offset -= member_offset;
    type = module.def(type->word(1 + *member));
  }
  return text;
}

std::string invocation_text(const CollidingInvocation& invocation, const EntryPoint& entry) {
  uint64_t y = entry.workgroup_size ? (*entry.workgroup_size)[1].value : 1;
  uint64_t z = entry.workgroup_size ? (*entry.workgroup_size)[2].value : 1;
  const auto& id = invocation.local_id;
  if (z > 1) return fmt::format("({}, {}, {})", id[0], id[1], id[2]);
  if (y > 1) return fmt::format("({}, {})", id[0], id[1]);
  return std::to_string(id[0]);
}

std::string verb(const MemoryAccess& access, bool plural) {
  switch (access.kind) {
    case MemoryAccess::Kind::Read: return plural ? "read" : "reads";
    case MemoryAccess::Kind::Write: return plural ? "write" : "writes";
    case MemoryAccess::Kind::Atomic: return plural ? "atomically update" : "atomically updates";
  }
  return "";
}

std::string iteration_text(const Module& module, const Collision& collision) {
  std::string text;
  for (const auto& [symbol, value] : collision.second.loop_values) {
    for (const auto& [first_symbol, first_value] : collision.first.loop_values) {
      if (first_symbol == symbol && first_value != value) {
        text += fmt::format("{}{} = {} there", text.empty() ? " with " : ", ", value_name(module, symbol.id), value);
      }
    }
  }
  return text;
}

}  // namespace klint
