// A sum with a data race (issue 18's benchmark of the checks): every work-item adds its
// element to total[0] with a plain read-modify-write, no atomic, no barrier.
kernel void racy_sum(global const int *data, global int *total, const uint n) {
  const uint i = get_global_id(0);
  if (i < n)
    total[0] += data[i];
}
