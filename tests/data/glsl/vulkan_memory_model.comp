// target-env: vulkan1.3
// GL_KHR_memory_scope_semantics: explicit scopes/semantics on atomics and
// barriers, nonprivate/device-coherent qualifiers; 1.6 output uses the
// Vulkan memory model.
#version 460
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint payload[]; };
layout(std430, binding = 1) devicecoherent buffer Flag { uint flag; uint seen; };
shared uint local_count;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0u)
    atomicStore(local_count, 0u, gl_ScopeWorkgroup, 0, 0);
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
  payload[i] = i * 3u;
  atomicAdd(local_count, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
            gl_SemanticsRelaxed);
  memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelease | gl_SemanticsMakeAvailable);
  atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
              gl_SemanticsRelease | gl_SemanticsMakeAvailable);
  uint f = atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                      gl_SemanticsAcquire | gl_SemanticsMakeVisible);
  if (f != 0u)
    atomicAdd(seen, local_count, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer,
              gl_SemanticsRelaxed);
}
