#version 450
// Compiled for Vulkan 1.0 (SPIR-V 1.0), whose modules carry the compiler's
// processing notes inside the source text, ahead of a `#line 1`: the finding
// and its notes must still land on the lines of this file.
// fixture-options: --target-env=vulkan1.0
layout(binding = 0) buffer Data {
    float data[];
};

layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit inconclusive "workgroup of 256 invocations (256x1x1) exceeds the limit of swiftshader (128 invocations)"
// expect-note@-1: "its dimensions also exceed those of swiftshader (at most 128x128x64)"
// expect-note@-2: "Vulkan guarantees 128 invocations"

void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
