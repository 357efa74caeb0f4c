"""Checked mode keeps the bounds of pointers to private memory kept in private structs, arrays
and block literals (jit/private_shadows.py).

Such a pointer, loaded back from the aggregate, used to lose its bounds (the region table holds
buffers and local memory only) and every access through it faulted although the program is
correct (the Khronos CTS kernel execute_block::block_typedef_kernel). Each kernel of
tests/data/blocks/private_pointers.cl runs, from ``spirvkit cc``'s SPIR-V and from clang-15 +
llvm-spirv-15's (the committed fixture), once with an index in bounds (checked and unchecked
agree on the value) and once one element past the private array: a located KernelFault, at the
instruction, with the private variable's offset.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spirvkit
from spirvkit.jit import private_shadows
from spirvkit.spirv.module import Module

BLOCKS = Path(__file__).resolve().parents[1] / "data" / "blocks"
SOURCE = BLOCKS / "private_pointers.cl"

# kernel: (arguments in bounds, expected out[0], arguments out of bounds, the private array's bytes)
CASES = {
    "member": ((3,), 4, (4,), 16),
    "pointer_array": ((1, 1), 8, (2, 1), 8),
    "nested": ((3,), 80, (4,), 16),
    "whole_copy": ((3,), 13, (4,), 16),
    "write_through": ((3,), 9, (4,), 16),
    "by_value": ((3,), 4, (4,), 16),
    "block_capture": ((2,), 5, (4,), 16),
    "across_barrier": ((3,), 5, (4,), 16),
}


@pytest.fixture(scope="module")
def programs():
    cc = spirvkit.compile_cl(SOURCE.read_text(), "-cl-std=CL2.0", filename=SOURCE.name)
    return {"cc": spirvkit.Program(cc), "clang": spirvkit.Program((BLOCKS / "private_pointers.spv").read_bytes())}


def _launch(program, name, ints, unchecked=False):
    out = np.full(4, -1, np.int32)
    extra = [spirvkit.LocalMemory(16)] if name == "across_barrier" else []
    program.kernel(name)(4 if name == "across_barrier" else 1, None, out, *extra,
                         *[np.int32(v) for v in ints], unchecked=unchecked)
    return out


@pytest.mark.parametrize("compiler", ["cc", "clang"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_in_bounds_through_a_kept_pointer(programs, compiler, name):
    good, expected, _, _ = CASES[name]
    checked = _launch(programs[compiler], name, good)
    unchecked = _launch(programs[compiler], name, good, unchecked=True)
    assert checked[0] == expected
    assert checked.tolist() == unchecked.tolist()


@pytest.mark.parametrize("compiler", ["cc", "clang"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_out_of_bounds_twin_faults_located(programs, compiler, name):
    _, _, bad, array_bytes = CASES[name]
    out = np.full(4, -1, np.int32)
    with pytest.raises(spirvkit.KernelFault) as info:
        extra = [spirvkit.LocalMemory(16)] if name == "across_barrier" else []
        programs[compiler].kernel(name)(4 if name == "across_barrier" else 1, None, out, *extra,
                                         *[np.int32(v) for v in bad])
    fault = info.value
    assert fault.kernel == name
    assert "private variable" in str(fault) and "instruction:" in str(fault)
    assert (fault.offset, fault.size) == (array_bytes, 4)   # one element past the array's end


@pytest.mark.parametrize("compiler", ["cc", "clang"])
def test_buffer_pointer_kept_in_a_private_struct(programs, compiler):
    # An empty shadow entry falls back to the region table: a buffer pointer still works, and
    # past the buffer's end it still faults, naming the buffer.
    program = programs[compiler]
    data = np.arange(10, 18, dtype=np.int32)
    out = np.zeros(1, np.int32)
    program.kernel("buffer_pointer")(1, None, out, data, np.int32(7))
    assert out[0] == 17
    with pytest.raises(spirvkit.KernelFault) as info:
        program.kernel("buffer_pointer")(1, None, out, data, np.int32(8))
    assert (info.value.offset, info.value.size) == (32, 4)


def test_a_block_captures_a_private_array_pointer_cts_shape():
    # The shape of the CTS's execute_block::block_typedef_kernel: a block capturing a pointer
    # to a private array, called from another block, returning pointers into the array.
    source = """
    kernel void k(global int *res) {
      typedef int* (^block_t)(int*);
      size_t tid = get_global_id(0);
      res[tid] = -1;
      int i[4] = { 3, 4, 4, 1 };
      int *temp = i;
      block_t kernelBlock = ^(int* pi) { block_t b = ^(int* n) { return n - 1; }; return pi + *(b(temp+4)); };
      switch (*(kernelBlock(i))) {
        case 4: res[tid] += *(kernelBlock(i+1)); break;
        default: res[tid] = -100; break;
      }
      res[tid] += *(kernelBlock(i)) - 7;
    }"""
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
    res = np.full(8, 99, np.int32)
    program.kernel("k")(8, None, res)
    assert res.tolist() == [0] * 8


def test_pointer_stored_through_a_computed_pointer_to_the_struct():
    # `holder *ph = &h; ph->p = a;`: the struct is reached through a pointer kept in another
    # variable, so which tracked variable it is is found at run time.
    source = """
    typedef struct { int *p; } holder;
    kernel void k(global int *out, int i) {
      int a[2] = {4, 5};
      holder h; holder *ph = &h;
      ph->p = a;
      out[0] = ph->p[i];
    }"""
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
    out = np.zeros(1, np.int32)
    program.kernel("k")(1, None, out, np.int32(1))
    assert out[0] == 5
    with pytest.raises(spirvkit.KernelFault) as info:
        program.kernel("k")(1, None, out, np.int32(2))
    assert (info.value.offset, info.value.size) == (8, 4)


def test_untracked_kept_pointer_still_faults_located():
    # A struct that goes through a phi of two different values is not tracked: its pointer
    # loses its bounds and an access through it faults, located (never an unchecked access).
    source = """
    typedef struct { int *p; } holder;
    holder pick(holder a, holder b, int c) { return c ? a : b; }
    kernel void k(global int *out, int c) {
      int x[2] = {1, 2}; int y[2] = {3, 4};
      holder a; a.p = x; holder b; b.p = y;
      holder h;
      if (c) h = a; else h = b;
      out[0] = h.p[1];
    }"""
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
    out = np.zeros(1, np.int32)
    program.kernel("k")(1, None, out, np.int32(1), unchecked=True)
    assert out[0] == 2
    try:
        program.kernel("k")(1, None, out, np.int32(1))
    except spirvkit.KernelFault as fault:
        assert "instruction:" in str(fault)
    else:
        assert out[0] == 2


def test_no_shadow_code_without_pointers_in_private_aggregates():
    # The corpus kernels keep no pointers in private structs: nothing is tracked or inlined.
    corpus = Path(__file__).resolve().parents[1] / "data" / "kernels"
    for path in sorted(corpus.glob("*.spv"))[:40]:
        assert private_shadows.calls_to_inline(Module.from_bytes(path.read_bytes())) == set(), path.name
    program = spirvkit.Program(spirvkit.compile_cl(SOURCE.read_text(), "-cl-std=CL2.0"))
    assert private_shadows.calls_to_inline(program.module) != set()
