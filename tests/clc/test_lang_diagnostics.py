"""clang-quality diagnostics (issue "clang-quality diagnostics"; spec §1.9 restrictions):
the generic address space before OpenCL C 2.0, -Wreturn-type, the position rules of
``#pragma OPENCL EXTENSION cl_khr_fp16``, and the §1.9 restrictions audited against clang-15.

Each rejection states clang-15's first error (its wording without the ``__private`` /
``(vector of N 'T' values)`` / ``(aka …)`` decorations, and the line:col clang reports), unless
a comment says why spirvkit's differs. Valid code next to each rule runs on the executor.
"""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import K, check_rejected, first_error, run_source, warnings_of

import spirvkit
from spirvkit.errors import CompileError

# -- the generic address space is an OpenCL C 2.0 feature ---------------------------------------

GENERIC_REJECT = [
    ("variable", "CL1.2", K.format("generic int *p = o;"),
     "OpenCL C version 1.2 does not support the 'generic' type qualifier", 2, 1),
    ("underscored", "CL1.2", K.format("__generic int *p = o;"),
     "OpenCL C version 1.2 does not support the '__generic' type qualifier", 2, 1),
    ("parameter", "CL1.2", "void f(__generic int *x) {}\nkernel void k(global int *o) {}\n",
     "OpenCL C version 1.2 does not support the '__generic' type qualifier", 1, 8),
    # clang-15 misses this position (it reports "automatic variable qualified with an invalid
    # address space" at 2:21)
    ("pointer_qualifier", "CL1.2", K.format("global int *generic p = o;"),
     "OpenCL C version 1.2 does not support the 'generic' type qualifier", 2, 13),
    ("cast", "CL1.2", K.format("int x = *(generic int *)o;"),
     "OpenCL C version 1.2 does not support the 'generic' type qualifier", 2, 11),
    ("cl_1_1", "CL1.1", K.format("generic int *p = o;"),
     "OpenCL C version 1.1 does not support the 'generic' type qualifier", 2, 1),
    # a keyword in every version, as in clang: not usable as a name before 2.0 either
    ("as_a_name", "CL1.2", K.format("int generic = 3;"),
     "OpenCL C version 1.2 does not support the 'generic' type qualifier", 2, 5),
]


@pytest.mark.parametrize("name,std,source,message,line,col", GENERIC_REJECT, ids=[r[0] for r in GENERIC_REJECT])
def test_generic_before_2_0_rejected(name, std, source, message, line, col):
    check_rejected(source, message, line, col, f"-cl-std={std}")


def test_generic_before_2_0_reports_every_use():
    err = first_error("kernel void k(global int *o) {\ngeneric int *p;\n__generic int *q;\n}\n", "-cl-std=CL1.2")
    assert [(d.loc.line, d.loc.col) for d in err.diagnostics if d.severity == "error"] == [(2, 1), (3, 1)]


def test_generic_in_2_0_runs():
    source = ("int get(generic int *p) { return *p; }\n"
              "kernel void k(global int *o) { __generic int *g = o + 1; int x = 5; o[0] = get(g) + get(&x); }\n")
    out = np.array([0, 37], np.int32)
    run_source(source, "k", out)
    assert out.tolist() == [42, 37]


# -- -Wreturn-type -------------------------------------------------------------------------------

RETURN_TYPE = """\
int falls_off(int x) {
  x++;
}
int some_paths(int x) {
  if (x) return 1;
}
int loops_forever(int x) {
  while (1) { }
}
int all_paths(int x) {
  if (x) return 1; else return 2;
}
int breaks_out(int x) {
  for (;;) { if (x) break; }
}
int switch_default(int x) {
  switch (x) { case 0: return 1; default: return 2; }
}
int switch_no_default(int x) {
  switch (x) { case 0: return 1; }
}
int dead_if(int x) { if (0) return 1; }
int switch_on_constant(int x) { switch (2) { case 1: break; case 2: return 1; } }
int goto_loop(int x) { again: x++; goto again; }
int goto_out(int x) { if (x) { goto out; } return 2; out: ; }
int do_once(int x) { do { if (x) continue; return 1; } while (0); }
int or_one(int x) { while (x || 1) { } }
int empty(int x) {}
kernel void k(global int *o) { o[0] = 1; }
"""
MSG = "non-void function does not return a value"


