#include "analyzer/builtin_names.h"

#include <fmt/format.h>

#include "analyzer/module.h"

namespace klint {
namespace {

const char* glsl_spelling(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::LocalInvocationId: return "gl_LocalInvocationID";
    case spv::BuiltIn::LocalInvocationIndex: return "gl_LocalInvocationIndex";
    case spv::BuiltIn::GlobalInvocationId: return "gl_GlobalInvocationID";
    case spv::BuiltIn::WorkgroupId: return "gl_WorkGroupID";
    case spv::BuiltIn::NumWorkgroups: return "gl_NumWorkGroups";
    case spv::BuiltIn::WorkgroupSize: return "gl_WorkGroupSize";
    case spv::BuiltIn::SubgroupLocalInvocationId: return "gl_SubgroupInvocationID";
    case spv::BuiltIn::SubgroupId: return "gl_SubgroupID";
    case spv::BuiltIn::SubgroupSize: return "gl_SubgroupSize";
    case spv::BuiltIn::NumSubgroups: return "gl_NumSubgroups";
    case spv::BuiltIn::SubgroupEqMask: return "gl_SubgroupEqMask";
    case spv::BuiltIn::SubgroupGeMask: return "gl_SubgroupGeMask";
    case spv::BuiltIn::SubgroupGtMask: return "gl_SubgroupGtMask";
    case spv::BuiltIn::SubgroupLeMask: return "gl_SubgroupLeMask";
    case spv::BuiltIn::SubgroupLtMask: return "gl_SubgroupLtMask";
    default: return nullptr;
  }
}

// The semantic or intrinsic HLSL reads the built-in with; nullptr for one
// HLSL has no spelling for.
const char* hlsl_spelling(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::LocalInvocationId: return "SV_GroupThreadID";
    case spv::BuiltIn::LocalInvocationIndex: return "SV_GroupIndex";
    case spv::BuiltIn::GlobalInvocationId: return "SV_DispatchThreadID";
    case spv::BuiltIn::WorkgroupId: return "SV_GroupID";
    case spv::BuiltIn::SubgroupLocalInvocationId: return "WaveGetLaneIndex()";
    case spv::BuiltIn::SubgroupSize: return "WaveGetLaneCount()";
    default: return nullptr;
  }
}

// SPIR-V's own name, for the built-ins HLSL does not spell.
const char* spirv_spelling(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::NumWorkgroups: return "NumWorkgroups";
    case spv::BuiltIn::WorkgroupSize: return "WorkgroupSize";
    case spv::BuiltIn::SubgroupId: return "SubgroupId";
    case spv::BuiltIn::NumSubgroups: return "NumSubgroups";
    case spv::BuiltIn::SubgroupEqMask: return "SubgroupEqMask";
    case spv::BuiltIn::SubgroupGeMask: return "SubgroupGeMask";
    case spv::BuiltIn::SubgroupGtMask: return "SubgroupGtMask";
    case spv::BuiltIn::SubgroupLeMask: return "SubgroupLeMask";
    case spv::BuiltIn::SubgroupLtMask: return "SubgroupLtMask";
    default: return nullptr;
  }
}

}  // namespace

std::string builtin_name(const Module& module, spv::BuiltIn builtin) {
  const char* name = module.is_hlsl() ? hlsl_spelling(builtin) : glsl_spelling(builtin);
  if (!name && module.is_hlsl()) name = spirv_spelling(builtin);
  return name ? name : "a per-invocation built-in";
}

std::string builtin_component(const Module& module, spv::BuiltIn builtin, uint32_t axis) {
  return fmt::format("{}.{}", builtin_name(module, builtin), "xyz"[axis % 3]);
}

Location builtin_origin(const Module& module, spv::BuiltIn builtin, Location at) {
  std::string name = builtin_name(module, builtin);
  if (module.is_hlsl() && name.starts_with("SV_")) {
    if (auto declared = module.source_line_any_case(name)) return *declared;
    at.token.clear();
    return at;
  }
  // An intrinsic's name without its parentheses, as the source calls it.
  at.token = name.substr(0, name.find('('));
  return at;
}

const char* workgroup_barrier(const Module& module) {
  return module.is_hlsl() ? "GroupMemoryBarrierWithGroupSync()" : "barrier()";
}

}  // namespace klint
