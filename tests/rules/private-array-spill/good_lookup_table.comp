#version 450
// A constant table indexed by data: drivers place it in constant memory,
// not in scratch.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Codes { uint codes[]; };
layout(binding = 1) writeonly buffer Values { float values[]; };

const float kLevels[16] = float[](-1.0, -0.6962, -0.5251, -0.3949, -0.2844, -0.1848, -0.0911, 0.0,
                                  0.0796, 0.1609, 0.2461, 0.3379, 0.4407, 0.5626, 0.7230, 1.0);

void main() {
    uint code = codes[gl_GlobalInvocationID.x];
    float weights[4] = float[](0.5, 0.25, 0.125, 0.125);
    float v = 0.0;
    for (int i = 0; i < 4; ++i) v += kLevels[(code >> (4 * i)) & 15u] * weights[code % 4u];
    values[gl_GlobalInvocationID.x] = v;
}
