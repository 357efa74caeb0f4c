"""``import spirvkit`` stays cheap: numpy, llvmlite and the JIT are imported when something runs.

Each check runs in a fresh interpreter (this process has imported everything already) and
lists which heavy modules ended up in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
VADD = Path(__file__).resolve().parents[1] / "benchmarks" / "kernels" / "vadd.spv"
HEAVY = ("numpy", "llvmlite", "spirvkit.jit", "spirvkit.runtime", "spirvkit.api", "spirvkit.clc")


def imported_after(code: str) -> dict:
    """Runs ``code`` in a fresh interpreter; which of HEAVY (and of the validator) it imported."""
    probe = textwrap.dedent(code) + textwrap.dedent(f"""
        import json as _json, sys as _sys
        _names = {HEAVY + ("spirvkit.validate.validator",)!r}
        print(_json.dumps({{n: n in _sys.modules for n in _names}}))
        """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          env=_env())
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _env() -> dict:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    # As in a shell without COLUMNS (pytest-xdist's workers set it): `--version` then needs no
    # argparse to know the line fits (cli._version_fits_one_line).
    env.pop("COLUMNS", None)
    return env


def heavy(found: dict) -> list[str]:
    return [n for n in HEAVY if found[n]]


def test_import_spirvkit_imports_nothing_heavy():
    found = imported_after("import spirvkit; spirvkit.__version__; spirvkit.SpirvkitError")
    assert heavy(found) == []
    assert not found["spirvkit.validate.validator"]


def test_assemble_disassemble_validate_need_no_numpy_nor_llvmlite():
    found = imported_after(f"""
        import spirvkit
        binary = open({str(VADD)!r}, "rb").read()
        text = spirvkit.disassemble(binary)
        assert spirvkit.validate(spirvkit.assemble(text, "spv1.2"), "opencl2.2") == []
        module = spirvkit.Module.from_bytes(binary)
        assert spirvkit.validate(binary, "opencl2.2") == []
        """)
    assert heavy(found) == []



def _run_cli(args) -> str:
    """Code that runs ``spirvkit <args>`` in-process on a tiny module, its output discarded."""
    return f"""
        import io, sys
        from spirvkit import cli
        sys.stdin = io.TextIOWrapper(io.BytesIO(b"OpCapability Shader\\nOpMemoryModel Logical GLSL450\\n"))
        sys.stdout = io.TextIOWrapper(io.BytesIO())
        try:
            status = cli.main({args!r})
        except SystemExit as e:   # --version
            status = e.code
        sys.stdout = sys.__stdout__
        assert status in (0, None), status
        """

@pytest.mark.parametrize("args", [
    ["--version"],
    ["dis", str(VADD), "-o", "-"],
    ["info", str(VADD)],
    ["val", "--target-env", "opencl2.2", str(VADD)],
    ["as", "-", "-o", "-"],
    ["cc", "--help"],
])
def test_cli_commands_import_nothing_heavy(args):
    code = _run_cli(args)
    found = imported_after(code)
    assert heavy(found) == []
    assert found["spirvkit.validate.validator"] == (args[0] == "val")


# What the commands that only read or write SPIR-V leave out at start-up, once the grammar cache
# is there (issue 19): argparse (plain command lines go through cli._parse_quickly), dataclasses
# and typing (the grammar and module records are hand-written), the pickle module (the cache is
# read with the C unpickler alone), fractions (only reading float literals needs it).
START_UP_SKIPS = ("argparse", "dataclasses", "inspect", "typing", "pickle", "fractions", "json", "xml")


@pytest.mark.parametrize("args", [
    ["--version"],
    ["dis", str(VADD), "-o", "-"],
    ["dis", "--raw-id", "--comment", str(VADD)],
    ["info", str(VADD)],
    ["as", "--target-env", "spv1.2", "-", "-o", "-"],
    ["val", "--target-env", "opencl2.2", str(VADD)],
])
def test_spirv_commands_start_with_few_imports(args, tmp_path):
    # (the validator's own records are still dataclasses: val imports dataclasses and inspect)
    skips = [n for n in START_UP_SKIPS if args[0] != "val" or n not in ("dataclasses", "inspect")]
    code = textwrap.dedent(_run_cli(args) + f"""
        print("imported:", *[n for n in {skips!r} if n in sys.modules])
        """)
    env = dict(_env(), SPIRVKIT_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
            for _ in range(2)]   # the first fills the grammar cache (parsing JSON, pickling)
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    assert runs[1].stdout.strip().splitlines()[-1] == "imported:"


def test_import_spirvkit_imports_neither_typing_nor_dataclasses():
    probe = "import sys, spirvkit; print([n for n in ('typing', 'dataclasses') if n in sys.modules])"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_cc_imports_the_compiler_but_not_the_jit(tmp_path):
    found = imported_after(f"""
        from spirvkit import cli
        assert cli.main(["cc", {str(VADD.with_suffix(".cl"))!r}, "-o", {str(tmp_path / "v.spv")!r}]) == 0
        """)
    assert found["spirvkit.clc"]
    assert not any(found[n] for n in ("numpy", "llvmlite", "spirvkit.jit", "spirvkit.api"))


def test_the_lazy_names_resolve():
    import spirvkit

    for name in spirvkit.__all__:
        assert getattr(spirvkit, name) is not None, name
    assert set(spirvkit.__all__) <= set(dir(spirvkit))
    with pytest.raises(AttributeError):
        spirvkit.no_such_name  # noqa: B018


def test_validate_stays_the_function_after_the_subpackage_is_imported():
    found = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import spirvkit
        from spirvkit.validate import ValidatorOptions   # binds the subpackage on its parent
        import spirvkit.validate.env
        assert callable(spirvkit.validate), spirvkit.validate
        print(spirvkit.validate.__module__)
        """)], capture_output=True, text=True, env=_env(), timeout=120)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "spirvkit.validate.validator"


def test_validate_can_be_monkeypatched(monkeypatch):
    import spirvkit

    original = spirvkit.validate
    monkeypatch.setattr(spirvkit, "validate", lambda *a, **k: ["patched"])
    assert spirvkit.validate(b"") == ["patched"]
    monkeypatch.undo()
    assert spirvkit.validate is original
