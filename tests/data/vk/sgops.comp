#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = b.v[i];
  uint s = subgroupAdd(x);
  uint m = subgroupMax(x);
  uint ex = subgroupExclusiveAdd(x);
  uint first = subgroupBroadcastFirst(x);
  bool all_ = subgroupAll(x > 0u);
  uvec4 bal = subgroupBallot((x & 1u) == 1u);
  uint sh = subgroupShuffle(x, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize);
  b.v[64 + i * 8 + 0] = s;
  b.v[64 + i * 8 + 1] = m;
  b.v[64 + i * 8 + 2] = ex;
  b.v[64 + i * 8 + 3] = first;
  b.v[64 + i * 8 + 4] = all_ ? 1u : 0u;
  b.v[64 + i * 8 + 5] = bal.x;
  b.v[64 + i * 8 + 6] = sh;
  b.v[64 + i * 8 + 7] = subgroupBallotBitCount(bal);
}
