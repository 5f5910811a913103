#version 450
// subgroupBallotBitCount of a ballot every invocation read from the same
// shared slot is the same everywhere, so the early return is uniform. Found as
// a false positive on llama.cpp's mul_mm expert routing.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer D { uvec4 ballots[]; };
shared uvec4 ballot;
shared uint staged[128];

void main() {
    if (gl_LocalInvocationID.x == 0) ballot = ballots[gl_WorkGroupID.x];  // expect: workgroup-count-over-limit
    barrier();
    if (subgroupBallotBitCount(ballot) > 8u) return;
    staged[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    barrier();
    ballots[gl_WorkGroupID.x].x = staged[127 - gl_LocalInvocationID.x];
}
