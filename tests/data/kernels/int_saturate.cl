// add_sat / sub_sat on char, uchar, short, ushort, int, uint, long, ulong.
__kernel void int_add_sub_sat(__global const int *a, __global const int *b,
                              __global char *oc, __global uchar *ouc,
                              __global short *os, __global ushort *ous,
                              __global int *oi, __global uint *oui,
                              __global long *ol, __global ulong *oul) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  oc[2 * i] = add_sat((char)x, (char)y);
  oc[2 * i + 1] = sub_sat((char)x, (char)y);
  ouc[2 * i] = add_sat((uchar)x, (uchar)y);
  ouc[2 * i + 1] = sub_sat((uchar)x, (uchar)y);
  os[2 * i] = add_sat((short)x, (short)y);
  os[2 * i + 1] = sub_sat((short)x, (short)y);
  ous[2 * i] = add_sat((ushort)x, (ushort)y);
  ous[2 * i + 1] = sub_sat((ushort)x, (ushort)y);
  oi[2 * i] = add_sat(x, y);
  oi[2 * i + 1] = sub_sat(x, y);
  oui[2 * i] = add_sat((uint)x, (uint)y);
  oui[2 * i + 1] = sub_sat((uint)x, (uint)y);
  long lx = as_long((ulong)x << 32), ly = as_long((ulong)y << 32);
  ol[2 * i] = add_sat(lx, ly);
  ol[2 * i + 1] = sub_sat(lx, ly);
  oul[2 * i] = add_sat((ulong)lx, (ulong)ly);
  oul[2 * i + 1] = sub_sat((ulong)lx, (ulong)ly);
}
