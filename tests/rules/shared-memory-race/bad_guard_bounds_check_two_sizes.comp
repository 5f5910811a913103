#version 450
// A 2D bounds check on the global id against two sizes klint cannot see: in
// the first workgroup, with the image at least one workgroup wide, every
// invocation passes it. The next call's store to s[0] then races with the
// reads of the previous call's result (no barrier after `return s[0]`).
// The early return also leaves the barriers to the invocations inside the
// image, which is undefined where it does not fill the last workgroup.
layout(local_size_x = 128) in;
layout(binding = 0) uniform Size { int width; int height; } size;
layout(binding = 1) buffer Data { float v[]; };
shared float s[128];

float total(float value, uint l) {
    s[l] = value;
    barrier();  // expect: barrier-in-divergent-control-flow
    for (uint k = 64u; k > 0u; k /= 2u) {
        if (l < k) s[l] += s[l + k];
        barrier();  // expect: barrier-in-divergent-control-flow
    }
    return s[0];
}

void main() {
    const ivec2 position = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(position, ivec2(size.width, size.height)))) return;
    uint l = gl_LocalInvocationIndex;
    float a = total(v[l], l);
    float b = total(a * 2.0, l);  // expect: shared-memory-race confirmed "invocation 0 writes s[0] while invocation 1 reads it"
    v[l] = a + b;
}
