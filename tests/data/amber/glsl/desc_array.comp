#version 450
// Arrays of buffer descriptors: a fixed array read with constant indices and a push-constant
// index, and the length of a runtime array inside one element.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint v[]; } ins[3];
layout(set = 0, binding = 1) buffer Out { uint total[]; };
layout(push_constant) uniform P { uint which; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  total[i] = ins[0].v[i] + ins[1].v[i] * 10u + ins[2].v[i] * 100u + ins[pc.which].v[i] * 1000u
           + uint(ins[1].v.length()) * 100000u;
}
