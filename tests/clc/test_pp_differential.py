"""Differential test: our ``-E -P`` output against clang-15's, committed as fixtures.

The inputs in tests/data/clc_pp/diff/*.cl are tricky cases (the C99 examples, stringification
spacing, pasting, variadics, rescanning, #if arithmetic, #line, _Pragma, includes); the
``.expected`` files are clang-15's output (command in tests/data/clc_pp/README.md). We
compare token sequences, so whitespace and blank-line differences do not count.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spirvkit.clc import PreprocessorOptions, preprocess_to_text
from spirvkit.clc.tokens import lex

DIFF_DIR = Path(__file__).parent.parent / "data" / "clc_pp" / "diff"
CASES = sorted(p.stem for p in DIFF_DIR.glob("*.cl"))


def token_texts(text: str) -> list[str]:
    tokens, _ = lex(text)
    return [t.text for t in tokens]


@pytest.mark.parametrize("case", CASES)
def test_matches_clang_token_stream(case, monkeypatch):
    monkeypatch.chdir(DIFF_DIR)  # clang was run from there; __FILE__ spellings depend on it
    source = (DIFF_DIR / f"{case}.cl").read_text()
    options = PreprocessorOptions(cl_std="CL2.0" if case == "opencl" else "CL1.2",
                                  include_dirs=["inc"])
    ours = preprocess_to_text(source, f"{case}.cl", options=options, line_markers=False)
    expected = (DIFF_DIR / f"{case}.expected").read_text()
    assert token_texts(ours) == token_texts(expected), ours


def test_fixture_set_is_complete():
    assert len(CASES) >= 10
    for case in CASES:
        assert (DIFF_DIR / f"{case}.expected").is_file(), case
    assert os.path.isdir(DIFF_DIR / "inc")
