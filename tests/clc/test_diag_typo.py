"""Typo correction in `spirvkit cc` diagnostics, against clang-15: "use of undeclared identifier
'valeu'; did you mean 'value'?", the fix-it under the caret and the "'value' declared here" note.

The expected texts are clang-15's (Debian clang 15.0.6), recorded with

    clang-15 -cl-std=CL2.0 -c -target spir64 -emit-llvm -o /dev/null t.cl

on each source below; notes clang points into its own opencl-c-base.h are left out (spirvkit has
no header file). Every header line (error and notes) must match clang's; a diagnostic with a
"did you mean" must match clang's rendering line for line (source, caret range, fix-it).
"""

from __future__ import annotations

import re

import pytest

from spirvkit.clc.compiler import compile_cl
from spirvkit.errors import CompileError

# name -> (source, clang-15's first diagnostic with its notes)
CASES = {
    'expr-variable': (
        'kernel void k(global float *out) {\n  float value = 2;\n  out[0] = valeu;\n}\n',
        "t.cl:3:12: error: use of undeclared identifier 'valeu'; did you mean 'value'?\n  out[0] = valeu;\n           ^~~~~\n           value\nt.cl:2:9: note: 'value' declared here\n  float value = 2;\n        ^"),
    'expr-parameter': (
        'kernel void k(global float *out, int count, float width) {\n  out[0] = cuont;\n}\n',
        "t.cl:2:12: error: use of undeclared identifier 'cuont'; did you mean 'count'?\n  out[0] = cuont;\n           ^~~~~\n           count\nt.cl:1:38: note: 'count' declared here\nkernel void k(global float *out, int count, float width) {\n                                     ^"),
    'expr-insertion': (
        'kernel void k(global float *out, int count, float width) {\n  out[0] = countt;\n}\n',
        "t.cl:2:12: error: use of undeclared identifier 'countt'; did you mean 'count'?\n  out[0] = countt;\n           ^~~~~~\n           count\nt.cl:1:38: note: 'count' declared here\nkernel void k(global float *out, int count, float width) {\n                                     ^"),
    'expr-global': (
        'constant float scale = 2.0f;\nkernel void k(global float *out) {\n  out[0] = scal;\n}\n',
        "t.cl:3:12: error: use of undeclared identifier 'scal'; did you mean 'scale'?\n  out[0] = scal;\n           ^~~~\n           scale\nt.cl:1:16: note: 'scale' declared here\nconstant float scale = 2.0f;\n               ^"),
    'expr-function': (
        'float helper(float a) { return a; }\nkernel void k(global float *out) {\n  out[0] = helpr(1.0f);\n}\n',
        "t.cl:3:12: error: use of undeclared identifier 'helpr'; did you mean 'helper'?\n  out[0] = helpr(1.0f);\n           ^~~~~\n           helper\nt.cl:1:7: note: 'helper' declared here\nfloat helper(float a) { return a; }\n      ^"),
    'expr-transposed-param': (
        'kernel void k(global float *out, int count, float width) {\n  out[0] = widht;\n}\n',
        "t.cl:2:12: error: use of undeclared identifier 'widht'; did you mean 'width'?\n  out[0] = widht;\n           ^~~~~\n           width\nt.cl:1:51: note: 'width' declared here\nkernel void k(global float *out, int count, float width) {\n                                                  ^"),
    'expr-tie': (
        'kernel void k(global float *out) {\n  float val1 = 1, val2 = 2;\n  out[0] = val3;\n}\n',
        "t.cl:3:12: error: use of undeclared identifier 'val3'\n  out[0] = val3;\n           ^"),
    'expr-too-far': (
        'kernel void k(global float *out) {\n  size_t gid = get_global_id(0);\n  out[gdi] = 1;\n}\n',
        "t.cl:3:7: error: use of undeclared identifier 'gdi'\n  out[gdi] = 1;\n      ^"),
    'expr-too-short': (
        'kernel void k(global float *out) {\n  int ab = 1;\n  out[0] = ac;\n}\n',
        "t.cl:3:12: error: use of undeclared identifier 'ac'\n  out[0] = ac;\n           ^"),
    'builtin-not-candidate': (
        'kernel void k(global float *out) {\n  size_t gid = get_globl_id(0);\n}\n',
        "t.cl:2:16: error: use of undeclared identifier 'get_globl_id'\n  size_t gid = get_globl_id(0);\n               ^"),
    'enumerator': (
        'kernel void k(global atomic_int *p) {\n  atomic_store_explicit(p, 1, memory_order_relax);\n}\n',
        "t.cl:2:31: error: use of undeclared identifier 'memory_order_relax'; did you mean 'memory_order_relaxed'?\n  atomic_store_explicit(p, 1, memory_order_relax);\n                              ^~~~~~~~~~~~~~~~~~\n                              memory_order_relaxed"),
    'member': (
        'typedef struct { float x; int count; } S;\nkernel void k(global float *out, global const S *in) {\n  out[0] = in[0].cont;\n}\n',
        "t.cl:3:18: error: no member named 'cont' in 'S'; did you mean 'count'?\n  out[0] = in[0].cont;\n                 ^~~~\n                 count\nt.cl:1:31: note: 'count' declared here\ntypedef struct { float x; int count; } S;\n                              ^"),
    'member-named-struct': (
        'struct P { float x; int count; };\nkernel void k(global float *out, global const struct P *in) {\n  out[0] = in[0].cnt;\n}\n',
        "t.cl:3:18: error: no member named 'cnt' in 'struct P'\n  out[0] = in[0].cnt;\n           ~~~~~ ^"),
    'stmt-keyword': (
        'float f(float x) {\n  retrun x;\n}\n',
        "t.cl:2:3: error: use of undeclared identifier 'retrun'; did you mean 'return'?\n  retrun x;\n  ^~~~~~\n  return"),
    'stmt-type-keyword': (
        'kernel void k(global float *out, int count, float width) {\n  flot x = 1;\n}\n',
        "t.cl:2:3: error: use of undeclared identifier 'flot'; did you mean 'float'?\n  flot x = 1;\n  ^~~~\n  float"),
    'stmt-type-keyword-too-far': (
        'kernel void k(global float *out, int count, float width) {\n  flaot x = 1;\n}\n',
        "t.cl:2:3: error: use of undeclared identifier 'flaot'\n  flaot x = 1;\n  ^"),
    'stmt-header-typedef': (
        'kernel void k(global float *out, int count, float width) {\n  sizet q = 0;\n}\n',
        "t.cl:2:3: error: unknown type name 'sizet'; did you mean 'size_t'?\n  sizet q = 0;\n  ^~~~~\n  size_t"),
    'stmt-header-vector': (
        'kernel void k(global float *out, int count, float width) {\n  flot4 v;\n}\n',
        "t.cl:2:3: error: unknown type name 'flot4'; did you mean 'float4'?\n  flot4 v;\n  ^~~~~\n  float4"),
    'stmt-user-typedef': (
        'typedef struct { float x; } Point;\nkernel void k(global float *out) {\n  Pointt p;\n}\n',
        "t.cl:3:3: error: unknown type name 'Pointt'; did you mean 'Point'?\n  Pointt p;\n  ^~~~~~\n  Point\nt.cl:1:29: note: 'Point' declared here\ntypedef struct { float x; } Point;\n                            ^"),
    'stmt-user-typedef-too-far': (
        'typedef struct { float x; } Point;\nkernel void k(global float *out) {\n  Piont p;\n}\n',
        "t.cl:3:3: error: use of undeclared identifier 'Piont'\n  Piont p;\n  ^"),
    'stmt-variable': (
        'kernel void k(global float *out) {\n  float value; valeuu x;\n}\n',
        "t.cl:2:16: error: use of undeclared identifier 'valeuu'; did you mean 'value'?\n  float value; valeuu x;\n               ^~~~~~\n               value\nt.cl:2:9: note: 'value' declared here\n  float value; valeuu x;\n        ^"),
    'stmt-assignment-strict': (
        'kernel void k(global float *out) {\n  float value = 1; valeu = 2;\n}\n',
        "t.cl:2:20: error: use of undeclared identifier 'valeu'\n  float value = 1; valeu = 2;\n                   ^"),
    'stmt-ambiguous': (
        'kernel void k(global float *out, int count, float width) {\n  int5 x;\n}\n',
        "t.cl:2:7: error: expected ';' after expression\n  int5 x;\n      ^\n      ;"),
    'not-statement-start': (
        'kernel void k(global float *out, int count, float width) {\n  const flaot x = 1;\n}\n',
        "t.cl:2:9: error: unknown type name 'flaot'\n  const flaot x = 1;\n        ^"),
}

_HEADER = re.compile(r"^\S+:\d+:\d+: (error|warning|note):")


def _first_diagnostic(source: str) -> str:
    with pytest.raises(CompileError) as info:
        compile_cl(source, options="-cl-std=CL2.0", filename="t.cl")
    text = str(info.value).splitlines()
    block = [text[0]]
    for line in text[1:]:
        if re.match(r"^\S+:\d+:\d+: (error|warning):", line) or re.match(r"^\d+ errors? generated", line):
            break
        block.append(line)
    return "\n".join(block)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_clang(name):
    source, clang = CASES[name]
    ours = _first_diagnostic(source)
    headers = [line for line in ours.splitlines() if _HEADER.match(line)]
    assert headers == [line for line in clang.splitlines() if _HEADER.match(line)], ours
    if "did you mean" in clang.splitlines()[0]:
        assert ours == clang

