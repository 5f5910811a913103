#version 450
// Vector predicates on the local id, one component at a time: the origin
// alone, a 3 x 3 corner, and the else of "any component nonzero".
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint total;
shared uint corner[9];
shared uint origin;

void main() {
    uvec3 id = gl_LocalInvocationID;
    if (all(equal(id, uvec3(0)))) total = 0u;
    if (all(lessThan(id.xy, uvec2(3)))) corner[id.y * 3u + id.x] = x[gl_LocalInvocationIndex];
    if (any(notEqual(id.xy, uvec2(0)))) {
        x[gl_LocalInvocationIndex] += 1u;
    } else {
        origin = x[0];
    }
    barrier();
    atomicAdd(total, corner[gl_LocalInvocationIndex % 9u]);
    barrier();
    x[gl_LocalInvocationIndex] = total + origin;
}
