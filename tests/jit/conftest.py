"""Fixtures of the tests/jit tests."""

from __future__ import annotations

import pytest

from jit.build_cache import wait_background
from spirvkit.jit import cache


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """No compiled kernel from earlier tests (test_tiered, test_local_size_specialisation): an
    empty disk cache (on), an empty memory cache, the default policy; waits for background builds
    at the end. Its value is the disk cache's kernel directory."""
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
