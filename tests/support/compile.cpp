#include "tests/support/compile.h"

#include <gtest/gtest.h>

#include "analyzer/ir/module.h"
#include "validate/loaded_shader.h"

namespace klint::testing {

namespace {

std::unique_ptr<Module> module_from_shader(const std::string& path, const std::string& source, Language language,
                                           bool normalized) {
  SourceCache sources;
  LoadOptions load;
  load.normalize = normalized;
  LoadedShader shader = load_shader(ShaderInput{path, source, language}, CompileOptions{}, sources, load);
  for (const Diagnostic& d : shader.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  for (const LoadNote& note : shader.notes) ADD_FAILURE() << note.message;
  if (!shader.valid) return nullptr;
  if (normalized) return std::move(shader.module);
  ir::DecodeError error;
  auto ir = ir::decode(shader.words, &error);
  if (!ir) {
    ADD_FAILURE() << "decode: " << error.message;
    return nullptr;
  }
  return std::make_unique<Module>(std::move(*ir), ModuleOrigin{path, {}});
}

}  // namespace

std::unique_ptr<Module> module_from_glsl(const std::string& source, bool normalized) {
  return module_from_shader("test.comp", source, Language::Glsl, normalized);
}

// Assembled and decoded alone: the analyses' tests hold snippets that need
// not be whole valid modules, so the loader, which validates, is not for them.
std::unique_ptr<Module> module_from_assembly(const std::string& source) {
  SourceCache sources;
  CompiledShader compiled = compile("test.spvasm", source, Language::SpirvAssembly, CompileOptions{}, sources);
  for (const Diagnostic& d : compiled.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  if (!compiled.ok) return nullptr;
  ir::DecodeError error;
  auto ir = ir::decode(compiled.spirv, &error);
  if (!ir) {
    ADD_FAILURE() << "decode: " << error.message;
    return nullptr;
  }
  return std::make_unique<Module>(std::move(*ir), ModuleOrigin{"test.spvasm", {}});
}

}  // namespace klint::testing
