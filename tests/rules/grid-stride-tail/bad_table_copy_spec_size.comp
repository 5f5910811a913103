#version 450
// A lookup table copied into shared memory by a workgroup whose size the host
// picks: right at the default 64, past the end for 48, 96 or anything above 256.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 64;
layout(binding = 0) buffer Data { uint data[]; };
const uint TABLE[256] = uint[256](
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,
    1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u,1u,2u,3u,4u,5u,6u,7u,8u,9u,10u,11u,12u,13u,14u,15u,16u);
shared uint table[256];

void main() {
    for (uint i = 0; i < 256u; i += GROUP) {
        table[i + gl_LocalInvocationIndex] = TABLE[i + gl_LocalInvocationIndex];  // expect: grid-stride-tail confirmed "index i + gl_LocalInvocationID.x covers an array of 256 in steps of the workgroup size along x (specialization constant 0, default 64), and only 'i' is checked against 256"
        // expect-note@-2: "'i' steps by the workgroup size, which the host sets"
        // expect-note@-2: "i + gl_LocalInvocationID.x indexes an array of 256 the same way"
    }
    barrier();
    data[gl_GlobalInvocationID.x] = table[data[gl_GlobalInvocationID.x] & 255u];
}
