// Rewrites a valid module into the form analyses prefer: everything inlined
// into the entry points, locals in SSA form, constants propagated, and dead
// branches removed. Line info is kept. The module must already be valid:
// the optimizer does not validate it again.
//
// `left_undone`, when given, says what normalization skipped for its budget
// (empty when nothing): the module then keeps calls that the analyses see as
// opaque.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace klint {

std::optional<std::vector<uint32_t>> normalize(const std::vector<uint32_t>& spirv, spv_target_env env,
                                               std::string* error, std::string* left_undone = nullptr);

}  // namespace klint
