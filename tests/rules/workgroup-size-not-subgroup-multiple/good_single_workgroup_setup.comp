#version 450
// Writes indirect dispatch arguments: it never asks which workgroup it is, so
// it is dispatched as one workgroup and its idle lanes cost nothing.
layout(local_size_x = 1) in;
layout(binding = 0) buffer Count { uint count; };
layout(binding = 1) buffer Indirect { uint groups[3]; };
void main() {
    groups[0] = (count + 63) / 64;
    groups[1] = 1;
    groups[2] = 1;
}
