#version 450
#extension GL_EXT_control_flow_attributes : require
// A short filter per channel: the loop is marked [[unroll]] because it runs a
// handful of times (the filter's taps), so the run-time stride between
// invocations is most likely the taps' own length, a block each reads whole.
// A depthwise convolution over channels-as-rows data is written this way.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Signal { float signal[]; };
layout(binding = 1) readonly buffer Taps { float taps[]; };
layout(binding = 2) writeonly buffer Out { float result[]; };
layout(push_constant) uniform P { uint tap_count; uint tap_stride; uint length; };

void main() {
    uint channel = gl_GlobalInvocationID.x;
    float sum = 0.0;
    [[unroll]] for (uint t = 0; t < tap_count; ++t) {
        sum += taps[channel * tap_stride + t] * signal[t * length + channel];
    }
    result[channel] = sum;
}
