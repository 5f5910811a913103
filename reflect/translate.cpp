#include "reflect/translate.h"

#include <spirv_cross/spirv_glsl.hpp>
#include <spirv_cross/spirv_hlsl.hpp>
#include <spirv_cross/spirv_msl.hpp>

#include <exception>
#include <memory>

namespace klint::reflect {
namespace {

std::unique_ptr<spirv_cross::CompilerGLSL> make_compiler(const std::vector<uint32_t>& spirv, TranslateTo to) {
  switch (to) {
    case TranslateTo::Msl: {
      auto msl = std::make_unique<spirv_cross::CompilerMSL>(spirv);
      spirv_cross::CompilerMSL::Options options = msl->get_msl_options();
      options.platform = spirv_cross::CompilerMSL::Options::macOS;
      // 2.3 is where macOS has simdgroup reductions and the other subgroup operations.
      options.set_msl_version(2, 3);
      msl->set_msl_options(options);
      return msl;
    }
    case TranslateTo::Hlsl: {
      auto hlsl = std::make_unique<spirv_cross::CompilerHLSL>(spirv);
      spirv_cross::CompilerHLSL::Options options = hlsl->get_hlsl_options();
      options.shader_model = 60;  // wave intrinsics
      hlsl->set_hlsl_options(options);
      return hlsl;
    }
    case TranslateTo::Glsl: {
      auto glsl = std::make_unique<spirv_cross::CompilerGLSL>(spirv);
      spirv_cross::CompilerGLSL::Options options = glsl->get_common_options();
      options.version = 450;
      options.vulkan_semantics = true;  // keep sets, push constants and subgroup operations as written
      glsl->set_common_options(options);
      return glsl;
    }
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(TranslateTo to) {
  switch (to) {
    case TranslateTo::Msl: return "MSL";
    case TranslateTo::Glsl: return "GLSL";
    case TranslateTo::Hlsl: return "HLSL";
  }
  return "?";
}

std::optional<std::string> translate(const std::vector<uint32_t>& spirv, TranslateTo to, std::string* error) {
  // SPIRV-Cross reports what it cannot express by throwing CompilerError.
  try {
    std::unique_ptr<spirv_cross::CompilerGLSL> compiler = make_compiler(spirv, to);
    bool has_compute = false;
    for (const spirv_cross::EntryPoint& entry : compiler->get_entry_points_and_stages()) {
      if (entry.execution_model != spv::ExecutionModelGLCompute) continue;
      compiler->set_entry_point(entry.name, entry.execution_model);
      has_compute = true;
      break;
    }
    if (!has_compute) {
      *error = "no compute entry point";
      return std::nullopt;
    }
    return compiler->compile();
  } catch (const std::exception& e) {
    *error = e.what();
  } catch (...) {
    *error = "unknown failure in SPIRV-Cross";
  }
  return std::nullopt;
}

}  // namespace klint::reflect
