"""Vulkan compute shaders: spirvkit.vk (checked and unchecked) against lavapipe, in one run.

    .venv/bin/python benchmarks/bench_vk.py               # full sizes, median of 9 rounds
    .venv/bin/python benchmarks/bench_vk.py --quick       # small sizes, median of 3: a smoke run
    .venv/bin/python benchmarks/bench_vk.py --only reduce matmul_tiled --repeat 15

Four GLSL compute shaders (issue 16, item 5), compiled once by glslangValidator to the SPIR-V
files in ``kernels/vk/`` (``kernels/vk/regenerate.sh``; the benchmark needs no glslang):

- ``vadd``: c = a + b, one float per invocation;
- ``reduce``: 16 floats per invocation, ``subgroupAdd``, subgroup sums through shared memory,
  one partial sum per work-group of 256;
- ``matmul_tiled``: C = A B, 16 x 16 tiles of A and B in shared memory;
- ``stencil``: one Jacobi step of a 5-point stencil on a 2D grid, edges clamped.

Lavapipe (Mesa's CPU Vulkan driver) runs through the ``vulkan`` package in this process
(``vk_lavapipe.py``); where it cannot be loaded the spirvkit side still runs and the results say
why lavapipe was skipped. Timing: warm-up runs, then rounds in which the three sides take turns
(the order rotates from round to round, so drift in the machine's load hits all alike); wall
time per dispatch (lavapipe: queue submit + fence wait of a command buffer recorded once;
spirvkit: ``pipe.dispatch(...)``); the figure is the median, the JSON has every run and the
best. First dispatch: lavapipe shader module + compute pipeline + first submit; spirvkit
``ComputePipeline(path)`` + bind + push constants + first (checked) dispatch. Every side's
outputs are checked against numpy. Results: ``benchmarks/results/vk.json`` and ``vk.md``.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import json
import os
import statistics
import sys
import time
import traceback
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

# bench_run sets the no-cache environment (SPIRVKIT_CACHE=0, a fresh SPIRVKIT_CACHE_DIR) and
# OPENBLAS_NUM_THREADS=1 (numpy's matmul reference leaves no threads spinning) before it imports
# spirvkit; its version helpers are reused here.
from bench_run import SPIRVKIT_IMPORT_ERROR, geomean, git_commit, package_version, spirvkit  # noqa: E402
from machine import machine_info  # noqa: E402
from vk_lavapipe import LavapipeUnavailable, open_lavapipe  # noqa: E402

import numpy as np  # noqa: E402

SHADERS = HERE / "kernels" / "vk"
SIDES = ("lavapipe", "spirvkit checked", "spirvkit unchecked")


@dataclass
class Setup:
    buffers: list[np.ndarray]        # binding i of set 0 = buffers[i]
    outputs: dict[int, np.ndarray]   # binding -> the numpy reference it must match
    push: np.ndarray
    groups: tuple[int, int, int]
    size: str
    rtol: float = 0.0
    atol: float = 0.0


def _uniform(rng, *shape) -> np.ndarray:
    return rng.random(shape, dtype=np.float32)


def make_vadd(rng, n: int) -> Setup:
    a, b = _uniform(rng, n), _uniform(rng, n)
    return Setup([a, b, np.zeros(n, np.float32)], {2: a + b}, np.array([n], np.uint32), (n // 256, 1, 1),
                 f"{n} floats")


REDUCE_PER_GROUP = 256 * 16   # reduce.comp: local size x PER_INVOCATION


def make_reduce(rng, n: int) -> Setup:
    groups = n // REDUCE_PER_GROUP
    data = _uniform(rng, n)
    want = data.reshape(groups, REDUCE_PER_GROUP).astype(np.float64).sum(axis=1)
    # 4096 floats in [0, 1) per sum, added in another order than numpy's: float32 rounding.
    return Setup([data, np.zeros(groups, np.float32)], {1: want}, np.array([n], np.uint32), (groups, 1, 1),
                 f"{n} floats, {groups} groups of 256", rtol=1e-5)


def make_matmul_tiled(rng, n: int) -> Setup:
    a, b = _uniform(rng, n, n), _uniform(rng, n, n)
    want = a.astype(np.float64) @ b.astype(np.float64)
    return Setup([a, b, np.zeros((n, n), np.float32)], {2: want}, np.array([n], np.uint32), (n // 16, n // 16, 1),
                 f"{n}x{n}", rtol=1e-5)


def make_stencil(rng, w: int, h: int) -> Setup:
    src = _uniform(rng, h, w)
    p = np.pad(src.astype(np.float64), 1, mode="edge")
    want = 0.5 * p[1:-1, 1:-1] + 0.125 * (p[1:-1, :-2] + p[1:-1, 2:] + p[:-2, 1:-1] + p[2:, 1:-1])
    # One rounding per float32 operation (and fused or not): a few ulps of values in [0, 1).
    return Setup([src, np.zeros((h, w), np.float32)], {1: want}, np.array([w, h], np.uint32),
                 (w // 16, h // 16, 1), f"{w}x{h}", rtol=1e-6, atol=1e-6)


@dataclass
class Case:
    name: str
    make: Callable[..., Setup]
    full: tuple
    quick: tuple


CASES = [
    Case("vadd", make_vadd, (1 << 24,), (1 << 20,)),
    Case("reduce", make_reduce, (1 << 24,), (1 << 21,)),
    Case("matmul_tiled", make_matmul_tiled, (256,), (128,)),
    Case("stencil", make_stencil, (2048, 2048), (512, 512)),
]


def error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def check(got: np.ndarray, want: np.ndarray, setup: Setup) -> dict:
    bad = ~(np.abs(got - want) <= setup.atol + setup.rtol * np.abs(want))
    out = {"ok": not bad.any(), "max_abs_difference": float(np.abs(got - want).max()), "mismatches": int(bad.sum())}
    if bad.any():
        i = np.unravel_index(np.argmax(bad), bad.shape)
        out["first_mismatch"] = {"index": [int(k) for k in i], "got": float(got[i]), "want": float(want[i])}
    return out


class SpirvkitDispatch:
    """A spirvkit.vk pipeline with the case's buffers bound (inputs shared zero-copy, outputs its
    own), in one mode."""

    def __init__(self, path: Path, setup: Setup, unchecked: bool):
        start = time.perf_counter()
        self.pipe = spirvkit.vk.ComputePipeline(path)
        self.buffers = [b if i not in setup.outputs else np.zeros_like(b) for i, b in enumerate(setup.buffers)]
        for i, b in enumerate(self.buffers):
            self.pipe.bind(set=0, binding=i, resource=b)
        if setup.push.size:
            self.pipe.push_constants(setup.push)
        self.groups, self.unchecked = setup.groups, unchecked
        self.pipe.dispatch(*self.groups, unchecked=unchecked)   # compiles this mode (its quick tier)
        self.first_s = time.perf_counter() - start
        # The timed dispatches run the optimised (O3) build from the first on, as lavapipe's
        # pipeline is fully compiled before its first submit.
        self.pipe.compile(optimized=True, unchecked=unchecked)

    def run(self) -> float:
        gc.collect()
        start = time.perf_counter()
        self.pipe.dispatch(*self.groups, unchecked=self.unchecked)
        return time.perf_counter() - start

    def read(self, binding: int) -> np.ndarray:
        return self.buffers[binding]


class LavapipeDispatch:
    def __init__(self, lvp, path: Path, setup: Setup):
        buffers = [b if i not in setup.outputs else np.zeros_like(b) for i, b in enumerate(setup.buffers)]
        self.dispatch = lvp.pipeline(path.read_bytes(), buffers, setup.push.tobytes(), setup.groups)
        self.first_s = self.dispatch.build_s + self.dispatch.run()
        self.run, self.read = self.dispatch.run, self.dispatch.read


def bench_case(case: Case, lvp, args) -> dict:
    sizes = case.quick if args.quick else case.full
    setup = case.make(np.random.default_rng(args.seed + zlib.crc32(case.name.encode())), *sizes)
    path = SHADERS / f"{case.name}.spv"
    row: dict = {"shader": f"kernels/vk/{case.name}.spv", "size": setup.size, "groups": list(setup.groups),
                 "first_dispatch_ms": {}, "runs_ms": {}, "median_ms": {}, "best_ms": {}, "check": {}, "errors": {}}
    sides: dict[str, object] = {}
    makers = {"spirvkit checked": lambda: SpirvkitDispatch(path, setup, unchecked=False),
              "spirvkit unchecked": lambda: SpirvkitDispatch(path, setup, unchecked=True)}
    if lvp is not None:
        makers = {"lavapipe": lambda: LavapipeDispatch(lvp, path, setup), **makers}
    for side, make in makers.items():
        try:
            sides[side] = make()
            row["first_dispatch_ms"][side] = sides[side].first_s * 1e3
        except Exception as exc:  # noqa: BLE001 - the row shows it; the benchmark goes on
            row["errors"][side] = error_text(exc)
            row.setdefault("tracebacks", {})[side] = traceback.format_exc()
            if side == "spirvkit checked":   # an out-of-bounds access unchecked could take the process down
                row["errors"]["spirvkit unchecked"] = "skipped: the checked dispatch failed"
                break
    for _ in range(args.warmup):
        for d in sides.values():
            d.run()
    runs = {side: [] for side in sides}
    device_runs = []   # lavapipe's timestamps around each timed dispatch
    order = list(sides)
    for r in range(args.repeat):
        for side in order[r % len(order):] + order[:r % len(order)]:
            runs[side].append(sides[side].run())
            if side == "lavapipe":
                device_runs.append(sides[side].dispatch.device_time())
    if device_runs:
        row["lavapipe_timestamps_ms"] = {"runs": [t * 1e3 for t in device_runs],
                                         "median": statistics.median(device_runs) * 1e3}
    row["loadavg_after"] = list(os.getloadavg())
    for side, ts in runs.items():
        row["runs_ms"][side] = [t * 1e3 for t in ts]
        if ts:
            row["median_ms"][side] = statistics.median(ts) * 1e3
            row["best_ms"][side] = min(ts) * 1e3
        row["check"][side] = merge_checks([check(sides[side].read(b), want, setup)
                                           for b, want in setup.outputs.items()])
    for d in sides.values():
        if isinstance(d, LavapipeDispatch):
            d.dispatch.close()
    return row


def warm_up(lvp) -> dict:
    """First dispatch of kernels/vk/warmup.spv on each side (x += 1 over 1024 floats): one-time
    process costs, reported apart from the shaders' first dispatches."""
    setup = Setup([np.zeros(1024, np.float32)], {0: np.ones(1024)}, np.zeros(0, np.uint32), (16, 1, 1), "1024 floats")
    path = SHADERS / "warmup.spv"
    out = {"first_dispatch_ms": {}, "check": {}, "errors": {}}
    makers = {"spirvkit checked": lambda: SpirvkitDispatch(path, setup, unchecked=False)}
    if lvp is not None:
        makers = {"lavapipe": lambda: LavapipeDispatch(lvp, path, setup), **makers}
    for side, make in makers.items():
        try:
            d = make()
        except Exception as exc:  # noqa: BLE001
            out["errors"][side] = error_text(exc)
            continue
        out["first_dispatch_ms"][side] = d.first_s * 1e3
        out["check"][side] = check(d.read(0), setup.outputs[0], setup)
        if isinstance(d, LavapipeDispatch):
            d.dispatch.close()
    return out


