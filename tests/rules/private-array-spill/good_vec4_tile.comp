#version 450
// A 4x4 output tile per invocation as four vec4 rows, with nested loops over
// rows and columns whose counters combine into the index.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Params { uint N4, K; };

void main() {
    uvec2 id = gl_GlobalInvocationID.xy;
    vec4 tile[4];
    for (int r = 0; r < 4; ++r) tile[r] = vec4(0.0);
    for (uint k = 0; k < K; ++k) {
        vec4 column = a[k * N4 + id.y];
        vec4 row = b[k * N4 + id.x];
        for (int r = 0; r < 4; ++r) tile[r] += column[r] * row;
    }
    for (int r = 0; r < 4; ++r) c[(id.y * 4 + uint(r)) * N4 + id.x] = tile[r];
}
