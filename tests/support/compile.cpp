#include "tests/support/compile.h"

#include <gtest/gtest.h>

#include "analyzer/frontend.h"
#include "analyzer/normalize.h"

namespace klint::testing {

std::unique_ptr<Module> module_from_glsl(const std::string& source, bool normalized) {
  SourceCache sources;
  CompileOptions options;
  CompiledShader compiled = compile("test.comp", source, Language::Glsl, options, sources);
  for (const Diagnostic& d : compiled.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  if (!compiled.ok) return nullptr;
  std::vector<uint32_t> words = compiled.spirv;
  if (normalized) {
    std::string error;
    auto result = normalize(words, to_spv_env(options.target_env), &error);
    if (!result) {
      ADD_FAILURE() << "normalize: " << error;
      return nullptr;
    }
    words = *result;
  }
  ir::DecodeError error;
  auto ir = ir::decode(words, &error);
  if (!ir) {
    ADD_FAILURE() << "decode: " << error.message;
    return nullptr;
  }
  return std::make_unique<Module>(std::move(*ir), ModuleOrigin{"test.comp", {}});
}

}  // namespace klint::testing
