// 64-bit atomics (cl_khr_int64_base_atomics / _extended_atomics) on global
// and local long/ulong: atom_add, atom_inc, atom_sub, atom_min, atom_max,
// atom_or, atom_xor, atom_cmpxchg retry loop.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void atom64_global(__global const long *in, __global long *g,
                            __global ulong *u) {
  long v = in[get_global_id(0)];
  atom_add(&g[0], v);
  atom_inc(&g[1]);
  atom_sub(&g[2], v >> 8);
  atom_min(&g[3], v);
  atom_max(&g[4], v);
  atom_or(&u[0], 1ul << (v & 63));
  atom_xor(&u[1], (ulong)v);
  atom_add(&u[2], (ulong)v * 0x100000001ul);
  long old = g[5], seen;
  while ((seen = atom_cmpxchg(&g[5], old, old + (v & 0xffff))) != old)
    old = seen;
}

__kernel void atom64_local(__global const long *in, __global long *out) {
  __local long acc;
  __local long hi;
  int lid = get_local_id(0);
  if (lid == 0) {
    acc = 0;
    hi = LONG_MIN;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  long v = in[get_global_id(0)];
  atom_add(&acc, v);
  atom_max(&hi, v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    out[2 * get_group_id(0)] = acc;
    out[2 * get_group_id(0) + 1] = hi;
  }
}
