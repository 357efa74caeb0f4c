// OpenCL 1.x atomic builtins on global and local int/uint, and OpenCL 2.0
// atomic_* types with explicit memory orders and scopes.
kernel void atomics_legacy(global int *g, global uint *u, local int *l) {
  int lid = get_local_id(0);
  if (lid == 0)
    *l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(l, 1);
  atomic_inc(&g[0]);
  atomic_dec(&g[1]);
  atomic_sub(&g[2], lid);
  atomic_xchg(&g[3], lid);
  atomic_cmpxchg(&g[4], 0, lid);
  atomic_min(&g[5], lid);
  atomic_max(&g[6], lid);
  atomic_and(&u[0], 0xF0u);
  atomic_or(&u[1], 1u << (lid & 31));
  atomic_xor(&u[2], (uint)lid);
  atomic_min(&u[3], (uint)lid);
  atomic_max(&u[4], (uint)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    g[7] = *l;
}

kernel void atomics_c11(global atomic_int *ai, global atomic_uint *au,
                        global atomic_flag *flag, global int *out) {
  int id = get_global_id(0);
  atomic_fetch_add_explicit(ai, 1, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(ai + 1, 1, memory_order_acq_rel,
                            memory_scope_work_group);
  atomic_fetch_or(au, 2u);
  atomic_fetch_max_explicit(au + 1, (uint)id, memory_order_seq_cst);
  int expected = 0;
  atomic_compare_exchange_strong_explicit(ai + 2, &expected, id,
                                          memory_order_acq_rel,
                                          memory_order_acquire,
                                          memory_scope_device);
  atomic_compare_exchange_weak(ai + 3, &expected, id);
  atomic_store_explicit(ai + 4, id, memory_order_release);
  out[id] = atomic_load_explicit(ai + 4, memory_order_acquire) +
            atomic_exchange(ai + 5, id);
  if (!atomic_flag_test_and_set_explicit(flag, memory_order_acq_rel,
                                         memory_scope_device))
    atomic_flag_clear(flag);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
                         memory_scope_device);
}
