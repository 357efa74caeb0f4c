"""Temporary folders for one benchmark process, removed when it exits (also on an error), so
repeated runs do not leave compiled-kernel caches and modules behind in the temp folder."""
from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path


def scratch_dir(prefix: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
