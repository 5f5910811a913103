#version 450
// The Adreno 640 driver report shows no 16-bit storage: known absence is reported.
// fixture-options: --target=qualcomm-adreno-6xx,qualcomm-adreno-7xx
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Half { float16_t halves[]; };
layout(binding = 1) buffer Full { float floats[]; };
void main() {
    floats[gl_GlobalInvocationID.x] = float(halves[gl_GlobalInvocationID.x]);  // expect: numeric-type-unsupported "which qualcomm-adreno-6xx does not support"
}
