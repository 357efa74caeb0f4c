// OpenCL 2.0 generic address space: one helper with unqualified (generic)
// pointer parameters called with __global, __local and __private pointers,
// and a generic pointer chosen at run time between local and private.
//
// PoCL's CPU device (PoCL 3.0, clang 14) rejects generic pointers even under
// -cl-std=CL2.0, so the test builds it there with -DPOCL_NO_GENERIC, which
// replaces the generic helpers by one overload per address space with the
// same body.  The SPIR-V fixture is built without it (generic pointers).
#ifdef POCL_NO_GENERIC
#define DEFINE_HELPERS(AS)                                                     \
  __attribute__((overloadable)) int sum3(AS const int *p) {                    \
    return p[0] + p[1] + p[2];                                                 \
  }                                                                            \
  __attribute__((overloadable)) void scale3(AS int *p, int k) {                \
    for (int j = 0; j < 3; j++)                                                \
      p[j] *= k;                                                               \
  }
DEFINE_HELPERS(__global)
DEFINE_HELPERS(__local)
DEFINE_HELPERS(__private)
#else
int sum3(const int *p) { return p[0] + p[1] + p[2]; }
void scale3(int *p, int k) {
  for (int j = 0; j < 3; j++)
    p[j] *= k;
}
#endif

__kernel void generic_ptr(__global int *g, __global int *out) {
  __local int l[64 * 3];
  int lid = get_local_id(0);
  int i = get_global_id(0);
  int priv[3] = {i, 2 * i, 3 * i};
  for (int j = 0; j < 3; j++)
    l[3 * lid + j] = g[3 * i + j] + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  scale3(g + 3 * i, 2);
  scale3(l + 3 * lid, 3);
  scale3(priv, -1);
  out[4 * i + 0] = sum3(g + 3 * i);
  out[4 * i + 1] = sum3(l + 3 * lid);
  out[4 * i + 2] = sum3(priv);
#ifdef POCL_NO_GENERIC
  int pick = (i & 1) ? sum3(l + 3 * lid) : sum3(priv);
#else
  int *p = (i & 1) ? (int *)(l + 3 * lid) : (int *)priv;
  int pick = sum3(p);
#endif
  out[4 * i + 3] = pick;
}
