"""OpenCL C 2.0 atomic types (spec §6.13.11; digest "C11 atomics": no operators, no
``_Atomic``): ``atomic_int`` … ``atomic_flag`` are their own types (clang's ``_Atomic(T)``), with
the size, alignment and SPIR-V type of their value type, used only through the atomic
built-ins.

What clang-15 does, and so does spirvkit: every binary operator (arithmetic, bitwise,
comparison, logical, comma, compound assignment) with an atomic operand on either side, and the
unary ones (``+ - ~ ! ++ --``), are errors at the operator; ``=`` with an atomic object on either
side is "atomic variable can be assigned to a variable only in global address space"; an
initialiser is allowed only for an atomic object in the global address space (program scope or
``static``, with ATOMIC_VAR_INIT); a cast to an atomic type is an error. Reading an atomic object
as a value (``int x = *p``, ``if (*p)``, ``(int)*p``, an argument, a return value) is C11's
lvalue conversion: clang accepts it as a seq_cst atomic load, spirvkit emits OpAtomicLoad.
By-value atomic kernel parameters are accepted. Converting a pointer to an atomic type to or
from a pointer to its value type — an assignment, an initialisation, an argument (the C11
built-ins given a plain ``int *``, the 1.x built-ins given an ``atomic_int *``), a return — is a
-Wincompatible-pointer-types warning in clang-15, not an error.

Messages are clang-15's without its ``(aka '_Atomic(int)')`` and ``__private`` decorations
(lang_support.py); the other address spaces clang prints on lvalue types stay.
"""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import K, check_rejected, check_table, pocl_check_table, run_source, warnings_of

import spirvkit
from spirvkit.errors import CompileError

P = "kernel void k(global atomic_int *p, global int *o) {{\n{}\n}}\n"

