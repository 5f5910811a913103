#version 450
// A workgroup of two: what the first invocation does not write, the other
// one writes in the else arm: a scalar, a struct member, a vector component.
layout(local_size_x = 2) in;
layout(binding = 0) buffer Data { uint x[]; };
struct Pair { uint u; uint v; };
shared uint a;
shared uint b;
shared Pair p;
shared uvec2 w;

void main() {
    uint tid = gl_LocalInvocationIndex;
    if (tid == 0u) a = x[0]; else b = x[1];
    if (tid == 0u) p.u = 1u; else p.v = 2u;
    if (tid != 1u) w.x = 3u; else w.y = 4u;
    barrier();
    x[tid] = a + b + p.u + p.v + w.x + w.y;
}
