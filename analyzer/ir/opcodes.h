// Classes of opcodes that several analyses and rules ask about.
#pragma once

#include <spirv/unified1/spirv.hpp11>

namespace klint::ir {

// SPV_KHR_cooperative_matrix, not in every spirv.hpp11 klint builds against.
inline constexpr spv::Op kOpTypeCooperativeMatrixKHR = static_cast<spv::Op>(4456);
inline constexpr spv::Op kOpCooperativeMatrixLoadKHR = static_cast<spv::Op>(4457);
inline constexpr spv::Op kOpCooperativeMatrixStoreKHR = static_cast<spv::Op>(4458);
inline constexpr spv::Op kOpCooperativeMatrixMulAddKHR = static_cast<spv::Op>(4459);

// Atomics that read and write (OpAtomicIAdd, OpAtomicExchange, ...).
bool is_atomic_read_modify_write(spv::Op op);
// Those and OpAtomicLoad: every atomic that yields a value.
bool is_atomic_with_result(spv::Op op);
// OpGroupNonUniformElect through OpGroupNonUniformQuadSwap.
bool is_subgroup_operation(spv::Op op);

// Integer and float comparisons (OpIEqual ... OpSGreaterThanEqual,
// OpFOrdEqual ... OpFUnordGreaterThanEqual).
bool is_comparison(spv::Op op);
// The comparison that holds of (b, a) where `op` holds of (a, b): `a < b` is `b > a`.
spv::Op swapped_comparison(spv::Op op);
// The comparison that holds where `op` fails: `a < b` fails where `a >= b`
// holds; an ordered float comparison fails where the unordered opposite holds.
spv::Op negated_comparison(spv::Op op);

}  // namespace klint::ir
