#version 450
// Every slice adds into the row's counter atomically: not a race.
layout(local_size_x = 64, local_size_z = 4) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint row_count[]; };

void main() {
    uint row = gl_WorkGroupID.x * 64u + gl_LocalInvocationID.x;
    atomicAdd(row_count[row], data[gl_LocalInvocationID.z * 4096u + row]);
}
