// target-env: vulkan1.1
// Shared-memory tree reduction with barrier() and memoryBarrierShared(),
// plus atomicAdd into an SSBO counter.
#version 450
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { float vals[]; };
layout(std430, binding = 1) buffer Out { uint done; float partial[]; };
shared float tile[128];
void main() {
  uint lid = gl_LocalInvocationID.x;
  tile[lid] = vals[gl_GlobalInvocationID.x];
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
    if (lid < s) tile[lid] += tile[lid + s];
    memoryBarrierShared();
    barrier();
  }
  if (lid == 0u) {
    partial[gl_WorkGroupID.x] = tile[0];
    atomicAdd(done, 1u);
  }
}
