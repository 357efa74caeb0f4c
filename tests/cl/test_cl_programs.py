"""pyopencl-style programs (tests/cl/programs/, written for pyopencl's API, each checking its
results against numpy too) run on spirvkit.cl print what the same programs print on
pyopencl + PoCL, recorded by ``python -m tests.peers.record --only programs_pocl``
(tests/peers/programs.py)."""

import contextlib
import io
import runpy
from pathlib import Path

import pytest
from peers import programs

PROGRAMS = Path(__file__).parent / "programs"
NAMES = ["chained_events", "image_filter", "matmul_local", "pi_reduction", "vector_add"]


def test_every_program_is_compared():
    assert sorted(p.stem for p in PROGRAMS.glob("*.py")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_programs_pocl(name):
    expected = programs.printed_by_pocl(PROGRAMS / f"{name}.py")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(PROGRAMS / f"{name}.py"), run_name="__main__")
    assert out.getvalue().splitlines() == expected.splitlines()
    assert expected.strip()
