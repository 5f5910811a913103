#version 450
// fixture-options: --max-shared-memory=65536
// 48 KiB on a device that offers 64 KiB.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 data[]; };
shared vec4 tile[3072];

void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[63 - gl_LocalInvocationID.x];
}
