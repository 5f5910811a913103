#version 450
// No constant declares SpecId 0, so the compiler's 1 is a placeholder the
// application always replaces: not judged.
layout(local_size_x_id = 0) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
