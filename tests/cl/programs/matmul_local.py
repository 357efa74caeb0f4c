"""pyopencl-style tiled matrix multiply with __local memory, sized by get_work_group_info."""
import numpy as np

import spirvkit.cl as cl

TILE = 16
n, m, p = 64, 48, 80
rng = np.random.default_rng(1)
a = rng.random((n, m), dtype=np.float32)
b = rng.random((m, p), dtype=np.float32)

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
dev = ctx.devices[0]
prg = cl.Program(ctx, """
#define TILE %d
__kernel void matmul(__global const float *A, __global const float *B, __global float *C,
                     int M, int P, __local float *As, __local float *Bs)
{
    int row = get_global_id(1), col = get_global_id(0);
    int ly = get_local_id(1), lx = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < M / TILE; t++) {
        As[ly * TILE + lx] = A[row * M + t * TILE + lx];
        Bs[ly * TILE + lx] = B[(t * TILE + ly) * P + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += As[ly * TILE + k] * Bs[k * TILE + lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * P + col] = acc;
}
""" % TILE).build()
knl = prg.matmul
wg = knl.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, dev)
assert wg >= TILE * TILE and dev.local_mem_size >= 2 * TILE * TILE * 4
print("work-group size ok:", wg >= TILE * TILE)

mf = cl.mem_flags
a_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
b_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
c_g = cl.Buffer(ctx, mf.WRITE_ONLY, n * p * 4)
local = cl.LocalMemory(TILE * TILE * 4)
knl(queue, (p, n), (TILE, TILE), a_g, b_g, c_g, np.int32(m), np.int32(p), local, local)
c = np.empty((n, p), np.float32)
cl.enqueue_copy(queue, c, c_g)
queue.finish()
print("max error below 1e-4:", float(np.abs(c - a @ b).max()) < 1e-4, "row 0:", c[0, :3].round(3).tolist())
assert np.allclose(c, a @ b, rtol=1e-5, atol=1e-5)