REJECT = [
    # binary operators, at the operator; either side
    ("add", P.format("o[0] = *p + 1;"), "invalid operands to binary expression ('__global atomic_int' and 'int')", 2, 11),
    ("add_on_the_right", P.format("o[0] = 1 + *p;"),
     "invalid operands to binary expression ('int' and '__global atomic_int')", 2, 10),
    ("compare", P.format("o[0] = *p == 1;"), "invalid operands to binary expression ('__global atomic_int' and 'int')",
     2, 11),
    ("bitwise_and", P.format("o[0] = *p & 1;"), "invalid operands to binary expression ('__global atomic_int' and 'int')",
     2, 11),
    ("shift", P.format("o[0] = *p << 1;"), "invalid operands to binary expression ('__global atomic_int' and 'int')",
     2, 11),
    ("logical_and", P.format("o[0] = *p && 1;"), "invalid operands to binary expression ('__global atomic_int' and 'int')",
     2, 11),
    ("logical_or_on_the_right", P.format("o[0] = o[1] || *p;"),
     "invalid operands to binary expression ('__global int' and '__global atomic_int')", 2, 13),
    ("comma", P.format("o[0] = (*p, 1);"), "invalid operands to binary expression ('__global atomic_int' and 'int')",
     2, 11),
    ("subscript", P.format("o[0] = p[1] + 1;"), "invalid operands to binary expression ('__global atomic_int' and 'int')",
     2, 13),
    ("struct_member", "struct S { atomic_int a; int b; };\nkernel void k(global struct S *s, global int *o) {\n"
     "o[0] = s->a + s->b;\n}\n", "invalid operands to binary expression ('__global atomic_int' and '__global int')", 3, 13),
    ("private_variable", K.format("atomic_int a;\no[0] = a * 2;"),
     "invalid operands to binary expression ('atomic_int' and 'int')", 3, 10),
    ("local_variable", K.format("local atomic_int a;\no[0] = a | 2;"),
     "invalid operands to binary expression ('__local atomic_int' and 'int')", 3, 10),
    ("static_variable", K.format("static atomic_int s = ATOMIC_VAR_INIT(5);\no[0] = s + 1;"),
     "invalid operands to binary expression ('__global atomic_int' and 'int')", 3, 10),
    ("through_a_generic_pointer", "void f(atomic_int *p, global int *o) { o[0] = *p - 1; }\n"
     "kernel void k(global int *o) {}\n", "invalid operands to binary expression ('__generic atomic_int' and 'int')",
     1, 50),
    ("through_a_const_pointer", "kernel void k(const global atomic_int *p, global int *o) {\no[0] = *p + 1;\n}\n",
     "invalid operands to binary expression ('const __global atomic_int' and 'int')", 2, 11),
    ("through_a_volatile_pointer", "kernel void k(volatile global atomic_int *p, global int *o) {\no[0] = *p + 1;\n}\n",
     "invalid operands to binary expression ('volatile __global atomic_int' and 'int')", 2, 11),
    ("result_of_a_call", "atomic_int f(int x) { return x; }\nkernel void k(global int *o) { int y = f(1) + 1; }\n",
     "invalid operands to binary expression ('atomic_int' and 'int')", 2, 45),
    ("compound_assignment", P.format("*p += 1;"),
     "invalid operands to binary expression ('__global atomic_int' and 'int')", 2, 4),
    ("compound_assignment_from_atomic", P.format("o[0] += *p;"),
     "invalid operands to binary expression ('__global int' and '__global atomic_int')", 2, 6),
    # unary operators, at the operator
    ("post_increment", K.format("atomic_int a;\na++;"), "invalid argument type 'atomic_int' to unary expression", 3, 2),
    ("post_increment_through_pointer", P.format("(*p)++;"),
     "invalid argument type '__global atomic_int' to unary expression", 2, 5),
    ("pre_increment", P.format("++*p;"), "invalid argument type '__global atomic_int' to unary expression", 2, 1),
    ("post_decrement", P.format("(*p)--;"), "invalid argument type '__global atomic_int' to unary expression", 2, 5),
    ("increment_through_const_pointer", "kernel void k(const global atomic_int *p) {\n(*p)++;\n}\n",
     "invalid argument type 'const __global atomic_int' to unary expression", 2, 5),
    ("negate", P.format("o[0] = -*p;"), "invalid argument type '__global atomic_int' to unary expression", 2, 8),
    ("unary_plus", P.format("o[0] = +*p;"), "invalid argument type '__global atomic_int' to unary expression", 2, 8),
    ("complement", P.format("o[0] = ~*p;"), "invalid argument type '__global atomic_int' to unary expression", 2, 8),
    ("logical_not", P.format("o[0] = !*p;"), "invalid argument type '__global atomic_int' to unary expression", 2, 8),
    ("logical_not_as_condition", P.format("if (!*p) o[0] = 1;"),
     "invalid argument type '__global atomic_int' to unary expression", 2, 5),
    # assignment: with an atomic object on either side
    ("assign", P.format("*p = 3;"), "atomic variable can be assigned to a variable only in global address space", 2, 4),
    ("assign_local", K.format("local atomic_int a;\na = 3;"),
     "atomic variable can be assigned to a variable only in global address space", 3, 3),
    ("assign_through_const_pointer", "kernel void k(const global atomic_int *p) {\n*p = 1;\n}\n",
     "atomic variable can be assigned to a variable only in global address space", 2, 4),
    ("assign_member", "struct S { atomic_int a; };\nkernel void k(global struct S *s) {\ns->a = 1;\n}\n",
     "atomic variable can be assigned to a variable only in global address space", 3, 6),
    ("assign_from_atomic", P.format("o[0] = *p;"),
     "atomic variable can be assigned to a variable only in global address space", 2, 6),
    ("assign_from_atomic_to_variable", P.format("int x;\nx = *p;"),
     "atomic variable can be assigned to a variable only in global address space", 3, 3),
    ("assign_atomic_result", "atomic_int f(int x) { return x; }\nkernel void k(global int *o) { o[0] = f(1); }\n",
     "atomic variable can be assigned to a variable only in global address space", 2, 37),
    # initialisers: only in the global address space (§6.13.11.1 ATOMIC_VAR_INIT), at the initialiser
    ("var_init_in_function", K.format("atomic_int a = ATOMIC_VAR_INIT(3);"),
     "atomic variable can be initialized to a variable only in global address space", 2, 16),
    ("plain_init_in_function", K.format("atomic_int a = 3;"),
     "atomic variable can be initialized to a variable only in global address space", 2, 16),
    ("static_constant", K.format("static constant atomic_int a = 3;"),
     "atomic variable can be initialized to a variable only in global address space", 2, 32),
    ("program_scope_constant", "constant atomic_int c = ATOMIC_VAR_INIT(1);\nkernel void k(global int *o) {}\n",
     "atomic variable can be initialized to a variable only in global address space", 1, 25),
    ("init_list_in_function", K.format("atomic_int a = {3};"), "illegal initializer type 'atomic_int'", 2, 16),
    ("init_list_at_program_scope", "global atomic_int g = {3};\nkernel void k(global int *o) {}\n",
     "illegal initializer type '__global atomic_int'", 1, 23),
    ("local_with_initializer", K.format("local atomic_int a = 3;"), "'__local' variable cannot have an initializer", 2, 18),
    # other uses of an atomic type
    ("cast_to_atomic", P.format("o[0] = (atomic_int)*p;"),
     "used type 'atomic_int' where arithmetic or pointer type is required", 2, 8),
    ("cast_of_literal", K.format("(atomic_int)1;"), "used type 'atomic_int' where arithmetic or pointer type is required",
     2, 1),
    ("switch", P.format("switch (*p) { case 0: o[0] = 1; }"),
     "statement requires expression of integer type ('__global atomic_int' invalid)", 2, 1),
    ("vec_step", K.format("o[0] = vec_step(atomic_int);"),
     "'vec_step' requires built-in scalar or vector type, 'atomic_int' invalid", 2, 8),
    ("builtin_on_a_value", K.format("atomic_fetch_add(o[0], 1);"), "no matching function for call to 'atomic_fetch_add'",
     2, 1),
]


