"""The valid corpora (assembler fixtures, clang/llvm-spirv kernels, glslang compute shaders,
benchmark kernels) are valid for spirvkit's validator in their env, and spirv-val agrees; the
modules the manifests record as invalid for spirv-val are rejected by spirvkit too."""

from __future__ import annotations

import pytest
from peers import run_tool
from val_corpus import corpus, load

from spirvkit.validate import validate

CORPUS = corpus()
VALID = [c for c in CORPUS if c[4]]
INVALID = [c for c in CORPUS if not c[4]]


def test_corpus_is_large_enough():
    assert len(VALID) >= 150 and len(INVALID) >= 10


@pytest.mark.parametrize("entry", VALID, ids=[c[0] for c in VALID])
def test_valid_module_is_valid(entry):
    label, path, kind, env, _valid = entry
    diagnostics = validate(load(path, kind), env, max_errors=None)
    assert diagnostics == [], "\n".join(str(d) for d in diagnostics)


@pytest.mark.parametrize("entry", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_module_is_rejected(entry):
    label, path, kind, env, _valid = entry
    assert validate(load(path, kind), env), f"{label}: spirv-val rejects it for {env}, spirvkit accepted it"


def test_peer_agrees_on_corpus_verdicts():
    """spirv-val's verdict per module equals the manifests' (and so ours)."""
    disagreements = []
    for label, path, kind, env, valid in CORPUS:
        result = run_tool("spirv-val", ["--target-env", env, "-"], load(path, kind))
        if (result.returncode == 0) != valid:
            disagreements.append(f"{label} ({env}): {result.stderr.decode(errors='replace')[:200]}")
    assert not disagreements, "\n".join(disagreements)


def test_valid_modules_stay_valid_in_spv16():
    """A module valid for an API env is valid for the universal SPIR-V 1.6 rules too."""
    for label, path, kind, env, valid in VALID:
        diagnostics = validate(load(path, kind), "spv1.6")
        assert diagnostics == [], f"{label}: {diagnostics[0]}"
