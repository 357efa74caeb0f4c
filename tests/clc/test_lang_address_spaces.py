"""Language checklist §1.5 (digest-opencl-c.md): the four named address spaces, their defaults
(by -cl-std), the CL2.0 generic space and its casting rules (to_global/to_local/to_private,
get_fence), program-scope __constant and __global variables, __local at kernel scope, string
literals in __constant; and the address-space errors with clang's wording."""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import K, check_rejected, check_table, pocl_check_table, run_source, warnings_of

import spirvkit

CONSTANTS = """
constant int table[4] = {10, 20, 30, 40};
constant float scale = 0.5f;
typedef struct { int a; float b; } Pair;
constant Pair pairs[2] = {{1, 1.5f}, {.b = 2.5f, .a = 2}};
typedef union { uint u; float f; } Bits;
constant Bits one = {.f = 1.0f};
constant Bits first_member = {0x40000000u};
int sum_const(constant int *t, int n) { int s = 0; for (int i = 0; i < n; i++) s += t[i]; return s; }
"""
PRELUDE = CONSTANTS + """
global int counter_init = 5;
int read_through(int *p) { return *p; }
void write_through(int *p, int v) { *p = v; }
"""

RUN = {
    "constant_table": ("o[0] = table[2]; o[1] = sum_const(table, 4); o[2] = (int)(scale * 10);", [30, 100, 5]),
    "constant_struct_array_with_designators": ("o[0] = pairs[1].a; o[1] = (int)(pairs[1].b * 2); o[2] = (int)(pairs[0].b * 2);",
                                               [2, 5, 3]),
    "constant_union_initialisers": ("o[0] = one.u; o[1] = (int)first_member.f;", [0x3F800000, 2]),
    "program_scope_global": ("o[0] = counter_init; counter_init = 1; o[1] = counter_init;", [5, 1]),
    "generic_pointer_to_each_space": ("local int l[1]; int p = 3; l[0] = 2; o[0] = 1;"
                                      "o[1] = read_through(o) + read_through(l) * 10 + read_through(&p) * 100;"
                                      "write_through(&p, 9); write_through(o + 2, 7); o[3] = p;", [1, 321, 7, 9]),
    "to_named_space_or_null": ("local int l[1]; int p = 0; int *g = o, *lg = l, *pg = &p;"
                               "o[0] = to_global(g) != 0; o[1] = to_local(g) == 0; o[2] = to_private(g) == 0;"
                               "o[3] = to_local(lg) != 0; o[4] = to_global(lg) == 0; o[5] = to_private(pg) == &p;",
                               [1, 1, 1, 1, 1, 1]),
    "to_global_of_named_pointer": ("global int *a = to_global(o); o[0] = a == o; local int l[1]; o[1] = to_global(l) == 0;",
                                   [1, 1]),
    "get_fence_of_generic_pointers": ("local int l[1]; int p; int *g = o, *lg = l, *pg = &p; o[0] = get_fence(g);"
                                      "o[1] = get_fence(lg); o[2] = get_fence(o) == CLK_GLOBAL_MEM_FENCE;", [2, 1, 1]),
    "generic_pointer_comparisons": ("int *g = o; o[0] = g == o; local int l[1]; int *lg = l; o[1] = lg != g;", [1, 1]),
    "string_literal_in_constant": ('constant char *s = "hello"; o[0] = s[1]; o[1] = sizeof("hello"); o[2] = "abc"[2];',
                                   [ord("e"), 6, ord("c")]),
    "constant_at_kernel_scope": ("constant int k3[3] = {7, 8, 9}; o[0] = k3[0] + k3[2];", [16]),
    "static_function_scope_variable_in_2_0": ("static global int hits = 3; static int more = 4; hits++; more++;"
                                              "o[0] = hits; o[1] = more;", [4, 5]),
    "local_array_at_kernel_scope": ("local int scratch[8]; for (int i = 0; i < 8; i++) scratch[i] = i * i;"
                                    "barrier(CLK_LOCAL_MEM_FENCE); o[0] = scratch[7];", [49]),
    "private_arrays_and_pointers": ("int a[4] = {1, 2, 3, 4}; private int *p = a + 1; o[0] = p[2]; o[1] = sizeof(p);", [4, 8]),
}


@pytest.mark.parametrize("name", RUN)
def test_address_space_semantics(name):
    check_table(RUN, name, prelude=PRELUDE)


# PoCL's CPU device here is OpenCL C 1.2/3.0 without the generic address space and without
# program-scope globals: only the other cases can be checked on it.
POCL_CASES = ("constant_table", "constant_struct_array_with_designators", "constant_union_initialisers",
              "string_literal_in_constant", "constant_at_kernel_scope", "local_array_at_kernel_scope",
              "private_arrays_and_pointers")


