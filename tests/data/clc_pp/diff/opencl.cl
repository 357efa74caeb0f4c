#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define TILE 16
#define IDX(r, c, w) ((r) * (w) + (c))
#define VEC(T, n) T##n
#define LOAD(T, n, p, i) vload##n(i, p)
#define KERNEL __kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
#if __OPENCL_C_VERSION__ >= 200
#define GENERIC_OK 1
#else
#define GENERIC_OK 0
#endif
KERNEL void mm(__global const float *a, __global float *b, int w) {
    __local float tile[TILE][TILE];
    int r = get_global_id(1), c = get_global_id(0);
    VEC(float, 4) v = (VEC(float, 4))(1.0f, 2.0f, 0x1p3f, .5f);
    double d = 1.0e-3 + 2.5;
    #pragma unroll 4
    for (int k = 0; k < TILE; ++k) tile[r % TILE][k] = a[IDX(r, k, w)];
    #pragma OPENCL FP_CONTRACT OFF
    b[IDX(r, c, w)] = tile[0][0] * GENERIC_OK + v.s0 + LOAD(float, 4, a, 0).x;
    b[0] = __LINE__ + CL_VERSION_1_2 + (__ENDIAN_LITTLE__ << 1);
}
