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
#include <unordered_map>
#include <vector>

namespace klint {

std::optional<std::vector<uint32_t>> normalize(const std::vector<uint32_t>& spirv, spv_target_env env,
                                               std::string* error, std::string* left_undone = nullptr);

// Gives the specialization constants with these SpecIds new defaults, as a
// pipeline's VkSpecializationInfo would (SPIRV-Tools'
// set-spec-constant-default-value pass): each value is the constant's bit
// pattern in 32-bit words, one for types of 32 bits or fewer, two for 64.
// The constants stay specialization constants; analyses read their defaults.
std::optional<std::vector<uint32_t>> set_specialization_defaults(
    const std::vector<uint32_t>& spirv, spv_target_env env,
    const std::unordered_map<uint32_t, std::vector<uint32_t>>& values, std::string* error);

}  // namespace klint
