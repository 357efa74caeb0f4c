#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
void main() {
  uint i = gl_LocalInvocationIndex;
  b.v[i * 5 + 0] = gl_SubgroupEqMask.x;
  b.v[i * 5 + 1] = gl_SubgroupGeMask.x;
  b.v[i * 5 + 2] = gl_SubgroupGtMask.x;
  b.v[i * 5 + 3] = gl_SubgroupLeMask.x;
  b.v[i * 5 + 4] = gl_SubgroupLtMask.x;
}
