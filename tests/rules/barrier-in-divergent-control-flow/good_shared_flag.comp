#version 450
// One invocation decides, a barrier publishes the decision, and everyone
// branches on the same shared value: uniform.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint data[]; };
shared uint done;
shared uint tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid == 0) done = data[gl_WorkGroupID.x];
    barrier();
    if (done != 0u) {
        tile[tid] = tid;
        barrier();
        data[gl_GlobalInvocationID.x] = tile[63 - tid];
    }
}
