"""Benchmark: spirvkit's dynamic checks against Oclgrind's on the same kernels and data (issue 18).

Usage::

    python benchmarks/bench_checks.py [--only NAME ...] [--repeat N] [--oclgrind-timeout S]
                                      [--no-write] [--results DIR] [--list]

For each kernel of ``bench_run.py`` at its small (``--quick``) size, plus two kernels whose
faults the checks exist for (a racy sum and a read of uninitialised __local memory, in
``kernels/checks/``), it times:

* spirvkit unchecked (``unchecked=True``), bounds-checked (the default) and with every check
  (``checks="all"``, ``report=True``), best of N on the optimised build;
* Oclgrind (``apt-get install oclgrind``: a benchmark-only peer) running the same OpenCL C
  through pyopencl in a child process, once plain and once with ``--data-races
  --uninitialized``; one timed run after a warm-up run (it interprets every instruction).

It reports the ratios the issue aims at (Oclgrind with its checks / spirvkit with all of them
>= 100x; spirvkit all / unchecked <= 10x), the extra memory spirvkit's checked launch allocated beyond its unchecked one
(traced by tracemalloc: numpy shadow state) against the bytes of the kernel's buffers (aim:
<= 2x), and what each tool reported: on the clean kernels both should report nothing, on the
faulty ones both should find the fault. Figures go to ``benchmarks/results/checks.json`` and
``checks.md``. Without Oclgrind the spirvkit columns are still measured.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench_run as br  # noqa: E402  (sets the cache variables before spirvkit is imported)
from machine import machine_info  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
CHECK_KERNELS = HERE / "kernels" / "checks"
AIM_OCLGRIND = 100.0   # Oclgrind (races + uninitialized) / spirvkit checks="all", at least
AIM_ALL = 10.0         # spirvkit checks="all" / unchecked, at most
AIM_SHADOW = 2.0       # extra bytes of a checked launch / bytes of its buffers, at most
OCLGRIND_FLAGS = ["--data-races", "--uninitialized"]


def make_racy_sum(rng, n):
    data = rng.integers(0, 100, n, dtype=np.int32)
    total = np.zeros(1, np.int32)
    return br.Setup([br.Buf("data", data), br.Buf("total", total, True), br.Scalar(np.uint32(n))], (n,), (64,),
                    f"n={n}", None, br.Tol(mismatch_frac=1.0))


def make_uninit_local(rng, n):
    data = rng.random(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    return br.Setup([br.Buf("data", data), br.Buf("out", out, True), br.Local(64 * 4)], (n,), (64,),
                    f"n={n}", None, br.Tol(mismatch_frac=1.0))


# (name, .cl path, entry point, make, size, expected finding kinds)
FAULTY = [
    ("racy_sum", CHECK_KERNELS / "racy_sum.cl", "racy_sum", make_racy_sum, (1 << 14,), {"races"}),
    ("uninit_local", CHECK_KERNELS / "uninit_local.cl", "uninit_local", make_uninit_local, (1 << 14,),
     {"uninitialized"}),
]


def cases() -> list[tuple]:
    out = [(c.name, br.KERNELS / f"{c.file}.cl", c.kernel, c.make, c.quick, set()) for c in br.CASES]
    return out + FAULTY


# ------------------------------------------------------------------------------------------------
# spirvkit
# ------------------------------------------------------------------------------------------------

def _buffer_bytes(setup) -> int:
    return sum(a.data.nbytes for a in setup.args if isinstance(a, br.Buf)) + \
        sum(a.nbytes for a in setup.args if isinstance(a, br.Local))


def _kernel(path: Path, name: str):
    spv = path.with_suffix(".spv")
    binary = spv.read_bytes() if spv.exists() else br.spirvkit.compile_cl(path.read_text(), options="-cl-std=CL2.0")
    return br.spirvkit.Program(binary).kernel(name)


def spirvkit_row(path: Path, name: str, setup, repeat: int) -> dict:
    spk = br.spirvkit
    kernel = _kernel(path, name)
    row: dict = {}
    modes = {"unchecked": {"unchecked": True}, "bounds": {}, "all": {"checks": "all", "report": True}}
    for mode, kw in modes.items():
        kargs = br.SpirvkitSide(None).convert(setup.fresh())
        try:
            kernel(setup.global_size, setup.local_size, *kargs, **kw)     # first (tier-1) launch
            kernel.compile(unchecked=mode == "unchecked", local_size=setup.local_size, optimized=True,
                           **({"checks": "all"} if mode == "all" and "checks" in _compile_params(kernel) else {}))
            best, findings, extra = None, None, None
            for _ in range(repeat):
                kargs = br.SpirvkitSide(None).convert(setup.fresh())
                start = time.perf_counter()
                got = kernel(setup.global_size, setup.local_size, *kargs, **kw)
                elapsed = time.perf_counter() - start
                best = elapsed if best is None else min(best, elapsed)
                if mode == "all":
                    findings = sorted({f.kind for f in got or []})
            # Memory in launches of their own: tracing every allocation slows the launch down.
            for _ in range(2):
                kargs = br.SpirvkitSide(None).convert(setup.fresh())
                tracemalloc.start()
                kernel(setup.global_size, setup.local_size, *kargs, **kw)
                _, peak = tracemalloc.get_traced_memory()
                tracemalloc.stop()
                extra = peak if extra is None else min(extra, peak)
            row[mode] = {"best_s": best, "extra_bytes": extra, "findings": findings}
        except spk.SpirvkitError as exc:
            row[mode] = {"error": br.error_text(exc)}
    return row


def _compile_params(kernel) -> set:
    import inspect
    try:
        return set(inspect.signature(kernel.compile).parameters)
    except (TypeError, ValueError):
        return set()


# ------------------------------------------------------------------------------------------------
# Oclgrind, in a child process (it replaces the OpenCL runtime with LD_PRELOAD)
# ------------------------------------------------------------------------------------------------

def oclgrind_child(name: str) -> int:
    """Runs one case on the Oclgrind platform twice (warm-up, timed) and prints JSON."""
    import pyopencl as cl
    path, entry, make, size = next((p, e, m, s) for n, p, e, m, s, _ in cases() if n == name)
    setup = make(np.random.default_rng(2024), *size)
    platform = cl.get_platforms()[0]
    ctx = cl.Context(platform.get_devices())
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, path.read_text()).build(options=br.BUILD_OPTIONS)
    kernel = cl.Kernel(program, entry)
    times = []
    for _ in range(2):
        clargs = []
        for a in setup.fresh():
            if isinstance(a, br.Buf):
                clargs.append(cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a.data))
            elif isinstance(a, br.Local):
                clargs.append(cl.LocalMemory(a.nbytes))
            else:
                clargs.append(a.value)
        kernel.set_args(*clargs)
        queue.finish()
        start = time.perf_counter()
        cl.enqueue_nd_range_kernel(queue, kernel, setup.global_size, setup.local_size).wait()
        times.append(time.perf_counter() - start)
    print("OCLGRIND-RESULT " + json.dumps({"platform": platform.name, "best_s": times[-1]}), flush=True)
    return 0


_OCLGRIND_KINDS = {"races": re.compile(r"data race", re.I), "uninitialized": re.compile(r"uninitiali[sz]ed", re.I),
                   "bounds": re.compile(r"invalid (read|write)", re.I)}


def oclgrind_row(name: str, checks: bool, timeout: float) -> dict:
    exe = shutil.which("oclgrind")
    if exe is None:
        return {"error": "oclgrind is not installed (apt-get install oclgrind)"}
    cmd = [exe, *(OCLGRIND_FLAGS if checks else []), "--max-errors", "20", sys.executable, str(Path(__file__)),
           "--oclgrind-child", name]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("OCLGRIND-RESULT ")), None)
    if line is None:
        return {"error": f"exit {proc.returncode}: {(proc.stderr or proc.stdout)[-300:]}"}
    out = json.loads(line.split(" ", 1)[1])
    out["findings"] = sorted(k for k, rx in _OCLGRIND_KINDS.items() if rx.search(proc.stderr))
    return out


# ------------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------------

def _ratio(a, b):
    return a / b if a and b else None


def markdown(result: dict) -> str:
    def ms(d):
        return f"{d['best_s'] * 1e3:.2f}" if d and d.get("best_s") is not None else (d or {}).get("error", "-")[:50]

    def x(v):
        return f"{v:.1f}x" if v is not None else "-"

    m = result["machine"]
    lines = [
        "# Dynamic checks: spirvkit against Oclgrind",
        "",
        f"{result['date']} · small sizes · spirvkit best of {result['repeat']}, Oclgrind one run after a "
        f"warm-up · {m['cpu']}, nproc {m['nproc']} · load average {m['loadavg_at_start'][0]:.2f} at start · "
        f"Oclgrind {result['oclgrind_version'] or 'unavailable'} with {' '.join(OCLGRIND_FLAGS)}",
        "",
        "| kernel | size | spirvkit unchecked ms | bounds ms | all checks ms | all / unchecked | Oclgrind ms | "
        "Oclgrind checked ms | Oclgrind checked / spirvkit all | extra bytes / buffer bytes | spirvkit findings | "
        "Oclgrind findings | expected |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for r in result["rows"]:
        s, o, oc = r["spirvkit"], r["oclgrind"], r["oclgrind_checked"]
        lines.append(
            f"| {r['kernel']} | {r['size']} | {ms(s.get('unchecked'))} | {ms(s.get('bounds'))} | {ms(s.get('all'))} | "
            f"{x(r['all_over_unchecked'])} | {ms(o)} | {ms(oc)} | {x(r['oclgrind_over_all'])} | "
            f"{x(r['shadow_ratio'])} | {', '.join((s.get('all') or {}).get('findings') or []) or 'none'} | "
            f"{', '.join(oc.get('findings') or []) or ('none' if 'best_s' in oc else '-')} | "
            f"{', '.join(r['expected']) or 'none'} |")
    summ = result["summary"]
    lines += [
        "",
        "| aim | value | met |",
        "|---|---|:---:|",
        f"| Oclgrind (races + uninitialized) / spirvkit `checks=\"all\"` >= {AIM_OCLGRIND:.0f}x, every kernel | "
        f"min {x(summ['oclgrind_over_all_min'])} (geomean {x(summ['oclgrind_over_all_geomean'])}) | "
        f"{_yn(summ['oclgrind_over_all_min'], lambda v: v >= AIM_OCLGRIND)} |",
        f"| spirvkit `checks=\"all\"` / unchecked <= {AIM_ALL:.0f}x, every kernel | "
        f"max {x(summ['all_over_unchecked_max'])} | {_yn(summ['all_over_unchecked_max'], lambda v: v <= AIM_ALL)} |",
        f"| extra memory of a checked launch <= {AIM_SHADOW:.0f}x its buffers | max {x(summ['shadow_ratio_max'])} | "
        f"{_yn(summ['shadow_ratio_max'], lambda v: v <= AIM_SHADOW)} |",
        f"| every expected finding reported by spirvkit, none on the clean kernels | "
        f"{summ['spirvkit_findings_right']} of {len(result['rows'])} kernels | "
        f"{'yes' if summ['spirvkit_findings_right'] == len(result['rows']) else 'no'} |",
        "",
        "Times are wall time of the kernel call (spirvkit, optimised build, compile excluded) or of "
        "`enqueue_nd_range_kernel` + `wait` (Oclgrind, its second run: the first builds). Extra bytes: the "
        "peak of Python-traced allocations during the `checks=\"all\"` launch (shadow state kept with numpy) "
        "less that of the unchecked launch (its context, argument block and scratch, which both make), "
        "over the bytes of the kernel's buffers. Findings: the kinds spirvkit's `report=True` returned; for "
        "Oclgrind, the kinds its messages name.",
        "",
    ]
    return "\n".join(lines)


def _yn(v, test) -> str:
    return "-" if v is None else ("yes" if test(v) else "no")


def summarise(rows: list[dict]) -> dict:
    og = [r["oclgrind_over_all"] for r in rows if r["oclgrind_over_all"]]
    au = [r["all_over_unchecked"] for r in rows if r["all_over_unchecked"]]
    sh = [r["shadow_ratio"] for r in rows if r["shadow_ratio"] is not None]
    right = sum(1 for r in rows if set((r["spirvkit"].get("all") or {}).get("findings") or []) == set(r["expected"])
                and "error" not in (r["spirvkit"].get("all") or {"error": 1}))
    return {"oclgrind_over_all_geomean": br.geomean(og), "oclgrind_over_all_min": min(og) if og else None,
            "all_over_unchecked_max": max(au) if au else None, "shadow_ratio_max": max(sh) if sh else None,
            "spirvkit_findings_right": right}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = [c[0] for c in cases()]
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=names, help=f"kernels: {names}")
    parser.add_argument("--repeat", "-r", type=int, default=5, help="spirvkit timed runs per mode (best taken)")
    parser.add_argument("--oclgrind-timeout", type=float, default=300.0, help="seconds per Oclgrind child run")
    parser.add_argument("--results", type=Path, default=br.RESULTS, help="where checks.json and checks.md go")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--list", action="store_true", help="list the kernels and exit")
    parser.add_argument("--oclgrind-child", metavar="NAME", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.oclgrind_child:
        return oclgrind_child(args.oclgrind_child)
    if args.list:
        print("\n".join(names))
        return 0
    if br.spirvkit is None:
        print(br.SPIRVKIT_IMPORT_ERROR, file=sys.stderr)
        return 1
    version = None
    if shutil.which("oclgrind"):
        version = subprocess.run(["oclgrind", "--version"], capture_output=True, text=True).stdout.split("\n")[1:2]
        version = version[0].strip() if version else None
    result = {"benchmark": "dynamic checks: spirvkit vs Oclgrind",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info(), "repeat": args.repeat, "oclgrind_version": version, "rows": []}
    for name, path, entry, make, size, expected in cases():
        if args.only and name not in args.only:
            continue
        setup = make(np.random.default_rng(2024), *size)
        spk = spirvkit_row(path, entry, setup, args.repeat)
        ocl = oclgrind_row(name, False, args.oclgrind_timeout)
        oclc = oclgrind_row(name, True, args.oclgrind_timeout)
        s_all = (spk.get("all") or {}).get("best_s")
        s_un = (spk.get("unchecked") or {}).get("best_s")
        # What the checks add: the checked launch's allocations beyond the unchecked one's
        # (its context, argument block, scratch are the same in both).
        extra = (spk.get("all") or {}).get("extra_bytes")
        if extra is not None and (spk.get("unchecked") or {}).get("extra_bytes") is not None:
            extra = max(0, extra - spk["unchecked"]["extra_bytes"])
        row = {"kernel": name, "size": setup.size_text, "expected": sorted(expected), "spirvkit": spk,
               "oclgrind": ocl, "oclgrind_checked": oclc, "all_over_unchecked": _ratio(s_all, s_un),
               "oclgrind_over_all": _ratio(oclc.get("best_s"), s_all),
               "shadow_ratio": extra / _buffer_bytes(setup) if extra is not None else None}
        result["rows"].append(row)
        print(f"  {name:16} all {s_all or 0:.4f} s  unchecked {s_un or 0:.4f} s  oclgrind+checks "
              f"{oclc.get('best_s') or 0:.3f} s  findings {(spk.get('all') or {}).get('findings')} / "
              f"{oclc.get('findings')}", flush=True)
    result["summary"] = summarise(result["rows"])
    result["machine"]["loadavg_at_end"] = list(os.getloadavg())
    text = markdown(result)
    print(text)
    if not args.no_write:
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / "checks.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
        (args.results / "checks.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
