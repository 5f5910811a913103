// SPIR-V to the shading languages of other APIs, through SPIRV-Cross: what the
// kernel looks like to Metal, to Vulkan GLSL, to HLSL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klint::reflect {

enum class TranslateTo { Msl, Glsl, Hlsl };
std::string_view to_string(TranslateTo to);  // "MSL", "GLSL", "HLSL"

// The source of the module's first compute entry point: MSL 2.3 for macOS,
// Vulkan GLSL 450, or HLSL shader model 6.0 (wave intrinsics). Fails with
// SPIRV-Cross's reason, never throws.
std::optional<std::string> translate(const std::vector<uint32_t>& spirv, TranslateTo to, std::string* error);

}  // namespace klint::reflect
