#version 450
// As bad_loop_counter_named.comp, with a while loop: no `for` names the
// counter, so the note says which loop's counter it is, in words.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
shared float tile[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    uint k = 0u;
    while (k < 2u) {
        tile[l + 64u * k] = x[k * 64u + l];
        acc += tile[127u - l - 64u * k];  // expect: shared-memory-race confirmed "invocation 0 reads tile[63] while invocation 63 writes it" // expect-note@-1: "invocation 63 writes tile[63] here with the loop counter at line 13 = 0 there"
        k++;
    }
    y[gl_GlobalInvocationID.x] = acc;
}