def test_return_type_warnings_like_clang():
    # clang-15 -Wreturn-type gives exactly these (the flow graph folds constant conditions)
    assert warnings_of(RETURN_TYPE) == [
        f"3:1: {MSG}", f"6:1: {MSG} in all control paths", f"15:1: {MSG}", f"21:1: {MSG} in all control paths",
        f"22:39: {MSG}", f"25:61: {MSG} in all control paths", f"26:67: {MSG} in all control paths", f"28:19: {MSG}"]


def test_return_type_rendered_with_flag_and_caret():
    found: list = []
    spirvkit.compile_cl("int f(int x) {\n  if (x) return 1;\n}\n", "", filename="r.cl", diagnostics=found)
    assert found[0].render(None) == (f"r.cl:3:1: warning: {MSG} in all control paths [-Wreturn-type]\n}}\n^")


def test_return_type_werror_w_and_wno():
    source = "int f(int x) {\n  x++;\n}\nkernel void k(global int *o) { o[0] = f(1); }\n"
    with pytest.raises(CompileError) as info:
        spirvkit.compile_cl(source, "-Werror", filename="r.cl")
    assert str(info.value).startswith(f"r.cl:3:1: error: {MSG} [-Werror,-Wreturn-type]")
    assert warnings_of(source, "-cl-std=CL2.0 -w") == []
    assert warnings_of(source, "-cl-std=CL2.0 -Wno-return-type") == []
    with pytest.raises(CompileError):  # -Wno-return-type does not hide the other warnings' errors
        spirvkit.compile_cl(source + "kernel void k2(global float *o) { float f = 0; f++; }\n",
                            "-Werror -Wno-return-type")


def test_return_type_not_after_an_error():
    # as clang: no flow warnings once the translation unit has an error
    err = first_error("int f(int x) {\n  x++;\n}\nkernel void k(global int *o) { o[0] = nope; }\nint g(int x) {}\n")
    assert [d.severity for d in err.diagnostics] == ["warning", "error"]


def test_return_type_void_and_kernels_are_silent():
    source = ("void f(global int *o) { o[0] = 1; }\nint g(int x) { switch (x) { default: return 1; } }\n"
              "int h(int x) { for (;;) { if (x++ > 3) return x; } }\n"
              "kernel void k(global int *o) { f(o); o[1] = g(0) + h(0); }\n")
    assert warnings_of(source) == []
    out = np.zeros(2, np.int32)
    run_source(source, "k", out)
    assert out.tolist() == [1, 6]


@pytest.mark.parametrize("body,message,col", [
    ("return;", "non-void function 'f' should return a value [-Wreturn-type]", 16),
], ids=["return_without_value"])
def test_return_errors_carry_clang_flag(body, message, col):
    err = first_error(f"int f(int x) {{ {body} }}\nkernel void k(global int *o) {{}}\n")
    assert str(err).startswith(f"t.cl:1:{col}: error: {message}")


# -- #pragma OPENCL EXTENSION cl_khr_fp16: enables from where it is, until disabled --------------

FP16 = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
FP16_OFF = "#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n"
HALF_KERNEL = "kernel void {}(global half *p) {{\nhalf v = p[0];\np[1] = v + v;\n}}\n"

FP16_REJECT = [
    ("before_the_pragma", HALF_KERNEL.format("k1") + FP16 + HALF_KERNEL.format("k2"),
     "declaring variable of type 'half' is not allowed", 2, 6),
    ("after_disable", FP16 + HALF_KERNEL.format("k1") + FP16_OFF + HALF_KERNEL.format("k2"),
     "declaring variable of type 'half' is not allowed", 8, 6),
    ("after_all_disable", FP16 + HALF_KERNEL.format("k1") + "#pragma OPENCL EXTENSION all : disable\n"
     + HALF_KERNEL.format("k2"), "declaring variable of type 'half' is not allowed", 8, 6),
    ("store_before_pragma_in_body", "kernel void k(global half *p) {\np[0] = 1.0f;\n" + FP16 + "p[1] = 2.0f;\n}\n",
     "assigning directly to pointer to type 'half' requires cl_khr_fp16. Use vector data store builtin functions "
     "instead", 2, 6),
    ("load_through_subscript", "kernel void k(global half *p, global float *f) {\nf[0] = p[0] + 1.0f;\n}\n",
     "loading directly from pointer to type '__global half' requires cl_khr_fp16. Use vector data load builtin "
     "functions instead", 2, 8),
    ("compound_assignment", "kernel void k(global half *p) {\np[0] += 1.0f;\n}\n",
     "assigning directly to pointer to type 'half' requires cl_khr_fp16. Use vector data store builtin functions "
     "instead", 2, 6),
    # clang-15 lets p[0]++ through; it loads a half all the same
    ("increment", "kernel void k(global half *p) {\np[0]++;\n}\n",
     "loading directly from pointer to type '__global half' requires cl_khr_fp16. Use vector data load builtin "
     "functions instead", 2, 1),
    ("half_literal", K.format("float f = 1.5h;"), "half precision constant requires cl_khr_fp16", 2, 11),
    ("cast_to_half", K.format("o[0] = (half)1.0f;"), "casting to type 'half' is not allowed", 2, 14),
    ("function_result", "half f(global half *p);\nkernel void k(global int *o) {}\n",
     "declaring function return value of type 'half' is not allowed ; did you forget * ?", 1, 6),
    ("prototype_parameter", "void f(half h);\nkernel void k(global int *o) {}\n",
     "declaring function parameter of type 'half' is not allowed; did you forget * ?", 1, 13),
]


