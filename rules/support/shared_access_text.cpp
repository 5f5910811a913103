#include "rules/support/shared_access_text.h"

#include <fmt/core.h>

namespace klint {

std::string element_text(const Module& module, uint32_t variable, int64_t offset) {
  std::string text = module.name(variable);
  const ir::Instruction* def = module.def(variable);
  const ir::Instruction* pointer = def ? module.def(def->type_id()) : nullptr;
  const ir::Instruction* type = pointer ? module.def(pointer->word(2)) : nullptr;
  while (type && type->opcode() == spv::Op::OpTypeArray && offset >= 0) {
    auto stride = module.type_size(type->word(1));
    if (!stride || *stride == 0) break;
    text += fmt::format("[{}]", offset / static_cast<int64_t>(*stride));
    offset %= static_cast<int64_t>(*stride);
    type = module.def(type->word(1));
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
        text += fmt::format("{}{} = {} there", text.empty() ? " with " : ", ", module.name(symbol.id), value);
      }
    }
  }
  return text;
}

}  // namespace klint
