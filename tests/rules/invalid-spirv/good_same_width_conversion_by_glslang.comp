#version 450
#extension GL_EXT_shader_16bit_storage : require
// A 16-bit value converted to its own type: glslang compiles the constructor
// to an OpFConvert from half to half, which the validator rejects. No source
// asks for that, so klint says it is the compiler's bug and lints the copy.
// expect-file-note: "glslang emitted 1 same-width conversion (OpFConvert between 16-bit types), first at"
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t a[]; };
layout(binding = 1) writeonly buffer Out { float16_t d[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    d[i] = float16_t(a[i]);
}
