#version 450
// Each invocation walks its own column from tid + start to tid + end: the
// bounds differ per invocation, the number of iterations does not. Found as a
// false positive on llama.cpp's RWKV shaders.
layout(local_size_x = 64) in;
layout(binding = 0) buffer K { float k[]; };
layout(push_constant) uniform P { uint tokens; };
shared float staged[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint start = gl_WorkGroupID.x * tokens * 64 + tid;
    uint end = (gl_WorkGroupID.x + 1) * tokens * 64 + tid;
    for (uint t = start; t < end; t += 64) {
        barrier();
        staged[tid] = k[t];
        barrier();
        k[t] = staged[63 - tid];
    }
}
