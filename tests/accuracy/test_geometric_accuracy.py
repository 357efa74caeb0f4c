"""The geometric accuracy sweep (tests/accuracy/geometric.py) as tests: 10^4 vectors per function,
type and vector width, every one within its width-dependent bound, and the special cases of
OpenCL C 6.13.5 exact."""

from __future__ import annotations

import pytest

from . import geometric
from .sweep import SAMPLE_COUNT

TRIPLES = [(name, t, n) for name, fn in geometric.FUNCTIONS.items() for t in ("float", "double", "half")
           if fn.bounds[t] is not None for n in fn.widths]


@pytest.mark.parametrize("name,type_name,n", TRIPLES, ids=[f"{a}-{t}-{n}" for a, t, n in TRIPLES])
def test_geometric_within_bound(name, type_name, n):
    r = geometric.measure(name, type_name, n, SAMPLE_COUNT)
    assert r.count == SAMPLE_COUNT
    assert r.passed, f"{name} ({type_name}{n}): max {r.max_err:.3g} over {r.bound}:\n" + "\n".join(r.failures)


def test_geometric_special_cases():
    wrong = [e for e in geometric.check_edges(["float", "double", "half"]) if not e.ok]
    assert not wrong, [(e.text, e.type, e.got) for e in wrong]


def test_section_replacement(tmp_path):
    path = tmp_path / "accuracy.md"
    path.write_text("# main\n\ntable\n")
    geometric.replace_section(path, f"{geometric.SECTION_BEGIN}\nA\n{geometric.SECTION_END}\n")
    geometric.replace_section(path, f"{geometric.SECTION_BEGIN}\nB\n{geometric.SECTION_END}\n")
    text = path.read_text()
    assert text.startswith("# main\n\ntable\n\n") and "\nB\n" in text and "\nA\n" not in text
    assert geometric.existing_section(path).strip().endswith(geometric.SECTION_END)