def merge_checks(checks: list[dict]) -> dict:
    return checks[0] if len(checks) == 1 else {"ok": all(c["ok"] for c in checks), "bindings": checks}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, median of 3")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--only", nargs="+", metavar="SHADER", choices=[c.name for c in CASES])
    parser.add_argument("--no-lavapipe", action="store_true", help="spirvkit's side alone")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.warmup = 3, 1
    if spirvkit is None:
        print(SPIRVKIT_IMPORT_ERROR, file=sys.stderr)
        return 1
    importlib.import_module("spirvkit.vk")

    machine = machine_info()   # its load average is the one at the start
    lvp, skipped = None, None
    if args.no_lavapipe:
        skipped = "--no-lavapipe"
    else:
        try:
            lvp = open_lavapipe()
        except LavapipeUnavailable as exc:
            skipped = str(exc)
            print(f"lavapipe skipped: {skipped}", file=sys.stderr)
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine,
        "versions": {"spirvkit": getattr(spirvkit, "__version__", None), "spirvkit_git_commit": git_commit(),
                     "llvmlite": package_version("llvmlite"), "numpy": np.__version__,
                     "vulkan (PyPI)": package_version("vulkan")},
        "lavapipe": ({"device": lvp.device_name, "driver": lvp.driver_version, "vulkan_api": lvp.api_version,
                      "subgroup": lvp.subgroup,
                      "LP_NUM_THREADS": os.environ.get("LP_NUM_THREADS", "default (CPUs)")}
                     if lvp else {"skipped": skipped}),
        "spirvkit": {"threads": os.environ.get("SPIRVKIT_THREADS", "default (usable CPUs)"),
                     "subgroup_size": spirvkit.vk.ComputePipeline.__init__.__kwdefaults__["subgroup_size"]},
        "repeat": args.repeat, "warmup": args.warmup, "quick": args.quick,
    }
    result["warm_up"] = warm_up(lvp)
    result["shaders"] = {}
    for case in CASES:
        if args.only and case.name not in args.only:
            continue
        try:
            row = result["shaders"][case.name] = bench_case(case, lvp, args)
        except Exception as exc:  # noqa: BLE001 - a side that fails after its first dispatch: say so, go on
            result["shaders"][case.name] = {"size": "?", "error": error_text(exc), "traceback": traceback.format_exc()}
            print(f"{case.name}: {error_text(exc)}", flush=True)
            write(result, args)
            continue
        print(f"{case.name} ({row['size']}): "
              + ", ".join(f"{side} {ms:.2f} ms" for side, ms in row["median_ms"].items())
              + "".join(f"; {side}: {e}" for side, e in row["errors"].items()), flush=True)
        result["machine"]["loadavg_at_end"] = list(os.getloadavg())
        write(result, args)   # after every shader: a crash in a driver keeps what was measured
    print(markdown(result))
    return 0


