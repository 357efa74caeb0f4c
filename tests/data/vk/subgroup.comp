#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 8, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer O { uint o[]; } b;
shared uint hits;
void main() {
  if (gl_LocalInvocationIndex == 0) hits = 0;
  barrier();
  atomicAdd(hits, gl_LocalInvocationIndex);
  barrier();
  uint g = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
  uint i = (g * gl_WorkGroupSize.x * gl_WorkGroupSize.y + gl_LocalInvocationIndex) * 8;
  b.o[i + 0] = gl_SubgroupSize;
  b.o[i + 1] = gl_SubgroupInvocationID;
  b.o[i + 2] = gl_NumSubgroups;
  b.o[i + 3] = gl_SubgroupID;
  b.o[i + 4] = hits;
  b.o[i + 5] = gl_GlobalInvocationID.x;
  b.o[i + 6] = gl_GlobalInvocationID.y;
  b.o[i + 7] = gl_LocalInvocationID.y;
}
