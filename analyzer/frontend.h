// Turns a shader file into SPIR-V: GLSL and HLSL through glslang in-process
// (with line info, through #include too), .spv as read, .spvasm through the
// SPIRV-Tools assembler.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/source.h"

namespace klint {

enum class Language { Glsl, Hlsl, SpirvBinary, SpirvAssembly };

enum class TargetEnv { Vulkan1_0, Vulkan1_1, Vulkan1_2, Vulkan1_3 };
// "vulkan1.0" .. "vulkan1.3", as glslc spells them.
std::optional<TargetEnv> parse_target_env(std::string_view text);
std::string_view to_string(TargetEnv env);
spv_target_env to_spv_env(TargetEnv env);
// What GLSL and HLSL compile for when no --target-env says.
constexpr TargetEnv kDefaultTargetEnv = TargetEnv::Vulkan1_3;
// The oldest Vulkan version that takes SPIR-V of `version` (the header's
// version word, 0x00010300 for 1.3): the one a module of that version was
// made for. glslc's default output, SPIR-V 1.0 with BufferBlock, is judged by
// Vulkan 1.0's rules, not by those of Vulkan 1.3, which forbid BufferBlock in
// the SPIR-V 1.6 it takes.
TargetEnv target_env_for_spirv(uint32_t version);

// The glslc options klint accepts, so that users can paste their build flags.
struct CompileOptions {
  std::vector<std::string> include_dirs;                          // -I DIR
  std::vector<std::pair<std::string, std::string>> defines;      // -DNAME[=VALUE]; VALUE "" when absent
  // --target-env; nullopt: kDefaultTargetEnv for GLSL and HLSL, and for
  // SPIR-V target_env_for_spirv of the module's version.
  std::optional<TargetEnv> target_env;
  bool force_compute = false;                                     // -fshader-stage=compute
  std::string entry_point = "main";                               // --entry (HLSL)
};

// What the file holds, judged from its name: .comp/.glsl GLSL, .hlsl/.hlsli
// HLSL, .spv binary, .spvasm assembly; with force_compute any other name is
// GLSL. nullopt when klint does not lint such files.
// A path's extension, lower-cased: `K.COMP` and `k.comp` are the same kind
// of file.
std::string extension_of(const std::string& path);

std::optional<Language> language_for_path(const std::string& path, bool force_compute);

// The stage a file's name gives (.vert, .frag, ..., and the same before .glsl
// or .hlsl: "blur.frag.glsl"), when it is not compute. Used to skip
// non-compute shaders named explicitly on the command line.
std::optional<std::string> non_compute_stage_for_path(const std::string& path);

// One #include the compiler followed: `includer` wrote `name` (the text
// between the quotes or brackets) and got the file `path`. Both paths are
// spelled as the compiled shader's locations spell them.
struct Inclusion {
  std::string includer;
  std::string name;
  std::string path;
  bool operator==(const Inclusion&) const = default;
};

struct CompiledShader {
  bool ok = false;
  std::vector<uint32_t> spirv;
  // compile-error (and invalid-spirv for undecodable .spv/.spvasm) at the
  // compiler's file:line, paths as the user wrote them.
  std::vector<Diagnostic> diagnostics;
  // The main file and every file it included.
  std::vector<std::string> files;
  // Each #include followed, in the order the compiler followed them.
  std::vector<Inclusion> includes;
  // For .spvasm: the 1-based source line of each instruction, indexed by its
  // ordinal - 1 (see ir::Module::for_each_instruction). Empty otherwise.
  std::vector<uint32_t> assembly_lines;
  // Set when the shader is not a compute shader (e.g. "vertex"); it is skipped.
  std::optional<std::string> non_compute_stage;
  // False for GLSL that declares no local_size at all: the host sets the size
  // when it creates the pipeline (by patching the module), and the 1x1x1 the
  // compiler writes is not the size the kernel runs at.
  bool workgroup_size_declared = true;
};

// Compiles `path`, whose content is `text`. Every file read (the shader and its
// includes) is registered in `sources` for excerpts, except a .spv binary,
// which has no text to show. Never throws.
//
// A non-compute shader comes back with non_compute_stage set and no
// diagnostics: ok is false for GLSL (`#pragma shader_stage`, not compiled) and
// true for .spv/.spvasm (the module is there, its entry points are not compute).
CompiledShader compile(const std::string& path, const std::string& text, Language language,
                       const CompileOptions& options, SourceCache& sources);

}  // namespace klint
