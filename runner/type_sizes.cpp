#include "runner/type_sizes.h"

#include <algorithm>

namespace klint::runner {

using spv::Op;

// Scalars in a type, as the shadow memory flattens a workgroup variable.
uint64_t scalar_count(const Module& module, uint32_t type_id) {
  const ir::Instruction* t = module.def(type_id);
  if (!t) return 1;
  switch (t->opcode()) {
    case Op::OpTypeVector:
    case Op::OpTypeMatrix:
      return t->word(2) * scalar_count(module, t->word(1));
    case Op::OpTypeArray:
      return module.constant_value(t->word(2)).value_or(0) * scalar_count(module, t->word(1));
    case Op::OpTypeStruct: {
      uint64_t total = 0;
      for (size_t m = 1; m < t->operands().size(); ++m) total += scalar_count(module, t->word(m));
      return total;
    }
    default:
      return 1;
  }
}

// Bytes of the scalars a type is made of (its first one's, for a struct).
uint32_t scalar_width(const Module& module, uint32_t type_id) {
  const ir::Instruction* t = module.def(type_id);
  if (!t) return 4;
  switch (t->opcode()) {
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      return std::max(1u, t->word(1) / 8);
    case Op::OpTypeBool:
      return 4;
    case Op::OpTypeVector:
    case Op::OpTypeMatrix:
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
    case Op::OpTypeStruct:
      return scalar_width(module, t->word(1));
    default:
      return 4;
  }
}

// Bytes of a scalar or vector in a buffer; nullopt for anything larger.
std::optional<uint32_t> buffer_bytes(const Module& module, uint32_t type_id) {
  const ir::Instruction* t = module.def(type_id);
  if (!t) return std::nullopt;
  if (t->opcode() == Op::OpTypeInt || t->opcode() == Op::OpTypeFloat) return t->word(1) / 8;
  if (t->opcode() == Op::OpTypeVector) {
    std::optional<uint32_t> component = buffer_bytes(module, t->word(1));
    if (component) return *component * t->word(2);
  }
  return std::nullopt;
}

}  // namespace klint::runner
