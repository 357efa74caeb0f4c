"""Language checklist §1.1/§1.6 (digest-opencl-c.md) for declarations: structs, unions, enums,
typedefs, arrays, pointers, initialisers (designated, nested, partial, brace elision), storage
classes (static/extern; no auto/register), functions and calls, kernel attributes
(reqd_work_group_size, work_group_size_hint, vec_type_hint, __kernel_exec); and their errors."""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import K, check_rejected, check_table, pocl_check_table, run_source

import spirvkit

PRELUDE = """
typedef struct { int a; char c; long l; } S;
struct Nested { S inner; int arr[3]; float2 v; };
union U { int i; float f; uchar b[4]; };
enum Color { RED, GREEN = 5, BLUE, ALPHA = -1 };
typedef enum Color Color;
typedef int Int4Array[4];
typedef float4 Vec;
static int helper(int x) { return x * 3; }
int add_struct(S s) { return s.a + s.c + (int)s.l; }
S make_s(int a) { S s = {a, 1, 2}; return s; }
void fill(int *a, int n) { for (int i = 0; i < n; i++) a[i] = i + 1; }
int forward_declared(int);
int forward_declared(int x) { return x + 100; }
constant int4 SPLAT = (int4)(-2147483647 - 1);
constant float4 FSPLAT = (float4)(3 - 5);
"""

