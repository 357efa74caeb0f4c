"""Optimised builds compiled for the launch's local size (api.Kernel._specialised_size).

A kernel without barriers or a required work-group size used to be compiled for any local size,
so LLVM's main vector loop never ran on a small group; its optimised (tier-2) build is now
compiled for the local size of launches whose groups are all whole, as PoCL does. Its quick
(tier-1) build still serves any size, so a first launch compiles one build whatever its size;
the disk cache keys the optimised object by its size; only groups with rows shorter than
``api.SHORT_ROW`` are specialised, and a kernel gets at most ``api.SPECIALISED_SIZES`` sizes.
"""

from __future__ import annotations


import numpy as np
import pytest

from jit.build_cache import wait_background

import spirvkit
from spirvkit import api
from spirvkit.jit import cache, target

SOURCE = """
kernel void stencil(global const float *in, global float *out, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
        out[y * w + x] = 0.5f * in[y * w + x] + 0.125f * (in[y * w + x - 1] + in[y * w + x + 1]
                         + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}
"""


@pytest.fixture(scope="module")
def binary() -> bytes:
    return spirvkit.compile_cl(SOURCE, "-cl-std=CL2.0")


def _want(a: np.ndarray, w: int, h: int) -> np.ndarray:
    grid = a.reshape(h, w)
    out = np.zeros_like(grid)
    out[1:-1, 1:-1] = np.float32(0.5) * grid[1:-1, 1:-1] + np.float32(0.125) * (
        grid[1:-1, :-2] + grid[1:-1, 2:] + grid[:-2, 1:-1] + grid[2:, 1:-1])
    return out.ravel()


def _launch(k, local, w=64, h=24, seed=0, **kw):
    a = np.random.default_rng(seed).standard_normal(w * h).astype(np.float32)
    out = np.zeros(w * h, np.float32)
    k((w, h), local, a, out, w, h, **kw)
    np.testing.assert_allclose(out, _want(a, w, h), rtol=1e-6, atol=1e-6)
    return out


def _built_size(k, mode="checked"):
    """The local size the build the kernel's launches in ``mode`` run was compiled for, by variant."""
    return {key[1]: v.loaded.compiled.local_size for key, v in k._variants.items() if key[0] == mode}


def _to_tier2(k, local, mode="checked", **kw):
    _launch(k, local, **kw)
    _launch(k, local, seed=1, **kw)                # queues the optimised build
    wait_background()
    _launch(k, local, seed=2, **kw)
    assert k.tier == 2


@pytest.mark.parametrize("unchecked", [False, True])
def test_optimised_build_is_compiled_for_the_launch_local_size(fresh, binary, unchecked):
    k = spirvkit.Program(binary).kernel("stencil")
    assert not k._uses_regions and not k.required_local_size   # specialised only for speed
    mode = "unchecked" if unchecked else "checked"
    _launch(k, (16, 4), unchecked=unchecked)
    assert _built_size(k, mode) == {(16, 4, 1): None}   # the quick build serves any size
    _to_tier2(k, (16, 4), mode, unchecked=unchecked)
    assert _built_size(k, mode) == {(16, 4, 1): (16, 4, 1)}


def test_first_launches_of_several_sizes_compile_one_quick_build(fresh, binary):
    before = dict(target.stats)
    k = spirvkit.Program(binary).kernel("stencil")
    for local in ((16, 4), (32, 2), (8, 8)):
        _launch(k, local)
        assert k.tier == 1
    assert target.stats["quick"] == before.get("quick", 0) + 1
    assert target.stats["optimized"] == before.get("optimized", 0)
    assert target.pending_jobs() == 0


def test_partial_groups_get_the_build_for_any_size(fresh, binary):
    k = spirvkit.Program(binary).kernel("stencil")
    _to_tier2(k, (16, 5))                          # 24 rows: the last group of rows is partial
    assert _built_size(k) == {None: None}


def test_long_rows_get_the_build_for_any_size(fresh, binary):
    k = spirvkit.Program(binary).kernel("stencil")
    assert api.SHORT_ROW == 64
    _to_tier2(k, (64, 2))                          # the generic build's vector loop runs on these
    assert _built_size(k) == {None: None}


def test_disk_cache_keys_the_optimised_object_by_local_size(fresh, binary):
    k = spirvkit.Program(binary).kernel("stencil")
    _to_tier2(k, (16, 4))
    assert len(list(fresh.glob("*.o"))) == 1
    want = cache.cache_key(binary, "stencil", "checked", {}, (16, 4, 1), "optimized", ())
    assert (fresh / f"{want}.o").exists()
    with cache._lock:
        cache._memory.clear()                      # a new process: starts from the disk object
    before = dict(target.stats)
    k2 = spirvkit.Program(binary).kernel("stencil")
    _launch(k2, (16, 4))
    assert k2.tier == 2 and target.stats == before
    _launch(k2, (32, 2))                           # another size: not that object, a quick build
    assert k2.tier == 1
    assert target.stats["quick"] == before.get("quick", 0) + 1


def test_specialised_sizes_are_bounded(fresh, binary, monkeypatch):
    monkeypatch.setattr(api, "SPECIALISED_SIZES", 2)
    k = spirvkit.Program(binary).kernel("stencil")
    for local in ((16, 4), (32, 2), (8, 8), (16, 4)):
        _launch(k, local)
    assert set(_built_size(k)) == {(16, 4, 1), (32, 2, 1), None}


def test_compile_optimized_before_any_launch_serves_whole_group_launches(fresh, binary):
    before = dict(target.stats)
    k = spirvkit.Program(binary).kernel("stencil").compile(local_size=(16, 4), optimized=True)
    _launch(k, (16, 4))
    assert k.tier == 2
    assert target.stats["quick"] == before.get("quick", 0)
    assert target.stats["optimized"] == before.get("optimized", 0) + 1


def test_compile_optimized_after_launches_builds_their_size(fresh, binary):
    k = spirvkit.Program(binary).kernel("stencil")
    _launch(k, (16, 4))
    k.compile(local_size=(16, 4), optimized=True)
    _launch(k, (16, 4), seed=1)
    assert k.tier == 2
    assert _built_size(k) == {(16, 4, 1): (16, 4, 1)}


def test_out_of_bounds_access_still_faults_in_a_specialised_build(fresh, binary):
    k = spirvkit.Program(binary).kernel("stencil")
    _to_tier2(k, (16, 4))
    a = np.zeros(64 * 24, np.float32)
    out = np.zeros(64 * 22, np.float32)            # rows 0-21: row 22 writes past its end
    with pytest.raises(spirvkit.KernelFault, match="out-of-bounds write"):
        k((64, 24), (16, 4), a, out, 64, 24)
