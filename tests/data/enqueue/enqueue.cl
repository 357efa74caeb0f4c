// Device-side enqueue fixtures (OpenCL C 2.0 §6.13.17).
kernel void simple(global int *a, int n) {
  if (get_global_id(0) == 0) {
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(n),
                   ^{ a[get_global_id(0)] += 10; });
  }
  a[get_global_id(0)] = (int)get_global_id(0);
}

typedef struct { int x; float y; } pair_t;

kernel void captures(global int *out, global const float *src, char c, short s, long l, float f,
                     double d, int4 v, pair_t p) {
  int arr[3] = {5, 6, 7};
  queue_t q = get_default_queue();
  constant int *cp = 0;

  if (get_global_id(0) == 0) {
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
      out[0] = c; out[1] = s; out[2] = (int)l; out[3] = (int)(f * 2.0f); out[4] = (int)(d * 4.0);
      out[5] = v.x + v.y + v.z + v.w; out[6] = p.x; out[7] = (int)(p.y * 10.0f);
      out[8] = arr[0] + arr[1] + arr[2]; out[9] = (int)src[1]; out[10] = cp == 0;
      out[11] = enqueue_marker(q, 0, NULL, NULL);
    });
  }
}

// A recursive subdivision: each child halves its range until it is small, then fills it.
void fill_range(global int *a, int lo, int hi, int depth) {
  if (hi - lo <= 4) {
    for (int i = lo; i < hi; i++) a[i] = i * 2 + depth;
    return;
  }
  int mid = (lo + hi) / 2;
  queue_t q = get_default_queue();
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ fill_range(a, lo, mid, depth + 1); });
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ fill_range(a, mid, hi, depth + 1); });
}

kernel void subdivide(global int *a, int n) { fill_range(a, 0, n, 0); }

// Every flag; each child reads what the whole parent wrote.
kernel void flags(global int *a, global int *out, int flag) {
  size_t i = get_global_id(0);
  a[i] = (int)i + 1;
  if (get_local_id(0) == 0) {
    size_t g = get_group_id(0);
    size_t n = get_global_size(0);
    kernel_enqueue_flags_t fl = flag == 0 ? CLK_ENQUEUE_FLAGS_NO_WAIT
        : flag == 1 ? CLK_ENQUEUE_FLAGS_WAIT_KERNEL : CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP;
    enqueue_kernel(get_default_queue(), fl, ndrange_1D(1), ^{
      int s = 0;
      for (size_t k = 0; k < n; k++) s += a[k];
      out[g] = s;
    });
  }
}

// Events: B waits for A (which itself enqueues a grandchild), C waits for a marker on A and B.
kernel void events(global int *log, global int *status, global ulong *prof) {
  queue_t q = get_default_queue();
  clk_event_t ea, eb, em;
  int r0 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &ea, ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 1;
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
      int k2 = atomic_inc((volatile global int *)&log[0]);
      log[1 + k2] = 11;
    });
  });
  int r1 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &ea, &eb, ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 2;
  });
  clk_event_t both[2] = {ea, eb};
  int r2 = enqueue_marker(q, 2, both, &em);
  int r3 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &em, NULL, ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 3;
  });
  capture_event_profiling_info(ea, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
  status[0] = r0; status[1] = r1; status[2] = r2; status[3] = r3;
  status[4] = is_valid_event(ea);
  retain_event(ea);
  release_event(ea);
  release_event(ea);
  release_event(eb);
  release_event(em);
  // Wait-list errors.
  status[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, NULL, NULL, ^{ log[40] = 1; });
  status[7] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, both, NULL, ^{ log[41] = 1; });
}

// A marker without a wait list waits for every command enqueued before it (SPIR-V
// OpEnqueueMarker), descendants included; one enqueued by a child does not wait for that child.
kernel void marker_all(global int *log) {
  queue_t q = get_default_queue();
  clk_event_t m;
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 1;
    clk_event_t mm;
    log[11] = enqueue_marker(get_default_queue(), 0, NULL, &mm);
    release_event(mm);
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
      int k2 = atomic_inc((volatile global int *)&log[0]);
      log[1 + k2] = 11;
    });
  });
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 2;
  });
  log[10] = enqueue_marker(q, 0, NULL, &m);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m, NULL, ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 3;
  });
  release_event(m);
}