RUN = {
    "struct_layout_and_members": ("S s; s.a = 1; s.c = 2; s.l = 3; o[0] = s.a + s.c + s.l; o[1] = sizeof(S);"
                                  "o[2] = __builtin_offsetof(S, l); o[3] = __alignof(S);", [6, 16, 8, 8]),
    "nested_struct_initialiser": ("struct Nested n = {{1, 2, 3}, {4, 5, 6}, (float2)(7.0f, 8.0f)};"
                                  "o[0] = n.inner.l; o[1] = n.arr[2]; o[2] = n.v.y; o[3] = sizeof(n);",
                                  [3, 6, 8, 40]),
    "brace_elision": ("struct Nested n = {1, 2, 3, 4, 5, 6}; o[0] = n.inner.a; o[1] = n.inner.l; o[2] = n.arr[0];"
                      "o[3] = n.arr[2];", [1, 3, 4, 6]),
    "designated_initialisers": ("struct Nested n = {.arr = {[2] = 9, [0] = 7}, .inner.c = 3}; o[0] = n.arr[0];"
                                "o[1] = n.arr[1]; o[2] = n.arr[2]; o[3] = n.inner.c; o[4] = n.inner.a;", [7, 0, 9, 3, 0]),
    "partial_initialiser_zero_fills": ("int a[5] = {1, 2}; S s = {4}; o[0] = a[1]; o[1] = a[4]; o[2] = s.c; o[3] = s.l;",
                                       [2, 0, 0, 0]),
    "array_size_from_initialiser": ("int a[] = {1, 2, 3, [6] = 7}; char s[] = \"abc\"; o[0] = sizeof(a) / sizeof(int);"
                                    "o[1] = sizeof(s); o[2] = a[6]; o[3] = s[3];", [7, 4, 7, 0]),
    "multidimensional_arrays": ("int m[2][3] = {{1, 2, 3}, {4, 5, 6}}; int (*row)[3] = m + 1; o[0] = m[1][2];"
                                "o[1] = (*row)[0]; o[2] = sizeof(m); o[3] = sizeof(m[0]);", [6, 4, 24, 12]),
    "struct_assignment_and_copy": ("S a = {1, 2, 3}; S b; b = a; b.a = 10; o[0] = a.a; o[1] = b.a; o[2] = b.l;",
                                   [1, 10, 3]),
    "struct_by_value_call_and_return": ("S s = make_s(5); o[0] = add_struct(s); o[1] = make_s(9).a;", [8, 9]),
    "struct_pointer_member_access": ("S s = {1, 2, 3}; S *p = &s; p->a = 40; o[0] = s.a; o[1] = (&s)->c;", [40, 2]),
    "union_type_punning": ("union U u; u.f = 1.0f; o[0] = u.i; o[1] = u.b[3]; o[2] = sizeof(union U);"
                           "union U w = {.f = 2.0f}; o[3] = w.i;", [0x3F800000, 0x3F, 4, 0x40000000]),
    "union_initialiser_first_member": ("union U u = {0x40400000}; o[0] = (int)u.f;", [3]),
    "enum_values_and_type": ("Color c = BLUE; o[0] = c; o[1] = GREEN; o[2] = ALPHA; o[3] = sizeof(enum Color);"
                             "enum { LOCAL_A = 3, LOCAL_B } e = LOCAL_B; o[4] = e;", [6, 5, -1, 4, 4]),
    "enum_in_switch": ("Color c = GREEN; switch (c) { case RED: o[0] = 1; break; case GREEN: o[0] = 2; break;"
                       "default: o[0] = 3; }", [2]),
    "typedefs_of_arrays_and_vectors": ("Int4Array a = {1, 2, 3, 4}; Vec v = (Vec)(1.0f); o[0] = sizeof(a); o[1] = a[3];"
                                       "o[2] = vec_step(Vec); typedef short Short; Short s = -2; o[3] = s;", [16, 4, 4, -2]),
    "block_scope_shadowing": ("int x = 1; { int x = 2; o[0] = x; } o[1] = x; for (int x = 5; x < 6; x++) o[2] = x;",
                              [2, 1, 5]),
    "static_and_forward_declared_functions": ("o[0] = helper(2); o[1] = forward_declared(1);", [6, 101]),
    "array_parameter_is_pointer": ("int a[4]; fill(a, 4); o[0] = a[3]; o[1] = a[0];", [4, 1]),
    "pointer_arithmetic_and_comparison": ("int a[6] = {0, 1, 2, 3, 4, 5}; int *p = a + 4, *q = &a[1]; o[0] = p - q;"
                                          "o[1] = p > q; o[2] = *(p - 2); o[3] = (int)(sizeof(*p));", [3, 1, 2, 4]),
    "void_pointer_casts": ("int x = 7; void *v = &x; int *p = (int *)v; o[0] = *p; uchar *b = (uchar *)&x; o[1] = b[0];",
                           [7, 7]),
    "compound_literals": ("S s = (S){.a = 3, .l = 4}; o[0] = s.a + s.l; o[1] = ((int[]){5, 6, 7})[2];",
                          [7, 7]),
    "volatile_and_const_locals": ("volatile int v = 3; v += 1; const int c = v * 2; o[0] = c; const S cs = {1}; o[1] = cs.a;",
                                  [8, 1]),
    "goto_and_labels": ("int n = 0; again: n++; if (n < 5) goto again; o[0] = n; goto end; o[1] = 99; end: o[2] = 1;",
                        [5, 0, 1]),
    "switch_fallthrough_and_default": ("int r = 0; for (int i = 0; i < 4; i++) switch (i) { case 0: r += 1; case 1: r += 10;"
                                       "break; default: r += 100; } o[0] = r;", [221]),
    "program_scope_vector_splat_constants": ("o[0] = SPLAT.w == INT_MIN; o[1] = (int)FSPLAT.z; o[2] = SPLAT.x + 1;",
                                             [1, -2, -2147483647]),
    "do_while_and_continue": ("int s = 0, i = 0; do { i++; if (i % 2) continue; s += i; } while (i < 10); o[0] = s;", [30]),
}


@pytest.mark.parametrize("name", RUN)
def test_declaration_semantics(name):
    check_table(RUN, name, prelude=PRELUDE)


def test_table_agrees_with_pocl():
    assert pocl_check_table(RUN, prelude=PRELUDE, options="-cl-std=CL1.2") == []