@pytest.mark.parametrize("name,source,message,line,col", REJECT, ids=[r[0] for r in REJECT])
def test_rejected(name, source, message, line, col):
    check_rejected(source, message, line, col)


def test_atomic_double_needs_fp64():
    source = "kernel void k(global atomic_double *p) {\natomic_store(p, 1.0);\n}\n"
    check_rejected(source, "unknown type name 'atomic_double'", 1, 22, "-cl-std=CL2.0 -cl-ext=-cl_khr_fp64")


def test_no_atomic_types_before_2_0():
    check_rejected("kernel void k(global atomic_int *p) {}\n", "unknown type name 'atomic_int'", 1, 22, "-cl-std=CL1.2")


# -- pointers to atomic and to plain types: clang-15's -Wincompatible-pointer-types warnings ---------

WARN = [
    ("c11_builtin_given_int_pointer", K.format("atomic_fetch_add(o, 1);"),
     "2:18: incompatible pointer types passing '__global int *' to parameter of type 'volatile __generic atomic_int *'"),
    ("c11_builtin_given_uint_pointer", "kernel void k(global uint *o) {\natomic_fetch_add(o + 1, 1u);\n}\n",
     "2:18: incompatible pointer types passing '__global uint *' to parameter of type 'volatile __generic atomic_uint *'"),
    ("c11_store_given_float_pointer", "kernel void k(global float *o) {\natomic_store(o, 1.0f);\n}\n",
     "2:14: incompatible pointer types passing '__global float *' to parameter of type 'volatile __generic atomic_float *'"),
    ("flag_builtin_given_int_pointer", K.format("atomic_flag_test_and_set(o);"),
     "2:26: incompatible pointer types passing '__global int *' to parameter of type 'volatile __generic atomic_flag *'"),
    ("legacy_builtin_given_atomic_pointer", P.format("atomic_add(p, 1);"),
     "2:12: incompatible pointer types passing '__global atomic_int *' to parameter of type 'volatile __global int *'"),
    ("legacy_builtin_given_local_atomic", K.format("local atomic_int a;\natomic_add(&a, 1);"),
     "3:12: incompatible pointer types passing '__local atomic_int *' to parameter of type 'volatile __local int *'"),
    ("initialize_plain_from_atomic", P.format("global int *q = p;"),
     "2:13: incompatible pointer types initializing '__global int *' with an expression of type '__global atomic_int *'"),
    ("initialize_atomic_from_plain", P.format("global atomic_int *r = o;"),
     "2:20: incompatible pointer types initializing '__global atomic_int *' with an expression of type '__global int *'"),
    ("assign_atomic_from_plain", P.format("p = o;"),
     "2:3: incompatible pointer types assigning to '__global atomic_int *' from '__global int *'"),
    ("pass_atomic_for_plain", "void f(global int *q) {}\nkernel void k(global atomic_int *p) {\nf(p);\n}\n",
     "3:3: incompatible pointer types passing '__global atomic_int *' to parameter of type '__global int *'"),
    ("return_atomic_as_plain", "global int *f(global atomic_int *p) { return p; }\nkernel void k(global int *o) {}\n",
     "1:46: incompatible pointer types returning '__global atomic_int *' from a function with result type "
     "'__global int *'"),
]


