"""Tiers of ComputePipeline builds: the first dispatch runs the quick build, the second queues
the optimised one in the background, later dispatches run it once ready; SPIRVKIT_JIT picks
'optimized' (O3 at once) or 'quick' (never O3). Both tiers compute the same results."""

from __future__ import annotations

import numpy as np
import pytest

from spirvkit.vk import ComputePipeline

from vk.test_workgroup_layout import ALIASING


def dispatch(p):
    out = np.full(4, 99, np.uint32)
    p.bind(0, 0, out).dispatch(2)
    np.testing.assert_array_equal(out, [21, 51, 7, 99])


def test_first_dispatch_is_quick_then_the_optimised_build_takes_over(monkeypatch):
    monkeypatch.delenv("SPIRVKIT_JIT", raising=False)
    p = ComputePipeline(ALIASING, target_env="vulkan1.2")
    assert p.tier is None
    dispatch(p)
    assert p.tier == 1
    dispatch(p)                                   # queues the optimised build
    build = p._loaded[("checked", ())]
    assert build.tier == 1 and build.future is not None
    build.future.result(timeout=120)
    dispatch(p)                                   # swaps it in
    assert p.tier == 2 and build.future is None
    dispatch(p)
    assert p.tier == 2


@pytest.mark.parametrize("policy, tiers", [("optimized", [2, 2, 2]), ("quick", [1, 1, 1])])
def test_jit_policy_chooses_the_tiers(monkeypatch, policy, tiers):
    monkeypatch.setenv("SPIRVKIT_JIT", policy)
    p = ComputePipeline(ALIASING, target_env="vulkan1.2")
    seen = []
    for _ in tiers:
        dispatch(p)
        seen.append(p.tier)
    assert seen == tiers and p._loaded[("checked", ())].future is None


def test_compile_gets_the_optimised_build_now(monkeypatch):
    monkeypatch.delenv("SPIRVKIT_JIT", raising=False)
    p = ComputePipeline(ALIASING, target_env="vulkan1.2")
    assert p.compile() is p
    dispatch(p)
    assert p.tier == 2
    q = ComputePipeline(ALIASING, target_env="vulkan1.2")
    dispatch(q)
    dispatch(q)                                   # an optimised build in progress: compile() waits for it
    q.compile()
    dispatch(q)
    assert q.tier == 2 and q._loaded[("checked", ())].future is None
    r = ComputePipeline(ALIASING, target_env="vulkan1.2")
    r.compile(optimized=False)
    dispatch(r)
    assert r.tier == 1
