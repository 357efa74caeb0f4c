"""The clean compile caches the tiering tests start from (test_tiered, test_local_size_specialisation)."""

from __future__ import annotations

import time

import pytest

from spirvkit.jit import cache, target


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """No compiled kernel from earlier tests: an empty disk cache (on), an empty memory cache,
    the default policy; waits for background builds at the end."""
    monkeypatch.setenv("SPIRVKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SPIRVKIT_CACHE", raising=False)
    monkeypatch.delenv("SPIRVKIT_JIT", raising=False)
    wait_background()
    with cache._lock:
        cache._memory.clear()
    yield tmp_path / "cache" / "kernels"
    wait_background()
    with cache._lock:
        cache._memory.clear()


def wait_background(timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while target.pending_jobs():
        assert time.monotonic() < deadline, "background build still running"
        time.sleep(0.01)
