"""Reading the files the host APIs are given a path to (SPIR-V modules, OpenCL C sources,
shaders): one place that turns an unreadable path into an error naming it."""

from __future__ import annotations

from pathlib import Path

from .errors import SpirvkitError


def read_input(path: Path) -> bytes:
    """A module or source file's bytes; an unreadable path is a SpirvkitError naming it."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SpirvkitError(f"{path}: cannot read: {exc.strerror}") from None
