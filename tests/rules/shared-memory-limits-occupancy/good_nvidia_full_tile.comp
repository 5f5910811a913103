#version 450
// 48 KiB, the most NVIDIA's driver allows: 100 KiB per Ampere SM still holds
// two such workgroups, which is enough to hide latency.
// fixture-options: --target=nvidia-ampere,nvidia-ada,nvidia-hopper
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { vec4 data[]; };
shared vec4 a[1024];
shared vec4 b[1024];
shared vec4 c[1024];

void main() {
    uint i = gl_LocalInvocationID.x;
    a[i] = data[i]; b[i] = data[i + 256]; c[i] = data[i + 512];
    barrier();
    data[i] = a[255 - i] + b[i] + c[i];
}
