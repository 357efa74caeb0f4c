"""Benchmark: the OpenCL C compiler (``spirvkit.compile_cl``) against clang-15 + llvm-spirv-15, and
first launch from source against PoCL.

Usage::

    python benchmarks/bench_cc.py [--repeat N] [--quick] [--only NAME ...] [--no-launch | --skip-compile]
                                  [--no-write] [--results DIR] [--profile K]

In one process:

(a) **compile time** per corpus kernel (``tests/data/kernels/*.cl`` and ``benchmarks/kernels/*.cl``):
    spirvkit ``compile_cl(source, "-cl-std=CL2.0")`` in this process, against ``clang-15 -cc1
    -triple spir64-unknown-unknown -cl-std=CL2.0 -emit-llvm-bc -finclude-default-header
    -no-opaque-pointers -O2`` followed by ``llvm-spirv-15 --spirv-max-version=1.2``, measured as the
    wall time of the two subprocesses (process creation included: that is what a user of the
    toolchain pays per file). Each figure is the median of R runs, interleaved (one run of each side
    per round). spirvkit's one-time cost per process (imports, grammar, the predefined-macro table)
    is measured apart, in a fresh interpreter, and reported next to the figures. A kernel one side
    cannot compile gets the error in its row and stays out of the medians. Without clang-15 the
    clang side is skipped with a note.
(b) **first launch from source** on the ``benchmarks/kernels`` cases of bench_run.py (its setups are
    imported): spirvkit ``Program(source)`` (compile included) + ``kernel(name)`` + first call, against
    PoCL ``cl.Program(ctx, src).build()`` + first enqueue and wait, with every cache off
    (POCL_KERNEL_CACHE=0, PYOPENCL_NO_CACHE=1, SPIRVKIT_CACHE=0, set before any import). Sizes are
    bench_run's ``--quick`` ones unless ``--full``: the figure is about getting from source to a first
    result, not about kernel time (bench_run.py measures that). Outputs are compared with PoCL's.
    Before the first row, each side compiles and runs a trivial kernel once (``kernels/warmup.cl``,
    as bench_run.py does): the one-time process costs (LLVM initialisation, thread pools) are
    reported apart, not charged to the first kernel. spirvkit's first launch runs its tier-1
    (quick) build: a kernel launched once never gets an optimised build (README, "Tiers").
    ``--skip-compile`` runs (b) alone.

The figures go to ``benchmarks/results/cc.json`` and ``benchmarks/results/cc.md``.
``--profile K`` prints the K hottest functions of compile_cl over the corpus (cProfile) instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# bench_run sets the no-cache environment (POCL_KERNEL_CACHE, PYOPENCL_NO_CACHE, SPIRVKIT_CACHE)
# at its top, before it imports pyopencl and spirvkit: import it before anything else.
import bench_run  # noqa: E402

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from machine import machine_info  # noqa: E402

spirvkit = bench_run.spirvkit
ROOT = HERE.parent
RESULTS = HERE / "results"
CORPORA = [ROOT / "tests" / "data" / "kernels", HERE / "kernels"]
OPTIONS = "-cl-std=CL2.0"
CLANG, LLVM_SPIRV = "clang-15", "llvm-spirv-15"
CLANG_ARGS = ["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-emit-llvm-bc",
              "-finclude-default-header", "-no-opaque-pointers", "-O2"]
AIM_COMPILE = 1.0  # median spirvkit / clang compile time
AIM_FIRST_LAUNCH = 0.5  # spirvkit first launch from source / PoCL's, every kernel


def corpus() -> list[Path]:
    return [p for d in CORPORA for p in sorted(d.glob("*.cl"))]


def clang_compile(path: Path, out_dir: str) -> float:
    """Wall seconds of clang-15 -cc1 + llvm-spirv-15 on one file; raises on a failure."""
    bc, spv = os.path.join(out_dir, "k.bc"), os.path.join(out_dir, "k.spv")
    start = time.perf_counter()
    r = subprocess.run([CLANG, *CLANG_ARGS, "-I", str(path.parent), "-o", bc, str(path)], capture_output=True,
                       text=True)
    if r.returncode == 0:
        r = subprocess.run([LLVM_SPIRV, "--spirv-max-version=1.2", bc, "-o", spv], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        raise RuntimeError((r.stderr or r.stdout).strip().splitlines()[0] if (r.stderr or r.stdout) else
                           f"exit status {r.returncode}")
    return elapsed


def spirvkit_compile(source: str, path: Path) -> float:
    start = time.perf_counter()
    spirvkit.compile_cl(source, f"{OPTIONS} -I {path.parent}", filename=str(path))
    return time.perf_counter() - start


def cold_start() -> dict:
    """spirvkit's one-time cost per process: a fresh interpreter importing spirvkit and compiling a
    one-line kernel, minus the same interpreter doing nothing."""
    code = ("import time; t = time.perf_counter(); import spirvkit; "
            "spirvkit.compile_cl('kernel void k(global int *o) { o[0] = 1; }', '-cl-std=CL2.0'); "
            "print(time.perf_counter() - t)")
    runs = []
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        if r.returncode == 0:
            runs.append(float(r.stdout.strip().splitlines()[-1]))
    return {"import_and_first_compile_s": statistics.median(runs) if runs else None, "runs_s": runs}


def bench_compile(args) -> dict:
    have_clang = bool(shutil.which(CLANG) and shutil.which(LLVM_SPIRV))
    files = [p for p in corpus() if not args.only or p.stem in args.only]
    # warm: the per-process costs are measured by cold_start(), not charged to the first kernel
    spirvkit.compile_cl("kernel void k(global int *o) { o[0] = 1; }", OPTIONS)
    rows = []
    out_dir = tempfile.mkdtemp(prefix="bench_cc_")
    sources = {p: p.read_text() for p in files}
    runs = {p: {"spirvkit": [], "clang": []} for p in files}
    errors: dict = {p: {} for p in files}
    for _ in range(args.repeat):
        for p in files:
            if "spirvkit" not in errors[p]:
                try:
                    runs[p]["spirvkit"].append(spirvkit_compile(sources[p], p))
                except Exception as exc:  # noqa: BLE001 - reported in the row
                    errors[p]["spirvkit"] = bench_run.error_text(exc).splitlines()[0]
            if have_clang and "clang" not in errors[p]:
                try:
                    runs[p]["clang"].append(clang_compile(p, out_dir))
                except Exception as exc:  # noqa: BLE001
                    errors[p]["clang"] = str(exc)
    shutil.rmtree(out_dir, ignore_errors=True)
    for p in files:
        s = statistics.median(runs[p]["spirvkit"]) if runs[p]["spirvkit"] and "spirvkit" not in errors[p] else None
        c = statistics.median(runs[p]["clang"]) if runs[p]["clang"] and "clang" not in errors[p] else None
        rows.append({"kernel": str(p.relative_to(ROOT)), "lines": sources[p].count("\n"),
                     "spirvkit_s": s, "clang_s": c, "ratio": s / c if s and c else None,
                     "errors": errors[p], "runs": runs[p]})
    both = [r for r in rows if r["ratio"]]
    spk = [r["spirvkit_s"] for r in rows if r["spirvkit_s"]]
    cl = [r["clang_s"] for r in rows if r["clang_s"]]
    summary = {
        "kernels": len(rows), "compared": len(both),
        "median_spirvkit_s": statistics.median(spk) if spk else None,
        "median_clang_s": statistics.median(cl) if cl else None,
        "median_ratio": statistics.median(r["ratio"] for r in both) if both else None,
        "max_ratio": max((r["ratio"] for r in both), default=None),
        "worst": max(both, key=lambda r: r["ratio"])["kernel"] if both else None,
    }
    if summary["median_spirvkit_s"] and summary["median_clang_s"]:
        summary["aim_median_le_clang"] = summary["median_spirvkit_s"] <= AIM_COMPILE * summary["median_clang_s"]
    return {"rows": rows, "summary": summary, "clang": have_clang,
            "clang_note": None if have_clang else f"{CLANG} / {LLVM_SPIRV} not found: clang side skipped"}


def _forget_compiled_kernels() -> None:
    """The executor keeps compiled kernels in memory by module bytes: forget them, so that every
    measured launch compiles from scratch (its on-disk cache is off through SPIRVKIT_CACHE=0)."""
    try:
        from spirvkit.jit import cache
        with cache._lock:
            cache._memory.clear()
    except (ImportError, AttributeError):
        pass


def spirvkit_first_launch(source: str, name: str, setup, args_list) -> tuple[float, float]:
    """(seconds of the whole first launch, of which compile_cl). What Program(source) does,
    in two steps so that the front end's share is visible."""
    kargs = [a.data if isinstance(a, bench_run.Buf) else spirvkit.LocalMemory(a.nbytes)
             if isinstance(a, bench_run.Local) else a.value for a in args_list]
    _forget_compiled_kernels()
    start = time.perf_counter()
    binary = spirvkit.compile_cl(source, OPTIONS)
    front = time.perf_counter() - start
    kernel = spirvkit.Program(binary).kernel(name)
    kernel(setup.global_size, setup.local_size, *kargs)
    return time.perf_counter() - start, front


