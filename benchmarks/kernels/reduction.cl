// Sum reduction: each work-item accumulates a grid-stride slice of the input,
// then the work-group combines the partial sums with a barrier tree in
// __local scratch memory (a kernel argument); one partial sum per group.
#define WG 256
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduction(global const float *in, global float *partial,
               local float *scratch, const uint n) {
  const uint lid = get_local_id(0);
  float sum = 0.0f;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    sum += in[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
