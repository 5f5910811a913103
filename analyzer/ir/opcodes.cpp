#include "analyzer/ir/opcodes.h"

#include <cstdint>

namespace klint::ir {

using spv::Op;

bool is_atomic_read_modify_write(Op op) {
  switch (op) {
    case Op::OpAtomicExchange: case Op::OpAtomicCompareExchange: case Op::OpAtomicCompareExchangeWeak:
    case Op::OpAtomicIIncrement: case Op::OpAtomicIDecrement: case Op::OpAtomicIAdd: case Op::OpAtomicISub:
    case Op::OpAtomicSMin: case Op::OpAtomicUMin: case Op::OpAtomicSMax: case Op::OpAtomicUMax:
    case Op::OpAtomicAnd: case Op::OpAtomicOr: case Op::OpAtomicXor: case Op::OpAtomicFlagTestAndSet:
    case Op::OpAtomicFAddEXT: case Op::OpAtomicFMinEXT: case Op::OpAtomicFMaxEXT:
      return true;
    default:
      return false;
  }
}

bool is_atomic_with_result(Op op) { return op == Op::OpAtomicLoad || is_atomic_read_modify_write(op); }

bool is_subgroup_operation(Op op) {
  auto value = static_cast<uint32_t>(op);
  return value >= static_cast<uint32_t>(Op::OpGroupNonUniformElect) &&
         value <= static_cast<uint32_t>(Op::OpGroupNonUniformQuadSwap);
}

}  // namespace klint::ir