def warm_up(pocl) -> dict:
    """One trivial kernel from source on each side, untimed in the rows: LLVM initialisation,
    thread pools and the like are per-process costs (bench_run.py reports them apart too)."""
    out: dict = {}
    source = (bench_run.KERNELS / "warmup.cl").read_text()
    data = bench_run.np.ones(1024, bench_run.np.float32)
    setup = bench_run.Setup([bench_run.Buf("x", data, True), bench_run.Scalar(bench_run.np.float32(2.0))],
                            (1024,), (64,), "n=1024")
    try:
        out["spirvkit_s"] = spirvkit_first_launch(source, "warmup", setup, setup.fresh())[0]
    except Exception as exc:  # noqa: BLE001
        out["spirvkit_error"] = bench_run.error_text(exc)
    if pocl is not None:
        try:
            out["pocl_s"] = pocl.first_launch(source, "warmup", setup, setup.fresh())[0]
        except Exception as exc:  # noqa: BLE001
            out["pocl_error"] = bench_run.error_text(exc)
    return out


def bench_first_launch(args) -> dict:
    pocl = None
    if bench_run.cl is not None:
        try:
            pocl = bench_run.PoclSide()
        except Exception as exc:  # noqa: BLE001
            pocl_error = bench_run.error_text(exc)
    else:
        pocl_error = bench_run.PYOPENCL_IMPORT_ERROR
    warm = warm_up(pocl)
    rows = []
    for case in bench_run.CASES:
        if args.only and case.file not in args.only and case.name not in args.only:
            continue
        rng = bench_run.np.random.default_rng(args.seed)
        setup = case.make(rng, *(case.full if args.full else case.quick))
        source = (bench_run.KERNELS / f"{case.file}.cl").read_text()
        row = {"kernel": case.name, "size": setup.size_text, "spirvkit_runs_s": [], "compile_cl_runs_s": [],
               "pocl_runs_s": []}
        out_s = out_p = None
        for _ in range(args.launch_repeat):  # every run compiles from scratch: nothing is cached
            sargs = setup.fresh()
            try:
                total, front = spirvkit_first_launch(source, case.kernel, setup, sargs)
                row["spirvkit_runs_s"].append(total)
                row["compile_cl_runs_s"].append(front)
                out_s = setup.outputs(sargs)
            except Exception as exc:  # noqa: BLE001
                row["spirvkit_error"] = bench_run.error_text(exc).splitlines()[0]
                break
            if pocl is not None:
                pargs = setup.fresh()
                try:
                    row["pocl_runs_s"].append(pocl.first_launch(source, case.kernel, setup, pargs)[0])
                    out_p = setup.outputs(pargs)
                except Exception as exc:  # noqa: BLE001
                    row["pocl_error"] = bench_run.error_text(exc).splitlines()[0]
        s = statistics.median(row["spirvkit_runs_s"]) if row["spirvkit_runs_s"] else None
        p = statistics.median(row["pocl_runs_s"]) if row["pocl_runs_s"] else None
        row.update(spirvkit_s=s, pocl_s=p, ratio=s / p if s and p else None,
                   compile_cl_s=statistics.median(row["compile_cl_runs_s"]) if row["compile_cl_runs_s"] else None)
        if out_s is not None and out_p is not None:
            ok, detail = bench_run.compare(out_s, out_p, setup.tol)
            row["matches_pocl"] = {"ok": ok, "detail": detail}
        rows.append(row)
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    summary = {"kernels": len(rows), "geomean_ratio": bench_run.geomean(ratios),
               "max_ratio": max(ratios, default=None),
               "aim_every_kernel_le_half": bool(ratios) and len(ratios) == len(rows) and max(ratios) <= AIM_FIRST_LAUNCH,
               "all_match_pocl": all(r.get("matches_pocl", {}).get("ok") for r in rows)}
    return {"rows": rows, "summary": summary, "pocl_error": None if pocl else pocl_error, "warm_up": warm,
            "sizes": "bench_run --full sizes" if args.full else "bench_run --quick sizes"}


