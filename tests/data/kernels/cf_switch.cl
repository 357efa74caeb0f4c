// switch with fallthrough, a default in the middle, sparse and dense case
// values, a switch inside a loop with continue/break and a goto out of it.
// The selectors come from memory (not x & 15) so clang keeps i32 switches
// (llvm-spirv-15 cannot translate the i4 switch that a masked selector gives).
__kernel void cf_switch(__global const int *a, __global const int *sel,
                        __global int *out) {
  int i = get_global_id(0);
  int x = a[i];
  int r = 0;
  switch (sel[i]) {               // sel in -3 .. 20
  case 0:
    r += 1;
  case 1:                         // fallthrough from 0
    r += 10;
    break;
  case 2:
  case 3:
    r = 100;
    break;
  default:
    r = -1;
  case 7:                         // default falls through into 7
    r += 1000;
    break;
  case 9:
    r = x * 2;
  case 12:
    r -= 3;
  }
  int s = 0;
  switch (x) {
  case -100000:
    s = 1;
    break;
  case 17:
    s = 2;
    break;
  case 1000:
    s = 3;
    break;
  case 65535:
    s = 4;
    break;
  default:
    s = x >> 28;
  }
  int acc = 0;
  for (int k = 0; k < 12; k++) {
    switch (sel[(i + k) & 63]) {
    case 0:
    case 5:
      continue;
    case 1:
    case 6:
      acc += k;
      break;
    case 2:
      acc ^= k << 2;
      if (acc > 60)
        goto done;
      break;
    default:
      acc -= 1;
    }
    acc += 2;
  }
done:
  out[3 * i + 0] = r;
  out[3 * i + 1] = s;
  out[3 * i + 2] = acc;
}
