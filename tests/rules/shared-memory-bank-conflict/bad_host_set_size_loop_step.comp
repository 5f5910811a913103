#version 450
// The host sets the workgroup size, and the loading loop steps by WG / 128
// rows: at 32 or 64 invocations it would never end, so klint judges the
// kernel at the sizes where it does. Each invocation then reads a column of
// rows 128 floats long: one bank for the whole subgroup.
layout(local_size_x_id = 0) in;
const uint WG = gl_WorkGroupSize.x;
const uint ROWS_PER_PASS = WG / 128;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[16 * 128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint r = tid / 128; r < 16; r += ROWS_PER_PASS) tile[r * 128 + tid % 128] = data[r * 128 + tid % 128];
    barrier();
    float sum = 0.0;
    for (uint c = 0; c < 4; ++c) sum += tile[(tid % 32) * 128 + c];  // expect: shared-memory-bank-conflict confirmed "32-way bank conflict on 'tile'" // expect-note@-11: "klint linted it at 128 (at 32 and 64 a loop never ends)"
    data[gl_GlobalInvocationID.x] = sum;
}
