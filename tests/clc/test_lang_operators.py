"""Language checklist §1.4 (digest-opencl-c.md): every operator component-wise on vectors with
scalar splat — arithmetic, relational/equality (-1/0 in the signed type of the element width,
NaN rules), bitwise, logical (no short-circuit on vectors), ?: with vector conditions (MSB),
shifts modulo the width, ++/--, compound assignment, comma, sizeof; integer promotions and
wrap-around."""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import K, check_rejected, check_table, pocl_check_table, run_source, warnings_of

import spirvkit
from spirvkit.errors import CompileError

OUT4 = "o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = r.w;"

RUN = {
    "vector_arithmetic": ("int4 a = (int4)(7, -7, 9, 100), b = (int4)(2, 2, -4, 7); int4 r = a / b;"
                          "int4 m = a % b; o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = m.y; o[4] = m.w;"
                          "int4 s = a * b - a + b; o[5] = s.w;", [3, -3, -2, -1, 2, 607]),
    "vector_scalar_splat_both_sides": ("int4 r = 10 - (int4)(1, 2, 3, 4) * 2;" + OUT4, [8, 6, 4, 2]),
    "unary_minus_plus_not_on_vectors": ("int4 v = (int4)(1, 0, -3, 0); int4 r = -v; int4 n = !v; int4 c = ~v; int4 p = +v;"
                                        "o[0] = r.z; o[1] = n.x; o[2] = n.y; o[3] = c.x; o[4] = p.z; o[5] = !0; o[6] = !5;",
                                        [3, 0, -1, -2, -3, 1, 0]),
    # §1.3.7: && || ! take floating-point vectors too (x != 0 per component; NaN is true)
    "logical_on_float_vectors": ("float4 a = (float4)(0.0f, 1.0f, NAN, -0.0f), b = (float4)(2.0f, 0.0f, 0.0f, 3.0f);"
                                 "int4 r = a && b, s = a || b, n = !a; long2 e = !(double2)(0.0, 5.0);"
                                 "int4 m = 1 && (int4)(0, 1, 2, 0);"
                                 "o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = r.w; o[4] = s.x; o[5] = s.z; o[6] = s.w;"
                                 "o[7] = n.x; o[8] = n.y; o[9] = n.z; o[10] = n.w; o[11] = e.x; o[12] = e.y; o[13] = m.x;"
                                 "o[14] = m.y;", [0, 0, 0, 0, -1, -1, -1, -1, 0, 0, -1, -1, 0, 0, -1]),
    "relational_vectors_give_minus_one": ("int4 r = (int4)(1, 5, 3, 0) < (int4)(2, 2, 3, 1);" + OUT4, [-1, 0, 0, -1]),
    "relational_scalars_give_one": ("o[0] = 1 < 2; o[1] = 2 <= 1; o[2] = 3 == 3; o[3] = 3 != 3; o[4] = 2 >= 2;",
                                    [1, 0, 1, 0, 1]),
    "relational_result_types": ("o[0] = sizeof((char4)(1) == (char4)(1)); o[1] = sizeof((float4)(1) < (float4)(0));"
                                "o[2] = sizeof((double2)(1) > (double2)(0)); o[3] = sizeof((ushort8)(1) != (ushort8)(1));"
                                "o[4] = sizeof(1.0 < 2.0); o[5] = vec_step((ulong3)(1) == (ulong3)(1));",
                                [4, 16, 16, 16, 4, 4]),
    "float_vector_compare_to_int_vector": ("float4 f = (float4)(1.0f, -2.0f, 3.0f, 0.0f); int4 r = f >= 0.0f;" + OUT4,
                                           [-1, 0, -1, -1]),
    "unsigned_vector_compare_is_unsigned": ("uint4 u = (uint4)(0xFFFFFFFF, 1, 0, 7); int4 r = u > 1u;" + OUT4,
                                            [-1, 0, 0, -1]),
    "char_vector_compare_gives_char": ("char4 c = (char4)(1, 2, 3, 4) == (char4)(1, 0, 3, 0); o[0] = c.x; o[1] = c.y;"
                                       "o[2] = sizeof(c);", [-1, 0, 4]),
    "nan_compares_false_except_not_equal": ("float n = NAN; o[0] = n == n; o[1] = n != n; o[2] = n < 1.0f; o[3] = n >= n;"
                                            "int4 r = (float4)(n) != (float4)(1.0f); o[4] = r.x; int4 q = (float4)(n) == (float4)(n);"
                                            "o[5] = q.y;", [0, 1, 0, 0, -1, 0]),
    "bitwise_on_vectors": ("int4 a = (int4)(0xF0, 0x0F, 0xFF, 0); int4 r = (a & 0x3C) | ((int4)(1) ^ a);" + OUT4,
                           [0xF1 | 0x30, 0x0E | 0x0C, 0xFE | 0x3C, 1]),
    "logical_on_vectors_gives_minus_one": ("int4 a = (int4)(1, 0, 1, 0), b = (int4)(1, 1, 0, 0); int4 r = a && b; int4 q = a || b;"
                                           "o[0] = r.x; o[1] = r.y; o[2] = q.y; o[3] = q.w;", [-1, 0, -1, 0]),
    "logical_scalars_short_circuit": ("int n = 0; int r = (n > 0) && (++n > 0); int s = (n == 0) || (n++ > 0);"
                                      "o[0] = n; o[1] = r; o[2] = s;", [0, 0, 1]),
    "logical_vectors_evaluate_both_sides": ("int n = 0; int4 z = (int4)(0); int4 r = z && (int4)(++n);"
                                            "int4 q = (int4)(1) || (int4)(++n); o[0] = n; o[1] = r.x; o[2] = q.x;",
                                            [2, 0, -1]),
    "conditional_vector_condition_tests_msb": ("int4 m = (int4)(-1, 0, 1, 0x80000000); int4 r = m ? (int4)(10) : (int4)(20);"
                                               + OUT4, [10, 20, 20, 10]),
    "conditional_vector_with_scalar_arms": ("int4 m = (int4)(1, 2, 3, 4) > 2; int4 r = m ? 1 : (int4)(0);" + OUT4,
                                            [0, 0, 1, 1]),
    "conditional_float_vector_arms": ("float4 f = (int4)(-1, 0, -1, 0) ? (float4)(1.5f) : (float4)(2.5f);"
                                      "o[0] = f.x * 2; o[1] = f.y * 2;", [3, 5]),
    "conditional_scalar_is_lazy": ("int n = 0; int r = 1 ? 5 : ++n; o[0] = r; o[1] = n; int x = 0 ?: 7; o[2] = x;",
                                   [5, 0, 7]),
    "shift_count_modulo_width": ("int s = 33; o[0] = 1 << s; uchar4 c = (uchar4)(1) << (uchar4)(9); o[1] = c.x;"
                                 "long l = 1; o[2] = (int)((l << 65) ); short4 h = (short4)(0x100) >> (short4)(20); o[3] = h.y;",
                                 [2, 2, 2, 0x10]),
    "shift_scalar_promoted_width": ("uchar c = 1; int r = c << 12; o[0] = r; o[1] = sizeof(c << 1); char d = -128;"
                                    "o[2] = d >> 40;", [4096, 4, -1]),
    "arithmetic_shift_right_for_signed": ("o[0] = -16 >> 2; o[1] = 0x80000000u >> 31; int4 v = (int4)(-8) >> 1; o[2] = v.x;"
                                          "uint4 u = (uint4)(0x80000000u) >> (uint4)(31); o[3] = u.y;", [-4, 1, -4, 1]),
    "vector_shift_by_scalar": ("int4 r = (int4)(1, 2, 3, 4) << 2;" + OUT4, [4, 8, 12, 16]),
    "increment_decrement": ("int i = 5; int a = i++; int b = ++i; int c = i--; o[0] = a; o[1] = b; o[2] = c; o[3] = i;"
                            "int4 v = (int4)(1); v++; ++v; o[4] = v.w; float f = 1.5f; f++; o[5] = f * 2;",
                            [5, 7, 7, 6, 3, 5]),
    "pointer_increment": ("int a[4] = {1, 2, 3, 4}; int *p = a; p++; ++p; o[0] = *p; p--; o[1] = *p; o[2] = p - a;", [3, 2, 1]),
    "compound_assignment_vectors": ("int4 r = (int4)(1, 2, 3, 4); r += 1; r *= (int4)(2); r -= (int4)(1, 1, 1, 1); r <<= 1;"
                                    "r >>= (int4)(1, 0, 1, 0); r %= 7;" + OUT4, [3, 3, 0, 4]),
    "compound_assignment_converts": ("int i = 10; i *= 1.5f; o[0] = i; char c = 100; c += 100; o[1] = c; uint u = 1; u -= 2;"
                                     "o[2] = u == 0xFFFFFFFFu;", [15, -56, 1]),
    "comma_operator": ("int a = (1, 2, 3); int b = 0; int c = (b = 4, b + 1); o[0] = a; o[1] = b; o[2] = c;", [3, 4, 5]),
    "integer_promotion_of_small_types": ("uchar a = 200, b = 100; int s = a + b; o[0] = s; ushort x = 65535; o[1] = x * x > 0;"
                                         "char c = -1; uint u = c; o[2] = u == 0xFFFFFFFFu; o[3] = sizeof(a + b);",
                                         [300, 0, 1, 4]),
    "unsigned_wraps_signed_overflow_does_not_trap": ("uint u = 0; u--; o[0] = u == 4294967295u; int m = INT_MAX; m += 1;"
                                                     "o[1] = 1; int d = 7 / (o[2] + 1); o[2] = d;", [1, 1, 7]),
    "sizeof_expressions": ("int4 v; o[0] = sizeof v; o[1] = sizeof(v.xy); o[2] = sizeof(int3); float a[5]; o[3] = sizeof a;"
                           "o[4] = sizeof(a) / sizeof(a[0]); o[5] = sizeof(o);", [16, 8, 16, 20, 5, 8]),
    "address_and_indirection": ("int x = 3; int *p = &x; *p = 4; o[0] = x; int a[3] = {1, 2, 3};"
                                "o[1] = *(a + 2); o[2] = 2[a]; global int *q = o + 3; global int **qq = &q; **qq = 7;"
                                "*qq += 1; **qq = 8;", [4, 3, 3, 7, 8]),
}


