// Double-buffered 3-point stencil in __local memory (overlapping tiles): a
// work-group of WG items loads WG cells, its WG - 2*steps outputs and a halo
// of `steps` cells on each side (zero outside the array), runs `steps` Jacobi
// steps ping-ponging between two __local buffers with a barrier after each,
// and writes its interior cells: `steps` global steps with zero (Dirichlet)
// boundaries in one launch. (`steps` is an argument: with a compile-time trip
// count, clang -O2 rotates the loop and llvm-spirv-15 lays a block out before
// its dominator, which spirv-val rejects; see regenerate.sh.)
#define WG 256
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void stencil_local(global const float *in, global float *out, const int n,
                   const int steps, const float c0, const float c1) {
  local float buf[2][WG];
  const int lid = (int)get_local_id(0);
  const int g = (int)get_group_id(0) * (WG - 2 * steps) - steps + lid;
  const bool inside = g >= 0 && g < n;
  buf[0][lid] = inside ? in[g] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t = 0; t < steps; t++) {
    local const float *src = buf[t & 1];
    local float *dst = buf[(t + 1) & 1];
    float v = 0.0f;
    if (inside && lid > 0 && lid < WG - 1)
      v = c0 * src[lid] + c1 * (src[lid - 1] + src[lid + 1]);
    dst[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (inside && lid >= steps && lid < WG - steps)
    out[g] = buf[steps & 1][lid];
}
