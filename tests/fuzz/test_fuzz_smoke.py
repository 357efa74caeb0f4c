"""The fuzz targets as a standing test (issue 21): each runs for a short fixed budget with a
fixed seed and must find nothing; ``-m slow`` runs each for two minutes."""

from __future__ import annotations

import pytest

from full_run import require_full_run

from .driver import TARGETS, fuzz


def _run(target: str, seconds: float, seed: int, tmp_path) -> None:
    lines = []
    report = fuzz(target, seconds, seed, str(tmp_path), workers=1, shrink_seconds=20, log=lines.append)
    assert report.inputs > 0
    assert not report.findings, "\n".join(lines)


@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_target_finds_nothing(target, tmp_path):
    _run(target, 8, 2026, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_target_finds_nothing_longer(target, tmp_path, request):
    require_full_run(request, "two-minute fuzz run")
    _run(target, 120, 21, tmp_path)
