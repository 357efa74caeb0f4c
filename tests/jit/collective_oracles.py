"""Python models of the work-group collective kernels (tests/data/kernels/workgroup_collectives.cl).

PoCL 3.0's CPU device cannot link work_group_* functions, so these models are the reference.
Each takes the case's argument values and returns the outputs as ``pocl.run`` would (None for
non-buffer arguments). Groups are taken in local linear id order, as the spec defines scans.
"""

from __future__ import annotations

import numpy as np


def _groups(x: np.ndarray, local: int) -> np.ndarray:
    return x.reshape(-1, local)


def _exclusive(groups: np.ndarray, accumulate, identity) -> np.ndarray:
    inclusive = accumulate(groups, axis=1)
    first = np.full((groups.shape[0], 1), identity, dtype=groups.dtype)
    return np.concatenate([first, inclusive[:, :-1]], axis=1)


def wg_int(local: int):
    def oracle(values):
        x = values[0].astype(np.int32)
        g = _groups(x, local)
        out = np.concatenate([
            np.repeat(g.sum(1, dtype=np.int64).astype(np.int32), local),
            np.maximum.accumulate(g, axis=1).ravel(),
            _exclusive(g, np.minimum.accumulate, np.iinfo(np.int32).max).ravel(),
            np.repeat(g[:, local // 2], local),
            np.repeat((g > -90).all(1).astype(np.int32) + 2 * (g > 90).any(1).astype(np.int32), local),
        ])
        return [None, out]
    return oracle


def wg_wide(local: int):
    def oracle(values):
        u = _groups(values[0].astype(np.uint32), local)
        lng = _groups(values[1].astype(np.int64), local)
        with np.errstate(over="ignore"):
            out = np.concatenate([
                np.repeat(u.min(1), local).astype(np.uint64),
                _exclusive(u, np.maximum.accumulate, 0).ravel().astype(np.uint64),
                np.cumsum(lng, axis=1).ravel().view(np.uint64),
                np.repeat(lng.view(np.uint64).max(1), local),
                _exclusive(lng, np.cumsum, 0).ravel().view(np.uint64),
            ])
        return [None, None, out]
    return oracle


def wg_float_2d(width: int, local: tuple[int, int]):
    """2-D groups of local = (lx, ly) over rows of ``width``: local linear id = y * lx + x."""
    lx, ly = local

    def oracle(values):
        x = values[0].astype(np.float32)
        height = x.size // width
        grid = x.reshape(height, width)
        out = np.empty((4, height, width), np.float32)
        for gy in range(height // ly):
            for gx in range(width // lx):
                tile = grid[gy * ly:(gy + 1) * ly, gx * lx:(gx + 1) * lx]
                flat = tile.ravel()                       # local linear id order
                total = np.float32(0.0)
                for v in flat:                            # the same order as the executor
                    total = np.float32(total + v)
                inc_min = np.minimum.accumulate(flat)
                exc_max = np.concatenate([[np.float32(-np.inf)], np.maximum.accumulate(flat)[:-1]])
                sl = (slice(gy * ly, (gy + 1) * ly), slice(gx * lx, (gx + 1) * lx))
                out[0][sl] = total
                out[1][sl] = inc_min.reshape(ly, lx)
                out[2][sl] = exc_max.reshape(ly, lx)
                out[3][sl] = tile[ly - 1, 1]
        return [None, out.ravel()]
    return oracle


def wg_loop(local: int):
    def oracle(values):
        x, rounds = values[0].astype(np.int64), int(values[2])
        g = _groups(x, local).copy()
        for r in range(rounds):
            g = np.cumsum(g, axis=1) & 1023
            g = np.roll(g, -1, axis=1) - r
        out = g + g.max(1, keepdims=True)
        return [None, out.ravel().astype(np.int32), None]
    return oracle


# -- sub-group models (cl_khr_subgroup_clustered_reduce, cl_khr_subgroup_rotate) ---------------

def clustered_reduce(values: list, active: list[bool], cluster: int, fn) -> dict[int, object]:
    """{sub-group local id: result} of a clustered reduction of one sub-group's ``values``: the
    ids [k * cluster, (k + 1) * cluster) combine, the active ones only, in id order."""
    out = {}
    for start in range(0, len(values), cluster):
        ids = [i for i in range(start, min(start + cluster, len(values))) if active[i]]
        acc = None
        for i in ids:
            acc = values[i] if acc is None else fn(acc, values[i])
        out.update({i: acc for i in ids})
    return out


def rotation_source(i: int, delta: int, size: int) -> int:
    """The sub-group local id whose value id ``i`` gets from a rotation by ``delta`` (taken as a
    32-bit unsigned value) in groups of ``size`` (the ClusterSize, or the maximum sub-group size):
    ((i + delta) mod size) + (i - i mod size)."""
    return (i + delta) % (1 << 32) % size + (i - i % size)
