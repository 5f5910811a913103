#version 450
#extension GL_EXT_spirv_intrinsics : require
// klint lints a module with an instruction SPIRV-Tools does not know, and
// still finds the race beside it; no run can show it, since the module klint
// analyzed stands an unknown value in for that instruction.
// expect-file-note: "does not know capability 9999 and opcode 9998"
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
spirv_instruction(extensions = ["SPV_KLINT_made_up"], capabilities = [9999], id = 9998)
float made_up(float a, float b);
shared float tile[64];

void main() {
    tile[gl_LocalInvocationID.x] = made_up(x[gl_GlobalInvocationID.x], 2.0);
    x[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1u) % 64u];  // expect: shared-memory-race not-runnable "invocation 0 reads tile[1] while invocation 1 writes it" // expect-note@-1: "invocation 1 writes tile[1] here"
}
