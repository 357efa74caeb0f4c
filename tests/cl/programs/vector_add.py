"""pyopencl-style vector add, without and with profiling (run with spirvkit.cl or pyopencl)."""
import numpy as np

import spirvkit.cl as cl

rng = np.random.default_rng(0)
a_np = rng.random(50000, dtype=np.float32)
b_np = rng.random(50000, dtype=np.float32)

ctx = cl.create_some_context(interactive=False)
mf = cl.mem_flags
prg = cl.Program(ctx, """
__kernel void sum(__global const float *a_g, __global const float *b_g, __global float *res_g)
{
  int gid = get_global_id(0);
  res_g[gid] = a_g[gid] + b_g[gid];
}
""").build()

for props in (0, cl.command_queue_properties.PROFILING_ENABLE):
    queue = cl.CommandQueue(ctx, properties=props)
    a_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a_np)
    b_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b_np)
    res_g = cl.Buffer(ctx, mf.WRITE_ONLY, a_np.nbytes)
    knl = prg.sum
    evt = knl(queue, a_np.shape, None, a_g, b_g, res_g)
    res_np = np.empty_like(a_np)
    cl.enqueue_copy(queue, res_np, res_g, wait_for=[evt])
    if props:
        evt.wait()
        elapsed = evt.profile.end - evt.profile.start
        print("profiled:", elapsed > 0)
    print("difference norm:", np.linalg.norm(res_np - (a_np + b_np)), "first:", res_np[:3].tolist())
    assert np.allclose(res_np, a_np + b_np)
