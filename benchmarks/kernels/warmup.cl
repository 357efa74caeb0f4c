// Not a benchmark kernel: compiled and run once by bench_run.py on each side
// before anything is timed, so that one-time process costs (LLVM start-up,
// thread pools) are not charged to the first kernel's first-launch figure.
kernel void warmup(global float *x, const float s) {
  size_t i = get_global_id(0);
  x[i] = x[i] * s + 1.0f;
}
