"""Language checklist §1.2 (digest-opencl-c.md): vector literals and component access —
.xyzw, .sN/.SN, .lo/.hi/.even/.odd (nested, as lvalues, on 3-vectors), swizzle rvalues and
lvalues; and the invalid forms with clang's diagnostics."""

from __future__ import annotations

import pytest
from lang_support import K, check_rejected, check_table, pocl_check_table

OUT8 = "o[0] = r.s0; o[1] = r.s1; o[2] = r.s2; o[3] = r.s3; o[4] = r.s4; o[5] = r.s5; o[6] = r.s6; o[7] = r.s7;"
OUT4 = "o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = r.w;"

RUN = {
    # Literals: scalars and vectors of the element type, totalling n; one scalar is splatted.
    "literal_of_scalars": ("int4 r = (int4)(1, 2, 3, 4);" + OUT4, [1, 2, 3, 4]),
    "literal_splat": ("int4 r = (int4)(7);" + OUT4, [7, 7, 7, 7]),
    "literal_of_vectors": ("int2 a = (int2)(1, 2); int8 r = (int8)(a, (int3)(3, 4, 5), 6, a.y, 0);" + OUT8,
                           [1, 2, 3, 4, 5, 6, 2, 0]),
    "literal_of_halves": ("int4 v = (int4)(1, 2, 3, 4); int8 r = (int8)(v.hi, v.lo, v.odd, v.even);" + OUT8,
                          [3, 4, 1, 2, 2, 4, 1, 3]),
    "literal_16_wide": ("int16 w = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);"
                        "int8 r = w.hi + w.lo;" + OUT8, [8, 10, 12, 14, 16, 18, 20, 22]),
    "literal_3_vector": ("int3 t = (int3)(1, 2, 3); int4 r = (int4)(t, 9);" + OUT4, [1, 2, 3, 9]),
    "literal_int_elements_of_float_vector": ("float4 f = (float4)(1, 2.5f, 'a', 4);"
                                             "o[0] = f.x * 2; o[1] = f.y * 2; o[2] = f.z; o[3] = f.w;",
                                             [2, 5, 97, 4]),
    "literal_parenthesised_cast_is_element": ("int4 r = (int4)((int)1.9f, -(2), (3), 4);" + OUT4, [1, -2, 3, 4]),
    "literal_then_swizzle": ("int r = (int4)(1, 2, 3, 4).w + (int2)(5, 6).x; o[0] = r;", [9]),
    # .xyzw: permute, replicate, one component is a scalar.
    "xyzw_permute_replicate": ("int4 v = (int4)(1, 2, 3, 4); int4 r = v.wzyx; int4 q = v.xxyy;"
                               "o[0] = r.x; o[1] = r.w; o[2] = q.y; o[3] = q.z;", [4, 1, 1, 2]),
    "xyzw_on_2_and_3_vectors": ("int2 a = (int2)(5, 6); int3 b = (int3)(7, 8, 9); int4 r = (int4)(a.yx, b.zy);"
                                + OUT4, [6, 5, 9, 8]),
    "xyzw_widening_swizzle": ("int2 a = (int2)(5, 6); int4 r = a.xyxy;" + OUT4, [5, 6, 5, 6]),
    "xyz_gives_3_vector": ("int4 v = (int4)(1, 2, 3, 4); int3 t = v.yzw; o[0] = t.x; o[1] = t.z;"
                           "o[2] = sizeof(v.xyz);", [2, 4, 16]),
    # .sN with hex digits, either case, several at once.
    "s_hex_digits": ("int16 v = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);"
                     "int4 r = v.sfAbC;" + OUT4, [15, 10, 11, 12]),
    "S_upper_case": ("int8 v = (int8)(0, 1, 2, 3, 4, 5, 6, 7); int4 r = v.S7654;" + OUT4, [7, 6, 5, 4]),
    "s_sixteen_components": ("int16 v = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);"
                             "int16 w = v.sfedcba9876543210; int8 r = w.lo;" + OUT8, [15, 14, 13, 12, 11, 10, 9, 8]),
    "s_on_3_vector": ("int3 t = (int3)(4, 5, 6); o[0] = t.s2; o[1] = t.s0;", [6, 4]),
    # .lo/.hi/.even/.odd, nested; on a 3-vector they act as on a 4-vector.
    "lo_hi_even_odd": ("int8 v = (int8)(0, 1, 2, 3, 4, 5, 6, 7); int4 a = v.lo, b = v.hi, c = v.even, d = v.odd;"
                       "o[0] = a.w; o[1] = b.x; o[2] = c.z; o[3] = d.z;", [3, 4, 4, 5]),
    "nested_lo_hi": ("int16 v = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);"
                     "o[0] = v.hi.lo.odd.y; o[1] = v.even.hi.x; o[2] = v.odd.odd.odd.hi;", [11, 8, 15]),
    "lo_hi_of_3_vector": ("int3 t = (int3)(1, 2, 3); int2 l = t.lo; o[0] = l.x; o[1] = l.y; o[2] = t.hi.x;"
                          "o[3] = t.odd.x; o[4] = t.even.y;", [1, 2, 3, 2, 3]),
    "hi_of_2_vector_is_scalar": ("int2 v = (int2)(8, 9); int a = v.hi; int b = v.lo; o[0] = a; o[1] = b;", [9, 8]),
    # Lvalue swizzles.
    "lvalue_xyzw": ("int4 r = (int4)(0); r.wx = (int2)(4, 1); r.z = 3; r.y = 2;" + OUT4, [1, 2, 3, 4]),
    "lvalue_s_digits": ("int8 r = (int8)(0); r.s73 = (int2)(70, 30); r.s0 = 1;" + OUT8, [1, 0, 0, 30, 0, 0, 0, 70]),
    "lvalue_lo_hi": ("int8 r = (int8)(0); r.lo = (int4)(1, 2, 3, 4); r.hi.odd = (int2)(9, 8);" + OUT8,
                     [1, 2, 3, 4, 0, 9, 0, 8]),
    "lvalue_even_odd": ("int4 r = (int4)(0); r.even = (int2)(1, 3); r.odd = (int2)(2, 4);" + OUT4, [1, 2, 3, 4]),
    "lvalue_nested_swizzle": ("int4 r = (int4)(1, 2, 3, 4); r.zw.yx = (int2)(30, 40);" + OUT4, [1, 2, 40, 30]),
    "compound_assign_swizzle": ("int4 r = (int4)(1, 2, 3, 4); r.xz += (int2)(10); r.w *= 2; r.y++;" + OUT4,
                                [11, 3, 13, 8]),
    "swizzle_through_pointer": ("int4 v = (int4)(1, 2, 3, 4); int4 *p = &v; p->yw = (int2)(0); (*p).x = 5;"
                                "int4 r = v;" + OUT4, [5, 0, 3, 0]),
    "swizzle_of_global_vector": ("global int4 *g = (global int4 *)o; *g = (int4)(1, 2, 3, 4); g->zx = g->xz;",
                                 [3, 2, 1, 4]),
    "lvalue_hi_of_3_vector": ("int3 t = (int3)(1, 2, 3); t.hi = 7; t.lo = (int2)(5, 6); o[0] = t.x; o[1] = t.y;"
                              "o[2] = t.z;", [5, 6, 7]),
    "vector_subscript": ("int4 r = (int4)(1, 2, 3, 4); r[2] = 30; int i = 3; o[0] = r[i]; o[1] = r[2];", [4, 30]),
}


