// Kernels for tests/jit/test_work_item_loops.py: the shapes of the kernel benchmark
// (benchmarks/bench_run.py) whose work-item loops LLVM must vectorise.

// A 5-point stencil (2-D groups): its work-item loop needs no run-time alias
// checks between the buffers (the loop is declared parallel), also when it is
// compiled for one local size (a kernel with reqd_work_group_size).
kernel void stencil2d(global const float *in, global float *out, uint w, uint h) {
  const uint x = get_global_id(0), y = get_global_id(1);
  if (x == 0 || y == 0 || x >= w - 1 || y >= h - 1)
    return;
  const size_t i = (size_t)y * w + x;
  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

// An all-pairs loop over float4 data (n-body): the loop is turned inside out
// (loop_cuts.py); the float4 values it keeps across passes and the float4
// stores after it must not keep its work-item loop scalar.
kernel void pairs(global const float4 *pos, global float4 *acc, uint n) {
  const size_t i = get_global_id(0);
  const float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (uint j = 0; j < n; j++) {
    const float4 q = pos[j];
    const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const float inv = 1.0f / sqrt(dx * dx + dy * dy + dz * dz + 0.01f);
    const float s = q.w * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  acc[i] = (float4)(ax, ay, az, p.w);
}

// Odd elements only: clang writes 2*i + 1 as (i << 1) | 1, which the group
// guard (access_guard.py) takes for 2*i + 1 once it knows 2*i is even.
kernel void odd(global const int *in, global int *out) {
  const size_t i = get_global_id(0);
  out[2 * i + 1] = in[2 * i + 1] + 1;
}

// Each work-item's group id and local size, at its linear global id: the
// launch driver counts group ids along a chunk of groups (kernel.py).
kernel void group_ids(global uint *out) {
  const size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  for (uint d = 0; d < 3; d++) {
    out[6 * i + d] = get_group_id(d);
    out[6 * i + 3 + d] = get_local_size(d);
  }
}