def _execution_modes(binary: bytes) -> dict:
    """{mode: [literal operands]} from the disassembly's OpExecutionMode lines."""
    modes = {}
    for line in spirvkit.disassemble(binary).splitlines():
        words = line.split()
        if words and words[0] == "OpExecutionMode":
            modes.setdefault(words[2], []).append([int(w) for w in words[3:]])
    return modes


def test_kernel_attributes_become_execution_modes():
    source = ("__kernel __attribute__((reqd_work_group_size(8, 2, 1))) __attribute__((vec_type_hint(float4)))\n"
              "void k(global int *o) { o[get_global_id(0)] = get_local_size(0) * 10 + get_local_size(1); }\n"
              "__kernel_exec(4, int2) void h(global int *o) {}\n")
    binary = spirvkit.compile_cl(source, "-cl-std=CL2.0")
    modes = _execution_modes(binary)
    assert modes["LocalSize"] == [[8, 2, 1]]
    assert modes["LocalSizeHint"] == [[4, 1, 1]]
    # (width << 16) | element code: float4 (5) for k, int2 (2) for h
    assert sorted(modes["VecTypeHint"]) == [[(2 << 16) | 2], [(4 << 16) | 5]]
    out = np.zeros(16, np.int32)
    spirvkit.Program(binary).kernel("k")((8, 2), None, out)
    assert out[:8].tolist() == [82] * 8


def test_kernel_calling_a_kernel_is_an_ordinary_call():
    source = ("kernel void inner(global int *o) { o[0] += 5; }\n"
              "kernel void outer(global int *o) { o[0] = 1; inner(o); }\n")
    out = np.zeros(1, np.int32)
    run_source(source, "outer", out)
    assert out.tolist() == [6]


def test_opencl_unroll_hint_and_pragma_unroll_are_accepted():
    source = ("kernel void k(global int *o) { int s = 0;\n"
              "__attribute__((opencl_unroll_hint(4))) for (int i = 0; i < 8; i++) s += i;\n"
              "#pragma unroll\nfor (int i = 0; i < 4; i++) s += i;\no[0] = s; }\n")
    out = np.zeros(1, np.int32)
    run_source(source, "k", out)
    assert out.tolist() == [34]


