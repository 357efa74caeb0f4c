"""Executor findings of the fuzz driver (tests/fuzz, issue 21): modules that the validator (and
spirv-val) accept, whose lowering raised a Python exception; each now ends in a clean error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spirvkit

DATA = Path(__file__).resolve().parents[1] / "data" / "fuzz"


def _launch(name: str):
    binary = (DATA / name).read_bytes()
    assert spirvkit.validate(binary, target_env="opencl2.2") == []
    program = spirvkit.Program(binary)
    kernel = program.kernel(program.kernel_names[0])
    args = [spirvkit.LocalMemory(256) if a.address_space == "local" else
            np.zeros(64, np.uint32) if a.address_space != "private" else 1 for a in kernel.args]
    kernel(16, None, *args, timeout=5)


@pytest.mark.parametrize("name, message", [
    ("ptr_access_chain_pointer_index.spv", r"an access chain index of type ptr \(not an integer scalar\)"),
    ("bitcast_builtin_pointer.spv", r"OpBitcast of a pointer to a BuiltIn variable"),
])
def test_lowering_refuses_what_it_cannot_lower(name, message):
    with pytest.raises(spirvkit.NotSupportedError, match=message):
        _launch(name)
