"""Hostile modules for the validator and the executor (issue 21): a composite constant whose
array type was mutated to a huge 64-bit length is refused by ``spirvkit val`` with a located
diagnostic (spirv-val accepts it: it does not evaluate 64-bit lengths), and a Program that runs
it without validation raises a clear SpirvError, not llvmlite's ValueError."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from jit.asm_kernel import simple_binary, st

import spirvkit
from spirvkit.spirv.module import Module

HUGE = 163_208_757_291  # the mutated length (needs 64 bits)


def _table_kernel(length: str, constituents: int) -> bytes:
    types = (f"%n = OpConstant {length}\n%arr = OpTypeArray %uint %n\n"
             "%ptr_arr = OpTypePointer UniformConstant %arr\n"
             "%table = OpConstantComposite %arr " + " ".join(["%uint_1"] * constituents) + "\n"
             "%tabvar = OpVariable %ptr_arr UniformConstant %table\n")
    body = "%e = OpInBoundsAccessChain %pUC_uint %tabvar %gid\n%x = OpLoad %uint %e\n" + st("dst", "gid", "uint", "x")
    return simple_binary([("dst", "pCW_uint")], body, types=types, validate=False)


def _word_offset_of(binary: bytes, opname: str) -> int:
    offset = 5
    module = Module.from_bytes(binary)
    for inst in module.instructions:
        if inst.opname == opname:
            return offset
        offset += len(inst.words)
    raise AssertionError(opname)


@pytest.mark.parametrize("length", [f"%ulong {HUGE}", "%ulong 44", "%uint 44"])
def test_constituent_count_must_match_array_length(length):
    binary = _table_kernel(length, 43)
    diagnostics = spirvkit.validate(binary)
    assert [d.rule for d in diagnostics] == ["constants.constituent-count"]
    assert diagnostics[0].word_offset == _word_offset_of(binary, "OpConstantComposite")
    assert "array element count" in diagnostics[0].message


@pytest.mark.parametrize("length", ["%ulong 43", "%uint 43"])
def test_matching_counts_validate_and_run(length):
    binary = _table_kernel(length, 43)
    assert spirvkit.validate(binary) == []
    out = np.zeros(4, np.uint32)
    spirvkit.Program(binary).kernel("main")(4, None, out)
    assert list(out) == [1, 1, 1, 1]


def test_unvalidated_program_gets_a_clear_error():
    # The huge table is past the constant-memory limit, checked before anything is built ...
    binary = _table_kernel(f"%ulong {HUGE}", 43)
    with pytest.raises(spirvkit.LimitError, match="of program-scope __constant data"):
        spirvkit.Program(binary).kernel("main")(4, None, np.zeros(4, np.uint32))
    # ... and a table within the limits whose constituents do not match its length is refused
    # when its constant is built.
    binary = _table_kernel("%ulong 50", 43)
    with pytest.raises(spirvkit.SpirvError, match=r"OpConstantComposite %\d+ has 43 constituents, but its type "
                                                  r"%\d+ \(array\) has 50"):
        spirvkit.Program(binary).kernel("main")(4, None, np.zeros(4, np.uint32))


def test_val_cli_rejects_it(tmp_path):
    path = tmp_path / "m.spv"
    path.write_bytes(_table_kernel(f"%ulong {HUGE}", 43))
    result = subprocess.run([sys.executable, "-m", "spirvkit", "val", str(path)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1 and "constants.constituent-count" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
