"""The executor's tiers (README: "Tiers"): a quick tier-1 build for a kernel's first launch, the
optimised tier-2 (O3) build queued in the background at its second launch.

Both tiers compute bit-identical results (corpus kernels run under each pipeline); the second
launch starts tier 2 and a later launch runs it; a failed background build is raised by a later
launch; a process that exits while a background build runs exits cleanly; the disk cache holds
only optimised objects, and a cached one skips tier 1; ``SPIRVKIT_JIT`` selects the policy.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from full_run import require_full_run
from jit.kernel_cases import BASE_CASES, Buffer, Case, Local, make_values

from jit.build_cache import wait_background

import spirvkit
from spirvkit import api
from spirvkit.jit import cache, target

SRC = Path(__file__).resolve().parents[2] / "src"

SAXPY = """
kernel void saxpy(global const float *x, global float *y, float a, int n) {
    int i = get_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
kernel void oob(global int *o, int k) {
    o[get_global_id(0) + k] = 1;
}
"""


@pytest.fixture(scope="module")
def saxpy_binary() -> bytes:
    return spirvkit.compile_cl(SAXPY, "-cl-std=CL2.0")


def _saxpy_args(n=1000, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    return x, y, (np.float32(1.5) * x + y)


def _launch_saxpy(k, seed=0):
    x, y, want = _saxpy_args(seed=seed)
    k(len(x), 64, x, y, np.float32(1.5), len(x))
    np.testing.assert_array_equal(y, want)


# ----- the tiers compute the same bits ----------------------------------------------------------

def _run_case(case: Case) -> list:
    values = make_values(case)
    args = [spirvkit.LocalMemory(v.nbytes) if isinstance(v, Local) else v for v in values]
    printed: list[str] = []
    extra = {"printf": printed} if case.printf else {}
    if case.global_offset is not None:
        extra["global_offset"] = case.global_offset
    kernel = spirvkit.Program(case.spv).kernel(case.kernel)
    kernel(case.global_size, case.local_size, *args, timeout=10.0, **extra)
    out = [v for spec, v in zip(case.args, values, strict=True) if isinstance(spec, Buffer)]
    return [kernel.tier, out, "".join(printed)]


def _case_under(case: Case, pipeline: str, monkeypatch) -> list:
    """The case run by a first launch built with ``pipeline`` (a tier-1 one, or 'optimized')."""
    monkeypatch.setenv("SPIRVKIT_JIT", "optimized" if pipeline == "optimized" else "quick")
    monkeypatch.setattr(api.Kernel, "_tier1_pipeline",
                        lambda self, mode, items: "quick" if mode == "report" else pipeline)
    with cache._lock:
        cache._memory.clear()
    return _run_case(case)


def _assert_same_bits(case: Case, got: list, want: list, what: str) -> None:
    assert got[2] == want[2], f"{case.id}: printf output differs ({what})"
    for i, (g, w) in enumerate(zip(got[1], want[1], strict=True)):
        gb, wb = np.ascontiguousarray(g).view(np.uint8), np.ascontiguousarray(w).view(np.uint8)
        assert np.array_equal(gb, wb), f"{case.id}: output buffer {i} differs between tiers ({what})"


# Results that depend on the order work-items run in could not be compared bitwise; the corpus has
# none (its one float atomic, atomic_ops:atomic_cmpxchg_loops, sums small integers: exact).
_ORDER_DEPENDENT: set[str] = set()

# A sample for every test run: vectors, integer and float math, conversions, control flow,
# barriers (in the kernel and in called functions), collectives, atomics, structs, printf.
SAMPLE = ("vec4", "vec3", "int_divrem", "int_saturate", "math_transcendental", "math_double", "conv_half",
          "conv_float_to_int", "cf_loops", "barrier_shapes", "reduce_local", "scan_local", "workgroup_collectives",
          "atomic_histogram", "struct_byvalue", "geometric", "printf_basic", "matmul_tiled", "private_arrays")


def _cases(sample: bool) -> list:
    """The sample (at most two cases of each sampled source) or the rest of the corpus."""
    picked, seen = [], {}
    for c in BASE_CASES:
        if f"{c.source_stem}:{c.kernel}" in _ORDER_DEPENDENT:
            continue
        seen[c.source_stem] = seen.get(c.source_stem, 0) + 1
        if (c.source_stem in SAMPLE and seen[c.source_stem] <= 2) == sample:
            picked.append(pytest.param(c, id=c.id))
    return picked


def _check_tiers(case: Case, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("SPIRVKIT_CACHE", "0")
    optimized = _case_under(case, "optimized", monkeypatch)
    assert optimized[0] == 2
    for pipeline in ("quick", "quick-large", "quick-vector"):
        got = _case_under(case, pipeline, monkeypatch)
        assert got[0] == 1
        _assert_same_bits(case, got, optimized, f"{pipeline} vs optimized")


@pytest.mark.parametrize("case", _cases(sample=True))
def test_tiers_give_identical_bits(case, monkeypatch, tmp_path):
    _check_tiers(case, monkeypatch, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases(sample=False))
def test_tiers_give_identical_bits_whole_corpus(case, monkeypatch, tmp_path, request):
    require_full_run(request, "every corpus kernel under every pipeline")
    _check_tiers(case, monkeypatch, tmp_path)


# ----- when each tier runs ----------------------------------------------------------------------

def test_second_launch_starts_tier2_and_a_later_launch_runs_it(fresh, saxpy_binary):
    before = dict(target.stats)
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    assert k.tier is None
    _launch_saxpy(k, 0)
    assert k.tier == 1
    assert target.stats["quick"] == before.get("quick", 0) + 1
    assert target.pending_jobs() == 0            # one launch: no optimised build queued
    _launch_saxpy(k, 1)
    assert k.tier == 1                            # the launch that queues it still runs tier 1
    wait_background()
    assert target.stats["optimized"] == before.get("optimized", 0) + 1
    assert target.stats["background"] == before.get("background", 0) + 1
    _launch_saxpy(k, 2)
    assert k.tier == 2
    _launch_saxpy(k, 3)
    assert k.tier == 2
    assert target.stats["optimized"] == before.get("optimized", 0) + 1   # built once


def test_compile_optimized_waits_for_the_background_build(fresh, saxpy_binary):
    before = dict(target.stats)
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    _launch_saxpy(k, 0)
    _launch_saxpy(k, 1)                           # queues the optimised build
    assert k.compile(local_size=64, optimized=True) is k
    _launch_saxpy(k, 2)
    assert k.tier == 2
    assert target.stats["optimized"] == before.get("optimized", 0) + 1   # the background one, not a second


def test_compile_optimized_before_any_launch_skips_tier1(fresh, saxpy_binary):
    before = dict(target.stats)
    k = spirvkit.Program(saxpy_binary).kernel("saxpy").compile(local_size=64, optimized=True)
    _launch_saxpy(k)
    assert k.tier == 2
    assert target.stats["quick"] == before.get("quick", 0)
    assert target.stats["background"] == before.get("background", 0)


def test_failed_background_build_is_raised_by_a_later_launch(fresh, saxpy_binary, monkeypatch):
    real = target.compile_ir

    def broken(text, pipeline="optimized"):
        if pipeline == "optimized":
            raise target.CompileError("internal error: injected failure")
        return real(text, pipeline)

    monkeypatch.setattr(target, "compile_ir", broken)
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    _launch_saxpy(k, 0)
    _launch_saxpy(k, 1)
    wait_background()
    x, y, _ = _saxpy_args()
    y0 = y.copy()
    with pytest.raises(target.CompileError, match=r"(?s)optimised \(tier-2\) build failed.*injected failure"):
        k(len(x), 64, x, y, np.float32(1.5), len(x))
    np.testing.assert_array_equal(y, y0)          # that launch did not run
    _launch_saxpy(k, 2)                           # later ones do, on the quick build
    assert k.tier == 1
    assert target.pending_jobs() == 0             # and queue nothing new


def test_fault_report_runs_a_quick_build(fresh, saxpy_binary):
    before = dict(target.stats)
    k = spirvkit.Program(saxpy_binary).kernel("oob")
    o = np.zeros(64, np.int32)
    with pytest.raises(spirvkit.KernelFault, match="out-of-bounds write"):
        k(64, 16, o, 1)
    assert target.stats["quick"] == before.get("quick", 0) + 2      # checked, then report mode
    assert target.stats["optimized"] == before.get("optimized", 0)


# ----- policies ---------------------------------------------------------------------------------

def test_policy_optimized_compiles_o3_at_the_first_launch(fresh, saxpy_binary, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_JIT", "optimized")
    before = dict(target.stats)
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    _launch_saxpy(k)
    assert k.tier == 2
    assert target.stats["quick"] == before.get("quick", 0)
    assert target.stats["background"] == before.get("background", 0)


def test_policy_quick_never_builds_tier2(fresh, saxpy_binary, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_JIT", "quick")
    before = dict(target.stats)
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    for seed in range(4):
        _launch_saxpy(k, seed)
        assert k.tier == 1
    assert target.pending_jobs() == 0
    assert target.stats["optimized"] == before.get("optimized", 0)


def test_policy_unknown_is_an_error(fresh, saxpy_binary, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_JIT", "fastest")
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    with pytest.raises(spirvkit.SpirvkitError, match="SPIRVKIT_JIT='fastest'"):
        _launch_saxpy(k)


# ----- caches -----------------------------------------------------------------------------------

def test_disk_cache_holds_only_optimised_objects(fresh, saxpy_binary):
    k = spirvkit.Program(saxpy_binary).kernel("saxpy")
    _launch_saxpy(k)
    assert k.tier == 1
    assert not list(fresh.glob("*.o"))            # tier 1: memory only
    _launch_saxpy(k, 1)
    wait_background()
    objects = list(fresh.glob("*.o"))
    assert len(objects) == 1
    # A new process (here: an empty memory cache) starts from the optimised object: no tier 1.
    with cache._lock:
        cache._memory.clear()
    before = dict(target.stats)
    k2 = spirvkit.Program(saxpy_binary).kernel("saxpy")
    _launch_saxpy(k2, 2)
    assert k2.tier == 2
    assert target.stats["quick"] == before.get("quick", 0)
    assert target.stats["optimized"] == before.get("optimized", 0)


def test_memory_cache_tier2_hit_skips_tier1(fresh, saxpy_binary, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_CACHE", "0")
    k = spirvkit.Program(saxpy_binary).kernel("saxpy").compile(local_size=64, optimized=True)
    _launch_saxpy(k)
    before = dict(target.stats)
    k2 = spirvkit.Program(saxpy_binary).kernel("saxpy")    # same module: the memory cache has O3
    _launch_saxpy(k2)
    assert k2.tier == 2
    assert target.stats == before
    assert not fresh.exists() or not list(fresh.glob("*.o"))


# ----- interpreter exit -------------------------------------------------------------------------

EXIT_SCRIPT = textwrap.dedent("""
    import sys, time
    import numpy as np, spirvkit
    from spirvkit.jit import target
    src = open(sys.argv[1]).read()
    k = spirvkit.Program(spirvkit.compile_cl(src, "-cl-std=CL2.0")).kernel("saxpy")
    x = np.ones(4096, np.float32); y = np.ones(4096, np.float32)
    k(4096, 64, x, y, np.float32(2), 4096)
    k(4096, 64, x, y, np.float32(2), 4096)    # queues the optimised build
    assert target.pending_jobs() == 1, target.pending_jobs()
    assert y[0] == 5.0, y[0]
    time.sleep(float(sys.argv[2]))
    print("exiting", flush=True)
""")


@pytest.mark.parametrize("delay", [0.0, 0.003, 0.03])
def test_exit_during_a_background_build_is_clean(tmp_path, delay):
    source = tmp_path / "saxpy.cl"
    source.write_text(SAXPY)
    env = {k: v for k, v in os.environ.items() if k != "SPIRVKIT_JIT"}
    env.update(PYTHONPATH=str(SRC), SPIRVKIT_CACHE="0")
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-c", EXIT_SCRIPT, str(source), str(delay)], capture_output=True,
                       text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "exiting"
    assert "Traceback" not in r.stderr and "Fatal" not in r.stderr, r.stderr[-2000:]
    assert time.monotonic() - start < 30


FORK_SCRIPT = textwrap.dedent("""
    import os, sys, time
    import numpy as np, spirvkit
    src = open(sys.argv[1]).read()
    k = spirvkit.Program(spirvkit.compile_cl(src, "-cl-std=CL2.0")).kernel("saxpy")
    x = np.ones(4096, np.float32); y = np.ones(4096, np.float32)
    k(4096, 64, x, y, np.float32(2), 4096)
    k(4096, 64, x, y, np.float32(2), 4096)    # queues the optimised build
    time.sleep(float(sys.argv[2]))
    pid = os.fork()
    if pid == 0:                               # the child has no worker thread: it makes its own
        k(4096, 64, x, y, np.float32(2), 4096)
        k.compile(local_size=64, optimized=True)
        k(4096, 64, x, y, np.float32(2), 4096)
        os._exit(0 if (k.tier, y[0]) == (2, 9.0) else 1)
    _, status = os.waitpid(pid, 0)
    k.compile(local_size=64, optimized=True)
    k(4096, 64, x, y, np.float32(2), 4096)
    print(status, k.tier, y[0], flush=True)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork()")
@pytest.mark.parametrize("delay", [0.0, 0.03])
def test_fork_during_a_background_build(tmp_path, delay):
    source = tmp_path / "saxpy.cl"
    source.write_text(SAXPY)
    env = {k: v for k, v in os.environ.items() if k != "SPIRVKIT_JIT"}
    env.update(PYTHONPATH=str(SRC), SPIRVKIT_CACHE="0")
    r = subprocess.run([sys.executable, "-c", FORK_SCRIPT, str(source), str(delay)], capture_output=True,
                       text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["0", "2", "7.0"], (r.stdout, r.stderr[-2000:])


ROWSUM = """
kernel void rowsum(global const float *a, global float *out, int n) {
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += a[k * get_global_size(0) + i];
    out[i] = s;
}
"""


def test_tier1_pipeline_by_launch_size_and_kernel(fresh, saxpy_binary, monkeypatch):
    monkeypatch.setenv("SPIRVKIT_CACHE", "0")
    rowsum = spirvkit.Program(spirvkit.compile_cl(ROWSUM, "-cl-std=CL2.0")).kernel("rowsum")
    assert rowsum._loop_cuts                      # its k loop is turned inside out
    n, items = 3, api.LARGE_LAUNCH
    a = np.arange(n * items, dtype=np.float32) % 7
    out = np.zeros(items, np.float32)
    before = dict(target.stats)
    rowsum(items, 64, a, out, n)
    np.testing.assert_array_equal(out, a.reshape(n, items).sum(axis=0))
    assert target.stats["quick-vector"] == before.get("quick-vector", 0) + 1
    small = spirvkit.Program(spirvkit.compile_cl(ROWSUM, "-cl-std=CL2.0")).kernel("rowsum")
    small(64, 32, a, out, n)                      # a small launch (another local size): scalar
    big_saxpy = spirvkit.Program(saxpy_binary).kernel("saxpy")
    x = np.ones(items, np.float32)
    big_saxpy(items, 64, x, x.copy(), np.float32(2), items)   # no loop: the scalar pipeline
    assert target.stats["quick-vector"] == before.get("quick-vector", 0) + 1
    assert target.stats["quick"] == before.get("quick", 0) + 1
    assert target.stats["quick-large"] == before.get("quick-large", 0) + 1
