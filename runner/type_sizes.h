// Sizes of SPIR-V types as the instrumenter and the shadow memory count them.
#pragma once

#include <cstdint>
#include <optional>

#include "analyzer/module.h"

namespace klint::runner {

// The scalars a type holds: a workgroup variable flattened into scalars in
// declaration order (an array of unknown length counts none).
uint64_t scalar_count(const Module& module, uint32_t type_id);

// Bytes of the scalars a type is made of (its first one's, for a struct).
uint32_t scalar_width(const Module& module, uint32_t type_id);

// Bytes of a scalar or vector in a buffer; nullopt for anything larger.
std::optional<uint32_t> buffer_bytes(const Module& module, uint32_t type_id);

}  // namespace klint::runner
