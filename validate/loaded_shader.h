// One shader as klint loads it, once: compiled, decoded, validated in the
// configured target environment and normalized, with the map from the
// normalized instructions back to source. Lint, reflect, translate, `klint
// run`, reference runs and `--confirm` take it; none of them compiles, validates
// or decodes the file again.
//
// It lives in validate/ because validation does: the analyzer below only
// compiles and normalizes, and the compile step is a parameter, so that the
// driver can compile in its worker process (driver/compile_worker.h).
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/frontend.h"
#include "analyzer/module.h"
#include "analyzer/source.h"

namespace klint {

struct ShaderInput {
  std::string path;
  std::string text;  // the file's content, as read
  Language language = Language::Glsl;
};

// What compile() does; the driver's compile_isolated() is one.
using ShaderCompiler = std::function<CompiledShader(const std::string& path, const std::string& text,
                                                    Language language, const CompileOptions& options,
                                                    SourceCache& sources)>;

// What normalize() does (analyzer/normalize.h).
using ShaderNormalizer = std::function<std::optional<std::vector<uint32_t>>(
    const std::vector<uint32_t>& words, spv_target_env env, std::string* error, std::string* left_undone)>;

// What the host gives the pipeline beyond the module (specialization values,
// a workgroup size the source leaves to it), applied to the validated words
// before they are normalized, so that the analyses see what the device runs.
// It tells the module's origin what it fixed (a workgroup size the source
// left out, the subgroup width); `notes` are said on the file. An error
// (naming the option and the reason) leaves the file unanalyzed.
using ShaderSpecializer = std::function<std::optional<std::string>(
    std::vector<uint32_t>& words, spv_target_env env, ModuleOrigin& origin, std::vector<std::string>& notes)>;

struct LoadOptions {
  ShaderCompiler compiler;      // empty: compile() in this process
  ShaderNormalizer normalizer;  // empty: normalize()
  ShaderSpecializer specializer;  // empty: the module's own defaults
  // Reflection and runs need the validated words alone; linting and
  // confirming need the normalized module, and then the words only when asked
  // (each copy of a large module is tens of megabytes).
  bool normalize = true;
  bool keep_words = false;
};

// Something the loader says about the file as a whole.
struct LoadNote {
  std::string message;
  // The file was not analyzed at all (too deeply nested to validate); other
  // notes say that it was analyzed with less reach.
  bool not_analyzed = false;
};

struct LoadedShader {
  std::string path;
  CompileOptions options;
  // The environment the module is validated, normalized and run in:
  // options.target_env where given, else for SPIR-V the one its version was
  // made for (target_env_for_spirv), else kDefaultTargetEnv.
  TargetEnv env = kDefaultTargetEnv;
  // The main file first, then every file it included.
  std::vector<std::string> files;
  // Each #include the compiler followed (CompiledShader::includes).
  std::vector<Inclusion> includes;
  // Their texts, as the compiler read them: the SourceCache the shader was
  // loaded with owns them (the includer reads through it), and outlives it.
  std::vector<const SourceFile*> texts;
  // Set when the shader is not a compute shader; nothing else is then made.
  std::optional<std::string> non_compute_stage;
  // compile-error and invalid-spirv findings (the validator's messages in
  // `env`, at the instruction they blame).
  std::vector<Diagnostic> diagnostics;
  std::vector<LoadNote> notes;
  // The compiler made a module (compile-error findings otherwise).
  bool compiled = false;
  // Compiled, decoded and valid in `env`.
  bool valid = false;
  // The validated words, when LoadOptions did not normalize (as compiled) or
  // asked to keep them (SPIR-V assembly's text lines then attached as OpLine,
  // which normalization carries).
  std::vector<uint32_t> words;
  // For `words` as compiled from SPIR-V assembly: each instruction's text line.
  std::vector<uint32_t> assembly_lines;
  // What klint stood in for instructions the linked SPIRV-Tools does not know
  // (a note says so; empty when nothing): the module analyzed is not the
  // shader, so no run may take it.
  std::string stood_in;
  // The normalized module, or the module as written when normalization
  // failed (a note says so). Its Module::location maps instructions to source.
  std::unique_ptr<Module> module;

  spv_target_env target_env() const { return to_spv_env(env); }
  // Where `words` came from, for their locations.
  ModuleOrigin words_origin() const { return ModuleOrigin{path, assembly_lines}; }
  // The words `module` encodes to: what a run of the analyzed module takes.
  std::vector<uint32_t> module_words() const;
};

// Never throws for bad input: every failure is a finding or a note.
LoadedShader load_shader(const ShaderInput& input, const CompileOptions& options, SourceCache& sources,
                         const LoadOptions& load = {});

}  // namespace klint
