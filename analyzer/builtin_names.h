// Built-ins and barriers as the shader's own language spells them: a finding
// about an HLSL kernel says SV_DispatchThreadID and
// GroupMemoryBarrierWithGroupSync(), not gl_GlobalInvocationID and barrier().
#pragma once

#include <spirv/unified1/spirv.hpp11>
#include <string>

#include "analyzer/diagnostic.h"

namespace klint {

class Module;

// "gl_GlobalInvocationID" in GLSL (and in SPIR-V klint was given),
// "SV_DispatchThreadID" in HLSL. A built-in HLSL has no spelling for keeps
// its SPIR-V name ("NumWorkgroups").
std::string builtin_name(const Module& module, spv::BuiltIn builtin);
// One component of a vector built-in: "gl_LocalInvocationID.x", "SV_GroupThreadID.x".
std::string builtin_component(const Module& module, spv::BuiltIn builtin, uint32_t axis);
// Where the source names a built-in, for a note that says where it comes from.
// GLSL: `at` (the instruction that reads it), underlining the name. HLSL: the
// line that gives a parameter or a field its semantic (`uint3 id :
// SV_DispatchThreadID`, in any case), which is where the value enters the
// kernel; glslang gives the read the line of the entry point's `{`.
Location builtin_origin(const Module& module, spv::BuiltIn builtin, Location at);
// The workgroup barrier: "barrier()" or "GroupMemoryBarrierWithGroupSync()".
const char* workgroup_barrier(const Module& module);

}  // namespace klint
