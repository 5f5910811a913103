#version 450
// Tiles loaded, used and released with a barrier on each side, in a loop whose
// trip count is the same for every invocation; the broadcast from invocation 0
// is read only after the barrier that publishes it (the loop's barriers do not
// count when n is 0).
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
shared float ta[16][17];
shared float tb[16][17];
shared float scale;

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.y * 16 + ly, col = gl_WorkGroupID.x * 16 + lx;
    if (lx == 0 && ly == 0) scale = a[0];
    barrier();
    float acc = 0.0;
    for (uint k0 = 0; k0 < n; k0 += 16) {
        ta[ly][lx] = a[row * n + k0 + lx];
        tb[ly][lx] = b[(k0 + ly) * n + col];
        barrier();
        for (uint k = 0; k < 16; ++k) acc += ta[ly][k] * tb[k][lx];
        barrier();
    }
    c[row * n + col] = acc * scale;
}
