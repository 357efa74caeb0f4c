"""pyopencl-style pi by midpoint integration of 4/(1+x^2): per-group sums in LocalMemory."""
import numpy as np

import spirvkit.cl as cl

N = 1 << 20
WG = 128
GROUPS = 64
ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, """
__kernel void pi(const int n, const float step, __local float *scratch, __global float *partial)
{
    int lid = get_local_id(0);
    float sum = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        float x = (i + 0.5f) * step;
        sum += 4.0f / (1.0f + x * x);
    }
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
""").build()
partial = np.zeros(GROUPS, np.float32)
partial_g = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, partial.nbytes)
knl = prg.pi
knl.set_scalar_arg_dtypes([np.int32, np.float32, None, None])
knl(queue, (WG * GROUPS,), (WG,), N, 1.0 / N, cl.LocalMemory(WG * 4), partial_g)
cl.enqueue_copy(queue, partial, partial_g)
pi = partial.astype(np.float64).sum() / N
print(f"pi = {pi:.5f}")
assert abs(pi - np.pi) < 1e-4
