"""Where spirvkit keeps its on-disk caches, and how it writes them.

``$SPIRVKIT_CACHE_DIR`` (default ``~/.cache/spirvkit``) holds one folder per cache: ``kernels``
(compiled kernels, ``jit/cache.py``) and ``grammar`` (the parsed SPIR-V grammar,
``spirv/grammar_cache.py``). ``SPIRVKIT_CACHE=0`` turns every on-disk cache off. A leaf module:
it imports nothing of spirvkit's, so every layer may use it.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder(name: str) -> Path | None:
    """The folder of the cache ``name``, or None when ``SPIRVKIT_CACHE=0``."""
    if os.environ.get("SPIRVKIT_CACHE", "1") == "0":
        return None
    root = os.environ.get("SPIRVKIT_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "spirvkit")
    return Path(root) / name


def write_atomically(path: Path, data: bytes) -> None:
    """Writes ``data`` to a temporary file beside ``path``, then renames it over ``path``: a
    concurrent reader sees the old file or the new one, never half of one. Raises OSError."""
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
