#version 450
// The guard on the local id can never be taken: no invocation of a workgroup
// 128 wide has an id of 128 or more. The rest of the condition is the
// workgroup's own row, so the workgroup returns whole or not at all. Signed
// here; the HLSL twin compares unsigned ids.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint rows; };
shared float tile[128];

void main() {
    int tid = int(gl_LocalInvocationID.x);
    int row = int(gl_WorkGroupID.y);
    if (tid >= 128 || row >= int(rows)) return;
    tile[tid] = data[row * 128 + tid];
    barrier();
    data[row * 128 + tid] = tile[127 - tid];
}
