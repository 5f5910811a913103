#version 450
// The counter starts at -1 and is stepped before its use, in loops that count
// down; a second counter steps by two. Both are constants in every unrolled
// iteration.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

struct Window { vec4 rows[12]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    Window w;
    int n = -1;
    for (int r = 3; r > 0; --r) {
        for (uint c = 0u; c < 4u; c++) {
            ++n;
            w.rows[n] = x[uint(n) * 4096u + gid];
        }
    }
    float odd[6];
    uint k = 1u;
    for (int i = 0; i < 6; ++i) {
        odd[i] = w.rows[k].x;
        k += 2u;
    }
    float s = 0.0;
    for (int i = 0; i < 6; ++i) s += odd[i];
    y[gl_GlobalInvocationID.x] = vec4(s);
}
