#define DO_PRAGMA(x) _Pragma(#x)
#define UNROLL(n) DO_PRAGMA(unroll n)
#define FP64 _Pragma("OPENCL EXTENSION cl_khr_fp64 : enable")
before;
UNROLL(8)
after;
FP64
_Pragma("OPENCL FP_CONTRACT ON")
end;
