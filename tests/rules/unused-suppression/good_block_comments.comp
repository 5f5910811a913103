#version 450
// Block comments suppress as line comments do: the line the comment opens on,
// the next line, and the whole file; code may follow the comment.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint D; };
shared float tile[64];
shared float partial[64];
/* klint-ignore-file: uninitialized-shared-read, manual-subgroup-reduction -- the host guarantees D >= 64 */

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    float right = tile[(tid + 1) % 64]; /* klint-ignore: shared-memory-race -- a stale neighbour is fine */
    /* klint-ignore-next-line: shared-memory-race -- same filter, other side */
    float left = tile[(tid + 63) % 64];
    float mid = /* klint-ignore: shared-memory-race */ tile[(tid + 32) % 64];
    if (tid < D) partial[tid] = right - left + mid;
    barrier();
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) x[gl_WorkGroupID.x] = partial[0];
}
