// Integer arithmetic on concrete values as a SPIR-V instruction computes it
// (wrapping to its type's width), for the Evaluator behind
// SymbolicValues::evaluate. Internal to analyzer/.
#pragma once

#include <bit>
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

// An integer type, and what instructions of it do to concrete values. Values
// are held as int64_t: a signed type's sign-extended, an unsigned type's
// zero-extended. An operand may come from exact polynomial arithmetic
// (`tid - 1` is -1 at tid 0), so each operation first reads its operands as
// the type's bits.
struct MachineInt {
  bool is_signed = false;
  uint32_t width = 64;
  uint64_t mask = ~uint64_t{0};

  // The integer type, or the component type of an integer vector; 64-bit
  // unsigned when it is neither.
  static MachineInt of(const Module& module, uint32_t type_id) {
    MachineInt machine;
    const ir::Instruction* type = module.def(type_id);
    if (type && type->opcode() == spv::Op::OpTypeVector) type = module.def(type->word(1));
    if (!type || type->opcode() != spv::Op::OpTypeInt) return machine;
    machine.width = type->word(1);
    machine.is_signed = type->word(2) != 0;
    if (machine.width < 64) machine.mask = (uint64_t{1} << machine.width) - 1;
    return machine;
  }

  // The value's bits in this width.
  uint64_t bits(int64_t value) const { return static_cast<uint64_t>(value) & mask; }
  // The bits read as a signed number of this width.
  int64_t as_signed(int64_t value) const {
    uint64_t v = bits(value);
    if (width < 64 && (v >> (width - 1)) & 1) return static_cast<int64_t>(v | ~mask);
    return static_cast<int64_t>(v);
  }
  // A result of this type; nullopt past kSymbolicLimit.
  std::optional<int64_t> wrap(uint64_t value) const {
    if (is_signed) {
      int64_t v = as_signed(static_cast<int64_t>(value));
      return fits(v) ? std::optional<int64_t>(v) : std::nullopt;
    }
    value &= mask;
    if (value >= static_cast<uint64_t>(kSymbolicLimit)) return std::nullopt;
    return static_cast<int64_t>(value);
  }

  // The binary opcodes combine() computes.
  static bool computes(spv::Op op) {
    using spv::Op;
    switch (op) {
      case Op::OpBitwiseXor: case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic: case Op::OpUDiv: case Op::OpSDiv:
      case Op::OpUMod: case Op::OpSRem: case Op::OpSMod: case Op::OpIAdd: case Op::OpISub: case Op::OpIMul:
        return true;
      default:
        return false;
    }
  }

  // nullopt for an opcode it does not compute, a division by zero, a shift
  // past the width (undefined in SPIR-V), or a result past kSymbolicLimit.
  std::optional<int64_t> combine(spv::Op op, int64_t a, int64_t b) const {
    using spv::Op;
    const uint64_t x = bits(a), y = bits(b);
    switch (op) {
      case Op::OpBitwiseXor: return wrap(x ^ y);
      case Op::OpBitwiseAnd: return wrap(x & y);
      case Op::OpBitwiseOr: return wrap(x | y);
      case Op::OpShiftLeftLogical: return y < width ? wrap(x << y) : std::nullopt;
      case Op::OpShiftRightLogical: return y < width ? wrap(x >> y) : std::nullopt;
      case Op::OpShiftRightArithmetic:
        return y < width ? wrap(static_cast<uint64_t>(as_signed(a) >> y)) : std::nullopt;
      case Op::OpUDiv: return y ? wrap(x / y) : std::nullopt;
      case Op::OpUMod: return y ? wrap(x % y) : std::nullopt;
      case Op::OpSDiv: case Op::OpSRem: case Op::OpSMod: {
        int64_t n = as_signed(a), d = as_signed(b);
        if (d == 0 || (d == -1 && n == INT64_MIN)) return std::nullopt;
        int64_t r = n % d;
        if (op == Op::OpSDiv) return wrap(static_cast<uint64_t>(n / d));
        // OpSMod takes the sign of the divisor, OpSRem that of the dividend.
        if (op == Op::OpSMod && r != 0 && ((r < 0) != (d < 0))) r += d;
        return wrap(static_cast<uint64_t>(r));
      }
      case Op::OpIAdd: return wrap(x + y);
      case Op::OpISub: return wrap(x - y);
      case Op::OpIMul: return wrap(x * y);
      default: return std::nullopt;
    }
  }

  // One-operand instructions; `from` is the operand's type (for conversions).
  std::optional<int64_t> unary(spv::Op op, int64_t a, const MachineInt& from) const {
    using spv::Op;
    switch (op) {
      case Op::OpNot: return wrap(~from.bits(a));
      case Op::OpSNegate: return wrap(uint64_t{0} - from.bits(a));
      case Op::OpBitCount: return wrap(static_cast<uint64_t>(std::popcount(from.bits(a))));
      case Op::OpBitReverse: {
        uint64_t v = from.bits(a), reversed = 0;
        for (uint32_t i = 0; i < from.width; ++i) reversed |= ((v >> i) & 1) << (from.width - 1 - i);
        return wrap(reversed);
      }
      case Op::OpUConvert: case Op::OpBitcast: case Op::OpCopyObject: return wrap(from.bits(a));
      case Op::OpSConvert: return wrap(static_cast<uint64_t>(from.as_signed(a)));
      default: return std::nullopt;
    }
  }

  // OpBitFieldUExtract / OpBitFieldSExtract: `count` bits of `base` from bit
  // `offset`; nullopt when they run past the width.
  std::optional<int64_t> extract(int64_t base, int64_t offset, int64_t count, bool sign) const {
    if (offset < 0 || count < 0 || offset + count > width) return std::nullopt;
    if (count == 0) return 0;
    uint64_t field = (bits(base) >> offset) & (count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1);
    if (sign && count < 64 && (field >> (count - 1)) & 1) field |= ~((uint64_t{1} << count) - 1);
    return wrap(field);
  }

  // OpBitFieldInsert: `base` with `count` bits from bit `offset` replaced by
  // the low bits of `insert`.
  std::optional<int64_t> insert(int64_t base, int64_t insert, int64_t offset, int64_t count) const {
    if (offset < 0 || count < 0 || offset + count > width) return std::nullopt;
    if (count == 0) return wrap(bits(base));
    uint64_t field = (count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1) << offset;
    return wrap((bits(base) & ~field) | ((bits(insert) << offset) & field));
  }
};

}  // namespace klint
