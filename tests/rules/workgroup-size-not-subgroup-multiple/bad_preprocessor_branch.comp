#version 450
// The size is chosen by the preprocessor. The finding is at the declaration
// the compiler kept, not at the first one in the text.
// fixture-options: --target=apple-m1,nvidia-ampere -DSMALL=1
#ifndef SMALL
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
#elif SMALL == 2
layout(local_size_x = 2) in;
#else
layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 8 invocations is smaller than a subgroup"
#endif
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] += 1.0; }
