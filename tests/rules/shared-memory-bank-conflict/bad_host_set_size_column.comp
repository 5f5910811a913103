#version 450
// The host gives the workgroup its size (no default declared). Each
// invocation reads a column of a tile whose rows are as long as the
// workgroup is wide: one bank for the whole subgroup at every size.
layout(local_size_x_id = 0) in;
const uint WG = gl_WorkGroupSize.x;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[8 * WG];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint r = 0; r < 8; ++r) tile[r * WG + tid] = data[r * WG + tid];
    barrier();
    float sum = 0.0;
    for (uint c = 0; c < 8; ++c) sum += tile[(tid % 8) * WG + c];  // expect: shared-memory-bank-conflict confirmed "8-way bank conflict on 'tile'" // expect-note@-10: "klint linted it at 32, 64 and 128 and found this at each"
    data[gl_GlobalInvocationID.x] = sum;
}
