// Integer arithmetic on concrete values as a SPIR-V instruction computes it
// (wrapping to its type's width), shared by SymbolicValues::evaluate and the
// Evaluator that repeats it over many assignments. Internal to analyzer/.
#pragma once

#include <cstdint>
#include <optional>

#include "analyzer/module.h"

namespace klint {

// Values klint computes with stay below this in magnitude, so that sums and
// products of two of them never overflow int64_t unchecked.
constexpr int64_t kSymbolicLimit = int64_t{1} << 62;
// How deep evaluation follows the definitions behind opaque values.
constexpr int kEvaluationDepth = 24;

inline bool fits(int64_t value) { return value > -kSymbolicLimit && value < kSymbolicLimit; }

inline std::optional<int64_t> checked_multiply(int64_t a, int64_t b) {
  int64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result) || !fits(result)) return std::nullopt;
  return result;
}

// The result type of an instruction, and what it does to two operand values.
struct MachineInt {
  bool is_signed = false;
  uint32_t width = 64;
  uint64_t mask = ~uint64_t{0};

  // The instruction's integer type; 64-bit unsigned when it has none.
  static MachineInt of(const Module& module, uint32_t type_id) {
    MachineInt machine;
    const ir::Instruction* type = module.def(type_id);
    if (!type || type->opcode() != spv::Op::OpTypeInt) return machine;
    machine.width = type->word(1);
    machine.is_signed = type->word(2) != 0;
    if (machine.width < 64) machine.mask = (uint64_t{1} << machine.width) - 1;
    return machine;
  }

  // The binary opcodes combine() computes.
  static bool computes(spv::Op op) {
    using spv::Op;
    switch (op) {
      case Op::OpBitwiseXor: case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical: case Op::OpUDiv: case Op::OpUMod: case Op::OpIAdd: case Op::OpISub:
      case Op::OpIMul:
        return true;
      default:
        return false;
    }
  }

  // nullopt for an opcode it does not compute, a division by zero, or a
  // result past kSymbolicLimit.
  std::optional<int64_t> combine(spv::Op op, uint64_t x, uint64_t y) const {
    using spv::Op;
    auto wrap = [&](uint64_t v) -> std::optional<int64_t> {
      v &= mask;
      if (is_signed && width < 64 && (v >> (width - 1)) & 1) return static_cast<int64_t>(v | ~mask);
      if (v >= static_cast<uint64_t>(kSymbolicLimit)) return std::nullopt;
      return static_cast<int64_t>(v);
    };
    switch (op) {
      case Op::OpBitwiseXor: return wrap(x ^ y);
      case Op::OpBitwiseAnd: return wrap(x & y);
      case Op::OpBitwiseOr: return wrap(x | y);
      case Op::OpShiftLeftLogical: return y < 64 ? wrap(x << y) : std::nullopt;
      case Op::OpShiftRightLogical: return y < 64 ? wrap((x & mask) >> y) : std::nullopt;
      case Op::OpUDiv: return y ? wrap((x & mask) / (y & mask)) : std::nullopt;
      case Op::OpUMod: return y ? wrap((x & mask) % (y & mask)) : std::nullopt;
      case Op::OpIAdd: return wrap(x + y);
      case Op::OpISub: return wrap(x - y);
      case Op::OpIMul: return wrap(x * y);
      default: return std::nullopt;
    }
  }
};

}  // namespace klint
