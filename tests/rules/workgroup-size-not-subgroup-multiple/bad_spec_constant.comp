#version 450
// A declared specialization constant default is the size the pipeline gets
// when the application does not specialize it.
// fixture-options: --target=nvidia-ampere,qualcomm-adreno-6xx
layout(local_size_x_id = 0) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 48 invocations leaves lanes idle in its last subgroup on nvidia-ampere (subgroup size 32, 16 of 32 lanes idle) and qualcomm-adreno-6xx (subgroup size 64, 16 of 64 lanes idle)"
layout(constant_id = 0) const uint BLOCK_SIZE = 48;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= float(BLOCK_SIZE); }
