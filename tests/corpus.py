"""The fixture corpora of tests/data (see tests/data/README.md for how each was made)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"


def asm_files() -> list[Path]:
    return sorted((DATA / "asm").glob("*.spvasm"))


def binary_files() -> list[Path]:
    return sorted((DATA / "clc").glob("*.spv")) + sorted((DATA / "glsl").glob("*.spv"))


def target_env_of(path: Path) -> str:
    """The env a .spvasm file is written for: a first-lines comment '; target-env: spv1.3'."""
    for line in path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()[:5]:
        if line.startswith("; target-env:"):
            return line.split(":", 1)[1].strip()
    return "spv1.0"
