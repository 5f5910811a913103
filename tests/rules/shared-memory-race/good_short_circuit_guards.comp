#version 450
// An argmax tree reduction whose guard is `a && b`: glslang builds the `&&`
// from branches and a phi, and both halves bound the invocations that write.
// Found as a false positive on llama.cpp's argmax shader.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float values[]; };
layout(binding = 1) writeonly buffer B { uint result[]; };
layout(push_constant) uniform P { int n; } p;
shared float best[64];
shared uint where[64];

void main() {
    uint col = gl_LocalInvocationID.x;
    best[col] = col < p.n ? values[col] : -1.0 / 0.0;
    where[col] = col;
    barrier();
    for (int s = 32; s > 0; s >>= 1) {
        if (col < s && col + s < p.n) {
            if (best[col] < best[col + s]) {
                best[col] = best[col + s];
                where[col] = where[col + s];
            }
        }
        barrier();
    }
    if (col == 0) result[gl_WorkGroupID.x] = where[0];  // expect: workgroup-count-over-limit
}
