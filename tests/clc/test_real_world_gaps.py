"""Issue 20's compiler gaps, as clang-15 compiles OpenCL C (checked against /usr/bin/clang-15 when
the cases were written):

* ``true`` and ``false`` need no header: they are keywords of type bool (clang enables
  LangOpts.Bool for OpenCL C), so ``sizeof(true)`` is 1 and ``true + true`` is 2; ``#if true`` is
  1 as in C++; neither is a macro (``#ifdef true`` is false) and clang does not define
  ``__bool_true_false_are_defined``;
* an ``event_t`` is initialised (or cast) from an integer constant 0 — a null event, as kernels
  pass to async_work_group_copy — while a non-zero integer, and assignment, stay errors;
* a CL2.0 program-scope pointer is initialised with any address constant C99 6.6p9 allows
  (``&arr[3]``, ``&s.member``, ``arr + 2``, ``&arr[1] + 1``, ``(global char *)&x + 1``,
  ``&arr[2] - 1``, into ``__constant`` variables too): emitted as llvm-spirv-15 does
  (OpSpecConstantOp InBoundsPtrAccessChain along the natural path, else Bitcast + byte
  PtrAccessChain, PtrCastToGeneric for a generic pointer), valid for spirv-val and spirvkit val,
  and run by the executor, which folds the chain to (variable, byte offset).
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from peers import spirv_tool

import spirvkit
from spirvkit.errors import CompileError

BOOL_KERNEL = """
kernel void k(global int *o) {
  bool b = true;
  o[0] = b ? 1 : 0;
  o[1] = false;
#if true
  o[2] = 5;
#endif
#if false
  o[2] = 6;
#endif
#ifdef __bool_true_false_are_defined
  o[3] = 77;
#endif
#if defined(true) || defined(false)
  o[3] = 88;
#endif
  o[4] = sizeof(true);
  o[5] = true + true;
  o[6] = !false;
  bool c = false;
  o[7] = (c == false) && (b != false);
}
"""


def _run(source: str, n: int, *buffers, options: str = "-cl-std=CL2.0", global_size=1, local_size=None):
    out = np.full(n, -1, np.int32)
    program = spirvkit.Program(spirvkit.compile_cl(source, options, filename="t.cl"))
    program.kernel("k")(global_size, local_size, out, *buffers)
    return out.tolist()


@pytest.mark.parametrize("std", ["CL1.2", "CL2.0", "CL3.0"])
def test_true_false_without_header(std):
    assert _run(BOOL_KERNEL, 8, options=f"-cl-std={std}") == [1, 0, 5, -1, 1, 2, 1, 1]


def test_true_false_in_program_scope_and_case_labels():
    source = """
