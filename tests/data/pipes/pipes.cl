// Pipe kernels for tests/jit/test_pipes.py (OpenCL C 2.0 §6.13.16). Compiled by clang-15 +
// llvm-spirv-15 into pipes.spv (see README.md) and by spirvkit cc in the tests.

typedef struct { int id; float x; } item_t;

kernel void producer(global const int *src, write_only pipe int out, global int *status) {
    size_t gid = get_global_id(0);
    status[gid] = write_pipe(out, &src[gid]);
}

kernel void consumer(read_only pipe int in, global int *dst, global int *status) {
    size_t gid = get_global_id(0);
    int v = -1;
    status[gid] = read_pipe(in, &v);
    dst[gid] = v;
}

// Each work-item reserves two packets, writes gid * 10 and gid * 10 + 1, commits.
kernel void reserve_writer(write_only pipe int out, global int *ok) {
    int gid = get_global_id(0);
    reserve_id_t r = reserve_write_pipe(out, 2);
    ok[gid] = is_valid_reserve_id(r);
    if (is_valid_reserve_id(r)) {
        int a = gid * 10, b = gid * 10 + 1;
        write_pipe(out, r, 0, &a);
        write_pipe(out, r, 1, &b);
        commit_write_pipe(out, r);
    }
}

// Each work-item reserves two packets and reads them (second first), commits.
kernel void reserve_reader(read_only pipe int in, global int2 *dst, global int *ok) {
    int gid = get_global_id(0);
    reserve_id_t r = reserve_read_pipe(in, 2);
    ok[gid] = is_valid_reserve_id(r);
    int x = -1, y = -1;
    if (is_valid_reserve_id(r)) {
        read_pipe(in, r, 1, &y);
        read_pipe(in, r, 0, &x);
        commit_read_pipe(in, r);
    }
    dst[gid] = (int2)(x, y);
}

// One reservation per work-group: the group's packets are contiguous, in local id order.
kernel void group_writer(write_only pipe int out, global int *ok) {
    int gid = get_global_id(0);
    reserve_id_t r = work_group_reserve_write_pipe(out, get_local_size(0));
    ok[gid] = is_valid_reserve_id(r);
    if (is_valid_reserve_id(r)) {
        write_pipe(out, r, get_local_id(0), &gid);
        work_group_commit_write_pipe(out, r);
    }
}

kernel void group_reader(read_only pipe int in, global int *dst, global int *ok) {
    int gid = get_global_id(0);
    reserve_id_t r = work_group_reserve_read_pipe(in, get_local_size(0));
    ok[gid] = is_valid_reserve_id(r);
    int v = -1;
    if (is_valid_reserve_id(r)) {
        read_pipe(in, r, get_local_id(0), &v);
        work_group_commit_read_pipe(in, r);
    }
    dst[gid] = v;
}

// One reservation per sub-group (cl_khr_subgroups).
kernel void sub_group_writer(write_only pipe int out, global int *ok) {
    int gid = get_global_id(0);
    reserve_id_t r = sub_group_reserve_write_pipe(out, get_sub_group_size());
    ok[gid] = is_valid_reserve_id(r);
    if (is_valid_reserve_id(r)) {
        write_pipe(out, r, get_sub_group_local_id(), &gid);
        sub_group_commit_write_pipe(out, r);
    }
}

kernel void sub_group_reader(read_only pipe int in, global int *dst) {
    int gid = get_global_id(0);
    reserve_id_t r = sub_group_reserve_read_pipe(in, get_sub_group_size());
    int v = -1;
    if (is_valid_reserve_id(r)) {
        read_pipe(in, r, get_sub_group_local_id(), &v);
        sub_group_commit_read_pipe(in, r);
    }
    dst[gid] = v;
}

kernel void counts(read_only pipe int in, write_only pipe int out, global uint *o) {
    o[0] = get_pipe_num_packets(in);
    o[1] = get_pipe_max_packets(in);
    o[2] = get_pipe_num_packets(out);
    o[3] = get_pipe_max_packets(out);
}

// A pipe passed down to helper functions; struct packets.
int forward_one(read_only pipe item_t in, write_only pipe item_t out) {
    item_t it;
    if (read_pipe(in, &it) != 0)
        return 0;
    it.x = it.x * 2.0f;
    it.id += 1000;
    return write_pipe(out, &it) == 0;
}

kernel void stage(read_only pipe item_t in, write_only pipe item_t out, global int *moved) {
    moved[get_global_id(0)] = forward_one(in, out);
}
