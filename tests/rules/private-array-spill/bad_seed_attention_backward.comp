#version 450
// The seeds' flash-attention backward kernel: every invocation keeps one row
// of Q and of O, regQ[64] and regO[64] (512 bytes together), and walks them
// with the head dimension, which arrives as a push constant.
// The seeds run it with Br = 16 invocations per workgroup, which also leaves
// lanes idle on 32- and 64-wide subgroups.
layout(local_size_x = 16) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 16 invocations is smaller than a subgroup"
layout(binding = 0) readonly buffer Q { float q[]; };
layout(binding = 1) readonly buffer O { float o[]; };
layout(binding = 2) readonly buffer DO { float d_o[]; };
layout(binding = 3) writeonly buffer DQ { float d_q[]; };
layout(push_constant) uniform Params { uint head_dim; uint seq_len; };

void main() {
    uint row = gl_GlobalInvocationID.x;
    float regQ[64];  // expect: private-array-spill inconclusive "'regQ' of 64 floats (256 bytes) is indexed dynamically"
    float regO[64];  // expect: private-array-spill inconclusive "'regO' of 64 floats (256 bytes)"
    for (uint d = 0; d < head_dim; ++d) {
        regQ[d] = q[row * head_dim + d];  // expect: uncoalesced-global-access "read 'q' head_dim elements"
        regO[d] = o[row * head_dim + d];  // expect: uncoalesced-global-access "read 'o' head_dim elements"
    }
    float delta = 0.0;
    for (uint d = 0; d < head_dim; ++d) delta += d_o[row * head_dim + d] * regO[d];  // expect: uncoalesced-global-access "read 'd_o' head_dim elements"
    for (uint d = 0; d < head_dim; ++d) d_q[row * head_dim + d] = regQ[d] * delta;  // expect: uncoalesced-global-access "write 'd_q' head_dim elements"
}