@pytest.mark.parametrize("name,source,warning", WARN, ids=[r[0] for r in WARN])
def test_pointer_conversion_warns(name, source, warning):
    assert warnings_of(source) == [warning]


def test_pointer_conversion_warning_flag():
    source = K.format("atomic_fetch_add(o, 1);")
    assert warnings_of(source, "-cl-std=CL2.0 -Wno-incompatible-pointer-types") == []
    with pytest.raises(CompileError):
        spirvkit.compile_cl(source, "-cl-std=CL2.0 -Werror")


def test_matching_pointers_do_not_warn():
    source = ("kernel void k(global atomic_int *p, global atomic_flag *f, global int *o) {\n"
              "global atomic_int *q = p + 1; atomic_fetch_add(q, 1); atomic_add(o, 1); atomic_flag_clear(f);\n"
              "atomic_flag_clear(p);\n}\n")  # atomic_flag is _Atomic(int), as atomic_int
    assert warnings_of(source) == []


# -- accepted: the built-ins on atomic objects in every address space, and reads as values ---------

FUNCTIONS = """\
struct A { atomic_int a; int b; };
int plus_one(atomic_int a) { int x = a; return x + 1; }
int read(global atomic_int *p) { return *p; }
"""
PRELUDE = """\
global atomic_int counter = ATOMIC_VAR_INIT(40);
global atomic_flag flag = ATOMIC_FLAG_INIT;
global atomic_uint table[3] = {1, 2, 3};
""" + FUNCTIONS

RUN = {
    "program_scope_atomic_var_init": ("atomic_fetch_add(&counter, 2); o[0] = atomic_load(&counter);", [42]),
    "program_scope_array": ("atomic_fetch_add(&table[1], 5u); o[0] = atomic_load(&table[1]); o[1] = atomic_load(table + 2);",
                            [7, 3]),
    "flag": ("o[0] = atomic_flag_test_and_set(&flag); o[1] = atomic_flag_test_and_set(&flag); atomic_flag_clear(&flag);"
             "o[2] = atomic_flag_test_and_set_explicit(&flag, memory_order_seq_cst);", [0, 1, 0]),
    "flag_in_buffer": ("global atomic_flag *f = (global atomic_flag *)o; atomic_flag_clear(f);"
                       "o[1] = atomic_flag_test_and_set(f); o[2] = atomic_flag_test_and_set(f); atomic_flag_clear(f);"
                       "o[3] = atomic_flag_test_and_set_explicit(f, memory_order_seq_cst, memory_scope_device);"
                       "atomic_flag_clear_explicit(f, memory_order_release);", [0, 0, 1, 0]),
    "static_with_var_init": ("static atomic_int s = ATOMIC_VAR_INIT(5); o[0] = atomic_fetch_add(&s, 1);"
                             "o[1] = atomic_load(&s);", [5, 6]),
    "local_atomic": ("local atomic_int l; atomic_init(&l, 3); atomic_fetch_add_explicit(&l, 4, memory_order_relaxed,"
                     "memory_scope_work_group); o[0] = atomic_load(&l); o[1] = atomic_exchange(&l, 1); o[2] = atomic_load(&l);",
                     [7, 7, 1]),
    "local_array": ("local atomic_int a[3]; for (int i = 0; i < 3; i++) atomic_init(&a[i], i);"
                    "atomic_fetch_add(a + 2, 10); o[0] = atomic_load(&a[2]); o[1] = atomic_load(a);", [12, 0]),
    "local_atomic_long": ("local atomic_long l; atomic_init(&l, 1L << 40); atomic_fetch_add(&l, 1);"
                          "o[0] = atomic_load(&l) >> 40; o[1] = (int)atomic_load(&l);", [1, 1]),
    "private_atomic": ("atomic_int a; atomic_init(&a, 1); atomic_fetch_or(&a, 6); o[0] = atomic_load(&a); int x = a;"
                       "o[1] = x;", [7, 7]),
    "global_buffer": ("global atomic_int *p = (global atomic_int *)o; atomic_store(p + 1, 5); int e = 4;"
                      "o[2] = atomic_compare_exchange_strong(p + 1, &e, 8); o[3] = e; e = 5;"
                      "o[4] = atomic_compare_exchange_weak_explicit(p + 1, &e, 9, memory_order_acq_rel, memory_order_acquire);"
                      "o[5] = atomic_fetch_sub(p + 1, 2); o[0] = p + 3 - p;", [3, 7, 0, 5, 1, 9]),
    # lvalue conversion: an atomic object read as its value (a seq_cst atomic load)
    "read_as_value": ("global atomic_int *p = (global atomic_int *)o; atomic_store(p, 9); int x = *p; o[1] = x;"
                      "o[2] = p[0] ? 1 : 2; o[3] = (int)*p + 1; if (*p) o[4] = 5; o[5] = read(p);", [9, 9, 1, 10, 5, 9]),
    "read_into_other_types": ("global atomic_int *p = (global atomic_int *)o; atomic_store(p, 7); float f = *p;"
                              "o[1] = (int)(f * 2); long l = *p; o[2] = (int)(l << 1); o[3] = plus_one(*p); o[0] = 0;",
                              [0, 14, 14, 8]),
    "struct_member": ("struct A s; atomic_init(&s.a, 4); s.b = 5; o[0] = atomic_load(&s.a) + s.b; o[1] = sizeof(struct A);",
                      [9, 8]),
    "atomic_parameter": ("o[0] = plus_one(41);", [42]),
    "sizes": ("o[0] = sizeof(atomic_int); o[1] = sizeof(atomic_long); o[2] = sizeof(atomic_flag); o[3] = sizeof(atomic_double);"
              "o[4] = sizeof(atomic_size_t); o[5] = sizeof(atomic_float); o[6] = __alignof__(atomic_ulong);",
              [4, 8, 4, 8, 8, 4, 8]),
}


