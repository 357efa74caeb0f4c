import sys
from pathlib import Path

import pytest

# Let tests import the shared helpers (tests/peers.py, tests/corpus.py).
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True, scope="session")
def _kernel_cache_dir(tmp_path_factory):
    """The tests never write compiled kernels to ~/.cache: a fresh cache per session (and for
    the CLI processes they start, which inherit the environment)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SPIRVKIT_CACHE_DIR", str(tmp_path_factory.mktemp("kernel-cache")))
    yield
    mp.undo()
