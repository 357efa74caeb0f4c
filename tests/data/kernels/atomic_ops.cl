// The remaining 32-bit atomics with order-independent final results:
// atomic_min/max/and/or/xor on int and uint (global and local),
// atomic_xchg with one value for all, and atomic_cmpxchg retry loops that
// implement add and max (the final value is order-independent).
__kernel void atomic_minmax_logic(__global const int *in, __global int *g,
                                  __global uint *u) {
  __local int lmin, lmax;
  __local uint lor, land, lxor;
  int lid = get_local_id(0);
  int v = in[get_global_id(0)];
  if (lid == 0) {
    lmin = INT_MAX;
    lmax = INT_MIN;
    lor = 0u;
    land = 0xffffffffu;
    lxor = 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_min(&g[0], v);
  atomic_max(&g[1], v);
  atomic_min(&u[0], (uint)v);
  atomic_max(&u[1], (uint)v);
  atomic_and(&u[2], (uint)v | 0x10000u);
  atomic_or(&u[3], 1u << (v & 31));
  atomic_xor(&u[4], (uint)v);
  atomic_xchg(&g[2], 12345);
  atomic_min(&lmin, v);
  atomic_max(&lmax, v);
  atomic_or(&lor, (uint)v & 0xf0f0u);
  atomic_and(&land, ~(1u << (v & 15)));
  atomic_xor(&lxor, (uint)v * 2654435761u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    atomic_min(&g[3], lmin);
    atomic_max(&g[4], lmax);
    atomic_or(&u[5], lor);
    atomic_and(&u[6], land);
    atomic_xor(&u[7], lxor);
  }
}

__kernel void atomic_cmpxchg_loops(__global const int *in, __global int *sum,
                                   __global int *mx, __global float *fsum) {
  int v = in[get_global_id(0)];
  int old = *sum, seen;
  while ((seen = atomic_cmpxchg(sum, old, old + v)) != old)
    old = seen;
  old = *mx;
  while (old < v) {
    seen = atomic_cmpxchg(mx, old, v);
    if (seen == old)
      break;
    old = seen;
  }
  // float accumulation of small integers: exact whatever the order.
  float f = (float)(v & 255);
  __global volatile int *fp = (__global volatile int *)fsum;
  int cur = *fp;
  for (;;) {
    int want = as_int(as_float(cur) + f);
    int got = atomic_cmpxchg(fp, cur, want);
    if (got == cur)
      break;
    cur = got;
  }
}

// atom_* (cl_khr_global/local_int32_*_atomics) names.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
__kernel void atom_32(__global const int *in, __global int *g) {
  __local int cnt;
  if (get_local_id(0) == 0)
    cnt = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[get_global_id(0)];
  atom_add(&g[0], v);
  atom_inc(&g[1]);
  atom_max(&g[2], v);
  atom_or(&g[3], 1 << (v & 15));
  atom_inc(&cnt);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atom_add(&g[4], cnt);
}
