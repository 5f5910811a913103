#version 450
// A 12-byte position read from a 16-byte record (std140: vec3 then a scale no
// one reads here) by rows of 16 invocations: the 16 neighbours along x touch 2
// cache lines, and their 192 bytes need 2 anyway. Nothing is wasted.
layout(local_size_x = 16, local_size_y = 2) in;
struct Instance { vec3 position; float scale; };
layout(std140, binding = 0) readonly buffer Instances { Instance instances[]; };
layout(std430, binding = 1) writeonly buffer Visible { uint visible[]; };
layout(binding = 2) uniform Frustum { vec4 planes[6]; };

void main() {
    uint i = gl_GlobalInvocationID.y * 4096u + gl_GlobalInvocationID.x;
    vec4 p = vec4(instances[i].position, 1.0);
    bool inside = true;
    for (int k = 0; k < 6; ++k) inside = inside && dot(p, planes[k]) > 0.0;
    visible[i] = inside ? 1u : 0u;
}