def test_table_agrees_with_pocl():
    assert pocl_check_table({k: RUN[k] for k in POCL_CASES}, prelude=CONSTANTS, options="-cl-std=CL1.2") == []


ADDRESS_INITIALISER = ("global int target = 5;\nglobal int *global_ptr = &target;\n"
                       "kernel void k(global int *o) { o[0] = *global_ptr; *global_ptr = 6; o[1] = target; }\n")


def test_address_constant_initialiser_validates(tmp_path):
    from test_codegen import validate
    validate(spirvkit.compile_cl(ADDRESS_INITIALISER, "-cl-std=CL2.0"), tmp_path)


def test_address_constant_initialiser_runs():
    out = np.zeros(2, np.int32)
    run_source(ADDRESS_INITIALISER, "k", out)
    assert out.tolist() == [5, 6]


def test_program_scope_globals_persist_across_launches():
    source = "global int counter = 10;\nkernel void k(global int *o) { counter += 1; o[0] = counter; }\n"
    kernel = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0")).kernel("k")
    out = np.zeros(1, np.int32)
    seen = []
    for _ in range(3):
        kernel(1, None, out)
        seen.append(int(out[0]))
    assert seen == [11, 12, 13]


def test_local_pointer_argument_and_work_group_reduction():
    source = ("kernel void k(global const int *in, global int *out, local int *tmp) {\n"
              "int l = get_local_id(0); tmp[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\n"
              "for (int s = get_local_size(0) / 2; s > 0; s >>= 1) { if (l < s) tmp[l] += tmp[l + s];\n"
              "barrier(CLK_LOCAL_MEM_FENCE); }\nif (l == 0) out[get_group_id(0)] = tmp[0]; }\n")
    data = np.arange(64, dtype=np.int32)
    out = np.zeros(4, np.int32)
    run_source(source, "k", data, out, spirvkit.LocalMemory(16 * 4), global_size=64, local_size=16)
    assert out.tolist() == data.reshape(4, 16).sum(axis=1).tolist()


def test_unqualified_pointer_is_private_in_1_2():
    source = ("int twice(int *p) { return 2 * *p; }\n"
              "kernel void k(global int *o) { int x = 21; o[0] = twice(&x); }\n")
    out = np.zeros(1, np.int32)
    run_source(source, "k", out, options="-cl-std=CL1.2")
    assert out.tolist() == [42]


