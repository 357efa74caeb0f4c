"""Distances in units in the last place between float16/32/64 arrays.

The distance between two finite floats is the number of representable values of their type
strictly between them, plus one: consecutive floats are 1 apart, ``+0.0`` and ``-0.0`` are 0
apart, the largest finite value and infinity are 1 apart. NaN is 0 from NaN (any payload) and
infinitely far (``UNORDERED``) from everything else.
"""

from __future__ import annotations

import numpy as np

UNORDERED = np.iinfo(np.uint64).max

_INT = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32, np.dtype(np.float64): np.int64}


def _ordinal(a: np.ndarray) -> np.ndarray:
    """Map float bits to int64 so that the order of the ints is the order of the floats and
    -0.0 and +0.0 both map to 0."""
    bits = a.view(_INT[a.dtype]).astype(np.int64)
    sign_mask = np.int64(np.iinfo(_INT[a.dtype]).max)  # all bits but the sign
    return np.where(bits < 0, -(bits & sign_mask), bits)


def ulp_distance(got, ref) -> np.ndarray:
    """Elementwise ULP distance (uint64) between two float arrays of the same dtype."""
    got = np.ascontiguousarray(got)
    ref = np.ascontiguousarray(ref)
    if got.dtype != ref.dtype or got.dtype not in _INT:
        raise TypeError(f"ulp_distance needs two float16/32/64 arrays of one dtype, got {got.dtype} and {ref.dtype}")
    a, b = _ordinal(got), _ordinal(ref)
    same_side = (a >= 0) == (b >= 0)
    # Same sign: the difference fits int64. Opposite signs: |a| + |b| fits uint64.
    with np.errstate(over="ignore"):
        near = np.abs(a - b).astype(np.uint64)
        far = np.abs(a).astype(np.uint64) + np.abs(b).astype(np.uint64)
    dist = np.where(same_side, near, far)
    nan_a, nan_b = np.isnan(got), np.isnan(ref)
    dist = np.where(nan_a & nan_b, np.uint64(0), dist)
    dist = np.where(nan_a ^ nan_b, UNORDERED, dist)
    return dist
