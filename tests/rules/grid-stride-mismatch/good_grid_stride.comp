#version 450
// Grid-stride loops that start at the global index and step by the whole
// dispatch, spelled several ways, along x and along y.
layout(local_size_x = 64, local_size_y = 4) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint n; uint rows; uint cols; };

void main() {
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
        data[i] += 1.0;
    }
    uvec3 grid = gl_NumWorkGroups * gl_WorkGroupSize;
    for (uint i = gl_WorkGroupID.x * 64 + gl_LocalInvocationID.x; i < n; i += grid.x) {
        data[i] *= 2.0;
    }
    uint col = gl_GlobalInvocationID.x;
    if (col >= cols) return;
    for (uint row = gl_GlobalInvocationID.y; row < rows; row += gl_WorkGroupSize.y * gl_NumWorkGroups.y) {
        data[row * cols + col] -= 1.0;
    }
}
