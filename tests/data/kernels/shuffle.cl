// shuffle and shuffle2 (OpenCL C 6.13.12) with constant masks and with masks read from memory
// whose components have high bits set (only the low log2(m) bits count, +1 for shuffle2), for
// several element types and widths; and prefetch, a hint that must not fault even past the end
// of the buffer.

kernel void shuffle_const(global const float4 *a, global const float4 *b, global float8 *out8,
                          global float4 *out4, global float2 *out2) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out8[i] = shuffle2(x, y, (uint8)(7, 0, 6, 1, 5, 2, 4, 3));
    out4[i] = shuffle(x, (uint4)(3, 3, 0, 1));
    out2[i] = shuffle(x, (uint2)(2, 0));
}

kernel void shuffle_dynamic(global const int4 *a, global const int4 *b, global const uint4 *m4,
                            global const uint8 *m8, global int4 *out4, global int8 *out8,
                            global int4 *out2x) {
    size_t i = get_global_id(0);
    out4[i] = shuffle(a[i], m4[i]);
    out8[i] = shuffle(a[i], m8[i]);
    out2x[i] = shuffle2(a[i], b[i], m4[i]);
}

kernel void shuffle_bytes(global const uchar16 *a, global const uchar16 *m, global const ushort8 *s,
                          global const ushort8 *sm, global uchar16 *out16, global ushort8 *out8,
                          global uchar2 *out2) {
    size_t i = get_global_id(0);
    prefetch(a + i, 1000000);        // far past the end: a hint, never an access
    prefetch(s, 1);
    out16[i] = shuffle(a[i], m[i]);
    out8[i] = shuffle2(s[i], sm[i], sm[i]);
    out2[i] = shuffle(a[i], (uchar2)(15, 0));
}
