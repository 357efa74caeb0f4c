// Control flow: switch with fallthrough and default, nested loops with
// break/continue, do-while, early return, ternaries.
int classify(int v) {
  switch (v) {
  case -1:
    return 100;
  case 0:
  case 1:
    v += 10;
    // fallthrough
  case 2:
    return v * 2;
  case 1000000:
    return -5;
  default:
    break;
  }
  return v > 0 ? 1 : -1;
}

kernel void control_flow(global int *out, global const int *in, int n) {
  size_t gid = get_global_id(0);
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    int v = in[i];
    if (v == 42)
      continue;
    if (v < -1000)
      break;
    for (int j = 0; j < 4; j++) {
      if ((v + j) & 1)
        acc += classify(v + j);
      else
        acc -= j;
    }
  }
  int k = 0;
  do {
    acc ^= k * 3;
    k++;
  } while (k < (int)gid % 7);
  while (acc > 1000)
    acc /= 3;
  if (gid == 0) {
    out[0] = acc;
    return;
  }
  out[gid] = acc < 0 ? -acc : acc;
}

kernel void switch_long(global long *out, long sel) {
  long r;
  switch (sel) {
  case 0x100000000L: r = 1; break;
  case -1L: r = 2; break;
  case 9223372036854775807L: r = 3; break;
  case 7: r = 4; break;
  default: r = sel;
  }
  out[get_global_id(0)] = r;
}
