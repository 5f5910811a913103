#include "rules/support/subgroup_width.h"

#include <fmt/core.h>

#include "analyzer/uniformity.h"

namespace klint {

using spv::Op;

std::vector<WidthLiteral> width_literals(const Module& module) {
  std::vector<WidthLiteral> out;
  auto is_width = [](uint64_t value) { return value == 32 || value == 64; };
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& instruction : block.instructions) {
        if (instruction.operands().size() != 4) continue;
        uint32_t value = instruction.word(2);
        std::optional<uint64_t> literal = literal_value(module, instruction.word(3));
        WidthLiteral found{&instruction};
        found.literal = literal.value_or(0);
        switch (instruction.opcode()) {
          case Op::OpUMod: case Op::OpSMod: case Op::OpSRem:
            if (!literal || !is_width(*literal)) continue;
            found.lane = true;
            found.width = static_cast<uint32_t>(*literal);
            found.spelling = fmt::format("% {}", *literal);
            break;
          case Op::OpBitwiseAnd:
            if (!literal) {
              value = instruction.word(3);
              literal = literal_value(module, instruction.word(2));
            }
            if (!literal || !is_width(*literal + 1)) continue;
            found.literal = *literal;
            found.lane = true;
            found.width = static_cast<uint32_t>(*literal + 1);
            found.spelling = fmt::format("& {}", *literal);
            break;
          case Op::OpUDiv: case Op::OpSDiv:
            if (!literal || !is_width(*literal)) continue;
            found.width = static_cast<uint32_t>(*literal);
            found.spelling = fmt::format("/ {}", *literal);
            break;
          case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic:
            if (!literal || (*literal != 5 && *literal != 6)) continue;
            found.width = 1u << *literal;
            found.spelling = fmt::format(">> {}", *literal);
            break;
          default:
            continue;
        }
        auto invocation = invocation_id(module, value);
        if (!invocation || invocation->scaled) continue;
        found.invocation = *invocation;
        out.push_back(std::move(found));
      }
    }
  }
  return out;
}

}  // namespace klint
