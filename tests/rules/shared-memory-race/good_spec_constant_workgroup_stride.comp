#version 450
// Loads a tile with a loop that steps by gl_WorkGroupSize.x, set through a
// specialization constant; at its default (128) the loop runs once and each
// invocation writes its own element. glslang gives local_size_x_id a constant
// of its own with default 1 beside the user's; klint reads the user's. Found as
// a false positive on llama.cpp's flash attention.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WorkGroupSize = 128;
layout(constant_id = 1) const uint Bc = 32;
layout(binding = 0) buffer D { float mask[]; };
layout(push_constant) uniform P { uint kv; };
shared float masksh[Bc * 2];

void main() {
    uint tid = gl_LocalInvocationIndex;
    for (uint j = 0; j < kv; ++j) {
        barrier();
        for (uint idx = 0; idx < Bc; idx += gl_WorkGroupSize.x) {
            uint c = (idx + tid) % Bc;
            if (idx + tid < Bc) masksh[c * 2] = j * Bc + c < kv ? mask[j * Bc + c] : 0.0;
        }
        barrier();
        mask[j * Bc + tid % Bc] += masksh[(tid % Bc) * 2];
    }
}
