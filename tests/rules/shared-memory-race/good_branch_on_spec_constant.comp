#version 450
// A specialization constant picks one of two tile layouts for the whole
// dispatch. The packed path's index map is one-to-one only with the packed
// path's own constants, and no invocation takes one path while another takes
// the other: klint judges the branch at the constant's default, as it does
// the index arithmetic.
layout(local_size_x = 64) in;
layout(constant_id = 3) const uint PACKED = 0;
layout(binding = 0) buffer Data { vec4 data[]; };
shared vec2 tile[1024];

void store(uint row, uint column, vec2 value) { tile[row * 16 + column] = value; }

void load(uint column, uint row) {
    if (PACKED != 0) {
        vec4 pair = data[row * 4 + column];
        store(row, column * 2, pair.xy);
        store(row, column * 2 + 1, pair.zw);
        return;
    }
    store(row, column, data[row * 16 + column].xy);
}

void main() {
    const uint PER_ROW = PACKED != 0 ? 8 : 16;
    load(gl_LocalInvocationID.x % PER_ROW, gl_LocalInvocationID.x / PER_ROW);
    barrier();
    data[gl_GlobalInvocationID.x] = vec4(tile[gl_LocalInvocationID.x], 0.0, 0.0);
}
