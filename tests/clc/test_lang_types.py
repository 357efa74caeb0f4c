"""Language checklist §1.1 (digest-opencl-c.md): scalar and vector types, bool, half
(cl_khr_fp16), double, reserved types, sizes and alignment. Each kernel runs on the executor;
the expected values are the spec's, and one test checks the whole table on PoCL as well."""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import K, check_rejected, check_table, pocl_check_table, run_source

RUN = {
    # bool: any scalar converts to 0 or 1; true is 1 in scalar contexts.
    "bool_from_scalars": ("bool a = 5; bool b = 0.5f; bool c = -0.0f; bool d = (bool)256;"
                          "o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = a + a;", [1, 1, 0, 1, 2]),
    # §1.2.2: bool cast to an integer vector gives -1 for true.
    "bool_to_int_vector": ("bool t = 1; int4 v = (int4)t; char2 c = (char2)(bool)0;"
                           "o[0] = v.x; o[1] = v.w; o[2] = c.y; int4 w = (int4)(5) + t; o[3] = w.z;", [-1, -1, 0, 6]),
    # (an implicit splat of true, as in (int4)(5) + t, gives 1: clang and PoCL agree)
    "char_is_signed_and_wraps": ("char c = 127; c++; uchar u = 255; u++; o[0] = c; o[1] = u;"
                                 "o[2] = (char)200;", [-128, 0, -56]),
    "short_ushort": ("short s = -32768; s--; ushort u = 65535; o[0] = s; o[1] = u; o[2] = (ushort)-1 + 0;",
                     [32767, 65535, 65535]),
    "long_is_64_bit": ("long l = 1L << 40; ulong u = ~0UL; o[0] = l >> 32; o[1] = u >> 60; o[2] = sizeof(long);"
                       "o[3] = sizeof(ulong); o[4] = (int)(l / 3 % 1000);", [256, 15, 8, 8, (2**40 // 3) % 1000]),
    "uint_arithmetic_wraps": ("uint a = 0xFFFFFFF0u; a += 32; o[0] = a; o[1] = 0u - 1u > 0;", [16, 1]),
    "float_and_int_literal_types": ("o[0] = sizeof(1.0f); o[1] = sizeof(1); o[2] = sizeof(1u); o[3] = sizeof(1L);"
                                    "o[4] = sizeof('a'); o[5] = sizeof(0x80000000);", [4, 4, 4, 8, 4, 4]),
    "size_t_family_is_64_bit_on_spir64": ("o[0] = sizeof(size_t); o[1] = sizeof(ptrdiff_t); o[2] = sizeof(intptr_t);"
                                          "o[3] = sizeof(uintptr_t); size_t s = 0; s--; o[4] = s > 0xFFFFFFFFu;",
                                          [8, 8, 8, 8, 1]),
    "double_arithmetic": ("double d = 1.0 / 3.0; o[0] = d * 3.0 == 1.0; o[1] = sizeof(d); o[2] = (int)(d * 1e9);"
                          "double2 v = (double2)(0.5, 2.0); o[3] = (int)(v.x * v.y * 10);", [1, 8, 333333333, 10]),
    "double_vector_sizes": ("o[0] = sizeof(double2); o[1] = sizeof(double3); o[2] = sizeof(double16);"
                            "o[3] = __alignof(double3);", [16, 32, 128, 32]),
    # Vectors of every element type and width; a 3-vector has the size and alignment of 4.
    "vector_sizes_char": ("o[0] = sizeof(char2); o[1] = sizeof(char3); o[2] = sizeof(char4); o[3] = sizeof(char8);"
                          "o[4] = sizeof(char16); o[5] = sizeof(uchar3);", [2, 4, 4, 8, 16, 4]),
    "vector_sizes_short_int_long": ("o[0] = sizeof(short3); o[1] = sizeof(int3); o[2] = sizeof(long3);"
                                    "o[3] = sizeof(ushort16); o[4] = sizeof(uint8); o[5] = sizeof(ulong2);",
                                    [8, 16, 32, 32, 32, 16]),
    "vector_alignment": ("o[0] = __alignof(float3); o[1] = __alignof(int16); o[2] = __alignof(char3);"
                         "o[3] = __alignof(long4); o[4] = _Alignof(short2);", [16, 64, 4, 32, 4]),
    "scalar_alignment_is_size": ("o[0] = __alignof(char); o[1] = __alignof(short); o[2] = __alignof(int);"
                                 "o[3] = __alignof(long); o[4] = __alignof(float); o[5] = __alignof(double);",
                                 [1, 2, 4, 8, 4, 8]),
    "vec_step_of_types_and_values": ("float3 f; o[0] = vec_step(f); o[1] = vec_step(int16); o[2] = vec_step(char);"
                                     "o[3] = vec_step(double2); o[4] = vec_step(1.0f);", [4, 16, 1, 2, 1]),
    "half_pointer_sizeof_without_fp16": ("o[0] = sizeof(half); o[1] = __alignof(half);", [2, 2]),
    "struct_with_3_vector_layout": ("struct S { char c; float3 v; }; o[0] = sizeof(struct S);"
                                    "o[1] = __builtin_offsetof(struct S, v);", [32, 16]),
    "int_limits_macros": ("o[0] = INT_MAX == 2147483647; o[1] = CHAR_MIN; o[2] = UCHAR_MAX; o[3] = SHRT_MIN;"
                          "o[4] = LONG_MAX == 0x7FFFFFFFFFFFFFFFL; o[5] = CHAR_BIT;", [1, -128, 255, -32768, 1, 8]),
}


@pytest.mark.parametrize("name", RUN)
def test_type_semantics(name):
    check_table(RUN, name)


def test_table_agrees_with_pocl():
    assert pocl_check_table(RUN) == []


def test_half_values_with_cl_khr_fp16():
    source = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
              "kernel void k(global half *p, global float *o, half h) {\n"
              "half x = p[0] + h; half4 v = (half4)(x, 2.0h, 3, 4); p[1] = x * v.y; o[0] = x; o[1] = sizeof(half4);\n"
              "o[2] = vec_step(half3); half big = 65504.0h; o[3] = big + big; }\n")
    p = np.array([1.5, 0], np.float16)
    o = np.zeros(4, np.float32)
    run_source(source, "k", p, o, np.float16(0.25))
    assert p[1] == np.float16(3.5) and o[:3].tolist() == [1.75, 8.0, 4.0]
    assert o[3] == np.inf  # half arithmetic overflows at 65504


def test_half_storage_through_vload_vstore_without_fp16():
    source = ("kernel void k(global half *p, global float *o) {\n"
              "float4 f = vload_half4(0, p); o[0] = f.x + f.w; vstore_half_rte(f.y * 3.0f, 5, p);\n"
              "o[1] = vload_half(5, p); }\n")
    p = np.array([1, 2, 3, 4, 0, 0], np.float16)
    o = np.zeros(2, np.float32)
    run_source(source, "k", p, o)
    assert o.tolist() == [5.0, 6.0] and p[5] == 6


def test_double_kernel_arguments():
    source = "kernel void k(global double *o, double d, double2 v) { o[0] = d * v.y; o[1] = v.x; }\n"
    o = np.zeros(2)
    run_source(source, "k", o, np.float64(1.5), np.array([0.25, 4.0]))
    assert o.tolist() == [6.0, 0.25]


REJECT = [
    # §1.1.1: without cl_khr_fp16, half is storage only.
    ("half_variable_without_fp16", "CL1.2", K.format("half h;"), "declaring variable of type 'half' is not allowed",
     2, 6),
    ("half_array_without_fp16", "CL2.0", K.format("half h[4];"),
     "declaring variable of type 'half[4]' is not allowed", 2, 6),
    ("half_load_without_fp16", "CL1.2", "kernel void k(global half *p, global float *o) {\no[0] = *p;\n}\n",
     "loading directly from pointer to type '__global half' requires cl_khr_fp16. Use vector data load builtin "
     "functions instead", 2, 8),
    ("half_store_without_fp16", "CL2.0", "kernel void k(global half *p) {\np[1] = 1.0f;\n}\n",
     "assigning directly to pointer to type 'half' requires cl_khr_fp16. Use vector data store builtin "
     "functions instead", 2, 6),
    ("half_kernel_argument_without_fp16", "CL2.0", "kernel void k(half h) {}\n",
     "declaring function parameter of type 'half' is not allowed; did you forget * ?", 1, 20),
    # Table 4 reserved types; widths other than 2/3/4/8/16. Where a statement starts, clang reads
    # the unknown name as an expression and typo-corrects it: to 'bool' for bool4; int5 is as close
    # to int2, int3, int4 and int8, and that ambiguity ends the expression first (clang-15's output).
    ("booln_reserved", "CL2.0", K.format("bool4 b;"), "use of undeclared identifier 'bool4'; did you mean 'bool'?",
     2, 1),
    ("vector_width_5", "CL2.0", K.format("int5 x;"), "expected ';' after expression", 2, 5),
    ("vector_width_5_param", "CL2.0", "kernel void k(global int5 *p) {}\n", "unknown type name 'int5'", 1, 22),
    # clang-15 accepts 'long long' as a 64-bit type; the spec (Table 4) reserves it.
    ("long_long_reserved", "CL2.0", K.format("long long x;"), "'long long' is reserved in OpenCL C", 2, 1),
    ("void_variable", "CL2.0", K.format("void v;"), "variable has incomplete type 'void'", 2, 6),
    ("sizeof_void", "CL2.0", K.format("o[0] = sizeof(void);"), "invalid application of 'sizeof' to a void type", 2, 8),
    ("vec_step_of_struct", "CL2.0", K.format("struct S { int a; } s; o[0] = vec_step(s);"),
     "'vec_step' requires built-in scalar or vector type, 'struct S' invalid", 2, 31),
    ("msaa_image_type_not_supported_yet", "CL2.0", "kernel void k(read_only image2d_msaa_t i) {}\n",
     "not supported yet: image type 'image2d_msaa_t' (cl_khr_gl_msaa_sharing)", 1, 15),
    ("queue_t_from_int", "CL2.0", K.format("queue_t q = 1;"),
     "initializing 'queue_t' with an expression of incompatible type 'int'", 2, 9),
]


@pytest.mark.parametrize("name,std,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, std, source, message, line, col):
    check_rejected(source, message, line, col, f"-cl-std={std}")
