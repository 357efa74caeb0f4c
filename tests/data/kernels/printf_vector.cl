// printf with vector specifiers (%vN + hh/h/hl/l): elements comma-separated, each formatted
// with the conversion's flags, width and precision. Work-items 0-3 print; the comparison is
// of the sorted lines (PoCL prints as it goes).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void printf_vectors(global const float4 *f, global const int4 *iv, global const double2 *d,
                           global const char8 *c, global const short2 *s, global const long3 *l,
                           global int *ret) {
    size_t i = get_global_id(0);
    if (i >= 4)
        return;
    ret[4 * i + 0] = printf("%d: f4 = %2.2v4hlf | %v4hle | %v2hlg\n", (int)i, f[i], f[i], f[i].xy);
    ret[4 * i + 1] = printf("%d: i4 = %v4hld | %#v4hlx | %v3hlu\n", (int)i, iv[i], as_uint4(iv[i]), as_uint3(iv[i].xyz));
    ret[4 * i + 2] = printf("%d: c8 = %v8hhd | %#v8hhx | s2 = %v2hd %v2hx\n", (int)i, c[i], as_uchar8(c[i]), s[i], as_ushort2(s[i]));
    ret[4 * i + 3] = printf("%d: d2 = %v2lf %.3v2le | l3 = %v3ld %v3lx\n", (int)i, d[i], d[i], l[i], as_ulong3(l[i]));
}
