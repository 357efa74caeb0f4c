#version 450
// imageAtomicAdd on a multisampled R32_UINT storage image (OpImageTexelPointer's Sample).
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS counts;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy) % imageSize(counts);
  for (int k = 0; k < imageSamples(counts); k++) imageAtomicAdd(counts, p, k, uint(k + 1));
}
