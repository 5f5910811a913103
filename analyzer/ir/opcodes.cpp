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

bool is_comparison(Op op) {
  auto value = static_cast<uint32_t>(op);
  return value >= static_cast<uint32_t>(Op::OpIEqual) && value <= static_cast<uint32_t>(Op::OpFUnordGreaterThanEqual);
}

Op swapped_comparison(Op op) {
  switch (op) {
    case Op::OpULessThan: return Op::OpUGreaterThan;
    case Op::OpUGreaterThan: return Op::OpULessThan;
    case Op::OpULessThanEqual: return Op::OpUGreaterThanEqual;
    case Op::OpUGreaterThanEqual: return Op::OpULessThanEqual;
    case Op::OpSLessThan: return Op::OpSGreaterThan;
    case Op::OpSGreaterThan: return Op::OpSLessThan;
    case Op::OpSLessThanEqual: return Op::OpSGreaterThanEqual;
    case Op::OpSGreaterThanEqual: return Op::OpSLessThanEqual;
    case Op::OpFOrdLessThan: return Op::OpFOrdGreaterThan;
    case Op::OpFOrdGreaterThan: return Op::OpFOrdLessThan;
    case Op::OpFOrdLessThanEqual: return Op::OpFOrdGreaterThanEqual;
    case Op::OpFOrdGreaterThanEqual: return Op::OpFOrdLessThanEqual;
    case Op::OpFUnordLessThan: return Op::OpFUnordGreaterThan;
    case Op::OpFUnordGreaterThan: return Op::OpFUnordLessThan;
    case Op::OpFUnordLessThanEqual: return Op::OpFUnordGreaterThanEqual;
    case Op::OpFUnordGreaterThanEqual: return Op::OpFUnordLessThanEqual;
    default: return op;  // equalities are symmetric
  }
}

Op negated_comparison(Op op) {
  switch (op) {
    case Op::OpIEqual: return Op::OpINotEqual;
    case Op::OpINotEqual: return Op::OpIEqual;
    case Op::OpULessThan: return Op::OpUGreaterThanEqual;
    case Op::OpUGreaterThanEqual: return Op::OpULessThan;
    case Op::OpUGreaterThan: return Op::OpULessThanEqual;
    case Op::OpULessThanEqual: return Op::OpUGreaterThan;
    case Op::OpSLessThan: return Op::OpSGreaterThanEqual;
    case Op::OpSGreaterThanEqual: return Op::OpSLessThan;
    case Op::OpSGreaterThan: return Op::OpSLessThanEqual;
    case Op::OpSLessThanEqual: return Op::OpSGreaterThan;
    case Op::OpFOrdEqual: return Op::OpFUnordNotEqual;
    case Op::OpFUnordNotEqual: return Op::OpFOrdEqual;
    case Op::OpFOrdNotEqual: return Op::OpFUnordEqual;
    case Op::OpFUnordEqual: return Op::OpFOrdNotEqual;
    case Op::OpFOrdLessThan: return Op::OpFUnordGreaterThanEqual;
    case Op::OpFUnordGreaterThanEqual: return Op::OpFOrdLessThan;
    case Op::OpFOrdGreaterThan: return Op::OpFUnordLessThanEqual;
    case Op::OpFUnordLessThanEqual: return Op::OpFOrdGreaterThan;
    case Op::OpFOrdLessThanEqual: return Op::OpFUnordGreaterThan;
    case Op::OpFUnordGreaterThan: return Op::OpFOrdLessThanEqual;
    case Op::OpFOrdGreaterThanEqual: return Op::OpFUnordLessThan;
    case Op::OpFUnordLessThan: return Op::OpFOrdGreaterThanEqual;
    default: return op;
  }
}

}  // namespace klint::ir
