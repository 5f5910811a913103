// Modules that are not wrong but for the toolchain: what the SPIRV-Tools klint
// links does not know yet, and what glslang emits that no source can ask for.
// Each repair gives words SPIRV-Tools takes and says what it stood in, so that
// klint can validate and analyze the rest of the module and say what it assumed,
// instead of dropping the file as invalid SPIR-V.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace klint {

struct RepairedWords {
  std::vector<uint32_t> words;
  // One line: what was stood in, for the note on the file.
  std::string what;
  // Some instruction's result became an unknown value (not only a capability dropped).
  bool unknown_results = false;
  // The instructions it changed, by 1-based position in the words as given
  // (the ordinals the validator blames instructions by).
  std::vector<size_t> changed;
};

// Capabilities and opcodes the linked SPIRV-Tools does not know, as a newer
// extension brings them (GL_EXT_spirv_intrinsics lets a shader name any):
// each unknown OpCapability is dropped; an unknown instruction inside a
// function that has a result type and a result id becomes OpUndef of that
// type (its result an unknown value); one without a result is dropped.
// nullopt when everything is known, or when what is unknown is of another
// kind (an operand of a known instruction, a declaration outside functions).
std::optional<RepairedWords> stand_in_unknown_instructions(std::span<const uint32_t> words);

// Conversions between types of one width (OpFConvert from half to half):
// the validator rejects them, no GLSL or HLSL expression asks for one, and
// glslang emits them. Each becomes the copy it means: OpCopyObject when the
// types are equal, OpBitcast otherwise. nullopt when there is none.
std::optional<RepairedWords> copy_same_width_conversions(std::span<const uint32_t> words);

}  // namespace klint
