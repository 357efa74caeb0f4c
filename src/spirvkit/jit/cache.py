"""The compiled-kernel cache: in memory for the process, on disk across processes.

Keyed by the module's bytes, the entry point, the specialization values, the checking mode, the
local size, image formats and samplers it was specialised for, the optimisation pipeline, the target CPU, the versions of
spirvkit and llvmlite and a hash of the code generator. The disk cache lives in
``$SPIRVKIT_CACHE_DIR/kernels`` (default ``~/.cache/spirvkit``, see ``cache_files.py``);
``SPIRVKIT_CACHE=0`` disables it.

Only fully optimised (tier-2, pipeline ``"optimized"``) objects go to disk; the tier-1 objects of
first launches are kept in memory only (``store(..., disk=False)``), so a later process never
starts from a quick build when an optimised one exists.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from pathlib import Path

from .._version import __version__
from ..cache_files import cache_folder, write_atomically
from . import target
from .compiler import CompiledKernel

_memory: dict[str, CompiledKernel] = {}
_lock = threading.Lock()


@functools.cache
def _code_fingerprint() -> str:
    """A hash of the code generator's own source, so a changed spirvkit (a new release or a
    development edit) never reuses objects compiled by an older one."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_key(module_bytes: bytes, name: str, mode: str, spec_values: dict | None,
              local_size: tuple | None = None, pipeline: str = "optimized", images: tuple = ()) -> str:
    h = hashlib.sha256()
    h.update(module_bytes)
    meta = {"entry": name, "mode": mode, "local_size": list(local_size) if local_size else None,
            "images": [list(entry) for entry in images or ()],   # formats and samplers (image_launch.py)
            "spec": sorted((int(k), repr(v)) for k, v in (spec_values or {}).items()), "pipeline": pipeline,
            "target": target.describe(), "spirvkit": __version__, "code": _code_fingerprint()}
    h.update(json.dumps(meta, sort_keys=True).encode())
    return h.hexdigest()


def disk_directory() -> Path | None:
    return cache_folder("kernels")


def lookup(key: str, disk: bool = True) -> CompiledKernel | None:
    """The kernel stored under ``key``: from memory, else (``disk``) from the disk cache."""
    with _lock:
        hit = _memory.get(key)
    if hit is not None:
        return hit
    directory = disk_directory() if disk else None
    if directory is None:
        return None
    try:
        meta = json.loads((directory / f"{key}.json").read_text())
        obj = (directory / f"{key}.o").read_bytes()
        kernel = CompiledKernel.from_metadata(meta, obj)
    except (OSError, ValueError, KeyError, TypeError):
        return None   # absent or damaged: recompile
    with _lock:
        _memory[key] = kernel
    return kernel


def store(key: str, kernel: CompiledKernel, disk: bool = True) -> None:
    """Keeps ``kernel`` in memory and (``disk``: tier-2 objects only) on disk."""
    with _lock:
        _memory[key] = kernel
    directory = disk_directory() if disk else None
    if directory is None:
        return
    try:
        for suffix, data in ((".o", kernel.object), (".json", json.dumps(kernel.metadata()).encode())):
            write_atomically(directory / f"{key}{suffix}", data)
    except OSError:
        pass   # a read-only home is no reason to fail a launch

