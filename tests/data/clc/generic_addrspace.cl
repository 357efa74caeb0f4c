// OpenCL 2.0 generic address space: generic pointers, to_global/to_local/
// to_private, functions taking generic pointers from several spaces.
float sum3(float *p) { return p[0] + p[1] + p[2]; }

kernel void generic_as(global float *g, local float *l, global int *kinds) {
  size_t i = get_global_id(0);
  float priv[3] = {1.f, 2.f, 3.f};
  l[get_local_id(0)] = g[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  float *gp = (i & 1) ? (float *)&g[i] : (float *)&l[0];
  float s = sum3(gp) + sum3(priv) + sum3(l);
  global float *back = to_global(gp);
  local float *lb = to_local(gp);
  private float *pb = to_private(gp);
  kinds[i] = (back != NULL) + 2 * (lb != NULL) + 4 * (pb != NULL) +
             8 * (int)get_fence(gp);
  if (back)
    *back = s;
}