@pytest.mark.parametrize("name,source,message,line,col", FP16_REJECT, ids=[r[0] for r in FP16_REJECT])
def test_fp16_pragma_position(name, source, message, line, col):
    check_rejected(source, message, line, col, "-cl-std=CL1.2")


def test_fp16_enabled_from_the_pragma_on_runs():
    # k1 comes before the pragma but uses half only through pointers (and sizeof of an lvalue)
    source = ("kernel void k1(global half *p, global int *o) { o[0] = sizeof(*p) + sizeof(half); }\n"
              + FP16 + "kernel void k2(global half *p) {\nhalf v = p[0];\np[1] = v + v;\n}\n")
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL1.2"))
    p = np.array([1.25, 0], np.float16)
    o = np.zeros(1, np.int32)
    program.kernel("k1")(1, None, p, o)
    program.kernel("k2")(1, None, p)
    assert o.tolist() == [4] and p[1] == np.float16(2.5)


def test_fp16_pragma_inside_a_body_and_called_kernel():
    # the pragma inside k1 enables half for the rest of the file; the callable copy of k2 (called
    # from k3) is compiled with the pragma state where k2 was written
    source = ("kernel void k1(global half *p) {\n" + FP16 + "half v = p[0]; p[1] = v * 2; }\n"
              "kernel void k2(global half *p) { p[2] = p[1] + 1; }\n"
              "kernel void k3(global half *p) { k2(p); }\n")
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL1.2"))
    p = np.array([3, 0, 0], np.float16)
    program.kernel("k1")(1, None, p)
    program.kernel("k3")(1, None, p)
    assert p.tolist() == [3, 6, 7]


# -- §1.9 restrictions and clang's checks around them --------------------------------------------