def write(result: dict, args) -> None:
    if args.no_write:
        return
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "vk.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (args.results / "vk.md").write_text(markdown(result), encoding="utf-8")


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}x" if a and b else "—"


def markdown(result: dict) -> str:
    m = result["machine"]
    lvp = result["lavapipe"]
    end = m.get("loadavg_at_end", m["loadavg_at_start"])
    lines = ["# Vulkan compute shaders: spirvkit vs lavapipe", "",
             f"{result['date']} · median of {result['repeat']} rounds after {result['warmup']} warm-up runs"
             f"{' (--quick sizes)' if result['quick'] else ''} · {m['cpu']}, nproc {m['nproc']} · load average "
             f"(1 min) {m['loadavg_at_start'][0]:.2f} at start, {end[0]:.2f} at end", ""]
    if "skipped" in lvp:
        lines += [f"**lavapipe skipped**: {lvp['skipped']}", ""]
    else:
        sub = lvp["subgroup"] or {}
        lines += [f"lavapipe: {lvp['device']}, {lvp['driver']}, Vulkan {lvp['vulkan_api']}, "
                  f"subgroup size {sub.get('size', '?')}, "
                  f"threads {lvp['LP_NUM_THREADS']}. spirvkit: threads {result['spirvkit']['threads']}, subgroup "
                  f"size {result['spirvkit']['subgroup_size']}.", ""]
    w = result["warm_up"]
    lines += ["Warm-up (`kernels/vk/warmup.spv`, first dispatch, one-time process costs): " + ", ".join(
        f"{side} {ms:.0f} ms" for side, ms in w["first_dispatch_ms"].items())
        + "".join(f"; {side}: **{e}**" for side, e in w["errors"].items())
        + "".join(f"; {side}: **MISMATCH**" for side, c in w["check"].items() if not c["ok"]) + ".", ""]
    lines += ["| shader | size | lavapipe ms | spirvkit checked ms | spirvkit unchecked ms | checked / lavapipe "
              "| unchecked / lavapipe | checked / unchecked | lavapipe timestamps ms | first dispatch ms (lavapipe, "
              "spirvkit) | vs numpy | load after |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    ratios = []
    for name, row in result["shaders"].items():
        if "error" in row:
            lines.append(f"| {name} | {row['size']} | **{row['error']}** |" + " |" * 9)
            continue
        med = row["median_ms"]
        lv, c, u = (med.get(s) for s in SIDES)
        if lv and c:
            ratios.append(c / lv)
        first = row["first_dispatch_ms"]
        checks = []
        for side in SIDES:
            if side in row["errors"]:
                checks.append(f"{side}: **{row['errors'][side]}**")
            elif side in row["check"]:
                ch = row["check"][side]
                checks.append(f"{side.replace('spirvkit ', '')}: " + ("ok" if ch["ok"] else
                              f"**MISMATCH** ({ch.get('mismatches', '?')} elements)"))
        cell = lambda v: f"{v:.2f}" if v else "—"  # noqa: E731
        lines.append(f"| {name} | {row['size']} | {cell(lv)} | {cell(c)} | {cell(u)} | {_ratio(c, lv)} "
                     f"| {_ratio(u, lv)} | {_ratio(c, u)} "
                     f"| {cell(row.get('lavapipe_timestamps_ms', {}).get('median'))} "
                     f"| {cell(first.get('lavapipe'))}, "
                     f"{cell(first.get('spirvkit checked'))} | {'; '.join(checks)} | {row['loadavg_after'][0]:.2f} |")
    if ratios:
        lines += ["", f"Geometric mean, spirvkit checked / lavapipe: "
                  f"{geomean(ratios):.2f}x over {len(ratios)} shader(s) "
                  f"(below 1: spirvkit faster)."]
    lines += ["", "Wall time per dispatch, median of the rounds (lavapipe: vkQueueSubmit + vkWaitForFences of a "
              "pre-recorded command buffer; spirvkit: `pipe.dispatch`); "
              "lavapipe timestamps: the median time between timestamps written before and after its dispatch (the "
              "driver's own execution time, without submit and wake-up); buffers resident, filled and read outside "
              "the timing. The machine is shared with other jobs: compare the ratios, not the milliseconds. "
              "First dispatch: lavapipe vkCreateShaderModule + vkCreateComputePipelines + first submit; spirvkit "
              "`ComputePipeline(path)` (validation included) + bind + push constants + first checked dispatch."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
