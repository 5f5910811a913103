#version 450
// 8 KiB: several threadgroups per Apple GPU core (about 60 KiB each, measured).
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
shared float tile[2048];

void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[255 - gl_LocalInvocationID.x];
}
