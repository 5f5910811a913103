// Small kernels the command-line tests lint: one with no finding, one with
// exactly one (a barrier under a branch on the invocation id).
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

}  // namespace klint::testing
