"""Validator benchmark: spirvkit.validate against spirv-val (SPIRV-Tools) on one large module.

    .venv/bin/python benchmarks/bench_val.py                        # N = 120000 instructions, best of 5
    .venv/bin/python benchmarks/bench_val.py --repeat 9 --env opencl2.2 spv1.2 spv1.6
    .venv/bin/python benchmarks/bench_val.py --profile opencl2.2    # cProfile of spirvkit instead of timing

The module is bench_spirv.py's generated OpenCL kernel module (capabilities, debug info, types,
thousands of constants, decorations, hundreds of kernels and helpers with structured control flow,
phis, memory access, atomics, barriers, OpenCL.std calls), assembled by spirvkit and checked to be
valid for spirvkit and spirv-val in every env measured. Everything runs in one process: spirvkit
in-process on the binary (decoding included: spirv-val decodes the file too), spirv-val as a
subprocess on the same file, interleaved round by round; each figure is the best (minimum) of its
runs, and the JSON keeps every run and the median.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import gc
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE.parent / "src"))  # run from a checkout without installing
sys.path.insert(0, str(HERE))

import spirvkit  # noqa: E402
from spirvkit.spirv.grammar import load_grammar  # noqa: E402
from spirvkit.validate import validate  # noqa: E402

from bench_spirv import generate_module, git_commit, spirv_tool, tool_version  # noqa: E402
from machine import machine_info  # noqa: E402
from scratch import scratch_dir  # noqa: E402

AIM = 3.0  # the aim: spirvkit <= 3x spirv-val's time
DEFAULT_ENVS = ("opencl2.2", "spv1.2")
MODULE_VERSION = "spv1.2"  # the generated module's SPIR-V version (opencl2.2 accepts 1.0-1.2)
# A valid module of a few instructions: spirv-val's fixed cost per process.
TINY_MODULE = """OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
"""


def time_call(fn) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def time_process(cmd: list[str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode:
        sys.exit(f"bench_val: {' '.join(cmd)} failed:\n{result.stderr.decode(errors='replace')}")
    return elapsed


def summary(runs: list[float]) -> dict:
    return {"best_s": min(runs), "median_s": statistics.median(runs), "runs_s": runs}


def build_module(instructions: int, seed: int, work: Path) -> tuple[Path, bytes, int, Path]:
    text, count = generate_module(instructions, seed)
    binary = spirvkit.assemble(text, MODULE_VERSION)
    path = work / "module.spv"
    path.write_bytes(binary)
    tiny = work / "tiny.spv"
    tiny.write_bytes(spirvkit.assemble(TINY_MODULE, MODULE_VERSION))
    return path, binary, count, tiny


def check_valid(binary: bytes, path: Path, envs, spirv_val: str) -> dict:
    """Both validators accept the module in every env (a benchmark of a rejected module would time
    an early exit)."""
    checks = {}
    for env in envs:
        ours = validate(binary, env, max_errors=None)
        theirs = subprocess.run([spirv_val, "--target-env", env, str(path)], capture_output=True, text=True)
        checks[f"spirvkit valid ({env})"] = not ours
        checks[f"spirv-val valid ({env})"] = theirs.returncode == 0
        if ours or theirs.returncode:
            print(f"bench_val: the module is not valid for {env}:", ours[:3], theirs.stderr[:500], file=sys.stderr)
    return checks


def run_benchmark(args) -> int:
    spirv_val = spirv_tool("spirv-val")
    work = scratch_dir("bench_val_")
    start = time.perf_counter()
    path, binary, count, tiny = build_module(args.instructions, args.seed, work)
    build_s = time.perf_counter() - start

    load_grammar()  # loaded once per process (at import already): not in the figures
    checks = check_valid(binary, path, args.env, spirv_val)
    if not all(checks.values()):
        return 1

    load = [list(os.getloadavg())]
    runs: dict[str, list[float]] = {}
    for env in args.env:
        validate(binary, env)  # warm-up: per-env tables, caches
    for _round in range(args.repeat):
        for env in args.env:
            runs.setdefault(f"spirvkit {env}", []).append(time_call(lambda: validate(binary, env)))
            runs.setdefault(f"spirv-val {env}", []).append(
                time_process([spirv_val, "--target-env", env, str(path)]))
        runs.setdefault("spirv-val start-up", []).append(
            time_process([spirv_val, "--target-env", args.env[0], str(tiny)]))
    load.append(list(os.getloadavg()))

    figures = {k: summary(v) for k, v in runs.items()}
    startup = figures["spirv-val start-up"]["best_s"]
    per_env = {}
    for env in args.env:
        ours, theirs = figures[f"spirvkit {env}"]["best_s"], figures[f"spirv-val {env}"]["best_s"]
        per_env[env] = {
            "spirvkit_best_s": ours,
            "spirv_val_best_s": theirs,
            "ratio": ours / theirs,
            "ratio_work": ours / max(theirs - startup, 1e-9),
            "ratio_median": figures[f"spirvkit {env}"]["median_s"] / figures[f"spirv-val {env}"]["median_s"],
            "aim_met": ours / theirs <= AIM,
        }
    result = {
        "benchmark": "bench_val",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "spirv_val": tool_version(spirv_val),
        "spirvkit": {"version": spirvkit.__version__, "git_commit": git_commit()},
        "machine": {**machine_info(), "loadavg_during": load},
        "module": {"instructions": count, "binary_bytes": len(binary), "seed": args.seed,
                   "spirv_version": MODULE_VERSION, "generator": "benchmarks/bench_spirv.py generate_module",
                   "build_s": build_s},
        "repeat": args.repeat,
        "envs": list(args.env),
        "figures": figures,
        "per_env": per_env,
        "aim": AIM,
        "checks": checks,
    }
    table = markdown_table(result)
    print(table)
    if not args.no_write:
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / "val.json").write_text(json.dumps(result, indent=1) + "\n")
        (args.results / "val.md").write_text(table + "\n")
        print(f"wrote {args.results / 'val.md'} and val.json")
    return 0


def markdown_table(r: dict) -> str:
    n = r["module"]["instructions"]
    mach = r["machine"]
    f = r["figures"]

    def ms(x: float) -> str:
        return f"{x * 1000:.1f} ms"

    lines = [
        f"# Validator benchmark: spirvkit.validate vs {r['spirv_val']}",
        "",
        f"{r['date']} · {n} instructions ({r['module']['binary_bytes'] / 1e6:.1f} MB binary, SPIR-V "
        f"{r['module']['spirv_version'][3:]}) · best of {r['repeat']} runs, interleaved · "
        f"{mach['cpu'] or 'unknown CPU'}, nproc {mach['nproc']} · Python {mach['python']} · "
        f"spirvkit {r['spirvkit']['version']} ({(r['spirvkit']['git_commit'] or '?')[:10]}) · load average "
        f"{mach['loadavg_during'][0][0]:.2f} at start, {mach['loadavg_during'][1][0]:.2f} at end",
        "",
        f"| target env | spirvkit.validate (in-process) | spirv-val (process) | ratio | ratio (work) | "
        f"median ratio | aim <= {AIM:g}x met |",
        "|---|---:|---:|---:|---:|---:|:---:|",
    ]
    for env, e in r["per_env"].items():
        lines.append(f"| {env} | {ms(e['spirvkit_best_s'])} | {ms(e['spirv_val_best_s'])} | {e['ratio']:.2f}x | "
                     f"{e['ratio_work']:.2f}x | {e['ratio_median']:.2f}x | {'yes' if e['aim_met'] else 'no'} |")
    lines += [
        "",
        "| fixed cost | time |",
        "|---|---:|",
        f"| spirv-val start-up (tiny module, best) | {ms(f['spirv-val start-up']['best_s'])} |",
        "",
        "ratio = spirvkit best / spirv-val best (the aim is checked on it); ratio (work) = spirvkit / (spirv-val - "
        "its start-up); median ratio = the same with medians. spirvkit's figure includes decoding the binary "
        "(Module.from_bytes), as spirv-val's includes reading it.",
        "Checks: " + ", ".join(f"{k}: {'ok' if v else 'FAILED'}" for k, v in r["checks"].items()) + ".",
    ]
    return "\n".join(lines)


def run_profile(args) -> int:
    work = scratch_dir("bench_val_")
    _path, binary, count, _tiny = build_module(args.instructions, args.seed, work)
    load_grammar()
    validate(binary, args.profile)
    profile = cProfile.Profile()
    profile.enable()
    validate(binary, args.profile)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    print(f"spirvkit.validate({count} instructions, {args.profile!r}):")
    print(out.getvalue())
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instructions", "-n", type=int, default=120_000,
                        help="instructions in the generated module (at least; default 120000)")
    parser.add_argument("--repeat", "-r", type=int, default=5, help="timed runs per side and env (default 5)")
    parser.add_argument("--seed", type=int, default=2024, help="generator seed (default 2024)")
    parser.add_argument("--env", nargs="+", default=list(DEFAULT_ENVS),
                        help=f"target envs (default {' '.join(DEFAULT_ENVS)}); the module is SPIR-V 1.2")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where val.json and val.md go")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--profile", metavar="ENV", help="instead of timing, print a cProfile of spirvkit for ENV")
    parser.add_argument("--top", type=int, default=30, help="rows of profile output (default 30)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.instructions < 1:
        parser.error("--repeat and --instructions must be positive")
    if args.profile:
        return run_profile(args)
    return run_benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
