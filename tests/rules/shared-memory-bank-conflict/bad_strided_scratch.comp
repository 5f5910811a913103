#version 450
// Per-invocation scratch rows in shared memory, 16 floats each: every
// invocation's element k sits in one of two banks. A vec4 column of a tile
// conflicts too, in its 8-invocation passes.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float scratch[64 * 16];
shared vec4 quads[64][8];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint k = 0; k < 16; ++k) {
        scratch[tid * 16 + k] = data[gl_WorkGroupID.x * 1024 + k * 64 + tid];  // expect: shared-memory-bank-conflict confirmed "16-way bank conflict on 'scratch': 16 invocations of a subgroup write different words of bank 0, 64 bytes apart"
    }
    quads[tid][0] = vec4(float(tid));  // expect: shared-memory-bank-conflict confirmed "8-way bank conflict on 'quads': 8 invocations of a subgroup write different words of bank 0, 128 bytes apart"
    barrier();
    vec4 q = quads[63 - tid][0];  // expect: shared-memory-bank-conflict confirmed "8-way bank conflict on 'quads'"
    // One float of each vec4: a 4-byte access, all 32 invocations on bank 0.
    // expect@+1: uninitialized-shared-read "invocation 0 reads quads[0][1], which no invocation writes before it"
    float first = quads[tid][1].x;  // expect: shared-memory-bank-conflict confirmed "32-way bank conflict on 'quads'"
    data[gl_GlobalInvocationID.x] = q.x + q.w + first + scratch[tid * 16 + 15];  // expect: shared-memory-bank-conflict confirmed "16-way bank conflict on 'scratch'"

}
