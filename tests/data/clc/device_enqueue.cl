// OpenCL 2.0 device-side enqueue with blocks, ndrange_t, events and
// local-memory block arguments.
kernel void child(global int *a, int v) { a[get_global_id(0)] += v; }

kernel void parent(global int *a, int n) {
  queue_t q = get_default_queue();
  ndrange_t nd = ndrange_1D(n);
  clk_event_t ev;
  int v = n * 2;
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, nd, 0, NULL, &ev,
                 ^{ a[get_global_id(0)] += v; });
  const size_t gs[2] = {4, 4};
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(gs),
                 1, &ev, NULL,
                 ^(local void *scratch) {
                   ((local int *)scratch)[get_local_id(0)] = v;
                   a[0] += ((local int *)scratch)[0];
                 },
                 64u);
  release_event(ev);
  clk_event_t marker;
  enqueue_marker(q, 0, NULL, &marker);
  release_event(marker);
  uint wgs = get_kernel_work_group_size(^{ a[0] = 1; });
  a[1] = (int)wgs;
}
