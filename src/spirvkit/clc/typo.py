"""Typo correction for undeclared names, as clang-15 suggests it ("did you mean 'value'?").

clang weighs a candidate by its Levenshtein distance to the typo and suggests the single closest
one within about a third of the typo's length. The thresholds below are the ones clang-15 shows
(measured against it on OpenCL C sources, tests/clc/test_diag_typo.py):

* the typo has at least 3 characters;
* the distance is at most (length + 2) // 3, and a candidate whose length differs from the typo's
  by d is not considered when length // d < 3;
* where a statement starts (clang's non-delayed correction), also length // distance >= 3;
* a tie for the closest candidate suggests nothing (where a statement starts, clang then first
  reports "expected ';' after expression" after the name).
"""

from __future__ import annotations

from collections.abc import Iterable


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance (insert, delete, replace each cost 1); ``limit + 1`` once it exceeds
    ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        best = i
        for j, cb in enumerate(b, 1):
            d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            current.append(d)
            best = min(best, d)
        if best > limit:
            return limit + 1
        previous = current
    return previous[-1]


def correct(typo: str, candidates: Iterable[str], *, statement_start: bool = False) -> str | None:
    """The name clang would suggest for ``typo`` among ``candidates``, or None."""
    best, tied = closest(typo, candidates, statement_start=statement_start)
    return None if tied else best


def closest(typo: str, candidates: Iterable[str], *, statement_start: bool = False) -> tuple[str | None, bool]:
    """(the closest candidate within clang's bounds or None, whether another is as close)."""
    n = len(typo)
    if n < 3:
        return None, False
    bound = (n + 2) // 3
    best, best_distance, tied = None, bound + 1, False
    for name in set(candidates):
        if name == typo:
            continue
        length_gap = abs(len(name) - n)
        if length_gap and n // length_gap < 3:
            continue
        d = edit_distance(typo, name, bound)
        if d < best_distance:
            best, best_distance, tied = name, d, False
        elif d == best_distance:
            tied = True
    if best is None or best_distance > bound:
        return None, False
    if statement_start and n // best_distance < 3:
        return None, False
    return best, tied
