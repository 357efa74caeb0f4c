// target-env: vulkan1.1
// GL_KHR_shader_subgroup_*: basic, vote, arithmetic, ballot, shuffle,
// shuffle_relative, clustered, quad.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float f[]; };
layout(std430, binding = 1) buffer C { uint u[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = f[i];
  bool e = subgroupElect();
  bool all_ = subgroupAll(x > 0.0);
  bool any_ = subgroupAny(x < 0.0);
  bool eq = subgroupAllEqual(x);
  float s = subgroupAdd(x) + subgroupInclusiveMul(x) + subgroupExclusiveMin(x) +
            subgroupMax(x) + subgroupClusteredAdd(x, 4u);
  uvec4 bal = subgroupBallot(e);
  uint cnt = subgroupBallotBitCount(bal) + subgroupBallotInclusiveBitCount(bal) +
             subgroupBallotFindLSB(bal) + subgroupBallotFindMSB(bal);
  float sh = subgroupShuffle(x, 0u) + subgroupShuffleXor(x, 1u) +
             subgroupShuffleUp(x, 1u) + subgroupShuffleDown(x, 1u) +
             subgroupBroadcastFirst(x) + subgroupBroadcast(x, 3u);
  float q = subgroupQuadBroadcast(x, 1u) + subgroupQuadSwapHorizontal(x) +
            subgroupQuadSwapVertical(x) + subgroupQuadSwapDiagonal(x);
  subgroupBarrier();
  subgroupMemoryBarrier();
  f[i] = s + sh + q + float(gl_SubgroupSize + gl_SubgroupInvocationID + gl_NumSubgroups + gl_SubgroupID);
  u[i] = cnt + uint(all_) + uint(any_) + uint(eq) + subgroupOr(gl_SubgroupEqMask.x | gl_SubgroupLtMask.y);
}
