// OpenCL 2.0 pipes: producer/consumer kernels with reservations and
// work-group reservations.
kernel void producer(global const int *src, write_only pipe int p) {
  int v = src[get_global_id(0)];
  write_pipe(p, &v);
  reserve_id_t r = reserve_write_pipe(p, 2);
  if (is_valid_reserve_id(r)) {
    write_pipe(p, r, 0, &v);
    write_pipe(p, r, 1, &v);
    commit_write_pipe(p, r);
  }
  reserve_id_t wr = work_group_reserve_write_pipe(p, 1);
  if (is_valid_reserve_id(wr)) {
    write_pipe(p, wr, 0, &v);
    work_group_commit_write_pipe(p, wr);
  }
}

kernel void consumer(read_only pipe int p, global int *dst) {
  int v = 0;
  if (read_pipe(p, &v) == 0)
    dst[get_global_id(0)] = v + (int)get_pipe_num_packets(p) +
                            (int)get_pipe_max_packets(p);
}
