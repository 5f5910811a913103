#version 450
// Block-comment suppressions that silence nothing: the race was fixed, and a
// rule id is misspelled.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    // expect@+1: unused-suppression "suppression of shared-memory-race silences nothing here"
    /* klint-ignore-next-line: shared-memory-race -- fixed long ago */
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
    // expect@+1: unused-suppression "suppression names 'shared-memory-races', which is not a klint rule"
    x[gl_GlobalInvocationID.x] += /* klint-ignore: shared-memory-races */ tile[tid];
}
