// What one glslc or glslangValidator command compiles, read the way that
// compiler reads its arguments (`glslc --help`, `glslangValidator --help`).
// Options that decide what the shader means are followed (-D, -U, -I, the
// stage, the language, --target-env, the entry point); options that only
// shape the output are passed over; options that change how the shader
// compiles in ways klint's front-end does not model (-std=, -R,
// --auto-map-bindings, ...) are errors, as is any unknown option, so that
// klint never lints something other than what the build compiles.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/frontend.h"

namespace klint {

enum class Compiler { Glslc, GlslangValidator };

// The compiler a command runs, from its program's file name ("glslc",
// "/usr/bin/glslangValidator", "glslang.exe"); nullopt for other programs.
std::optional<Compiler> compiler_for(std::string_view program);

struct CompilerInput {
  std::string file;  // as the command spells it
  Language language;
  CompileOptions options;  // include_dirs as the command spells them; vulkan1.0 unless --target-env says
  std::string output;      // the -o file; "" when none
};

struct CompilerCommand {
  std::vector<CompilerInput> inputs;                         // the compute shaders
  std::vector<std::pair<std::string, std::string>> skipped;  // other shaders: file, stage
};

// `args` are the words after the program. nullopt with `error` one line
// without a location: "unknown glslc option '-fbogus'".
std::optional<CompilerCommand> read_compiler_args(Compiler compiler, const std::vector<std::string>& args,
                                                  std::string* error);

}  // namespace klint
