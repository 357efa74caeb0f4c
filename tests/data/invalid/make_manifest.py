"""Checks every invalid module against SPIRV-Tools 2025.5 and rewrites MANIFEST.tsv.

    .venv/bin/python tests/data/invalid/make_manifest.py

For each ``.spvasm``: spirv-as assembles it (for ``; as-env:`` or its target env; opencl3.0
files are assembled as SPIR-V 1.x), spirvkit's assembler must give the same words, and
spirv-val (with ``; spirv-val-flags:``) must give the verdict the ``; spirv-val:`` header
records. For each ``.spv`` (written by make_binaries.py) the verdict is taken from spirv-val.
It prints every mismatch and exits 1 if there is one; MANIFEST.tsv is rewritten either way.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

import make_binaries  # noqa: E402
from peers import spirv_tool  # noqa: E402

from spirvkit import assemble  # noqa: E402

SPIRV_VAL_ENVS = {f"spv1.{m}" for m in range(7)} | {
    "opencl1.2", "opencl1.2embedded", "opencl2.0", "opencl2.0embedded", "opencl2.1", "opencl2.1embedded",
    "opencl2.2", "opencl2.2embedded", "vulkan1.0", "vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "vulkan1.3"}
COLUMNS = ("file", "rule", "section", "target-env", "spirv-val", "spec", "why")


def header(path: Path) -> dict[str, str]:
    head = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith(";"):
            break
        if ":" in line:
            key, value = line[1:].split(":", 1)
            head.setdefault(key.strip(), value.strip())
    return head


def spirv_val(data: bytes, env: str, flags: str = "") -> tuple[str, str]:
    with tempfile.NamedTemporaryFile(suffix=".spv") as f:
        f.write(data)
        f.flush()
        r = subprocess.run([spirv_tool("spirv-val"), "--target-env", env, *flags.split(), f.name], capture_output=True, text=True)
    message = (r.stderr + r.stdout).strip().splitlines()
    return ("valid" if r.returncode == 0 else "invalid"), (message[0] if message else "")


def main() -> int:
    rows, problems = [], []
    for path in sorted(HERE.glob("*.spvasm")):
        head = header(path)
        env = head["target-env"]
        as_env = head.get("as-env", env if env in SPIRV_VAL_ENVS else "spv1.6")
        text = path.read_text(encoding="utf-8")
        r = subprocess.run([spirv_tool("spirv-as"), "--target-env", as_env, "-o", "-", "-"], input=text.encode(), capture_output=True)
        if r.returncode:
            problems.append(f"{path.name}: spirv-as: {r.stderr.decode().strip()}")
            continue
        try:
            ours = assemble(text, as_env)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{path.name}: spirvkit.assemble: {e}")
            ours = None
        if ours is not None and ours[:8] + ours[12:] != r.stdout[:8] + r.stdout[12:]:  # the generator word differs
            problems.append(f"{path.name}: spirvkit.assemble and spirv-as disagree")
        verdict = "n/a"
        if env in SPIRV_VAL_ENVS:
            verdict, message = spirv_val(r.stdout, env, head.get("spirv-val-flags", ""))
        if verdict != head.get("spirv-val"):
            problems.append(f"{path.name}: header says spirv-val {head.get('spirv-val')}, spirv-val says {verdict}")
        if verdict != "invalid" and not head.get("why"):
            problems.append(f"{path.name}: spirv-val does not reject it and there is no '; why:' line")
        rows.append((path.name, head["rule"], head["section"], env, verdict, head.get("spec", "invalid"), head.get("why", "")))
    for name, rule, section, env, _build, why in make_binaries.BINARIES:
        path = HERE / name
        if not path.exists():
            problems.append(f"{name}: missing (run make_binaries.py)")
            continue
        verdict, _ = spirv_val(path.read_bytes(), env)
        if verdict != "invalid" and not why:
            problems.append(f"{name}: spirv-val does not reject it and make_binaries.py gives no why")
        rows.append((name, rule, section, env, verdict, "invalid", why))
    with (HERE / "MANIFEST.tsv").open("w", encoding="utf-8") as f:
        f.write("# " + "\t".join(COLUMNS) + "\n")
        for row in rows:
            f.write("\t".join(cell.replace("\t", " ") for cell in row) + "\n")
    for p in problems:
        print(p)
    print(f"{len(rows)} files in MANIFEST.tsv, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
