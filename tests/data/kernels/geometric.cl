// Geometric built-ins (OpenCL C 6.13.5) in float and double: cross (3 and 4 components),
// length, distance, normalize for scalars and 2/3/4-vectors, and the fast_* forms (float only).
// One work-item per input vector; inputs include huge and tiny vectors (no overflow or
// underflow allowed) and zero, infinite and NaN components (normalize's special cases).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void geometric_float(global const float4 *a, global const float4 *b, global float4 *vec_out,
                            global float *len_out) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    vec_out[6 * i + 0] = (float4)(cross(x.xyz, y.xyz), 0.0f);
    vec_out[6 * i + 1] = cross(x, y);
    vec_out[6 * i + 2] = normalize(x);
    vec_out[6 * i + 3] = (float4)(normalize(x.xyz), normalize(x.w));
    vec_out[6 * i + 4] = (float4)(normalize(x.xy), fast_normalize(y.xy));
    vec_out[6 * i + 5] = fast_normalize(y);
    global float *l = len_out + 16 * i;
    l[0] = length(x.x);
    l[1] = length(x.xy);
    l[2] = length(x.xyz);
    l[3] = length(x);
    l[4] = distance(x.x, y.x);
    l[5] = distance(x.xy, y.xy);
    l[6] = distance(x.xyz, y.xyz);
    l[7] = distance(x, y);
    // fast_* may overflow and underflow (half_sqrt of the plain sum of squares): only the
    // ordinary inputs y.
    float4 z = y.wzyx;
    l[8] = fast_length(y.x);
    l[9] = fast_length(y.xy);
    l[10] = fast_length(y.xyz);
    l[11] = fast_length(y);
    l[12] = fast_distance(y.x, z.x);
    l[13] = fast_distance(y.xy, z.xy);
    l[14] = fast_distance(y.xyz, z.xyz);
    l[15] = fast_distance(y, z);
}

kernel void geometric_double(global const double4 *a, global const double4 *b, global double4 *vec_out,
                             global double *len_out) {
    size_t i = get_global_id(0);
    double4 x = a[i], y = b[i];
    vec_out[4 * i + 0] = (double4)(cross(x.xyz, y.xyz), 0.0);
    vec_out[4 * i + 1] = cross(x, y);
    vec_out[4 * i + 2] = normalize(x);
    vec_out[4 * i + 3] = (double4)(normalize(x.xyz), normalize(x.w));
    global double *l = len_out + 8 * i;
    l[0] = length(x.x);
    l[1] = length(x.xy);
    l[2] = length(x.xyz);
    l[3] = length(x);
    l[4] = distance(x.x, y.x);
    l[5] = distance(x.xy, y.xy);
    l[6] = distance(x.xyz, y.xyz);
    l[7] = distance(x, y);
}
