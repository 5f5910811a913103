#version 450
// Suppressions that silence nothing: the race was fixed, one rule id is
// misspelled, and a file-wide one names a rule that never fires here.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
// klint-ignore-file: uncoalesced-global-access -- rows are short  // expect: unused-suppression "suppression of uncoalesced-global-access silences nothing here"

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    // expect@+1: unused-suppression "suppression of shared-memory-race silences nothing here"
    // klint-ignore-next-line: shared-memory-race -- fixed long ago
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
    // expect@+1: unused-suppression "suppression names 'shared-memory-races', which is not a klint rule"
    x[gl_GlobalInvocationID.x] += tile[tid];  // klint-ignore: shared-memory-races
}
