// printf with many format specifiers, vector formats, string arguments and
// escapes in the format string.
kernel void printf_kernel(global const float *f, int n) {
  size_t i = get_global_id(0);
  printf("hello from work-item %zu of %u\n", i, (uint)get_global_size(0));
  printf("int %d hex %#x oct %o char %c str %s\n", n, n, n, 'A', "world");
  printf("float %f %e %g %a %.3f %10.2f\n", f[i], f[i], f[i], f[i], f[i], f[i]);
  printf("vector %v4hlf\n", (float4)(1.0f, 2.0f, 3.0f, 4.0f));
  printf("long %ld ulong %lu percent %% tab\tquote\" backslash\\ done\n",
         (long)n * -3L, (ulong)n);
  if (n < 0)
    printf("negative!\n");
}
