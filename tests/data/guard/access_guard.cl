// Kernels for tests/jit/test_access_guard.py: one bad access at a corner of the
// work-group's box of local ids, or arithmetic that wraps where the exact value would not.
kernel void shift1d(global int *a, uint n) { size_t i = get_global_id(0); a[i + n] = (int)i + 1; }
kernel void grid2d(global int *a, uint w) { a[get_global_id(1) * w + get_global_id(0)] = (int)get_global_id(0) + 1; }
kernel void box3d(global int *a, uint w, uint h) {
  a[(get_global_id(2) * h + get_global_id(1)) * w + get_global_id(0)] = (int)get_global_id(2) + 1;
}
kernel void before(global int *a, int d) { int i = (int)get_global_id(0) + d; a[i] = i + 1; }
kernel void zext_wrap(global int *a, ulong d) {
  ulong j = (ulong)(uint)(get_global_id(0) - d) + d;   /* exact: gid; the machine wraps when gid < d */
  a[j] = 1;
}
kernel void sext_wrap(global int *a, uint d) {
  long j = (long)(int)((uint)get_global_id(0) + d) - (long)d;   /* exact: gid; wraps once gid + d >= 2**31 */
  a[j] = 1;
}
kernel void mask_wrap(global int *a, ulong d) { a[((get_global_id(0) - d) & 0xFFFFFFFFul) + d] = 1; }
kernel void mul_wrap(global int *a, uint m) { uint i = (uint)get_global_id(0) * m; a[i] = 1; }
kernel void local_corner(global int *out, local int *tmp, uint off) {
  uint l = get_local_id(0);
  tmp[l + off] = (int)l + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}
kernel void memo(global int *a, global int *b, ulong d) {
  ulong j = (ulong)(uint)(get_global_id(0) - d) + d;   /* as in zext_wrap */
  b[(j * j) & 255] = 1;   /* not affine: the guard gives up on it after evaluating j ... */
  a[j] = 1;               /* ... and must still test j's range for this one */
}
