#version 450
#extension GL_EXT_spirv_intrinsics : require
// An instruction of an extension newer than the SPIRV-Tools klint links:
// klint says validation was partial, analyzes the call's result as an
// unknown value, and lints the rest (each invocation owns its slot here).
// expect-file-note: "does not know capability 9999 and opcode 9998 (1 instruction); klint validated the module without them, and analyzed each such instruction's result as an unknown value: validation was partial"
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
spirv_instruction(extensions = ["SPV_KLINT_made_up"], capabilities = [9999], id = 9998)
float made_up(float a, float b);
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = made_up(x[gl_GlobalInvocationID.x], 2.0);
    barrier();
    x[gl_GlobalInvocationID.x] = tile[(l + 1u) % 64u];
}