// Profiling asked for by a later child, once the command is already complete.
kernel void late_capture(global ulong *prof, global int *status) {
  clk_event_t ea;
  queue_t q = get_default_queue();
  status[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &ea,
                             ^{ prof[4 + get_global_id(0)] = 1; });
  status[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &ea, NULL, ^{
    capture_event_profiling_info(ea, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
    release_event(ea);
  });
}

// User events: the child waits for a user event that another child sets.
kernel void user_events(global int *log, global int *status) {
  queue_t q = get_default_queue();
  clk_event_t u = create_user_event();
  status[0] = is_valid_event(u);
  status[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, NULL, ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 2;
  });
  status[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
    int k = atomic_inc((volatile global int *)&log[0]);
    log[1 + k] = 1;
    set_user_event_status(u, CL_COMPLETE);
  });
  release_event(u);
}

// A user event set to an error: the command waiting on it never runs.
kernel void user_event_error(global int *log) {
  clk_event_t u = create_user_event();
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, NULL, ^{ log[1] = 1; });
  set_user_event_status(u, -5);
  release_event(u);
  log[0] = 1;
}

// A user event nobody sets.
kernel void user_event_never(global int *log) {
  clk_event_t u = create_user_event();
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, NULL, ^{ log[1] = 1; });
  release_event(u);
}

// Queries on blocks.
kernel void queries(global uint *out) {
  void (^blk)(void) = ^{ out[10] = 1; };
  void (^lblk)(local void *) = ^(local void *p) { out[11] = 1; };
  out[0] = get_kernel_work_group_size(blk);
  out[1] = get_kernel_preferred_work_group_size_multiple(blk);
  out[2] = get_kernel_work_group_size(lblk);
  out[3] = get_kernel_preferred_work_group_size_multiple(lblk);
#ifdef cl_khr_subgroups
  out[4] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(64, 16), blk);
  out[5] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(64, 16), blk);
#endif
}

// ndrange_1D/2D/3D with offsets and local sizes: each child work-item records its ids.
kernel void shapes(global int *out, int which) {
  size_t g2[2] = {4, 6}, l2[2] = {2, 3}, o2[2] = {1, 2};
  size_t g3[3] = {2, 3, 4}, l3[3] = {1, 3, 2}, o3[3] = {5, 6, 7};
  ndrange_t r;
  if (which == 0) r = ndrange_1D(10);
  else if (which == 1) r = ndrange_1D(12, 4);
  else if (which == 2) r = ndrange_1D(3, 12, 4);
  else if (which == 3) r = ndrange_2D(g2);
  else if (which == 4) r = ndrange_2D(g2, l2);
  else if (which == 5) r = ndrange_2D(o2, g2, l2);
  else if (which == 6) r = ndrange_3D(g3);
  else if (which == 7) r = ndrange_3D(g3, l3);
  else r = ndrange_3D(o3, g3, l3);
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, r, ^{
    size_t k = get_global_linear_id();
    global int *o = out + 16 * k;
    o[0] = get_work_dim();
    for (int d = 0; d < 3; d++) {
      o[1 + d] = get_global_id(d); o[4 + d] = get_local_id(d); o[7 + d] = get_global_size(d);
      o[10 + d] = get_local_size(d); o[13 + d] = get_global_offset(d);
    }
  });
}

// Local-memory block parameters: a work-group reduction in the child.
kernel void local_args(global int *out, global const int *src) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(32, 8),
    ^(local void *p, local void *q) {
      local int *a = (local int *)p;
      local long *b = (local long *)q;
      size_t l = get_local_id(0);
      a[l] = src[get_global_id(0)];
      b[l] = 2 * (long)a[l];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (l == 0) {
        int s = 0; long t = 0;
        for (int k = 0; k < 8; k++) { s += a[k]; t += b[k]; }
        out[get_group_id(0)] = s;
        out[4 + get_group_id(0)] = (int)t;
      }
    }, 8 * sizeof(int), 8 * sizeof(long));
  out[8] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                          ^(local void *p) { out[9] = 1; }, 0u);
  // More local memory than the device has (CL_DEVICE_LOCAL_MEM_SIZE).
  out[10] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                           ^(local void *p) { out[11] = 1; }, 0xFFFFFFF0u);
}

// Every work-item enqueues: the queue fills up and enqueue_kernel says so.
kernel void flood(global int *status, global int *hits) {
  size_t i = get_global_id(0);
  status[i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                             ^{ atomic_inc((volatile global int *)hits); });
}

// Unbounded recursion: the descendants limit ends it.
void forever(global int *count) {
  atomic_inc((volatile global int *)count);
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ forever(count); });
}
kernel void runaway(global int *count) { forever(count); }

// A fault in a child: it writes past the end of the parent's buffer.
kernel void child_fault(global int *a, int n) {
  if (get_global_id(0) == 0)
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(n + 1),
                   ^{ a[get_global_id(0)] = 1; });
}
