#version 450
// The seeds' element-wise and matrix kernels: the index starts at the
// invocation's place in the whole grid (thread_position_in_grid) but steps by
// threads_per_threadgroup. Right for a one-threadgroup grid, as the seeds
// dispatch it; every larger grid redoes elements.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float input_[]; };
layout(binding = 1) writeonly buffer Out { float output_[]; };
layout(binding = 2) readonly buffer A { float a[]; };
layout(binding = 3) readonly buffer B { float b[]; };
layout(binding = 4) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; uint m; uint k; };

void main() {
    uint tid = gl_GlobalInvocationID.x;
    uint num_threads = gl_WorkGroupSize.x;

    // expect@+1: grid-stride-mismatch confirmed "starts at the global invocation id but steps by the workgroup size (256)"
    for (uint idx = tid; idx < n; idx += num_threads) {
        output_[idx] = input_[idx] * 2.0;
    }

    // expect@+1: grid-stride-mismatch confirmed "so the workgroups overlap and redo each other's elements"
    for (uint idx = tid; idx < m * n; idx += num_threads) {
        uint row = idx / n;
        uint col = idx % n;
        float sum = 0.0;
        for (uint i = 0; i < k; i++) sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}
