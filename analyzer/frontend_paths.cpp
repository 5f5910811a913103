// What a shader file's name says about it: its language, or the non-compute
// stage that makes klint skip it. Extensions are matched as glslc spells them
// (case-sensitive), so klint takes exactly the files the user's build compiles.
#include <array>
#include <filesystem>
#include <string_view>
#include <utility>

#include "analyzer/frontend.h"

namespace klint {
namespace {

std::string extension_of(const std::string& path) {
  return std::filesystem::path(path).extension().string();
}

}  // namespace

std::optional<Language> language_for_path(const std::string& path, bool force_compute) {
  const std::string ext = extension_of(path);
  if (ext == ".comp" || ext == ".glsl") return Language::Glsl;
  if (ext == ".hlsl" || ext == ".hlsli") return Language::Hlsl;
  if (ext == ".spv") return Language::SpirvBinary;
  if (ext == ".spvasm") return Language::SpirvAssembly;
  // -fshader-stage=compute overrides the extension, as it does for glslc.
  if (force_compute) return Language::Glsl;
  return std::nullopt;
}

std::optional<std::string> non_compute_stage_for_path(const std::string& path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kStages{{
      {".vert", "vertex"},
      {".tesc", "tessellation control"},
      {".tese", "tessellation evaluation"},
      {".geom", "geometry"},
      {".frag", "fragment"},
      {".mesh", "mesh"},
      {".task", "task"},
      {".rgen", "ray generation"},
      {".rint", "intersection"},
      {".rahit", "any-hit"},
      {".rchit", "closest-hit"},
      {".rmiss", "miss"},
      {".rcall", "callable"},
  }};
  const std::string ext = extension_of(path);
  for (const auto& [suffix, stage] : kStages) {
    if (ext == suffix) return std::string(stage);
  }
  return std::nullopt;
}

}  // namespace klint
