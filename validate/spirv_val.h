// SPIRV-Tools' validator, run on every module klint analyses.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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

// How the messages name ids: by SPIRV-Tools' friendly names (OpName, else
// names made from types and constants: %uint, %float_1), or by number, for a
// caller that knows better names (those the user wrote in SPIR-V assembly).
enum class IdNames { Friendly, Numbers };

// Empty when the module is valid for `env`.
std::vector<ValidationMessage> validate_spirv(const std::vector<uint32_t>& spirv, spv_target_env env,
                                              BlockLayout layout = BlockLayout::Default,
                                              IdNames names = IdNames::Friendly);

// How the user spells the ids of a module made from SPIR-V assembly
// (`%bad`), by the number the assembler gave each.
using IdSpellings = std::unordered_map<uint32_t, std::string>;

// A validator message in two parts: the reason, its first line, and the
// disassembled instruction it blames on the lines after ("" when none). Ids
// that `spellings` knows read as the user wrote them, `'12[%bad]'` as `%bad`.
struct ValidatorText {
  std::string reason;
  std::string instruction;
};
ValidatorText split_message(std::string_view message, const IdSpellings& spellings = {});

}  // namespace klint
