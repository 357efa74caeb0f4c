// char/short/uchar/ushort arithmetic: promotion to int, truncation on store,
// sign vs zero extension, mixed signed/unsigned comparisons.
__kernel void int_narrow_types(__global const char *c, __global const uchar *uc,
                               __global const short *s, __global const ushort *us,
                               __global char *oc, __global uchar *ouc,
                               __global short *os, __global ushort *ous,
                               __global int *oi) {
  int i = get_global_id(0);
  char a = c[i];
  uchar b = uc[i];
  short h = s[i];
  ushort g = us[i];
  oc[2 * i] = a + b;
  oc[2 * i + 1] = a * 3 - (char)b;
  ouc[2 * i] = b * b;
  ouc[2 * i + 1] = (uchar)(a >> 1) + b;
  os[2 * i] = h * (short)a;
  os[2 * i + 1] = h - (short)g;
  ous[2 * i] = g + (ushort)h;
  ous[2 * i + 1] = g >> 3 | (ushort)(b << 8);
  oi[4 * i + 0] = a + h + b + g;           // all promoted to int
  oi[4 * i + 1] = (a < b) + 2 * (h < (short)g) + 4 * ((uint)a < (uint)b);
  oi[4 * i + 2] = (int)(uchar)a - (int)(char)b;
  oi[4 * i + 3] = (int)(ushort)h + (int)(short)g;
}
