#version 450
// any() is not all(): every invocation on the first row or column passes.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint total;

void main() {
    uvec3 id = gl_LocalInvocationID;
    if (any(equal(id.xy, uvec2(0)))) total = 0u;  // expect: shared-memory-race confirmed "invocations (0, 0) and (1, 0) both write total"
    barrier();
    atomicAdd(total, x[gl_LocalInvocationIndex]);
    barrier();
    x[gl_LocalInvocationIndex] = total;
}
