// if / else-if chains, nested conditions, short-circuit && and ||, a ternary
// on scalars, conditions on floats including NaN.
__kernel void cf_if_chain(__global const int *a, __global const float *f,
                          __global int *out) {
  int i = get_global_id(0);
  int x = a[i];
  float y = f[i];
  int r;
  if (x < -1000)
    r = 1;
  else if (x < 0)
    r = 2 + (x & 3);
  else if (x == 0)
    r = 10;
  else if (x < 1000 && (x & 1))
    r = 20 + x % 7;
  else if (x < 1000 || y > 0.5f)
    r = 30;
  else
    r = 40 - (x >> 20);
  int s = 0;
  if (y > 0.0f) {
    if (y > 1.0f)
      s = 3;
    else
      s = 2;
  } else if (y != y) {
    s = 99;                       // NaN
  } else {
    s = (y == 0.0f) ? 4 : -1;
  }
  int t = (x > 5 && y < 0.25f) || (x < -5 && !(y >= 0.0f));
  out[3 * i + 0] = r;
  out[3 * i + 1] = s;
  out[3 * i + 2] = t;
}
