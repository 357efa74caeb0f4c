// Synchronisation inside called functions (issue 15, item 4) for tests/jit/test_sync_in_functions.py.
// Compiled at -O0 (see README.md), so every helper stays a function the kernel calls.

int level3(local int *tmp, int v) {
    size_t lid = get_local_id(0), n = get_local_size(0);
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int mirrored = tmp[n - 1 - lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    return mirrored + work_group_reduce_add(v);
}

int level2(local int *tmp, int v) {
    return level3(tmp, v) + 1000 * work_group_scan_inclusive_add(1);
}

int level1(local int *tmp, int v) {
    int s = 0;
    for (int i = 0; i < 2; i++)
        s += level2(tmp, v + i);
    return s;
}

kernel void depth3(global const int *in, global int *out, local int *tmp) {
    size_t gid = get_global_id(0);
    out[gid] = level1(tmp, in[gid]);
}

void fetch(local float *dst, global const float *src, int n) {
    event_t e = async_work_group_copy(dst, src, n, 0);
    wait_group_events(1, &e);
}

float rotate_left(local float *t) {
    size_t lid = get_local_id(0), n = get_local_size(0);
    return t[(lid + 1) % n] + work_group_broadcast(t[lid], 0);
}

kernel void async_in_helper(global const float *src, global float *dst, local float *t) {
    size_t n = get_local_size(0);
    fetch(t, src + get_group_id(0) * n, n);
    dst[get_global_id(0)] = rotate_left(t);
}

int sub_group_mix(int v) {
    return sub_group_reduce_max(v) * 100 + sub_group_scan_exclusive_add(v) + sub_group_broadcast(v, 0) * 10000;
}

int through(int v) { return sub_group_mix(v) + (work_group_any(v == 3) ? 1000000 : 0); }

kernel void sub_groups_in_helper(global const int *in, global int *out) {
    size_t gid = get_global_id(0);
    out[gid] = through(in[gid]);
}

void emit_group(write_only pipe int out, int v) {
    reserve_id_t r = work_group_reserve_write_pipe(out, get_local_size(0));
    if (is_valid_reserve_id(r)) {
        write_pipe(out, r, get_local_id(0), &v);
        work_group_commit_write_pipe(out, r);
    }
}

kernel void pipe_group_in_helper(write_only pipe int out) {
    emit_group(out, (int)get_global_id(0) * 3);
}
