// Writes to memory the kernel must not write: a read-only numpy array (ro:N) or a __constant
// buffer; reads of memory it must not read: a buffer declared write-only (wo:N); and clean
// twins that only read, or only write, them.

void store_at(global int *p, int i, int v) { p[i] = v; }   // expect: access helper_in_loop

// launch: write_read_only global=16 local=4 args=ro:16,zeros:16
kernel void write_read_only(global int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
  if (i == 3)
    in[i] = 7;   // expect: access write_read_only
}

// launch: helper_in_loop global=16 local=4 args=ro:16,zeros:16
kernel void helper_in_loop(global int *in, global int *out) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 3; k++)
    if (i == 2)
      store_at(in, k, 1);
  out[i] = in[i];
}

// launch: atomic_on_read_only global=16 local=16 args=ro:4,zeros:16
kernel void atomic_on_read_only(global int *counter, global int *out) {
  out[get_global_id(0)] = atomic_inc(counter);   // expect: access atomic_on_read_only
}

// launch: write_constant global=8 local=8 args=range:8,zeros:8
kernel void write_constant(constant int *c, global int *out) {
  size_t i = get_global_id(0);
  global int *w = (global int *)(ulong)c;   // an address cast: the compiler cannot see it
  if (i == 1)
    w[i] = 9;   // expect: access write_constant
  out[i] = c[i];
}

// ----- clean twins -------------------------------------------------------------------------

// launch: read_read_only global=16 local=4 args=ro:16,zeros:16
kernel void read_read_only(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2 + atomic_load((global atomic_int *)in);
}

// launch: read_constant global=8 local=8 args=range:8,zeros:8
kernel void read_constant(constant int *c, global int *out) {
  out[get_global_id(0)] = c[get_global_id(0)] + 1;
}

// launch: copy_from_read_only global=16 local=16 args=ro:16,zeros:16
kernel void copy_from_read_only(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, in, 16, 0);
  wait_group_events(1, &e);
  out[get_local_id(0)] = tmp[15 - get_local_id(0)];
}

// launch: async_copy_into_read_only global=16 local=16 args=ro:16,zeros:16
kernel void async_copy_into_read_only(global int *ro, global int *out) {
  local int tmp[16];
  tmp[get_local_id(0)] = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(ro, tmp, 16, 0);   // expect: access async_copy_into_read_only
  wait_group_events(1, &e);
  out[get_local_id(0)] = ro[get_local_id(0)];
}

// launch: write_through_generic global=8 local=8 args=ro:8,zeros:8
kernel void write_through_generic(global int *in, global int *out) {
  int *g = in + get_global_id(0);   // a generic pointer (OpenCL C 2.0)
  out[get_global_id(0)] = *g;
  *g = 0;   // expect: access write_through_generic
}

int read_at(global int *p, size_t i) { return p[i]; }   // expect: access read_write_only_in_helper

// launch: read_write_only global=16 local=4 args=range:16,wo:16
kernel void read_write_only(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] += in[i];   // expect: access read_write_only
}

// launch: read_write_only_in_helper global=8 local=8 args=wo:8,zeros:8
kernel void read_write_only_in_helper(global int *wo, global int *out) {
  int acc = 0;
  for (size_t k = 0; k < 4; k++)
    acc += read_at(wo, k);
  out[get_global_id(0)] = acc;
}

// launch: write_write_only global=16 local=4 args=range:16,wo:16
kernel void write_write_only(global const int *in, global int *out) {
  out[get_global_id(0)] = in[get_global_id(0)] + 1;
}

// launch: write_component_write_only global=4 local=4 args=wo:16
kernel void write_component_write_only(global int4 *out) {
  out[get_global_id(0)].x = 42;   // compiled as load, insert, store: still only a write
}
