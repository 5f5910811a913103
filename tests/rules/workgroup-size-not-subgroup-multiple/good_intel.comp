#version 450
// Intel's compiler picks SIMD8, 16 or 32 itself: 48 runs as three SIMD16
// threads by default, so Intel targets are not judged.
// fixture-options: --target=intel-xe
layout(local_size_x = 48) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
