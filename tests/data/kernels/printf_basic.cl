// printf (OpenCL C 6.13.13): scalar conversions with flags, width and precision; length
// modifiers hh, h, l; %s with string literals; %c; %%; the return value. Only work-item 0
// prints, so the text is compared exactly.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void printf_scalars(global const int *iv, global const float *fv, global const double *dv,
                           global const long *lv, global int *ret) {
    size_t i = get_global_id(0);
    if (i != 0)
        return;
    ret[0] = printf("int %d %i %5d|%-5d|%05d|%+d|% d|%.3d\n", iv[0], iv[1], iv[2], iv[2], iv[3], iv[4], iv[4], iv[5]);
    ret[1] = printf("unsigned %u %o %#o %x %#X %08x\n", iv[0], iv[1], iv[1], iv[2], iv[2], iv[3]);
    ret[2] = printf("hh %hhd %hhu %hhx h %hd %hu %hx\n", iv[6], iv[6], iv[6], iv[7], iv[7], iv[7]);
    ret[3] = printf("long %ld %lu %lx %lo\n", lv[0], lv[1], lv[2], lv[3]);
    ret[4] = printf("float %f %.2f %10.4f %-10.1f| %e %.3E %g %G %.0f %#.0f\n", fv[0], fv[1], fv[2], fv[3], fv[4],
                    fv[5], fv[6], fv[7], fv[8], fv[8]);
    ret[5] = printf("double %f %.10e %g %.17g\n", dv[0], dv[1], dv[2], dv[3]);
    ret[6] = printf("special %f %e %g %F %5.1f\n", fv[9], fv[10], fv[11], fv[9], fv[10]);
    ret[7] = printf("str [%s] [%10s] [%-6s] [%.2s] char %c%c%c %%\n", "hello", "right", "left", "trunc",
                    'O', 'K', (char)iv[8]);
    ret[8] = printf("plain text, no conversions\n");
}