@pytest.mark.parametrize("name", RUN)
def test_runs(name):
    check_table(RUN, name, prelude=PRELUDE)


# PoCL's CPU device declares the __global/__local overloads of the atomic_* functions only for
# OpenCL C 3.0 (tests/jit/kernel_cases.py CL30), where it has neither program-scope (nor static)
# variables in the global address space nor the __private overloads: those cases run here only.
NOT_ON_POCL = ("program_scope_atomic_var_init", "program_scope_array", "flag", "static_with_var_init",
               "private_atomic", "struct_member")


def test_table_agrees_with_pocl():
    cases = {k: v for k, v in RUN.items() if k not in NOT_ON_POCL}
    assert pocl_check_table(cases, prelude=FUNCTIONS, options="-cl-std=CL3.0") == []


def test_by_value_atomic_kernel_parameter():
    source = "kernel void k(atomic_int v, global int *o) { int x = v; o[0] = x * 2; }\n"
    out = np.zeros(1, np.int32)
    run_source(source, "k", np.int32(21), out)
    assert out.tolist() == [42]
    # kernel_arg_type names the atomic type, as clang's metadata does
    assert 'OpString "kernel_arg_type.k.atomic_int,int*,"' in spirvkit.disassemble(
        spirvkit.compile_cl(source, "-cl-std=CL2.0"))


def test_reading_an_atomic_object_is_an_atomic_load():
    text = spirvkit.disassemble(spirvkit.compile_cl(
        "kernel void k(global atomic_long *p, global long *o) { long x = *p; o[0] = x; }\n", "-cl-std=CL2.0"))
    assert "OpAtomicLoad %ulong %p %uint_1 %uint_528" in text  # Device scope, SequentiallyConsistent|CrossWorkgroup
    assert "OpCapability Int64Atomics" in text


def test_int_pointer_given_to_c11_builtin_still_runs():
    # clang-15 accepts it (a warning) and so does PoCL: the int is used as an atomic_int
    source = "kernel void k(global int *o) { atomic_fetch_add(o, 5); o[1] = atomic_load(o); }\n"
    out = np.array([1, 0], np.int32)
    run_source(source, "k", out)
    assert out.tolist() == [6, 6]


def test_by_value_parameter_and_int_pointer_agree_with_pocl():
    import pocl  # its run() skips (fails under CI) when PoCL is missing

    source = "kernel void k(atomic_int v, global int *o) { int x = v; o[0] = x * 2; }\n"
    assert pocl.run(source, "k", (1,), None, [np.int32(21), np.zeros(1, np.int32)],
                    options="-cl-std=CL3.0")[1].tolist() == [42]
    # (PoCL's newer clang finds atomic_load(int *) ambiguous; clang-15 takes it with the warning)
    source = "kernel void k(global int *o) { o[1] = atomic_fetch_add(o, 5); }\n"
    assert pocl.run(source, "k", (1,), None, [np.array([1, 0], np.int32)], options="-cl-std=CL3.0")[0].tolist() == [6, 1]