REJECT = [
    ("struct_redefinition", "struct S { int a; };\nstruct S { int b; };\nkernel void k(global int *o) {}\n",
     "redefinition of 'S'", 2, 8),
    ("enumerator_redefinition", "enum E { A, B };\nenum F { A };\nkernel void k(global int *o) {}\n",
     "redefinition of enumerator 'A'", 2, 10),
    ("typedef_redefinition_with_other_type", "typedef int T;\ntypedef float T;\nkernel void k(global int *o) {}\n",
     "typedef redefinition with different types ('float' vs 'int')", 2, 15),
    ("no_such_member", "struct S { int a; };\n" + K.format("struct S s; s.b = 1;"), "no member named 'b' in 'struct S'", 3, 15),
    ("incomplete_struct_variable", K.format("struct T t;"), "variable has incomplete type 'struct T'", 2, 10),
    ("excess_union_initialisers", "union U { int a; float b; };\n" + K.format("union U u = {1, 2.0f};"),
     "excess elements in union initializer", 3, 17),
    ("excess_array_initialisers", K.format("int a[2] = {1, 2, 3};"), "excess elements in array initializer", 2, 19),
    ("designator_beyond_array", K.format("int a[2] = { [5] = 1 };"), "array designator index (5) exceeds array bounds (2)",
     2, 14),
    ("designator_of_missing_field", "struct S { int a; };\n" + K.format("struct S s = { .b = 1 };"),
     "field designator 'b' does not refer to any field in type 'struct S'", 3, 17),
    ("negative_array_size", K.format("int a[-1];"), "array size is negative", 2, 7),
    ("auto_storage_class", K.format("auto int x;"), "OpenCL C version 2.0 does not support the 'auto' storage class specifier",
     2, 1),
    ("register_storage_class", K.format("register int x;"),
     "OpenCL C version 2.0 does not support the 'register' storage class specifier", 2, 1),
    ("extern_with_initialiser", K.format("extern int x = 1;"), "'extern' variable cannot have an initializer", 2, 12),
    ("kernel_returning_int", "kernel int k(global int *o) {\nreturn 0;\n}\n", "kernel must have void return type", 1, 12),
    ("static_kernel", "static kernel void k(global int *o) {}\n", "kernel functions cannot be declared static", 1, 20),
    ("reqd_work_group_size_zero", "kernel __attribute__((reqd_work_group_size(0, 1, 1))) void k(global int *o) {}\n",
     "'reqd_work_group_size' attribute must be greater than 0", 1, 23),
    ("reqd_work_group_size_two_args", "kernel __attribute__((reqd_work_group_size(1, 1))) void k(global int *o) {}\n",
     "'reqd_work_group_size' attribute requires exactly 3 arguments", 1, 23),
    ("vec_type_hint_of_struct", "struct S { int a; };\nkernel __attribute__((vec_type_hint(struct S))) void k(global int *o) {}\n",
     "a non-vector or non-vectorizable scalar type is an invalid argument to attribute 'vec_type_hint'", 2, 23),
    ("too_few_arguments", "int f(int a, int b) { return a; }\n" + K.format("o[0] = f(1);"),
     "too few arguments to function call, expected 2, have 1", 3, 9),
    ("too_many_arguments", "int f(int a) { return a; }\n" + K.format("o[0] = f(1, 2);"),
     "too many arguments to function call, expected 1, have 2", 3, 9),
    ("void_function_returning_value", "void f(void) {\nreturn 1;\n}\nkernel void k(global int *o) { f(); }\n",
     "void function 'f' should not return a value", 2, 1),
    ("undeclared_label", K.format("goto nowhere;"), "use of undeclared label 'nowhere'", 2, 1),
    ("duplicate_case", K.format("switch (o[0]) { case 1: case 1: break; }"), "duplicate case value '1'", 2, 30),
    ("non_constant_case", K.format("int x = 1; switch (o[0]) { case x: break; }"),
     "expression is not an integer constant expression", 2, 33),
    ("break_outside_loop", K.format("break;"), "'break' statement not in loop or switch statement", 2, 1),
    ("continue_in_switch", K.format("switch (o[0]) { case 1: continue; }"), "'continue' statement not in loop statement",
     2, 25),
    ("redefinition_of_variable", K.format("int x; int x;"), "redefinition of 'x'", 2, 12),
    ("undeclared_identifier", K.format("o[0] = x;"), "use of undeclared identifier 'x'", 2, 8),
    ("static_assert_failure", K.format('_Static_assert(sizeof(int) == 8, "int");'), "static assertion failed: int", 2, 1),
]


@pytest.mark.parametrize("name,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, source, message, line, col):
    check_rejected(source, message, line, col)


def test_g_emits_oplines_at_each_statement(tmp_path):
    from test_codegen import validate
    source = ("kernel void k(global int *o) {\n  int s = 0;\n  for (int i = 0; i < 4; i++)\n    s += i;\n"
              "  if (s) { o[0] = s; return; }\n  o[1] = 2;\n}\n")
    binary = spirvkit.compile_cl(source, "-cl-std=CL2.0 -g", filename="dbg.cl")
    validate(binary, tmp_path)
    text = spirvkit.disassemble(binary)
    file_id = next(line.split()[0] for line in text.splitlines() if line.strip().endswith('OpString "dbg.cl"'))
    lines = [tuple(int(w) for w in line.split()[2:]) for line in text.splitlines()
             if line.split()[:2] == ["OpLine", file_id]]
    assert lines == [(2, 3), (3, 3), (4, 5), (5, 3), (5, 12), (5, 22), (6, 3)]
    assert "OpLine" not in spirvkit.disassemble(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
    out = np.zeros(2, np.int32)
    spirvkit.Program(binary).kernel("k")(1, None, out)
    assert out.tolist() == [6, 0]
