"""Issue 20's compiler gaps, as clang-15 compiles OpenCL C (checked against /usr/bin/clang-15 when
the cases were written):

* ``true`` and ``false`` need no header: they are keywords of type bool (clang enables
  LangOpts.Bool for OpenCL C), so ``sizeof(true)`` is 1 and ``true + true`` is 2; ``#if true`` is
  1 as in C++; neither is a macro (``#ifdef true`` is false) and clang does not define
  ``__bool_true_false_are_defined``;
* an ``event_t`` is initialised (or cast) from an integer constant 0 — a null event, as kernels
  pass to async_work_group_copy — while a non-zero integer, and assignment, stay errors.
"""

from __future__ import annotations

import numpy as np
import pytest

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
