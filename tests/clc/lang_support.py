"""Shared machinery of the focused language tests (tests/clc/test_lang_*.py).

Run tests are tables of small kernels, ``name -> (body, expected)``. A table is compiled into
one module and loaded into one Program, once per session (compile and JIT time dominate a
launch), and each kernel ``k_<name>(global T *o)`` is launched on one work-item; the test checks
``o`` against ``expected``, which the table states as Python values (computed by hand or by
numpy next to the table, never read back from the compiler).

Rejection tests compile a source and check the first error: clang-15's wording (without the
``__private`` / ``(vector of N 'T' values)`` decorations clang adds to type names) and the
line:col clang reports, unless a comment at the case says why ours differs.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import spirvkit
from spirvkit.errors import CompileError

CTYPE = {np.int32: "int", np.uint32: "uint", np.int64: "long", np.uint64: "ulong", np.float32: "float",
         np.float64: "double", np.int16: "short", np.int8: "char", np.uint8: "uchar", np.uint16: "ushort"}


def table_source(cases: dict, dtype=np.int32, prelude: str = "") -> str:
    ctype = CTYPE[dtype]
    kernels = "\n".join(f"kernel void k_{name}(global {ctype} *o) {{\n{body}\n}}"
                        for name, (body, _) in cases.items())
    return prelude + "\n" + kernels


@functools.lru_cache(maxsize=None)
def check_valid(binary: bytes, env: str = "opencl2.2", options=None) -> None:
    """spirv-val and spirvkit's validator both accept the module for ``env`` (``options``:
    spirvkit's ValidatorOptions, e.g. device extensions spirv-val cannot be told about)."""
    from peers import run_tool

    result = run_tool("spirv-val", ["--target-env", env, "-"], binary)
    assert result.returncode == 0, f"spirv-val --target-env {env}: {result.stderr.decode(errors='replace')}"
    assert spirvkit.validate(binary, target_env=env, options=options) == []


def _program(source: str, options: str):
    return spirvkit.Program(spirvkit.compile_cl(source, options, filename="lang.cl"))


def run_case(cases: dict, name: str, dtype=np.int32, options: str = "-cl-std=CL2.0", prelude: str = "",
             n: int | None = None):
    """Launch ``k_<name>`` of the table (compiled once per session) and return ``o`` as a list."""
    expected = cases[name][1]
    source = table_source(cases, dtype, prelude)
    out = np.zeros(n or max(len(expected), 1), dtype)
    _program(source, options).kernel(f"k_{name}")(1, None, out)
    return out.tolist()


def check_table(cases: dict, name: str, dtype=np.int32, options: str = "-cl-std=CL2.0", prelude: str = ""):
    got = run_case(cases, name, dtype, options, prelude)
    expected = cases[name][1]
    # Exact for floats too: the tables hold exactly representable results (NaN equals NaN).
    np.testing.assert_array_equal(np.array(got, dtype), np.array(expected, dtype))


def run_source(source: str, kernel: str, *args, options: str = "-cl-std=CL2.0", global_size=1, local_size=None,
               unchecked: bool = False):
    """Compile and launch one whole source (for cases a table cannot express)."""
    _program(source, options).kernel(kernel)(global_size, local_size, *args, unchecked=unchecked)


def first_error(source: str, options: str = "-cl-std=CL2.0") -> CompileError:
    with pytest.raises(CompileError) as info:
        spirvkit.compile_cl(source, options, filename="t.cl")
    err = info.value
    # Never a traceback turned into a message: an internal error is a compiler bug.
    assert "internal compiler error" not in str(err), str(err)
    return err


def check_rejected(source: str, message: str, line: int, col: int, options: str = "-cl-std=CL2.0"):
    err = first_error(source, options)
    assert (err.message, err.line, err.col) == (message, line, col), str(err)


def warnings_of(source: str, options: str = "-cl-std=CL2.0") -> list[str]:
    found: list = []
    spirvkit.compile_cl(source, options, filename="t.cl", diagnostics=found)
    return [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in found if d.severity == "warning"]


K = "kernel void k(global int *o) {{\n{}\n}}\n"


def pocl_check_table(cases: dict, dtype=np.int32, options: str = "-cl-std=CL2.0", prelude: str = "",
                     skip: tuple = ()):
    """The table's expected values checked on PoCL too: the expectations are the language's,
    not spirvkit's reading of it. Returns the names whose PoCL result differs. Each kernel is
    built on its own (with the prelude), so that a kernel PoCL cannot build or crashes on
    costs only its own record."""
    import pocl

    bad = []
    for name, (_, expected) in cases.items():
        if name in skip:
            continue
        source = table_source({name: cases[name]}, dtype, prelude)
        out = np.zeros(max(len(expected), 1), dtype)
        got = pocl.run(source, f"k_{name}", (1,), None, [out], options=options)[0]
        if not np.array_equal(got[:len(expected)], np.array(expected, dtype), equal_nan=dtype in (np.float32, np.float64)):
            bad.append(f"{name}: PoCL {got.tolist()} expected {expected}")
    return bad
