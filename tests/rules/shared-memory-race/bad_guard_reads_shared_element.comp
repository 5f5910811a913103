#version 450
// Invocation 0 and 1 publish counts, and the others write the tile as far as
// counts[1] reaches: the findings name the value klint chose as the source
// spells it, counts[1], not by its SSA id. The runs' made-up limits reach
// past the tile, so the read of an unwritten element does not show.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint limits[]; };
layout(binding = 1) buffer Out { float y[]; };
shared uint counts[2];
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 2u) counts[l] = limits[gl_WorkGroupID.x + l];
    barrier();
    if (l < counts[1] * 2u) tile[l] = 1.0;
    y[gl_GlobalInvocationID.x] = tile[(l + 1u) % 64u];  // expect: shared-memory-race confirmed "with no barrier between, when counts[1] = 64" // expect: uninitialized-shared-read not-reproduced "invocation 1 reads tile[2], which no invocation writes before it when counts[1] = 1"
}