def fmt_ms(s) -> str:
    return f"{s * 1e3:.1f}" if s else "–"


def markdown(r: dict) -> str:
    m = r["machine"]
    lines = ["# OpenCL C compiler: spirvkit vs clang-15 + llvm-spirv-15, first launch vs PoCL", "",
             f"{r['date']} · {m['cpu']} · {m['nproc']} usable cores · load at start "
             f"{', '.join(f'{x:.2f}' for x in m['loadavg_at_start'])} · Python {m['python']} · "
             f"commit {r['versions'].get('spirvkit_git_commit') or '?'}", ""]
    c = r.get("compile")
    if c:
        s = c["summary"]
        cold = r.get("cold_start", {}).get("import_and_first_compile_s")
        earlier = r.get("compile_from")
        lines += ["## Compile time per kernel", "",
                  *([f"(From the run of {earlier['date']}, commit {earlier['commit'] or '?'}: this run measured "
                     f"the first launches only.)", ""] if earlier else []),
                  f"spirvkit `compile_cl` in-process vs `clang-15 -cc1 … -O2` + `llvm-spirv-15` (subprocess wall "
                  f"time); median of {r['repeat']} interleaved runs. " + (c["clang_note"] or ""), "",
                  f"**Median: spirvkit {fmt_ms(s['median_spirvkit_s'])} ms, clang {fmt_ms(s['median_clang_s'])} ms; "
                  f"median per-kernel ratio {s['median_ratio']:.3f}, worst {s['max_ratio']:.3f} ({s['worst']}).** "
                  if s["median_ratio"] else "", ""]
        if cold:
            lines += [f"spirvkit's one-time cost per process (import + grammar + predefined macros + a one-line "
                      f"kernel, fresh interpreter): {fmt_ms(cold)} ms, not included above.", ""]
        lines += ["| kernel | lines | spirvkit ms | clang ms | ratio |", "|---|---:|---:|---:|---:|"]
        for row in c["rows"]:
            err = "; ".join(f"{k}: {v}" for k, v in row["errors"].items())
            lines.append(f"| {row['kernel']} | {row['lines']} | {fmt_ms(row['spirvkit_s'])} | {fmt_ms(row['clang_s'])} "
                         f"| {row['ratio']:.3f} |" if row["ratio"] else
                         f"| {row['kernel']} | {row['lines']} | {fmt_ms(row['spirvkit_s'])} | {fmt_ms(row['clang_s'])} "
                         f"| {err[:120] or '–'} |")
        lines.append("")
    f = r.get("first_launch")
    if f:
        s = f["summary"]
        w = f.get("warm_up", {})
        lines += ["## First launch from source", "",
                  f"spirvkit `Program(source)` + `kernel()` + first call vs PoCL `Program(ctx, src).build()` + first "
                  f"enqueue + wait; caches off; {f['sizes']}; median of {r['launch_repeat']} runs, each from scratch. "
                  f"spirvkit's first launch runs its tier-1 (quick) build. One-time process warm-up before the rows "
                  f"(a trivial kernel from source, `kernels/warmup.cl`, not in any figure): spirvkit "
                  f"{fmt_ms(w.get('spirvkit_s'))} ms, PoCL {fmt_ms(w.get('pocl_s'))} ms.",
                  "", f"**Geomean spirvkit/PoCL {s['geomean_ratio']:.3f}, worst {s['max_ratio']:.3f}; outputs match "
                  f"PoCL: {s['all_match_pocl']}.**" if s["geomean_ratio"] else "", "",
                  "| kernel | size | spirvkit ms | of which compile_cl ms | PoCL ms | ratio | matches PoCL |",
                  "|---|---|---:|---:|---:|---:|---|"]
        for row in f["rows"]:
            match = row.get("matches_pocl", {})
            note = row.get("spirvkit_error") or row.get("pocl_error") or ""
            ratio = f"{row['ratio']:.3f}" if row["ratio"] else note[:80] or "–"
            lines.append(f"| {row['kernel']} | {row['size']} | {fmt_ms(row['spirvkit_s'])} | {fmt_ms(row['compile_cl_s'])} "
                         f"| {fmt_ms(row['pocl_s'])} | {ratio} | {match.get('ok', '–')} |")
        lines.append("")
    lines += ["## Aims (issue 6)", ""]
    if c and "aim_median_le_clang" in c["summary"]:
        lines.append(f"- median compile time ≤ clang's: **{c['summary']['aim_median_le_clang']}**")
    if f:
        lines.append(f"- first launch ≤ half of PoCL's on every kernel: **{f['summary']['aim_every_kernel_le_half']}**")
    return "\n".join(lines) + "\n"


