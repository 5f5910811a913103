#version 450
// An 8 x 8 tile addressed through bit-field remaps of the invocation index:
// one invocation clears the total, and the transposed position of each
// invocation is its own. Every guard evaluates on each invocation.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint total;
shared uint corner;
shared uint tile[64];

void main() {
    uint tid = gl_LocalInvocationIndex;
    uint col = bitfieldExtract(tid, 0, 3);
    uint row = bitfieldExtract(tid, 3, 3);
    if (col == 0u && row == 0u) total = 0u;
    // The transposed index: row into the low bits, col into the high ones.
    uint transposed = bitfieldInsert(row, col, 3, 3);
    tile[transposed] = x[tid];
    if (bitfieldExtract(transposed, 0, 3) == 7u && transposed >> 3 == 7u) corner = x[0];
    barrier();
    atomicAdd(total, tile[tid]);
    barrier();
    if (tid == 0u) x[0] = total + corner;
}
