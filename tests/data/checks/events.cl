// The events check (async work-group copies and wait_group_events), and the races and barriers
// checks on async copies: a copy is done, and its memory accesses count, where the group waits
// for its event (as Oclgrind does).

// A copy whose event nobody waits for.
// launch: unwaited global=32 local=16 args=range:32,zeros:32
kernel void unwaited(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);   // expect: events unwaited
  out[get_global_id(0)] = 2 * in[get_global_id(0)];
}

// Its clean twin waits.
// launch: waited global=32 local=16 args=range:32,zeros:32
kernel void waited(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = 2 * tmp[get_local_id(0)];
}

// Waiting twice for one event: the second wait's event is no longer valid (an event listed
// twice in one wait is fine: the clean twin below).
// launch: waited_twice global=16 local=16 args=range:16,zeros:16
kernel void waited_twice(global const int *in, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, in, 16, 0);
  wait_group_events(1, &e);
  out[get_local_id(0)] = tmp[get_local_id(0)];
  wait_group_events(1, &e);                        // expect: events waited_twice
}

// launch: listed_twice global=16 local=16 args=range:16,zeros:16
kernel void listed_twice(global const int *in, global int *out) {
  local int tmp[16];
  event_t events[3];
  events[0] = async_work_group_copy(tmp, in, 8, 0);
  events[1] = async_work_group_copy(tmp + 8, in + 8, 8, 0);
  events[2] = events[0];
  wait_group_events(3, events);
  out[get_local_id(0)] = tmp[15 - get_local_id(0)];
}

// A wait for the null event (no copy made it).
// launch: null_event global=16 local=16 args=zeros:16
kernel void null_event(global int *out) {
  event_t e = 0;
  wait_group_events(1, &e);                        // expect: events null_event
  out[get_global_id(0)] = 1;
}

// Work-items that wait for different events: divergence at the wait; the group waits for the
// first work-item's, so the other copy is never waited for.
// launch: divergent_wait global=16 local=16 args=range:16,zeros:16
kernel void divergent_wait(global const int *in, global int *out) {
  local int tmp[16];
  event_t events[2];
  events[0] = async_work_group_copy(tmp, in, 8, 0);
  events[1] = async_work_group_copy(tmp + 8, in + 8, 8, 0);   // expect: events divergent_wait
  wait_group_events(1, events + get_local_id(0) % 2);           // expect: barriers divergent_wait
  out[get_local_id(0)] = 1;
}

// Chained copies share an event (async_work_group_copy(..., event) returns it): one wait is
// enough, in a loop or a helper function.
void fetch_rows(local int *tile, global const int *in, event_t *e) {
  for (int r = 0; r < 4; r++)
    *e = async_work_group_copy(tile + 4 * r, in + 4 * r, 4, *e);
}

// launch: chained global=16 local=16 args=range:16,zeros:16
kernel void chained(global const int *in, global int *out) {
  local int tile[16];
  event_t e = 0;
  fetch_rows(tile, in, &e);
  wait_group_events(1, &e);
  out[get_local_id(0)] = tile[15 - get_local_id(0)];
}

// Double buffering: the next tile is fetched while this one is used; every copy waited for,
// barriers between the uses of a buffer and the copy that overwrites it.
// launch: double_buffered global=32 local=8 args=range:128,zeros:32
kernel void double_buffered(global const int *in, global int *out) {
  local int buf[2][8];
  const size_t l = get_local_id(0), g = get_group_id(0);
  int acc = 0;
  event_t e = async_work_group_copy(buf[0], in + g * 32, 8, 0);
  for (int t = 0; t < 4; t++) {
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < 4)
      e = async_work_group_copy(buf[(t + 1) % 2], in + g * 32 + (t + 1) * 8, 8, 0);
    acc += buf[t % 2][l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

// Work-items touch the copy's memory before the group waits for it: the local destination
// written before the copy (same barrier interval), the global destination written while the
// copy is pending, the local source written before the wait.
// launch: local_target_race global=16 local=16 args=range:16,zeros:16
kernel void local_target_race(global const int *in, global int *out) {
  local int tmp[16];
  tmp[get_local_id(0)] = 0;
  event_t e = async_work_group_copy(tmp, in, 16, 0);   // expect: races local_target_race
  wait_group_events(1, &e);
  out[get_local_id(0)] = tmp[get_local_id(0)];
}

// launch: global_target_race global=16 local=16 args=zeros:16
kernel void global_target_race(global int *out) {
  local int tmp[16];
  tmp[get_local_id(0)] = (int)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tmp, 16, 0);   // expect: races global_target_race
  out[get_local_id(0)] = 7;
  wait_group_events(1, &e);
}

// The clean twin: the same accesses, ordered by a barrier before the copy and after the wait.
// launch: ordered_copy global=16 local=16 args=zeros:16
kernel void ordered_copy(global int *out) {
  local int tmp[16];
  tmp[get_local_id(0)] = (int)get_local_id(0);
  out[get_local_id(0)] = 7;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tmp, 16, 0);
  wait_group_events(1, &e);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_local_id(0)] += 1;
}
