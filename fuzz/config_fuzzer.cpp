// klint.toml: read as klint reads it for a file below it (settings, overrides,
// variants, the [[kernel]] manifest for that file, --show-config), then every
// [[kernel]] table's harnesses for one kernel, shape by shape: expressions,
// buffer sizes, push constants and specialization constants.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/config.h"
#include "driver/config_file.h"
#include "fuzz/fuzz.h"
#include "reflect/reflection.h"
#include "runner/manifest.h"

namespace {

// A kernel with the names the fixtures' manifests use.
constexpr const char* kKernel = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 64;
layout(constant_id = 1) const float SCALE = 1.0;
layout(push_constant) uniform P { uint n; uint rows; uint cols; float eps; int k; } p;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(binding = 2) buffer Data { vec4 header; float data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = x[i] * SCALE + p.eps + float(p.n + p.rows + p.cols + uint(p.k)) + data[i] + header.x;
}
)";

const klint::reflect::ModuleReflection& kernel() {
  static const klint::reflect::ModuleReflection module = [] {
    klint::SourceCache sources;
    klint::CompiledShader compiled =
        klint::compile("kernel.comp", kKernel, klint::Language::Glsl, klint::CompileOptions{}, sources);
    std::string error;
    std::optional<klint::reflect::ModuleReflection> reflected = klint::reflect::reflect_module(compiled.spirv, &error);
    if (!reflected) klint::fuzz::fail("the harness kernel does not reflect: " + error);
    return *reflected;
  }();
  return module;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace klint;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string dir = fuzz::scratch_directory();
  static const bool files = [&] {  // the files that the seeds' [[kernel]] tables name
    std::filesystem::create_directories(dir + "/shaders");
    std::ofstream(dir + "/shaders/a.comp") << kKernel;
    for (int k = 0; k < 10; ++k) std::ofstream(dir + "/k" + std::to_string(k) + ".comp") << kKernel;
    return true;
  }();
  (void)files;
  const std::string path = dir + "/klint.toml";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;

  // As `klint --config klint.toml shaders/a.comp` reads it.
  ConfigResolver resolver(path);
  std::string error;
  const std::string shader = dir + "/shaders/a.comp";
  if (std::optional<FileSettings> settings = resolver.settings_for(shader, &error)) {
    std::ostringstream out;
    print_effective_config(out, shader, *settings);
  } else if (error.empty() || error.find('\n') != std::string::npos) {
    fuzz::fail("a config error that is not one line: '" + error + "'");
  }
  resolver.kernel_for(shader, &error);

  std::optional<ConfigFile> config = parse_config(text, path, &error);
  if (!config) return 0;
  const reflect::ModuleReflection& module = kernel();
  runner::HarnessOptions options;
  options.max_buffer_bytes = 1 << 20;
  options.max_runtime_array_bytes = 1 << 20;
  for (const runner::KernelManifest& manifest : config->kernels) {
    const reflect::EntryPoint* entry = runner::manifest_entry_point(module, manifest, &error);
    if (!entry) continue;
    for (size_t row = 0; row < manifest.matrix.size() && row < 16; ++row) {
      std::optional<runner::Harness> harness =
          runner::manifest_harness(*entry, module, manifest, runner::shape_at(manifest, row), options, &error);
      if (!harness && (error.empty() || error.find('\n') != std::string::npos)) {
        fuzz::fail("a manifest error that is not one line: '" + error + "'");
      }
      for (const runner::ExpectedOutput& expected : manifest.expected) {
        runner::expected_file(manifest, expected, runner::shape_at(manifest, row));
      }
    }
  }
  return 0;
}