REJECT = [
    ("global_to_local_pointer", "CL2.0", K.format("global int *g = o; local int *l = g;"),
     "initializing '__local int *' with an expression of type '__global int *' changes address space of pointer", 2, 31),
    ("constant_to_generic", "CL2.0", "kernel void k(global int *o, constant int *c) {\nint *p = c;\n}\n",
     "initializing '__generic int *' with an expression of type '__constant int *' changes address space of pointer",
     2, 6),
    ("generic_to_global_needs_cast", "CL2.0", K.format("int *p = o; global int *g = p;"),
     "initializing '__global int *' with an expression of type '__generic int *' changes address space of pointer",
     2, 25),
    ("global_pointer_to_private_in_1_2", "CL1.2", K.format("int *p = o;"),
     # clang spells the pointee space out: '__private int *'
     "initializing 'int *' with an expression of type '__global int *' changes address space of pointer", 2, 6),
    ("cast_between_named_spaces", "CL2.0", "kernel void k(global int *o, local int *l) {\nglobal int *q = (global int *)l;\n}\n",
     "casting '__local int *' to type '__global int *' changes address space of pointer", 2, 17),
    ("comparison_of_disjoint_spaces", "CL2.0", "kernel void k(global int *o, local int *l) {\no[0] = o == l;\n}\n",
     "comparison between  ('__global int *' and '__local int *') which are pointers to non-overlapping address spaces",
     2, 10),
    ("subtraction_of_disjoint_spaces", "CL2.0", "kernel void k(global int *o, local int *l) {\no[0] = o - l;\n}\n",
     "arithmetic operation with operands of type  ('__global int *' and '__local int *') which are pointers to "
     "non-overlapping address spaces", 2, 10),
    ("conditional_of_disjoint_spaces", "CL2.0", "kernel void k(global int *o, local int *l) {\nint *r = 1 ? o : l;\n}\n",
     "conditional operator with the second and third operands of type  ('__global int *' and '__local int *') which "
     "are pointers to non-overlapping address spaces", 2, 12),
    ("to_global_of_constant", "CL2.0", "kernel void k(global int *o, constant int *c) {\nglobal int *g = to_global(c);\n}\n",
     "invalid argument c to function: 'to_global', expecting a generic pointer argument", 2, 27),
    ("to_global_in_1_2", "CL1.2", K.format("global int *g = to_global(o);"),
     "use of undeclared identifier 'to_global'", 2, 17),
    ("local_with_initializer", "CL2.0", K.format("local int x = 1;"), "'__local' variable cannot have an initializer", 2, 11),
    ("local_in_nested_scope", "CL2.0", K.format("{ local int x; }"),
     "variables in the local address space can only be declared in the outermost scope of a kernel function", 2, 13),
    ("constant_in_nested_scope", "CL2.0", K.format("{ constant int c = 1; }"),
     "variables in the constant address space can only be declared in the outermost scope of a kernel function", 2, 16),
    ("local_in_non_kernel_function", "CL2.0", "void f(void) {\nlocal int x;\n}\nkernel void k(global int *o) { f(); }\n",
     "non-kernel function variable cannot be declared in local address space", 2, 11),
    ("constant_must_be_initialised", "CL2.0", "constant int c;\nkernel void k(global int *o) {}\n",
     "variable in constant address space must be initialized", 1, 14),
    ("write_to_constant_variable", "CL2.0", "constant int c = 1;\nkernel void k(global int *o) {\nc = 2;\n}\n",
     "read-only variable is not assignable", 3, 3),
    ("write_through_constant_pointer", "CL2.0", "kernel void k(global int *o, constant int *c) {\nc[0] = 1;\n}\n",
     "read-only variable is not assignable", 2, 6),
    ("program_scope_private_in_1_2", "CL1.2", "int g;\nkernel void k(global int *o) {}\n",
     "program scope variable must reside in constant address space", 1, 5),
    ("program_scope_global_in_1_2", "CL1.2", "global int g;\nkernel void k(global int *o) {}\n",
     "program scope variable must reside in constant address space", 1, 12),
    ("program_scope_private_in_2_0", "CL2.0", "private int g;\nkernel void k(global int *o) {}\n",
     "program scope variable must reside in global or constant address space", 1, 13),
    ("program_scope_local", "CL2.0", "local int g;\nkernel void k(global int *o) {}\n",
     "program scope variable must reside in global or constant address space", 1, 11),
    ("function_scope_global_variable", "CL2.0", K.format("global int x;"),
     "function scope variable cannot be declared in global address space", 2, 12),
    ("two_address_spaces", "CL2.0", K.format("global local int *p;"), "multiple address spaces specified for type", 2, 8),
    ("address_space_on_struct_member", "CL2.0", "struct S { global int x; };\nkernel void k(global int *o) {}\n",
     "field may not be qualified with an address space", 1, 23),
    # a typedef's address space qualifies what it declares (clang-15's messages and columns)
    ("typedef_space_on_parameter", "CL2.0", "typedef __local int lint;\nkernel void k(lint x) {}\n",
     "parameter may not be qualified with an address space", 2, 20),
    ("typedef_global_in_function", "CL2.0", "typedef const global int cgi;\nkernel void k(global int *o) { cgi y = 1; }\n",
     "function scope variable cannot be declared in global address space", 2, 36),
    ("typedef_space_and_another", "CL2.0", "typedef __local int lint;\nkernel void k(global int *o) { global lint *q = 0; }\n",
     "multiple address spaces specified for type", 2, 32),
    ("restrict_on_typedef_of_int", "CL2.0", "typedef int I;\nkernel void k(global int *o, I restrict x) {}\n",
     "restrict requires a pointer or reference ('int' is invalid)", 2, 32),
    ("string_literal_to_global_pointer", "CL2.0", K.format('global char *s = "hi";'),
     "initializing '__global char *' with an expression of type '__constant char *' changes address space of pointer",
     2, 14),
]


@pytest.mark.parametrize("name,std,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, std, source, message, line, col):
    check_rejected(source, message, line, col, f"-cl-std={std}")


def test_typedef_qualifiers_carry_over():
    # `typedef __local int lint; lint x;` declares a local variable; `restrict` on a typedef'd
    # pointer is a restrict pointer (kernel_arg_type_qual says so, as clang's does)
    source = ("typedef global int *gip;\ntypedef __local int lint;\n"
              "kernel void k(gip restrict o) {\n  lint x;\n  if (get_local_id(0) == 0) x = 40;\n"
              "  barrier(CLK_LOCAL_MEM_FENCE);\n  o[get_global_id(0)] = x + get_local_id(0);\n}\n")
    out = np.zeros(4, np.int32)
    run_source(source, "k", out, global_size=4, local_size=2)
    assert out.tolist() == [40, 41, 40, 41]
    assert "kernel_arg_type_qual.k.restrict," in spirvkit.disassemble(spirvkit.compile_cl(source))
    assert warnings_of("typedef global int gi;\nkernel void k(global gi *p) {}\n") == [
        "2:15: multiple identical address spaces specified for type"]
