// Uses of uninitialised values (the uninitialized check), and clean twins: private and local
// memory, buffers the host declares uninitialised, through copies, struct padding, partial
// vector writes, helper functions and loops. A value is reported where it is used (a branch,
// an index, a store to global memory), not where it is read or copied.

typedef struct { char tag; int value; } padded;   // 3 bytes of padding after tag

int sum_positive(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (v[i] > 0)   // expect: uninitialized helper_partial_fill
      s += v[i];
  return s;
}

void fill(int *v, int n) {
  for (int i = 0; i < n; i++)
    v[i] = i + 1;
}

// launch: private_branch global=16 local=8 args=zeros:16,3
kernel void private_branch(global int *out, int n) {
  int a[8];
  for (int i = 0; i < n; i++)
    a[i] = i;
  int r = 0;
  if (a[5] == 5)   // expect: uninitialized private_branch
    r = 1;
  out[get_global_id(0)] = r;
}

// launch: private_branch_clean global=16 local=8 args=zeros:16,8
kernel void private_branch_clean(global int *out, int n) {
  int a[8];
  for (int i = 0; i < n; i++)
    a[i] = i;
  int r = 0;
  if (a[5] == 5)
    r = 1;
  out[get_global_id(0)] = r;
}

// launch: local_index global=32 local=16 args=zeros:32,range:16
kernel void local_index(global int *out, global const int *table) {
  local int tmp[16];
  size_t l = get_local_id(0);
  if (l % 2 == 0)
    tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = table[tmp[15 - l] & 15];   // expect: uninitialized local_index
}

// launch: local_index_clean global=32 local=16 args=zeros:32,range:16
kernel void local_index_clean(global int *out, global const int *table) {
  local int tmp[16];
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = table[tmp[15 - l] & 15];
}

// launch: struct_padding_copy global=8 local=8 args=zeros:16,7
kernel void struct_padding_copy(global padded *out, int k) {
  padded a, b;
  a.tag = 1;
  a.value = k;
  b = a;                          // the padding is copied, never used
  out[get_global_id(0)] = b;      // (nor is it data when stored)
}

// launch: partial_vector_y global=8 local=8 args=zeros:8:float32
kernel void partial_vector_y(global float *out) {
  float4 v;
  v.x = 2.0f;
  if (v.y > 1.0f)   // expect: uninitialized partial_vector_y
    out[get_global_id(0)] = 1.0f;
  else
    out[get_global_id(0)] = 3.0f;
}

// launch: partial_vector_x global=8 local=8 args=zeros:8:float32
kernel void partial_vector_x(global float *out) {
  float4 v;
  v.x = 2.0f;
  if (v.x > 1.0f)
    out[get_global_id(0)] = 1.0f;
  else
    out[get_global_id(0)] = 3.0f;
}

// A swizzle writing three lanes of a vector variable leaves the fourth undefined: stored to
// global memory, that lane is a use. Writing every lane, in two swizzles, is clean.
// launch: swizzle_store_lane_y global=8 local=8 args=zeros:32:float32
kernel void swizzle_store_lane_y(global float4 *out) {
  float4 f;
  f.xzw = 4.2f;
  out[get_global_id(0)] = f;   // expect: uninitialized swizzle_store_lane_y
}

// launch: swizzle_store_all_lanes global=8 local=8 args=zeros:32:float32
kernel void swizzle_store_all_lanes(global float4 *out) {
  float4 f;
  f.xzw = 4.2f;
  f.y = 1.0f;
  out[get_global_id(0)] = f;
}

// launch: swizzle_store_xyz global=8 local=8 args=zeros:32:float32
kernel void swizzle_store_xyz(global float4 *out) {
  float4 f;
  f.xyz = (float3)(1.0f, 2.0f, 3.0f);
  out[get_global_id(0)] = f;   // expect: uninitialized swizzle_store_xyz
}

// launch: copy_then_use global=8 local=8 args=zeros:8,0
kernel void copy_then_use(global int *out, int clean) {
  int src[4], dst[4];
  src[0] = 1; src[1] = 2; src[2] = 3;
  if (clean)
    src[3] = 4;
  for (int i = 0; i < 4; i++)
    dst[i] = src[i];              // a copy: not a use
  out[get_global_id(0)] = dst[3];   // expect: uninitialized copy_then_use
}

// launch: copy_then_use_clean global=8 local=8 args=zeros:8,1
kernel void copy_then_use_clean(global int *out, int clean) {
  int src[4], dst[4];
  src[0] = 1; src[1] = 2; src[2] = 3;
  if (clean)
    src[3] = 4;
  for (int i = 0; i < 4; i++)
    dst[i] = src[i];
  out[get_global_id(0)] = dst[3];
}

