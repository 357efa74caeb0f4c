// Device-side enqueue against a host launch of the same work (benchmarks/bench_enqueue.py).
void axpy_item(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

// The host launches this `count` times, in order.
kernel void axpy(global float *y, global const float *x, float a) { axpy_item(y, x, a); }

// One work-item enqueues `count` children doing the same, each waiting for the one before
// (as the host's in-order launches do).
kernel void launch_axpy(global float *y, global const float *x, float a, int n, int count) {
  queue_t q = get_default_queue();
  clk_event_t prev, next;
  for (int k = 0; k < count; k++) {
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(n), k ? 1 : 0, k ? &prev : NULL, &next,
                   ^{ axpy_item(y, x, a); });
    if (k) release_event(prev);
    prev = next;
  }
  release_event(prev);
}
