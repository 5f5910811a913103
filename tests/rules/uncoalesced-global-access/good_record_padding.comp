#version 450
// Records each invocation reads or writes whole, member by member, where the
// layout leaves padding that no member holds: a vec3 at the end of a struct,
// an std430 array of vec3 (16 bytes apart, 12 used). The padding is not a gap
// the code could fill.
layout(local_size_x = 64) in;
struct Body { vec4 position; vec4 velocity; vec3 spin; };   // 44 bytes of 48
layout(std430, binding = 0) buffer Bodies { Body bodies[]; };
layout(std430, binding = 1) readonly buffer Normals { vec3 normals[]; };
layout(std430, binding = 2) writeonly buffer Out { float energy[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 p = bodies[i].position;
    vec4 v = bodies[i].velocity;
    vec3 s = bodies[i].spin;
    vec3 n = normals[i];
    bodies[i].position = p + v * 0.01;
    bodies[i].spin = s * 0.99;
    energy[i] = dot(v.xyz, v.xyz) + dot(s, s) + n.x * n.y * n.z;
}
