"""Every OpenCL C kernel of the project's corpora parses under -cl-std=CL2.0 without errors.

The corpora are real OpenCL C 2.0 kernels (tests/data/kernels: the executor's; tests/data/clc:
the compiler's; benchmarks/kernels). Calls to built-ins need no declarations here: resolving
them is semantic analysis.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spirvkit.clc import parse
from spirvkit.clc import ast
from spirvkit.clc.ast_dump import dump

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(p for d in ("tests/data/kernels", "tests/data/clc", "benchmarks/kernels")
                for p in (ROOT / d).glob("*.cl"))


def test_corpus_is_there():
    assert len(CORPUS) >= 80


@pytest.mark.parametrize("path", CORPUS, ids=[str(p.relative_to(ROOT)) for p in CORPUS])
def test_corpus_file_parses(path):
    unit = parse(path.read_text(), str(path), options="-cl-std=CL2.0")
    kernels = [d for d in unit.decls if isinstance(d, ast.FunctionDef) and "kernel" in d.decl.funcspecs]
    assert kernels, "every corpus file has a kernel"
    for n in ast.walk(unit):
        assert n.loc is not None and n.loc.line >= 1
    assert dump(unit).startswith("TranslationUnit CL2.0")


def test_corpus_features_are_in_the_tree():
    """Spot checks that the corpus exercises what the parser must get right."""
    kinds: dict[str, int] = {}
    for path in CORPUS:
        for n in ast.walk(parse(path.read_text(), str(path), options="-cl-std=CL2.0")):
            kinds[type(n).__name__] = kinds.get(type(n).__name__, 0) + 1
    for k in ("VectorLiteral", "Member", "Switch", "Goto", "RecordDecl", "Attribute", "Pragma",
              "Conditional", "DoWhile", "BlockLiteral", "InitList", "Cast"):
        assert kinds.get(k, 0) > 0, k
