// Classes of opcodes that several analyses and rules ask about.
#pragma once

#include <spirv/unified1/spirv.hpp11>

namespace klint::ir {

// Atomics that read and write (OpAtomicIAdd, OpAtomicExchange, ...).
bool is_atomic_read_modify_write(spv::Op op);
// Those and OpAtomicLoad: every atomic that yields a value.
bool is_atomic_with_result(spv::Op op);
// OpGroupNonUniformElect through OpGroupNonUniformQuadSwap.
bool is_subgroup_operation(spv::Op op);

}  // namespace klint::ir
