#version 450
// The packed layout is the default, and its path takes 16 columns per row
// where it has room for 8: each invocation writes two elements, and the
// second half of one row lands on the next row, which other invocations
// write too. klint judges the branch at the constant's default (1), so the
// packed path is the one that runs.
layout(local_size_x = 64) in;
layout(constant_id = 3) const uint PACKED = 1;
layout(binding = 0) buffer Data { vec4 data[]; };
shared vec2 tile[1024];

void store(uint row, uint column, vec2 value) { tile[row * 16 + column] = value; }  // expect: shared-memory-race confirmed "invocations 8 and 16 both write tile[16] with no barrier between"

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
    const uint PER_ROW = 16;  // the packed path needs 8
    load(gl_LocalInvocationID.x % PER_ROW, gl_LocalInvocationID.x / PER_ROW);
    barrier();
    data[gl_GlobalInvocationID.x] = vec4(tile[gl_LocalInvocationID.x], 0.0, 0.0);
}
