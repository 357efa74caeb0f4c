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


def test_binary_mutations_keep_words_in_range():
    # A word-count mutation once took a count of 0 to -1: the negative word sent the walk over
    # instructions back and forth forever, and the 3600 s run died of memory in the parent.
    import random

    from . import binary

    words = [0x07230203, 0x00010000, 0, 10, 0, 0x0000FFFF]
    assert binary.instruction_starts(words + [-1 & 0xFFFFFFFF]) == [5]
    rng = random.Random(7)
    corpus = [binary.words_of(data) for data in binary.corpus()[:20]]
    for _ in range(3000):
        mutated = binary.mutate_words(rng, rng.choice(corpus))
        assert all(0 <= w <= 0xFFFFFFFF for w in mutated)
