// SPIRV-Tools' validator, run on every module klint analyses.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <string>
#include <vector>

namespace klint {

struct ValidationMessage {
  // 1-based ordinal of the offending instruction in module order (see
  // ir::Module::for_each_instruction), 0 when the message names none.
  size_t instruction = 0;
  std::string message;  // the validator's text, VUID included where it gives one
  bool is_error = true;
};

// How the validator checks the offsets of blocks: by the rules `env` has
// without device features, or relaxed to the scalar layout that Vulkan's
// scalarBlockLayout feature (VK_EXT_scalar_block_layout, core in 1.2) allows.
enum class BlockLayout { Default, Scalar };

// Empty when the module is valid for `env`.
std::vector<ValidationMessage> validate_spirv(const std::vector<uint32_t>& spirv, spv_target_env env,
                                              BlockLayout layout = BlockLayout::Default);

}  // namespace klint
