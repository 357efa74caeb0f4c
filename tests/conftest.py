import os
import sys
from pathlib import Path

import pytest

# Let tests import the shared helpers (tests/peers/, tests/corpus.py, tests/pocl.py).
sys.path.insert(0, str(Path(__file__).parent))

_PEER_MODES = ("auto", "none", "record")  # tests/pocl.py says what each means


def pytest_configure(config):
    mode = os.environ.get("SPIRVKIT_PEERS", "auto")
    if mode not in _PEER_MODES:
        raise pytest.UsageError(f"SPIRVKIT_PEERS={mode}: expected one of {', '.join(_PEER_MODES)}")


@pytest.fixture(autouse=True, scope="session")
def _kernel_cache_dir(tmp_path_factory):
    """The tests never write compiled kernels to ~/.cache: a fresh cache per session (and for
    the CLI processes they start, which inherit the environment)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SPIRVKIT_CACHE_DIR", str(tmp_path_factory.mktemp("kernel-cache")))
    yield
    mp.undo()


@pytest.fixture(autouse=True, scope="session")
def _no_opencl_driver_in_this_process():
    """PoCL runs only in child processes (tests/peers/pocl_client.py): a driver loaded into the
    pytest process could crash it, and would make the suite depend on the machine's CPU."""
    yield
    assert "pyopencl" not in sys.modules, "pyopencl was imported into the pytest process; use tests/pocl.py"
