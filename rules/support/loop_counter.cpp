#include "rules/support/loop_counter.h"

#include "analyzer/source_names.h"

namespace klint {

std::string counter_name(const Module& module, const Induction& variable) {
  for (const ir::Instruction* use : module.uses(variable.update)) {
    if (use->opcode() != spv::Op::OpStore || use->word(1) != variable.update) continue;
    const ir::Instruction* pointer = module.def(use->word(0));
    if (!pointer || pointer->opcode() != spv::Op::OpVariable) continue;
    std::string name = module.name(pointer->result_id());
    if (!name.empty() && name[0] != '%') return name;
  }
  return loop_counter_name(module, source_text(module), variable.phi);
}

}  // namespace klint