REJECT = [
    # kernel parameters (§1.9 #1, #11, #16)
    ("nested_struct_with_bool", "CL2.0",
     "struct A { bool b; };\nstruct S { struct A a; };\nkernel void k(struct S s) {}\n",
     "'struct S' cannot be used as the type of a kernel parameter", 3, 24),
    ("struct_with_bool_array", "CL2.0", "struct S { bool b[2]; };\nkernel void k(struct S s) {}\n",
     "'struct S' cannot be used as the type of a kernel parameter", 2, 24),
    ("typedef_struct_with_size_t", "CL1.2", "typedef struct { size_t n; } S;\nkernel void k(S s) {}\n",
     "'S' cannot be used as the type of a kernel parameter", 2, 17),
    ("typedef_of_bool", "CL2.0", "typedef bool B;\nkernel void k(B b) {}\n",
     "'B' cannot be used as the type of a kernel parameter", 2, 17),
    ("const_bool", "CL2.0", "kernel void k(const bool b) {}\n",
     "'const bool' cannot be used as the type of a kernel parameter", 1, 26),
    ("struct_with_pointer", "CL1.2", "struct S { global int *p; };\nkernel void k(struct S s) {}\n",
     "struct kernel parameters may not contain pointers", 2, 24),
    ("union_with_nested_pointer", "CL2.0", "struct A { int *p; };\nunion U { int x; struct A a; };\n"
     "kernel void k(union U u) {}\n", "union kernel parameters may not contain pointers", 3, 23),
    ("pointer_to_private_pointer", "CL2.0", "kernel void k(global int *private *p) {}\n",
     "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space", 1, 36),
    ("array_of_pointers", "CL2.0", "kernel void k(global int *a[4]) {}\n",
     "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space", 1, 27),
    ("kernel_prototype_checked", "CL2.0", "kernel void k(bool b);\n",
     "'bool' cannot be used as the type of a kernel parameter", 1, 20),
    ("static_kernel_prototype", "CL2.0", "static kernel void k(global int *o);\n",
     "kernel functions cannot be declared static", 1, 20),
    ("kernel_called_main", "CL2.0", "kernel void main(void) {}\n", "kernel cannot be called 'main'", 1, 13),
    # address-space qualified parameters
    ("global_value_parameter", "CL1.2", "kernel void k(global int o) {}\n",
     "parameter may not be qualified with an address space", 1, 26),
    ("local_value_parameter", "CL2.0", "void f(local int x) {}\nkernel void k(global int *o) {}\n",
     "parameter may not be qualified with an address space", 1, 18),
    ("constant_parameter_in_prototype", "CL2.0", "void f(constant int x);\nkernel void k(global int *o) {}\n",
     "parameter may not be qualified with an address space", 1, 21),
    # storage classes and address spaces of variables (§1.5, §1.8; OpenCL C 1.2 §6.8)
    ("static_local_in_1_2", "CL1.2", K.format("static constant int x = 1;"),
     "variables in function scope cannot be declared static", 2, 21),
    ("static_local_private_in_2_0", "CL2.0", K.format("static private int x;"),
     "static local variable must reside in global or constant address space", 2, 20),
    ("static_local_local_in_2_0", "CL2.0", K.format("static local int x;"),
     "static local variable must reside in global or constant address space", 2, 18),
    ("extern_in_function_1_2", "CL1.2", K.format("extern int x;"),
     "extern variable must reside in constant address space", 2, 12),
    ("extern_at_program_scope_1_2", "CL1.2", "extern global int x;\nkernel void k(global int *o) {}\n",
     "extern variable must reside in constant address space", 1, 19),
    ("constant_in_non_kernel_function", "CL2.0", "int f(void) {\nconstant int c = 1;\nreturn c;\n}\n"
     "kernel void k(global int *o) {}\n", "non-kernel function variable cannot be declared in constant address space",
     2, 14),
    ("generic_automatic_variable", "CL2.0", K.format("generic int x;"),
     "automatic variable qualified with an invalid address space", 2, 13),
    # event_t (§1.9 #16)
    ("event_at_program_scope", "CL2.0", "event_t e;\nkernel void k(global int *o) {}\n",
     # clang spells the type '__global event_t'
     "the 'event_t' type cannot be used to declare a program scope variable", 1, 9),
    ("event_field", "CL2.0", "struct S { event_t e; };\nkernel void k(global int *o) {}\n",
     "the 'event_t' type cannot be used to declare a structure or union field", 1, 20),
    ("event_in_local_space", "CL2.0", K.format("local event_t e;"),
     "the event_t type can only be used with __private address space qualifier", 2, 1),
    # writes to __constant (§1.5) and other assignments: at the operator, as clang
    ("increment_through_constant_pointer", "CL2.0", "kernel void k(constant int *c) {\nc[0]++;\n}\n",
     "read-only variable is not assignable", 2, 5),
    ("prefix_decrement_of_constant_variable", "CL2.0", "constant int c = 1;\nkernel void k(global int *o) {\n--c;\n}\n",
     "read-only variable is not assignable", 3, 1),
    ("increment_through_const_pointer", "CL2.0", "kernel void k(global const int *c) {\nc[0]++;\n}\n",
     "read-only variable is not assignable", 2, 5),
    ("assign_to_const_parameter", "CL2.0", "kernel void k(const int z) {\nz = 2;\n}\n",
     "cannot assign to variable 'z' with const-qualified type 'const int'", 2, 3),
    # conversions, with clang's wording per context
    ("assign_constant_pointer_to_global", "CL2.0", "kernel void k(constant int *c, global int *g) {\ng = c;\n}\n",
     "assigning '__constant int *' to '__global int *' changes address space of pointer", 2, 3),
    ("pass_constant_pointer", "CL2.0", "void f(global int *p);\nkernel void k(constant int *c) {\nf(c);\n}\n",
     "passing '__constant int *' to parameter of type '__global int *' changes address space of pointer", 3, 3),
    ("return_constant_pointer", "CL2.0", "global int *r(constant int *c) { return c; }\nkernel void k(global int *o) {}\n",
     "returning '__constant int *' from a function with result type '__global int *' changes address space of pointer",
     1, 41),
    ("return_incompatible", "CL2.0", "int4 f(void) { float4 v; return v; }\nkernel void k(global int *o) {}\n",
     "returning 'float4' from a function with incompatible result type 'int4'", 1, 33),
    ("pass_incompatible", "CL2.0", "void f(int4 v);\nkernel void k(global int *o) {\nfloat4 v; f(v);\n}\n",
     "passing 'float4' to parameter of incompatible type 'int4'", 3, 13),
    ("int_to_pointer_assignment", "CL2.0", K.format("o = 5;"),
     "incompatible integer to pointer conversion assigning to '__global int *' from 'int'", 2, 3),
    # locations clang gives: the start of the offending expression, the element list's '('
    ("constant_initialiser_not_constant", "CL1.2", "kernel void k(global int *o) {\nconstant int c = o[0];\n}\n",
     "initializer element is not a compile-time constant", 2, 18),
    ("vla_in_sizeof", "CL2.0", K.format("o[0] = sizeof(int[o[0]]);"),
     "variable length arrays are not supported in OpenCL", 2, 19),
    ("vector_literal_too_few", "CL1.2", K.format("int3 v = (int3)(1, 2);"),
     "too few elements in vector initialization (expected 3 elements, have 2)", 2, 16),
    ("bad_s_component", "CL2.0", K.format("int4 a; int b = a.s1x;"), "illegal vector component name 'x'", 2, 18),
    ("enum_redefinition", "CL2.0", "enum E { A };\nenum E { B };\nkernel void k(global int *o) {}\n",
     "redefinition of 'E'", 2, 6),
    ("variadic_kernel", "CL1.2", "kernel void k(global int *o, ...) {}\n",
     "invalid prototype, variadic arguments are not allowed in OpenCL", 1, 13),
    ("auto_at_program_scope", "CL2.0", "auto int g;\nkernel void k(global int *o) {}\n",
     "OpenCL C version 2.0 does not support the 'auto' storage class specifier", 1, 1),
    ("register_after_static", "CL3.0", K.format("static register int y;"),
     "OpenCL C version 3.0 does not support the 'register' storage class specifier", 2, 8),
    # operators on floating-point vectors where integers are required
    ("shift_by_float_vector", "CL2.0", K.format("int4 i; float4 f; i = i >> f;"), "used type 'float4' where integer is required",
     2, 25),
    ("shift_of_float_vector", "CL2.0", K.format("int4 i; float4 f; i = f << 1;"), "used type 'float4' where integer is required",
     2, 25),
    ("scalar_shifted_by_vector", "CL2.0", K.format("int4 i; i = 1 << i;"),
     "requested shift is a vector of type 'int4' but the first operand is not a vector ('int')", 2, 15),
    # declarations
    ("kernel_attribute_on_function", "CL2.0", "__attribute__((reqd_work_group_size(1, 1, 1))) void f(void) {}\n"
     "kernel void k(global int *o) {}\n", "attribute 'reqd_work_group_size' can only be applied to an OpenCL kernel function",
     1, 53),
    ("vec_type_hint_on_function", "CL2.0", "__attribute__((vec_type_hint(float4))) void f(void);\n"
     "kernel void k(global int *o) {}\n", "attribute 'vec_type_hint' can only be applied to an OpenCL kernel function", 1, 45),
    ("function_returning_array", "CL2.0", "typedef int A[2];\nA f(void);\nkernel void k(global int *o) {}\n",
     "function cannot return array type 'A'", 2, 4),
    ("function_returning_function", "CL2.0", "typedef int F(void);\nF g(void);\nkernel void k(global int *o) {}\n",
     "function cannot return function type 'F'", 2, 4),
    ("void_parameter_with_name", "CL2.0", "void f(void x) {}\nkernel void k(global int *o) {}\n",
     "argument may not have 'void' type", 1, 13),
    ("incomplete_parameter", "CL2.0", "struct T;\nvoid f(struct T t) {}\nkernel void k(global int *o) {}\n",
     "variable has incomplete type 'struct T'", 2, 17),
    ("program_scope_redefinition", "CL2.0", "constant int c = 1;\nconstant int c = 2;\nkernel void k(global int *o) {}\n",
     "redefinition of 'c'", 2, 14),
    ("function_redeclared_as_variable", "CL2.0", "int f(int);\nconstant int f = 1;\nkernel void k(global int *o) {}\n",
     "redefinition of 'f' as different kind of symbol", 2, 14),
    ("function_definition_in_a_body", "CL2.0", K.format("int f(void) { return 1; }"),
     "function definition is not allowed here", 2, 13),
    # Table 4 reserved types (clang-15 accepts these two)
    ("long_double_reserved", "CL2.0", K.format("long double d;"), "'long double' is reserved in OpenCL C", 2, 1),
    ("complex_reserved", "CL2.0", K.format("float _Complex c;"), "'_Complex' is reserved in OpenCL C", 2, 1),
    # expressions
    ("switch_on_float", "CL2.0", K.format("float f = 1; switch (f) { default: break; }"),
     "statement requires expression of integer type ('float' invalid)", 2, 14),
    ("address_of_vector_literal", "CL2.0", K.format("int4 *p = &(int4)(1);"),
     "cannot take the address of an rvalue of type 'int4'", 2, 11),
    ("sizeof_void_expression", "CL2.0", "void f(void) {}\n" + K.format("o[0] = sizeof(f());"),
     "invalid application of 'sizeof' to a void type", 3, 14),
]