def profile(args) -> int:
    import cProfile
    import pstats
    files = corpus()
    sources = [(p, p.read_text()) for p in files]
    spirvkit.compile_cl("kernel void k(global int *o) { o[0] = 1; }", OPTIONS)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(args.repeat):
        for p, src in sources:
            try:
                spirvkit.compile_cl(src, f"{OPTIONS} -I {p.parent}", filename=str(p))
            except Exception:  # noqa: BLE001 - profiling only
                pass
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile)
    pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", "-r", type=int, default=5, help="compile runs per kernel and side (default 5)")
    parser.add_argument("--launch-repeat", type=int, default=3, help="first launches per kernel and side (default 3)")
    parser.add_argument("--quick", action="store_true", help="1 compile run, 1 launch each")
    parser.add_argument("--full", action="store_true", help="first launch at bench_run's full sizes")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="kernels (file stems) to run")
    parser.add_argument("--no-launch", action="store_true", help="compile times only")
    parser.add_argument("--skip-compile", action="store_true",
                        help="first launch from source only (no compile-time table, no cold start)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--profile", type=int, metavar="K", help="cProfile compile_cl over the corpus, top K")
    args = parser.parse_args(argv)
    if spirvkit is None:
        print(f"spirvkit unavailable: {bench_run.SPIRVKIT_IMPORT_ERROR}", file=sys.stderr)
        return 1
    if args.quick:
        args.repeat, args.launch_repeat = 1, 1
    if args.profile:
        return profile(args)
    result = {"benchmark": "OpenCL C compiler: compile time vs clang-15 + llvm-spirv-15; first launch vs PoCL",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info(), "versions": bench_run.versions(None), "repeat": args.repeat,
              "launch_repeat": args.launch_repeat, "options": OPTIONS, "clang_command": [CLANG, *CLANG_ARGS],
              "statistic": "median of the runs (every run is in the JSON)"}
    if args.skip_compile:
        # compile_cl's one-time costs stay out of the first row, as bench_compile's warm-up does
        spirvkit.compile_cl("kernel void k(global int *o) { o[0] = 1; }", OPTIONS)
        try:   # the results files keep the compile-time figures of the last full run
            earlier = json.loads((args.results / "cc.json").read_text())
            for key in ("cold_start", "compile"):
                if key in earlier:
                    result[key] = earlier[key]
            if "compile" in earlier:
                result["compile_from"] = {"date": earlier.get("date"), "repeat": earlier.get("repeat"),
                                          "commit": earlier.get("versions", {}).get("spirvkit_git_commit")}
                result["repeat"] = earlier.get("repeat", result["repeat"])
        except (OSError, ValueError):
            pass
    else:
        result["cold_start"] = cold_start()
        result["compile"] = bench_compile(args)
    if not args.no_launch:
        result["first_launch"] = bench_first_launch(args)
    text = markdown(result)
    print(text)
    if not args.no_write:
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / "cc.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.results / "cc.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
