#version 450
// The same skip written as `continue`, around a counted loop of steps: step k
// updates slots 8k..8k+7 from the slots above them, which step k + 1 then
// updates in turn, after the barrier that ends step k. All invocations skip
// the same rows, so two steps of one row never meet.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint rows; uint first_row; };
shared float sums[64];

void main() {
    uint t = gl_LocalInvocationID.x;
    for (uint row = 0u; row < rows; ++row) {
        if (row < first_row) continue;
        sums[t] = x[row * 64u + t];
        barrier();
        for (uint k = 0u; k < 3u; ++k) {
            if (t >= 8u * k && t < 8u * k + 8u) sums[t] = sums[t] + sums[t + 8u];
            barrier();
        }
        y[row * 64u + t] = sums[t];
    }
}
