#version 450
// SUBGROUP_SIZE is set by the host to the device's subgroup width
// (--subgroup-size-constant): the first lane of every subgroup stores its
// sum into one slot. At 64 (Adreno) one subgroup is the workgroup and one
// invocation stores; at 32, 16, 8 and 4 two or more subgroups store alike.
// fixture-options: --subgroup-size-constant=SUBGROUP_SIZE
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint SUBGROUP_SIZE = 64;
layout(binding = 0) buffer Data { float data[]; };
shared float total;

void main() {
    float s = subgroupAdd(data[gl_GlobalInvocationID.x]);
    // expect@+3: shared-memory-race confirmed "invocations 0 and 8 both write total"
    // expect@+2: shared-memory-race confirmed "invocations 0 and 16 both write total"
    // expect@+1: shared-memory-race confirmed "invocations 0 and 32 both write total" // expect@+1: shared-memory-race confirmed "invocations 0 and 4 both write total"
    if (gl_LocalInvocationID.x % SUBGROUP_SIZE == 0) total = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) data[gl_WorkGroupID.x] = total;
}