@pytest.mark.parametrize("name,std,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, std, source, message, line, col):
    check_rejected(source, message, line, col, f"-cl-std={std}")


@pytest.mark.parametrize("source,note", [
    ("constant int c = 1;\nconstant int c = 2;\nkernel void k(global int *o) {}\n", (1, 14, "previous definition is here")),
    (K.format("const int z = 1;\nz = 2;"), (2, 11, "variable 'z' declared const here")),
], ids=["redefinition", "const_variable"])
def test_notes_like_clang(source, note):
    err = first_error(source)
    assert [(n.loc.line, n.loc.col, n.message) for n in err.diagnostics[0].notes] == [note]


def test_int_conversion_errors_carry_clang_flag():
    err = first_error(K.format("int x = o;"))
    assert "error: incompatible pointer to integer conversion initializing 'int' with an expression of type " \
           "'__global int *' [-Wint-conversion]" in str(err)


def test_storage_rules_accept_what_clang_accepts():
    source = ("constant int table[2] = {3, 4};\nextern constant int ext;\nglobal int counter = 10;\n"
              "static global int hidden = 1;\n"
              "int f(void) { static int calls = 0; static constant int c = 5; return ++calls + c; }\n"
              "kernel void k(global int *o) { constant int two = 2; o[0] = table[1] * two; o[1] = f(); o[2] = f();"
              " o[3] = counter + hidden; }\n")
    out = np.zeros(4, np.int32)
    run_source(source, "k", out)
    assert out.tolist() == [8, 6, 7, 11]


# -- double needs cl_khr_fp64 (supported by default, as clang's spir target; -cl-ext takes it away)

@pytest.mark.parametrize("source,line,col", [
    ("kernel void k(global double *o) {\n}\n", 1, 22),
    ("typedef double D;\nkernel void k(global float *o) {}\n", 1, 9),
    (K.format("double2 v;"), 2, 1),
], ids=["parameter", "typedef", "vector"])
def test_double_without_fp64_rejected(source, line, col):
    check_rejected(source, "use of type 'double' requires cl_khr_fp64 support", line, col,
                   "-cl-std=CL1.2 -cl-ext=-cl_khr_fp64")


def test_double_constant_without_fp64_is_float():
    source = "kernel void k(global float *o) {\n  o[0] = 1.5 * o[1] + sizeof(2.0);\n}\n"
    options = "-cl-std=CL1.2 -cl-ext=-cl_khr_fp64"
    message = "double precision constant requires cl_khr_fp64, casting to single precision"
    assert warnings_of(source, options) == [f"2:10: {message}", f"2:30: {message}"]  # clang-15's two
    out = np.array([0, 3], np.float32)
    run_source(source, "k", out, options=options)
    assert out.tolist() == [8.5, 3]  # 1.5f * 3 + sizeof(float)


def test_printf_prototype_is_allowed():
    # §1.9 #5: printf is the variadic exception; clang accepts its prototype, calls use the built-in
    source = 'int printf(__constant const char *format, ...);\nkernel void k(int x) { printf("%d!", x); }\n'
    out: list = []
    spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL1.2")).kernel("k")(1, None, np.int32(7), printf=out)
    assert "".join(out) == "7!"
