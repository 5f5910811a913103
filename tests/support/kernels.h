// Small kernels the command-line tests lint: one with no finding, one with
// exactly one (a barrier under a branch on the invocation id), and the
// smallest compute module in SPIR-V assembly, which does nothing; and HLSL
// that crashes glslang.
#pragma once

namespace klint::testing {

inline constexpr const char* kCleanKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] = 1.0; }
)";

inline constexpr const char* kDivergentBarrierKernel = R"(#version 450
layout(local_size_x = 64) in;
void main() {
    if (gl_LocalInvocationID.x < 16) {
        barrier();
    }
}
)";

inline constexpr const char* kEmptyKernelAssembly = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

// A function declaration followed by a statement outside any body: glslang
// 12's HLSL front end dereferences null in growGlobalUniformBlock (found by
// klint's hlsl fuzz target).
inline constexpr const char* kCrashesGlslang = R"(RWStructuredBuffer<float> data : register(u0);
groupshared float cache[64];
[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID)half   cache[gtid.x] = data[dtid.x];
}
)";

}  // namespace klint::testing
