// The same quad operation checked against a declared Qualcomm target.
// fixture-options: --target=qualcomm-adreno-6xx
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    data[dtid.x] = QuadReadAcrossX(data[dtid.x]);  // expect: subgroup-feature-unsupported "quad subgroup operations (GL_KHR_shader_subgroup_quad), which qualcomm-adreno-6xx does not support"
}
