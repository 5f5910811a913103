#include "tests/support/compile.h"

#include <gtest/gtest.h>

#include "analyzer/frontend.h"
#include "analyzer/normalize.h"

namespace klint::testing {

namespace {

std::unique_ptr<Module> module_from(const std::string& path, const std::string& source, Language language,
                                    bool normalized) {
  SourceCache sources;
  CompileOptions options;
  CompiledShader compiled = compile(path, source, language, options, sources);
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
  return std::make_unique<Module>(std::move(*ir), ModuleOrigin{path, {}});
}

}  // namespace

std::unique_ptr<Module> module_from_glsl(const std::string& source, bool normalized) {
  return module_from("test.comp", source, Language::Glsl, normalized);
}

std::unique_ptr<Module> module_from_assembly(const std::string& source) {
  return module_from("test.spvasm", source, Language::SpirvAssembly, /*normalized=*/false);
}

}  // namespace klint::testing
