// Data races: conflicting accesses (one a write, not both atomic) by work-items of one group
// with no barrier between them, or by different groups; and clean twins (barrier-separated
// phases, atomics, disjoint bytes of one word, each work-item its own element).

// launch: local_write_write global=32 local=16 args=zeros:32
kernel void local_write_write(global int *out) {
  local int v;
  v = (int)get_local_id(0);                        // expect: races local_write_write
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = v;
}

// launch: local_broadcast global=32 local=16 args=zeros:32
kernel void local_broadcast(global int *out) {
  local int v;
  if (get_local_id(0) == 0)
    v = (int)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = v;
}

// launch: local_read_write global=32 local=16 args=zeros:32
kernel void local_read_write(global int *out) {
  local int t[16];
  size_t l = get_local_id(0);
  t[l] = (int)l;
  if (l > 0)
    out[get_global_id(0)] = t[l - 1];              // expect: races local_read_write
}

// launch: local_exchange global=32 local=16 args=zeros:32
kernel void local_exchange(global int *out) {
  local int t[16];
  size_t l = get_local_id(0);
  t[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[(l + 1) % 16];
}

// launch: global_write_write global=32 local=16 args=zeros:16
kernel void global_write_write(global int *out) {
  out[get_global_id(0) / 2] = 1;                   // expect: races global_write_write
}

// launch: global_own_element global=32 local=16 args=zeros:32
kernel void global_own_element(global int *out) {
  out[get_global_id(0)] = 1;
}

// launch: between_groups global=64 local=16 args=zeros:1
kernel void between_groups(global int *out) {
  if (get_local_id(0) == 0)
    out[0] = (int)get_group_id(0);                 // expect: races between_groups
}

// launch: between_groups_atomic global=64 local=16 args=zeros:1
kernel void between_groups_atomic(global int *out) {
  if (get_local_id(0) == 0)
    atomic_add(out, (int)get_group_id(0));
}

// A compare-exchange writes only when it succeeds: work-item 0's (the word is 0) races with
// the others' plain reads; one that never matches is an atomic read, and reads do not race.
// launch: exchange_then_read global=16 local=16 args=zeros:1,zeros:16
kernel void exchange_then_read(global int *p, global int *out) {
  atomic_cmpxchg(p, 0, 5);
  out[get_global_id(0)] = *p;                      // expect: races exchange_then_read
}

// launch: failed_exchange_then_read global=16 local=16 args=zeros:1,zeros:16
kernel void failed_exchange_then_read(global int *p, global int *out) {
  atomic_cmpxchg(p, -1, 5);
  out[get_global_id(0)] = *p;
}

// launch: atomic_and_plain global=16 local=16 args=zeros:1
kernel void atomic_and_plain(global int *counter) {
  if (get_local_id(0) == 0)
    *counter = 100;
  else
    atomic_inc(counter);                           // expect: races atomic_and_plain
}

void set_one(global int *p) {
  *p = 1;                                          // expect: races through_helper
}

// launch: through_helper global=16 local=16 args=zeros:2
kernel void through_helper(global int *out) {
  set_one(&out[get_global_id(0) % 2]);
}

// launch: in_a_loop global=16 local=16 args=zeros:16,3
kernel void in_a_loop(global int *out, int n) {
  local int acc[16];
  size_t l = get_local_id(0);
  acc[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++)
    acc[(l + k) % 16] += 1;                        // expect: races in_a_loop
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = acc[l];
}

// launch: in_a_loop_with_barriers global=16 local=16 args=zeros:16,3
kernel void in_a_loop_with_barriers(global int *out, int n) {
  local int acc[16];
  size_t l = get_local_id(0);
  acc[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++) {
    acc[(l + k) % 16] += 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc[l];
}

// launch: reduce_tree global=64 local=32 args=range:64,zeros:2
kernel void reduce_tree(global const int *in, global int *out) {
  local int t[32];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 16; s > 0; s >>= 1) {
    if (l < s)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
}

// launch: neighbour_bytes global=64 local=32 args=zeros:64:uint8
kernel void neighbour_bytes(global uchar *out) {
  local uchar b[32];
  size_t l = get_local_id(0);
  b[l] = (uchar)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b[l ^ 1];
}

// The last work-item reads plainly a counter the others incremented atomically: its own
// increment came last, yet the others' race with the read. After a barrier, they do not.
// launch: count_then_read global=16 local=16 args=zeros:1,zeros:1
kernel void count_then_read(global int *counter, global int *out) {
  atomic_inc(counter);
  if (get_local_id(0) == 15)
    out[0] = *counter;                             // expect: races count_then_read
}

// launch: count_barrier_read global=16 local=16 args=zeros:1,zeros:1
kernel void count_barrier_read(global int *counter, global int *out) {
  atomic_inc(counter);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 15)
    out[0] = *counter;
}

// Each group initialises its own counter, then increments it: the barrier orders the group's
// own work-items, and no other group touches it.
// launch: own_counter global=64 local=16 args=zeros:4,zeros:4
kernel void own_counter(global int *counters, global int *out) {
  size_t g = get_group_id(0);
  if (get_local_id(0) == 0)
    counters[g] = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_inc(&counters[g]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[g] = counters[g];
}
