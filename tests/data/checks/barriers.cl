// Barrier divergence: work-items of one group that do not all reach the same barrier or
// work-group function the same number of times, and clean twins.

void sync_all(void) { barrier(CLK_LOCAL_MEM_FENCE); }   // expect: barriers helper_divergent

// launch: divergent_if global=32 local=16 args=zeros:32
kernel void divergent_if(global int *out) {
  local int tmp[16];
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  if (l < 8)
    barrier(CLK_LOCAL_MEM_FENCE);   // expect: barriers divergent_if
  out[get_global_id(0)] = tmp[l];
}

// launch: different_barriers global=16 local=16 args=zeros:16
kernel void different_barriers(global int *out) {
  size_t l = get_local_id(0);
  if (l & 1)
    barrier(CLK_LOCAL_MEM_FENCE);   // expect: barriers different_barriers
  else
    barrier(CLK_GLOBAL_MEM_FENCE);  // expect: barriers different_barriers
  out[get_global_id(0)] = 1;
}

// launch: loop_trip_counts global=16 local=16 args=zeros:16,2
kernel void loop_trip_counts(global int *out, int n) {
  local int tmp[16];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int k = 0; k < (int)(l % 3) + n; k++) {
    tmp[l] = k;
    barrier(CLK_LOCAL_MEM_FENCE);   // expect: barriers loop_trip_counts
    acc += tmp[(l + 1) % 16];
    barrier(CLK_LOCAL_MEM_FENCE);   // expect: barriers loop_trip_counts
  }
  out[get_global_id(0)] = acc;
}

// launch: helper_divergent global=16 local=8 args=zeros:16
kernel void helper_divergent(global int *out) {
  if (get_local_id(0) != 5)
    sync_all();
  out[get_global_id(0)] = 2;
}

// launch: divergent_collective global=16 local=16 args=zeros:16
kernel void divergent_collective(global int *out) {
  int v = 1;
  if (get_local_id(0) < 4)
    v = work_group_reduce_add(v);   // expect: barriers divergent_collective
  out[get_global_id(0)] = v;
}

// launch: early_return global=64 local=32 args=zeros:64
kernel void early_return(global int *out) {
  size_t g = get_global_id(0);
  if (g == 40)
    return;
  barrier(CLK_GLOBAL_MEM_FENCE);   // expect: barriers early_return
  out[g] = 1;
}

// An inner loop the executor turns inside out (loop cuts, see the clean twin below), then a
// barrier only some work-items reach.
// launch: cut_loop_then_divergent global=32 local=16 args=range:512,zeros:32,16
kernel void cut_loop_then_divergent(global const int *m, global int *out, int n) {
  int acc = 0;
  for (int k = 0; k < n; k++)
    acc += m[k * 32 + get_global_id(0)];
  if (get_local_id(0) < 5)
    barrier(CLK_GLOBAL_MEM_FENCE);   // expect: barriers cut_loop_then_divergent
  out[get_global_id(0)] = acc;
}

// ----- clean twins -------------------------------------------------------------------------

// launch: uniform_loop global=32 local=16 args=zeros:32,3
kernel void uniform_loop(global int *out, int n) {
  local int tmp[16];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int k = 0; k < n; k++) {
    tmp[l] = k + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += tmp[(l + 1) % 16];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

// launch: helper_all global=16 local=8 args=zeros:16
kernel void helper_all(global int *out) {
  sync_all();
  out[get_global_id(0)] = 2;
}

// launch: tree_reduction global=64 local=32 args=range:64,zeros:2,local:128
kernel void tree_reduction(global const int *in, global int *sums, local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    sums[get_group_id(0)] = scratch[0];
}

// launch: double_buffer global=16 local=16 args=range:16,zeros:16,4
kernel void double_buffer(global const int *in, global int *out, int steps) {
  local int buf[2][16];
  size_t l = get_local_id(0);
  buf[0][l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  int cur = 0;
  for (int s = 0; s < steps; s++) {
    buf[1 - cur][l] = buf[cur][(l + 1) % 16] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    cur = 1 - cur;
  }
  out[l] = buf[cur][l];
}

// launch: collectives global=32 local=16 args=zeros:32
kernel void collectives(global int *out) {
  int l = (int)get_local_id(0);
  int sum = work_group_reduce_add(l);
  int scan = work_group_scan_inclusive_add(l);
  int b = work_group_broadcast(l * 3, 2);
  out[get_global_id(0)] = sum + scan + b + (work_group_all(l >= 0) ? 1 : 0);
}

// An inner loop the executor turns inside out (loop cuts: work-items in different iterations
// there is legitimate) next to a real barrier.
// launch: cut_loop_and_barrier global=32 local=16 args=range:512,zeros:32,16
kernel void cut_loop_and_barrier(global const int *m, global int *out, int n) {
  local int tmp[16];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int k = 0; k < n; k++)
    acc += m[k * 32 + get_global_id(0)];
  tmp[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[15 - l];
}

// launch: divergent_async_copy global=16 local=16 args=range:16,zeros:16
kernel void divergent_async_copy(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = 0;
  if (get_local_id(0) < 8)
    e = async_work_group_copy(tmp, in, 16, 0);   // expect: barriers divergent_async_copy
  wait_group_events(1, &e);                        // expect: barriers divergent_async_copy
  out[get_global_id(0)] = tmp[get_local_id(0)];   // (the group waits for the first work-item's copy)
}

// Every work-item reaches the copy, but they disagree on its count, or on its pointers (the
// group copies once, with one work-item's operands): divergence at the copy. The clean twin
// passes the same operands everywhere, from a loop.
// launch: async_copy_count_differs global=16 local=16 args=range:16,zeros:16
kernel void async_copy_count_differs(global const int *in, global int *out) {
  local int tmp[16];
  size_t n = get_local_id(0) == 15 ? 1 : 16;
  event_t e = async_work_group_copy(tmp, in, n, 0);   // expect: barriers async_copy_count_differs
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}

// launch: async_copy_offset_differs global=16 local=16 args=range:16,zeros:16
kernel void async_copy_offset_differs(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = 0;
  for (int j = 0; j < 4; j++) {
    int at = (get_local_id(0) == 2 && j == 2) ? 0 : 4 * j;
    e = async_work_group_copy(tmp + at, in + at, 4, e);   // expect: barriers async_copy_offset_differs
  }
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];   // (work-item 0's offsets: every element copied)
}

// launch: async_copy_in_a_loop global=16 local=16 args=range:16,zeros:16
kernel void async_copy_in_a_loop(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = 0;
  for (int j = 0; j < 4; j++)
    e = async_work_group_copy(tmp + 4 * j, in + 4 * j, 4, e);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