// launch: host_uninitialized global=16 local=8 args=uninit:16,zeros:16
kernel void host_uninitialized(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;   // expect: uninitialized host_uninitialized
}

// launch: host_uninitialized_written global=16 local=8 args=uninit:16,zeros:16
kernel void host_uninitialized_written(global int *buf, global int *out) {
  size_t i = get_global_id(0);
  buf[i] = (int)i;
  out[i] = buf[i] + 1;
}

// launch: helper_partial_fill global=8 local=8 args=zeros:8,5
kernel void helper_partial_fill(global int *out, int n) {
  int v[8];
  fill(v, n);
  out[get_global_id(0)] = sum_positive(v, 8);
}

// launch: helper_full_fill global=8 local=8 args=zeros:8,8
kernel void helper_full_fill(global int *out, int n) {
  int v[8];
  fill(v, n);
  out[get_global_id(0)] = sum_positive(v, 8);
}

// launch: async_copy_then_read global=32 local=16 args=range:32,zeros:32
kernel void async_copy_then_read(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, in + 16 * get_group_id(0), 16, 0);
  wait_group_events(1, &e);
  int v = tmp[15 - get_local_id(0)];
  out[get_global_id(0)] = v > 3 ? v : -v;
}

// launch: local_counter global=32 local=16 args=zeros:2
kernel void local_counter(global int *out) {
  local int counter;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = counter;   // expect: uninitialized local_counter
}

// launch: local_counter_clean global=32 local=16 args=zeros:2
kernel void local_counter_clean(global int *out) {
  local int counter;
  if (get_local_id(0) == 0)
    counter = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = counter;
}

// launch: loop_sum global=16 local=8 args=zeros:16:float32,60
kernel void loop_sum(global float *out, int n) {
  float a[64];
  for (int i = 0; i < n; i++)
    a[i] = (float)i;
  float s = 0.0f;
  for (int i = 0; i < 64; i++)
    s += a[i];
  out[get_global_id(0)] = s;   // expect: uninitialized loop_sum
}

// launch: loop_sum_clean global=16 local=8 args=zeros:16:float32,64
kernel void loop_sum_clean(global float *out, int n) {
  float a[64];
  for (int i = 0; i < n; i++)
    a[i] = (float)i;
  float s = 0.0f;
  for (int i = 0; i < 64; i++)
    s += a[i];
  out[get_global_id(0)] = s;
}

// launch: reduction_clean global=32 local=16 args=range:32,zeros:2
kernel void reduction_clean(global const int *in, global int *out) {
  local int part[16];
  size_t l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 8; s > 0; s /= 2) {
    if (l < s)
      part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = part[0];
}

// launch: double_buffer_clean global=16 local=16 args=range:16,zeros:16
kernel void double_buffer_clean(global const int *in, global int *out) {
  local int buf[2][16];
  size_t l = get_local_id(0);
  buf[0][l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = 0; step < 4; step++) {
    buf[(step + 1) % 2][l] = buf[step % 2][(l + 1) % 16] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = buf[0][l];
}

// launch: local_argument global=16 local=8 args=zeros:16,local:32,0
kernel void local_argument(global int *out, local int *tmp, int clean) {
  size_t l = get_local_id(0);
  if (clean || l < 4)
    tmp[l] = (int)l * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 4) % 8];   // expect: uninitialized local_argument
}

// launch: local_argument_clean global=16 local=8 args=zeros:16,local:32,1
kernel void local_argument_clean(global int *out, local int *tmp, int clean) {
  size_t l = get_local_id(0);
  if (clean || l < 4)
    tmp[l] = (int)l * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 4) % 8];
}

// launch: pointer_never_set global=8 local=8 args=zeros:8,0
kernel void pointer_never_set(global int *out, int c) {
  int x = 5;
  int *p;
  if (c)
    p = &x;
  out[get_global_id(0)] = *p;   // expect: uninitialized pointer_never_set // expect: pointers pointer_never_set
}

// launch: pointer_always_set global=8 local=8 args=zeros:8,0
kernel void pointer_always_set(global int *out, int c) {
  int x = 5, y = 7;
  int *p = &y;
  if (c)
    p = &x;
  out[get_global_id(0)] = *p;
}

int twice_if_big(int v) {
  if (v > 3)   // expect: uninitialized value_to_helper
    return 2 * v;
  return v;
}

// launch: value_to_helper global=8 local=8 args=zeros:8,0
kernel void value_to_helper(global int *out, int clean) {
  int x;
  if (clean)
    x = 5;
  out[get_global_id(0)] = twice_if_big(x);   // expect: uninitialized value_to_helper
}

// launch: value_to_helper_clean global=8 local=8 args=zeros:8,1
kernel void value_to_helper_clean(global int *out, int clean) {
  int x;
  if (clean)
    x = 5;
  out[get_global_id(0)] = twice_if_big(x);
}
