// NULL buffers (a None argument) and misaligned accesses, and clean twins.

int load_at(global const int *p, int i) { return p[i]; }   // expect: pointers null_in_helper_loop

// launch: null_write global=16 local=4 args=null,zeros:16
kernel void null_write(global int *p, global int *out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i == 5)
    p[i] = 2;   // expect: pointers null_write
}

// launch: null_in_helper_loop global=8 local=8 args=null,zeros:8
kernel void null_in_helper_loop(global const int *p, global int *out) {
  int acc = 0;
  for (int k = 0; k < 4; k++)
    acc += load_at(p, k);
  out[get_global_id(0)] = acc;
}

// launch: null_constant global=8 local=8 args=null,zeros:8
kernel void null_constant(constant float *table, global int *out) {
  out[get_global_id(0)] = (int)table[get_global_id(0)];   // expect: pointers null_constant
}

// launch: misaligned_read global=8 local=8 args=zeros:40,zeros:8
kernel void misaligned_read(global int *p, global int *out) {
  size_t i = get_global_id(0);
  global char *c = (global char *)p;
  out[i] = *(global int *)(c + 4 * i + 2);   // expect: pointers misaligned_read
}

// launch: misaligned_write global=8 local=8 args=zeros:40,zeros:8
kernel void misaligned_write(global int *p, global int *out) {
  size_t i = get_global_id(0);
  global char *c = (global char *)p;
  *(global float2 *)(c + 8 * i + 4) = (float2)(1.0f, 2.0f);   // expect: pointers misaligned_write
  out[i] = 1;
}

// ----- clean twins -------------------------------------------------------------------------

// launch: null_tested global=16 local=4 args=null,zeros:16
kernel void null_tested(global int *p, global int *out) {
  size_t i = get_global_id(0);
  if (p)
    p[i] = 2;
  out[i] = p == 0 ? 7 : 0;
}

// launch: bytes_anywhere global=8 local=8 args=zeros:40,zeros:8
kernel void bytes_anywhere(global int *p, global int *out) {
  size_t i = get_global_id(0);
  global char *c = (global char *)p;
  c[4 * i + 3] = 1;
  out[i] = c[4 * i + 1] + *(global short *)(c + 4 * i + 2);
}

// launch: vload_unaligned global=4 local=4 args=range:32:float32,zeros:16:float32
kernel void vload_unaligned(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float4 v = vload4(0, in + 4 * i + 1);   // vload4 needs only float alignment
  vstore4(v, 0, out + 4 * i);
}

// launch: async_copy_from_null global=16 local=16 args=null,zeros:16
kernel void async_copy_from_null(global const int *p, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, p, 16, 0);   // expect: pointers async_copy_from_null
  wait_group_events(1, &e);
  out[get_local_id(0)] = 1;
}

// launch: misaligned_local global=8 local=8 args=zeros:8
kernel void misaligned_local(global int *out) {
  local int tmp[16];
  size_t l = get_local_id(0);
  tmp[l] = 1;
  tmp[l + 8] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  local char *c = (local char *)tmp;
  out[get_global_id(0)] = *(local int *)(c + 4 * l + 1);   // expect: pointers misaligned_local
}

// launch: misaligned_private global=8 local=8 args=zeros:8
kernel void misaligned_private(global int *out) {
  int priv[4] = {1, 2, 3, (int)get_global_id(0)};
  char *c = (char *)priv;
  out[get_global_id(0)] = *(int *)(c + 6);   // expect: pointers misaligned_private
}

// launch: aligned_private global=8 local=8 args=zeros:8
kernel void aligned_private(global int *out) {
  int priv[4] = {1, 2, 3, (int)get_global_id(0)};
  char *c = (char *)priv;
  out[get_global_id(0)] = *(int *)(c + 12) + c[5];
}

typedef struct __attribute__((packed)) { char tag; int value; short small; } Packed;

// Members of a packed struct sit at any byte: no alignment to check.
// launch: packed_members global=8 local=8 args=zeros:57:uint8,zeros:8
kernel void packed_members(global Packed *p, global int *out) {
  size_t k = get_global_id(0);
  out[k] = p[k].value + p[k].small;
  p[k].value = 3;
}

// launch: misaligned_constant global=4 local=4 args=range:12,zeros:4
kernel void misaligned_constant(constant int *table, global int *out) {
  constant char *c = (constant char *)table + 1;
  out[get_global_id(0)] = *(constant int *)(c + 4 * get_global_id(0));   // expect: pointers misaligned_constant
}

// launch: misaligned_atomic global=4 local=4 args=zeros:4
kernel void misaligned_atomic(global int *p) {
  atomic_add((global int *)((global char *)p + 2), 1);   // expect: pointers misaligned_atomic
}