@pytest.mark.parametrize("name", RUN)
def test_operator_semantics(name):
    check_table(RUN, name)


def test_table_agrees_with_pocl():
    # signed overflow is undefined: that case only checks that nothing traps
    assert pocl_check_table(RUN) == []


def test_float_arithmetic_matches_pocl():
    """+ - * / on float vectors are correctly rounded: bit-equal to PoCL over awkward values."""
    import pocl

    source = ("kernel void k(global const float4 *a, global const float4 *b, global float4 *o) {\n"
              "int i = get_global_id(0); float4 x = a[i], y = b[i];\n"
              "o[4 * i] = x + y; o[4 * i + 1] = x - y; o[4 * i + 2] = x * y; o[4 * i + 3] = x / y; }\n")
    rng = np.random.default_rng(6)
    a = (rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64)).astype(np.float32)
    b = (rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64)).astype(np.float32)
    a[:4] = [np.inf, -0.0, np.nan, 1e-45]
    got = np.zeros(256, np.float32)
    run_source(source, "k", a, b, got, global_size=16)
    ref = pocl.run(source, "k", (16,), None, [a, b, np.zeros(256, np.float32)], options="-cl-std=CL2.0")[2]
    np.testing.assert_array_equal(got, ref)


POINTER_TO_PRIVATE_POINTER = ("kernel void k(global int *o) {\n"
                              "int x = 3; int *p = &x; int **pp = &p; **pp += 1; o[0] = x; }\n")


