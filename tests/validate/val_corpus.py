"""The project's valid corpora with the env each is validated for, and spirv-val's verdict as
recorded in the corpus manifests (tests/data/*/MANIFEST.tsv, asm '; expect:' headers)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _asm_header(path: Path) -> dict[str, str]:
    fields = {}
    for line in path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()[:8]:
        if line.startswith("; ") and ":" in line:
            key, value = line[2:].split(":", 1)
            fields[key.strip()] = value.strip()
    return fields


def corpus() -> list[tuple[str, Path, str, str, bool]]:
    """(label, path, kind 'asm'|'spv', val env, spirv-val says valid) for every corpus module."""
    out = []
    for path in sorted((DATA / "asm").glob("*.spvasm")):
        h = _asm_header(path)
        if h.get("dis") == "rejects" or "as-flags" in h:
            continue
        out.append((f"asm/{path.name}", path, "asm:" + h.get("target-env", "spv1.0"),
                    h.get("val-env", "spv1.0"), h.get("expect") == "valid"))
    for sub, env_col, verdict_col, default_env in (("clc", 7, 4, "opencl2.2"), ("kernels", 7, 4, "opencl2.2"),
                                                   ("glsl", 2, 3, None)):
        manifest = DATA / sub / "MANIFEST.tsv"
        for line in manifest.read_text().splitlines():
            cols = line.split("\t")
            if len(cols) <= verdict_col:
                continue
            env = cols[env_col] if len(cols) > env_col and cols[env_col] else default_env
            out.append((f"{sub}/{cols[0]}", DATA / sub / cols[0], "spv", env, cols[verdict_col] == "valid"))
    for path in sorted((ROOT / "benchmarks" / "kernels").glob("*.spv")):
        out.append((f"benchmarks/{path.name}", path, "spv", "opencl2.2", True))
    return out


def load(path: Path, kind: str) -> bytes:
    if kind.startswith("asm:"):
        from spirvkit import assemble

        return assemble(path.read_text(encoding="utf-8", errors="surrogateescape"), kind[4:])
    return path.read_bytes()