constant bool yes = true;
constant int table[2] = {false, true};
kernel void k(global int *o) {
  int v = 0;
  switch (o[0] + 2) { case true: v = 10; break; case true + 1: v = 20; break; default: v = 30; }
  o[0] = yes; o[1] = table[1]; o[2] = v;
}
"""
    out = np.zeros(3, np.int32)
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0", filename="t.cl"))
    program.kernel("k")(1, None, out)
    assert out.tolist() == [1, 1, 20]


def test_true_is_a_keyword_not_a_name():
    with pytest.raises(CompileError) as info:
        spirvkit.compile_cl("kernel void k(global int *o) { int true = 1; o[0] = true; }", "-cl-std=CL2.0",
                            filename="t.cl")
    assert (info.value.message, info.value.line, info.value.col) == ("expected identifier or '('", 1, 36)


EVENT_KERNEL = """
kernel void k(global int *o, global int *src, local int *l) {
  event_t e = 0;
  event_t e2 = async_work_group_copy(l, src, 4, e);
  wait_group_events(1, &e2);
  event_t f = (event_t)0;
  event_t g = false;
  event_t h = (1 - 1);
  o[get_local_id(0)] = l[3 - get_local_id(0)];
}
"""


@pytest.mark.parametrize("std", ["CL1.2", "CL2.0"])
def test_event_from_integer_zero(std):
    src = np.array([5, 6, 7, 8], np.int32)
    got = _run(EVENT_KERNEL, 4, src, spirvkit.LocalMemory(16), options=f"-cl-std={std}", global_size=4,
               local_size=4)
    assert got == [8, 7, 6, 5]


@pytest.mark.parametrize("body, message", [
    ("event_t e = 1;", "initializing 'event_t' with an expression of incompatible type 'int'"),
    ("event_t e = 0; e = 0;", "incompatible type 'int'"),
])
def test_event_from_other_integers_rejected(body, message):
    with pytest.raises(CompileError) as info:
        spirvkit.compile_cl(f"kernel void k(global int *o) {{ {body} }}", "-cl-std=CL2.0", filename="t.cl")
    assert message in info.value.message


ADDRESS_PRELUDE = """
typedef struct { int a; float b; int c[3]; } S;
typedef struct { short h; int i; } Padded;
global int arr[8] = {10, 11, 12, 13, 14, 15, 16, 17};
global int m[3][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
global S s = {1, 2.5f, {3, 4, 5}};
global S sa[2] = {{6, 7.5f, {8, 9, 10}}, {11, 12.5f, {13, 14, 15}}};
global int x = 0x11223344;
global Padded pad = {-2, 99};
constant int tbl[4] = {100, 200, 300, 400};
"""

# name: (declaration of p, how the kernel reads it, expected value, the OpSpecConstantOp opcodes
# of the module in order: as clang-15 + llvm-spirv-15 emit them, but for row_pointer (clang's
# chain goes on to the row's first element, then Bitcasts back to the row) and the array of
# addresses (clang makes its elements Bitcast + byte PtrAccessChain + Bitcast))
ADDRESS_FORMS = {
    "element": ("global int *p = &arr[3];", "*p", 13, ["InBoundsPtrAccessChain"]),
    "member": ("global float *p = &s.b;", "(int)(*p * 2)", 5, ["InBoundsPtrAccessChain"]),
    "member_element": ("global int *p = &s.c[1];", "*p", 4, ["InBoundsPtrAccessChain"]),
    "array_of_structs": ("global int *p = &sa[1].c[2];", "*p", 15, ["InBoundsPtrAccessChain"]),
    "array_plus": ("global int *p = arr + 2;", "*p", 12, ["InBoundsPtrAccessChain"]),
    "int_plus_array": ("global int *p = 2 + arr;", "*p", 12, ["InBoundsPtrAccessChain"]),
    "element_plus": ("global int *p = &arr[1] + 1;", "*p", 12, ["InBoundsPtrAccessChain"]),
    "element_minus": ("global int *p = &arr[2] - 1;", "*p", 11, ["InBoundsPtrAccessChain"]),
    "byte_offset": ("global char *p = (global char *)&x + 1;", "*p", 0x33, ["Bitcast", "PtrAccessChain"]),
    "byte_offset_4": ("global int *p = (global int *)((global char *)&arr[1] + 4);", "*p", 12,
                      ["InBoundsPtrAccessChain"]),
    "short_view": ("global short *p = (global short *)&x + 1;", "*p", 0x1122,
                   ["Bitcast", "PtrAccessChain", "Bitcast"]),
    "mid_element": ("global short *p = (global short *)&arr[1] + 3;", "*p", 0,
                    ["Bitcast", "PtrAccessChain", "Bitcast"]),
    "row": ("global int *p = m[1];", "p[2]", 6, ["InBoundsPtrAccessChain"]),
    "row_pointer": ("global int (*p)[4] = &m[1] + 1;", "(*p)[3]", 11, ["InBoundsPtrAccessChain"]),
    "past_variable": ("global int *p = &x + 1;", "p[-1]", 0x11223344, ["InBoundsPtrAccessChain"]),
    "whole_array": ("global int *p = arr;", "p[7]", 17, ["InBoundsPtrAccessChain"]),
    "deref_address": ("global int *p = &*(arr + 5);", "*p", 15, ["InBoundsPtrAccessChain"]),
    "first_member_other_type": ("global int *p = (global int *)&s.b;", "*p == as_int(2.5f)", 1,
                                ["InBoundsPtrAccessChain", "Bitcast"]),
    "padded_member": ("global int *p = &pad.i;", "*p", 99, ["InBoundsPtrAccessChain"]),
    "generic": ("generic int *p = &arr[6];", "*p", 16, ["InBoundsPtrAccessChain", "PtrCastToGeneric"]),
    "to_constant": ("constant int *p = &tbl[2];", "*p", 300, ["InBoundsPtrAccessChain"]),
    "constant_to_constant": ("constant int *constant p = tbl + 1;", "*p", 200, ["InBoundsPtrAccessChain"]),
    "array_of_addresses": ("global int *q[2] = {&arr[4], &s.c[2]};\nglobal int **p = &q[1];", "**p + *q[0]",
                           5 + 14, ["InBoundsPtrAccessChain"] * 3 + ["PtrCastToGeneric"]),
}


def _address_source(form: str) -> str:
    decl, read, _, _ = ADDRESS_FORMS[form]
    return f"{ADDRESS_PRELUDE}{decl}\nkernel void k(global int *o) {{ o[0] = {read}; }}\n"


def _spec_ops(binary: bytes) -> list[str]:
    """The OpSpecConstantOp opcodes of a module, in order."""
    from spirvkit.spirv.grammar import load_grammar
    module = spirvkit.Module.from_bytes(binary)
    grammar = load_grammar()
    return [grammar.instruction(i.words[3]).opname[2:] for i in module.section("types_values") if i.opcode == 52]


@pytest.mark.parametrize("form", ADDRESS_FORMS)
def test_address_constant_forms(form, tmp_path):
    binary = spirvkit.compile_cl(_address_source(form), "-cl-std=CL2.0", filename="t.cl")
    path = tmp_path / "m.spv"
    path.write_bytes(binary)
    r = subprocess.run([spirv_tool("spirv-val"), "--target-env", "opencl2.0", str(path)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert spirvkit.validate(binary, "opencl2.0") == []
    assert _spec_ops(binary) == ADDRESS_FORMS[form][3]
    for unchecked in (False, True):
        out = np.full(1, -1, np.int32)
        spirvkit.Program(binary).kernel("k")(1, None, out, unchecked=unchecked)
        assert out[0] == ADDRESS_FORMS[form][2]


def test_address_constants_shared_by_kernels_and_written_through():
    """One globals block per program: a pointer into a __constant table and one into a global
    array reach the same objects from two kernels; a write through the global one is seen."""
    source = ADDRESS_PRELUDE + """
global int *w = &arr[5];
constant int *c = &tbl[3];
kernel void set(global int *o) { *w = 55; o[0] = *c; }
kernel void get(global int *o) { o[0] = arr[5]; o[1] = *c; o[2] = c == &tbl[3]; o[3] = w - arr; }
"""
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0", filename="t.cl"))
    out = np.zeros(4, np.int32)
    program.kernel("set")(1, None, out)
    assert out[0] == 400
    program.kernel("get")(1, None, out)
    assert out.tolist() == [55, 400, 1, 5]


@pytest.mark.parametrize("decl", [
    "global int *p = &arr[i];",        # a non-constant index
    "global int *p = q;",              # a pointer variable's value
    "global int *p = arr + i;",
])
def test_non_address_constants_rejected(decl):
    source = f"global int arr[4];\nint i = 1;\nglobal int *q = arr;\n{decl}\nkernel void k() {{}}\n"
    with pytest.raises(CompileError) as info:
        spirvkit.compile_cl(source, "-cl-std=CL2.0", filename="t.cl")
    assert info.value.message == "initializer element is not a compile-time constant"