@pytest.mark.parametrize("name", RUN)
def test_vector_semantics(name):
    check_table(RUN, name)


def test_table_agrees_with_pocl():
    assert pocl_check_table(RUN) == []


REJECT = [
    ("literal_too_few", K.format("float4 f = (float4)(1.0f, 2.0f);"),
     "too few elements in vector initialization (expected 4 elements, have 2)", 2, 20),
    ("literal_too_many", K.format("int2 v = (int2)(1, 2, 3);"), "excess elements in vector initializer", 2, 23),
    ("literal_other_element_type", K.format("int4 v = (int4)((int2)(1), (float2)(2.0f));"),
     "initializing 'int' with an expression of incompatible type 'float2'", 2, 28),
    # clang-15 accepts the assignment (a vector literal is a compound literal there); §1.1.6: not an lvalue
    ("literal_is_not_an_lvalue", K.format("(int2)(1, 2) = (int2)(3);"), "expression is not assignable", 2, 14),
    ("bad_component_name", K.format("float4 f; f.q = 1;"), "illegal vector component name 'q'", 2, 12),
    ("component_beyond_width", K.format("float2 f; f.z = 1;"), "vector component access exceeds type 'float2'", 2, 12),
    ("s_component_beyond_width", K.format("int4 v; int a = v.s7;"),
     "vector component access exceeds type 'int4'", 2, 18),
    ("duplicate_lvalue_components", K.format("float4 f; f.xx = (float2)(1);"),
     "vector is not assignable (contains duplicate components)", 2, 16),
    ("duplicate_through_nested_lvalue", K.format("int4 v; v.xxyy.lo = (int2)(1);"),
     "vector is not assignable (contains duplicate components)", 2, 19),
    ("mixed_xyzw_and_s", K.format("int4 v; int2 a = v.xs1;"), "illegal vector component name 's'", 2, 19),
    ("swizzle_length_5", K.format("int8 v; int a = v.s01234;"),
     "vector component access has invalid length 5.  Supported: 1,2,3,4,8,16.", 2, 18),
    # §1.1.7: .xyzw is for vectors of up to 4 components (clang-15 accepts v.x on int8).
    ("xyzw_on_8_vector", K.format("int8 v; int a = v.x;"), "vector component access exceeds type 'int8'", 2, 18),
    ("address_of_component", K.format("int4 v; int *p = &v.x;"), "address of vector element requested", 2, 18),
    ("rgba_before_3_0", K.format("int4 v; int x = v.rgba.x;"),
     # clang-15 only warns (-Wopencl-unsupported-rgba) and names the first letter
     "vector component name 'rgba' is an OpenCL C version 3.0 feature", 2, 18),
    ("swizzle_of_scalar", K.format("int x; int y = x.x;"),
     "member reference base type 'int' is not a structure or union", 2, 17),
    ("vector_to_vector_assignment", K.format("int2 a; int4 b = a;"),
     "initializing 'int4' with an expression of incompatible type 'int2'", 2, 14),
    ("swizzle_width_mismatch", K.format("int4 v; v.xy = (int4)(1);"),
     "assigning to 'int2' from incompatible type 'int4'", 2, 14),
]


@pytest.mark.parametrize("name,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, source, message, line, col):
    check_rejected(source, message, line, col)


def test_rgba_is_accepted_in_cl_3_0():
    check_table({"rgba": ("int4 v = (int4)(1, 2, 3, 4); o[0] = v.a; o[1] = v.bgr.x;", [4, 3])}, "rgba",
                options="-cl-std=CL3.0")
