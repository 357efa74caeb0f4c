// OpenCL 2.0 C11-style atomics on atomic_int / atomic_uint / atomic_long:
// atomic_fetch_add_explicit with memory_order_relaxed and
// memory_scope_device, fetch_sub/or/and/min/max, and a
// compare_exchange_strong retry loop; local atomic_int with work-group scope.
__kernel void atomic_c11(__global const int *in, __global atomic_int *ai,
                         __global atomic_uint *au, __global atomic_long *al) {
  __local atomic_int lcount;
  int lid = get_local_id(0);
  if (lid == 0)
    atomic_store_explicit(&lcount, 0, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[get_global_id(0)];
  atomic_fetch_add_explicit(&ai[0], 1, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&ai[1], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(&ai[2], v & 0xff, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min_explicit(&ai[3], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max_explicit(&ai[4], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_or_explicit(&au[0], 1u << (v & 31), memory_order_relaxed, memory_scope_device);
  atomic_fetch_and_explicit(&au[1], ~(1u << ((v >> 5) & 31)), memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_xor_explicit(&au[2], (uint)v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&al[0], (long)v << 20, memory_order_relaxed, memory_scope_device);
  int expected = atomic_load_explicit(&ai[5], memory_order_relaxed, memory_scope_device);
  while (!atomic_compare_exchange_strong_explicit(&ai[5], &expected, expected + (v & 7),
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_device))
    ;
  atomic_fetch_add_explicit(&lcount, 1, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    atomic_fetch_add_explicit(&ai[6],
                              atomic_load_explicit(&lcount, memory_order_relaxed,
                                                   memory_scope_work_group),
                              memory_order_relaxed, memory_scope_device);
}
