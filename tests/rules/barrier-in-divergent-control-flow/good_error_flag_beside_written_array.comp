#version 450
// The flag shares its block with an array the shader writes, but a write in
// bounds of `words` never reaches `failed`, whatever its index: nothing in
// this shader writes the flag, and every invocation loads the same value.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Memory { uint cursor; uint failed; uint words[]; };
shared uint tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (failed != 0u) {
        return;
    }
    tile[tid] = words[cursor + gl_GlobalInvocationID.x];
    barrier();
    words[cursor + gl_GlobalInvocationID.x] = tile[63u - tid];
}
