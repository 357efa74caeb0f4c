"""pyopencl-style chain of kernels ordered by events: y = (x * 2 + 1)^2, then a marker."""
import numpy as np

import spirvkit.cl as cl

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
prg = cl.Program(ctx, """
__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; }
__kernel void add_one(__global float *x) { x[get_global_id(0)] += 1.0f; }
__kernel void square(__global const float *x, __global float *y)
{ int i = get_global_id(0); y[i] = x[i] * x[i]; }
""").build()
x = np.linspace(-1, 1, 4096, dtype=np.float32)
mf = cl.mem_flags
x_g = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=x)
y_g = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
e1 = prg.twice(queue, x.shape, None, x_g)
e2 = prg.add_one(queue, x.shape, None, x_g, wait_for=[e1])
e3 = prg.square(queue, x.shape, None, x_g, y_g, wait_for=[e2])
marker = cl.enqueue_marker(queue, wait_for=[e3])
cl.wait_for_events([marker])
y = np.empty_like(x)
cl.enqueue_copy(queue, y, y_g, is_blocking=True)
print("in order:", e1.profile.end <= e2.profile.start and e2.profile.end <= e3.profile.start)
print("status:", cl.command_execution_status.to_string(e3.command_execution_status))
assert np.allclose(y, (x * 2 + 1) ** 2)
print("result ok:", True, y[:3].tolist(), y[-1].item())