def test_pointer_to_pointer_to_private_unchecked():
    out = np.zeros(1, np.int32)
    run_source(POINTER_TO_PRIVATE_POINTER, "k", out, unchecked=True)
    assert out.tolist() == [4]


def test_pointer_to_pointer_to_private_checked():
    """The bounds checker follows a private pointer loaded back through a pointer to it (the
    pointer-holding variable's shadow), and one stored through it."""
    out = np.zeros(1, np.int32)
    run_source(POINTER_TO_PRIVATE_POINTER, "k", out)
    assert out.tolist() == [4]
    source = ("kernel void k(global int *o) {\n"
              "int x = 3; int y = 10; int *p = &x; int **pp = &p; *pp = &y; *p += 5; o[0] = y; o[1] = **pp; }\n")
    out = np.zeros(2, np.int32)
    run_source(source, "k", out)
    assert out.tolist() == [15, 15]


def test_pointer_to_pointer_to_private_out_of_bounds_is_caught():
    source = "kernel void k(global int *o) {\nint x = 3; int *p = &x; int **pp = &p; o[0] = (*pp)[o[1]]; }\n"
    with pytest.raises(spirvkit.KernelFault, match="of a private variable"):
        run_source(source, "k", np.array([0, 5], np.int32))


REJECT = [
    ("modulo_on_float", K.format("float f = 1; int x = f % 2;"), "invalid operands to binary expression ('float' and 'int')",
     2, 24),
    ("shift_of_float", K.format("float f; f << 1;"), "invalid operands to binary expression ('float' and 'int')", 2, 12),
    ("shift_scalar_by_vector", K.format("int a = 1; int4 b; int4 c = a << b;"),
     "requested shift is a vector of type 'int4' but the first operand is not a vector ('int')", 2, 31),
    ("bitwise_and_on_float", K.format("float f; float g = f & f;"),
     "invalid operands to binary expression ('float' and 'float')", 2, 22),
    ("bitwise_not_on_float", K.format("float f; float g = ~f;"), "invalid argument type 'float' to unary expression", 2, 20),
    ("bitwise_on_float_vector", K.format("float4 f; f = f | f;"),
     "invalid operands to binary expression ('float4' and 'float4')", 2, 17),
    ("xor_xor_is_reserved", K.format("int a = 1 ^^ 0;"), "^^ is a reserved operator in OpenCL", 2, 11),
    ("float_vector_condition", K.format("float4 c; float4 r = c ? (float4)(1) : (float4)(2);"),
     "used type 'float4' where floating point type is not allowed", 2, 24),
    ("conditional_arms_of_two_vector_types", K.format("float4 a; int4 r = 1 ? a : (int4)(2);"),
     "implicit conversions between vector types ('float4' and 'int4') are not permitted", 2, 22),
    ("indirection_of_int", K.format("int x; int y = *x;"), "indirection requires pointer operand ('int' invalid)", 2, 16),
    ("address_of_rvalue", K.format("int *p = &(1 + 2);"), "cannot take the address of an rvalue of type 'int'", 2, 10),
    ("increment_rvalue", K.format("(o[0] + 1)++;"), "expression is not assignable", 2, 11),
    ("assign_to_const", K.format("const int c = 1; c = 2;"),
     "cannot assign to variable 'c' with const-qualified type 'const int'", 2, 20),
    ("array_assignment", K.format("int a[2], b[2]; a = b;"), "array type 'int[2]' is not assignable", 2, 19),
    ("call_of_non_function", K.format("int x; x(1);"), "called object type 'int' is not a function or function pointer",
     2, 9),
    ("pointer_plus_pointer", K.format("o + o;"), "invalid operands to binary expression ('__global int *' and '__global int *')",
     2, 3),
    ("vector_shift_width_mismatch", K.format("int4 a; int2 b; a = a << b;"),
     "vector operands do not have the same number of elements ('int4' and 'int2')", 2, 23),
]


@pytest.mark.parametrize("name,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, source, message, line, col):
    check_rejected(source, message, line, col)


def test_increment_of_float_warns_and_still_runs():
    """§6.3.3 excludes ++/-- on float types; clang and PoCL accept them silently, so spirvkit
    compiles them (the run table has the values) with a warning that -w hides and -Werror raises."""
    source = "kernel void k(global float *o) {\nfloat4 v = 1; v--; float f = 1;\n++f; o[0] = f + v.x; }\n"
    message = "is not supported by OpenCL C (spec section 6.3.3)"
    assert warnings_of(source) == [f"2:16: '--' on a value of floating-point type 'float4' {message}",
                                   f"3:1: '++' on a value of floating-point type 'float' {message}"]
    assert warnings_of(source, "-cl-std=CL2.0 -w") == []
    with pytest.raises(CompileError, match=r"\[-Werror,-Wopencl-float-increment\]"):
        spirvkit.compile_cl(source, "-cl-std=CL2.0 -Werror")
    assert warnings_of("kernel void k(global int *o) { int i = 0; i++; o[0] = i; }") == []
