#version 450
// One partial sum per work-group: each invocation adds PER_INVOCATION elements (strided by the
// work-group size, so neighbours read neighbours), subgroupAdd folds each subgroup, the subgroup
// sums meet in shared memory, and the first subgroup folds those. Any subgroup size works:
// lavapipe and spirvkit each use their own.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
const uint PER_INVOCATION = 16;
layout(std430, set = 0, binding = 0) readonly buffer In { float data[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float partial[]; };
layout(push_constant) uniform PC { uint n; } pc;
shared float subgroup_sums[gl_WorkGroupSize.x];   // one per subgroup: room for subgroups of 1

void main() {
  uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * PER_INVOCATION + gl_LocalInvocationID.x;
  float s = 0.0;
  for (uint k = 0; k < PER_INVOCATION; k++) {
    uint i = base + k * gl_WorkGroupSize.x;
    if (i < pc.n) s += data[i];
  }
  s = subgroupAdd(s);
  if (subgroupElect()) subgroup_sums[gl_SubgroupID] = s;
  barrier();
  if (gl_SubgroupID == 0) {
    float t = 0.0;
    for (uint j = gl_SubgroupInvocationID; j < gl_NumSubgroups; j += gl_SubgroupSize) t += subgroup_sums[j];
    t = subgroupAdd(t);
    if (subgroupElect()) partial[gl_WorkGroupID.x] = t;
  }
}
