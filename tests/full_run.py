"""The project's rule for exhaustive tests: marked ``slow``, and run only when asked for with
``pytest -m slow`` or ``SPIRVKIT_FULL=1``; CI runs their sampled siblings."""

from __future__ import annotations

import os

import pytest


def full_run(request) -> bool:
    expression = request.config.getoption("markexpr") or ""
    return ("slow" in expression and "not slow" not in expression) or os.environ.get("SPIRVKIT_FULL") == "1"


def require_full_run(request, what: str = "exhaustive run") -> None:
    if not full_run(request):
        pytest.skip(f"{what}: select it with `pytest -m slow` or SPIRVKIT_FULL=1")
