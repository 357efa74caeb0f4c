"""Waiting for the background builds of tiered compilation (test_tiered,
test_local_size_specialisation; the ``fresh`` fixture of conftest.py gives them a clean cache)."""

from __future__ import annotations

import time

from spirvkit.jit import target


def wait_background(timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while target.pending_jobs():
        assert time.monotonic() < deadline, "background build still running"
        time.sleep(0.01)
