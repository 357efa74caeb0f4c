"""Command start-up benchmark: ``spirvkit as|dis|info|val|cc|--version`` and ``import spirvkit``
as whole processes, against SPIRV-Tools (spirv-as, spirv-dis, spirv-val) and clang-15.

    .venv/bin/python benchmarks/bench_cli.py                 # median of 21 runs per command
    .venv/bin/python benchmarks/bench_cli.py --repeat 51     # steadier on a busy machine
    .venv/bin/python benchmarks/bench_cli.py --bytecode none # no .pyc files: every process compiles spirvkit's source

On small inputs (``benchmarks/kernels/vadd.cl``, its SPIR-V ``vadd.spv`` and that module's
spirv-dis text) the time a user waits is the process's start-up: the interpreter, the imports,
the grammar. Each command runs as a process, its wall time taken around ``subprocess.run``; every
round runs each spirvkit command and its peer back to back, in alternating order, so drifting
machine load hits both alike; a figure is the median of the rounds (the JSON has every run).

spirvkit runs as users run it: the ``spirvkit`` console script beside this Python (else ``python
-m spirvkit``), importing this checkout's ``src/`` (PYTHONPATH). By default its bytecode is cached
(as in an installed package) in a private ``PYTHONPYCACHEPREFIX``, and its grammar cache in a
private ``SPIRVKIT_CACHE_DIR``; two untimed warm-up runs per command fill both. ``--bytecode none``
sets ``PYTHONDONTWRITEBYTECODE=1`` instead (a checkout nobody has imported from: what a fresh clone
pays until Python may write its ``__pycache__``).

Aims (issue 19): ``--version``, ``as``, ``dis``, ``info``, ``val`` within 60 ms; ``cc`` within
100 ms; ``import spirvkit`` within 120 ms. Results: ``results/cli.md`` and ``results/cli.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
KERNELS = HERE / "kernels"
sys.path.insert(0, str(HERE))

from bench_spirv import git_commit, time_process  # noqa: E402
from machine import machine_info  # noqa: E402

AIMS_MS = {"--version": 60, "as": 60, "dis": 60, "info": 60, "val": 60, "cc": 100, "import spirvkit": 120}


def spirv_tool(name: str) -> str | None:
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / name
        if candidate.exists():
            return str(candidate)
    return shutil.which(name)


def spirvkit_command() -> list[str]:
    script = Path(sys.executable).with_name("spirvkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "spirvkit"]


def plan(work: Path, bytecode: str, src: Path) -> tuple[list[dict], dict]:
    """The rows: a spirvkit command and its peer (or None), on inputs copied into ``work``."""
    for name in ("vadd.cl", "vadd.spv"):
        shutil.copy(KERNELS / name, work / name)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["SPIRVKIT_CACHE_DIR"] = str(work / "spirvkit-cache")
    env.pop("SPIRVKIT_CACHE", None)
    if bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    spirv_as, spirv_dis, spirv_val = (spirv_tool(n) for n in ("spirv-as", "spirv-dis", "spirv-val"))
    if spirv_dis is None:
        sys.exit("bench_cli: spirv-dis not found (install the test extras: pip install -e '.[test]')")
    subprocess.run([spirv_dis, "--no-color", "vadd.spv", "-o", "vadd.spvasm"], cwd=work, check=True)
    clang = shutil.which("clang-15")
    sk = spirvkit_command()
    py = [sys.executable]
    rows = [
        {"command": "--version", "spirvkit": sk + ["--version"], "peer": [spirv_dis, "--version"],
         "peer_name": "spirv-dis --version"},
        {"command": "as", "spirvkit": sk + ["as", "--target-env", "spv1.2", "vadd.spvasm", "-o", "sk.spv"],
         "peer": [spirv_as, "--target-env", "spv1.2", "vadd.spvasm", "-o", "peer.spv"], "peer_name": "spirv-as"},
        {"command": "dis", "spirvkit": sk + ["dis", "vadd.spv", "-o", "sk.spvasm"],
         "peer": [spirv_dis, "--no-color", "vadd.spv", "-o", "peer.spvasm"], "peer_name": "spirv-dis"},
        {"command": "info", "spirvkit": sk + ["info", "vadd.spv"], "peer": None, "peer_name": "-"},
        {"command": "val", "spirvkit": sk + ["val", "--target-env", "opencl2.2", "vadd.spv"],
         "peer": [spirv_val, "--target-env", "opencl2.2", "vadd.spv"], "peer_name": "spirv-val"},
        {"command": "cc", "spirvkit": sk + ["cc", "vadd.cl", "-o", "sk_cc.spv"],
         "peer": [clang, "-cl-std=CL2.0", "-target", "spir64", "-emit-llvm", "-c", "vadd.cl", "-o", "peer.bc"]
         if clang else None, "peer_name": "clang-15 -emit-llvm -c" if clang else "- (no clang-15)"},
        {"command": "import spirvkit", "spirvkit": py + ["-c", "import spirvkit"], "peer": py + ["-c", "pass"],
         "peer_name": "python -c pass"},
        {"command": "import spirvkit + API", "spirvkit": py + ["-c", "import spirvkit; spirvkit.Program; "
                                                              "spirvkit.compile_cl"],
         "peer": py + ["-c", "import numpy, llvmlite.binding"], "peer_name": "import numpy, llvmlite.binding"},
    ]
    return rows, env


def run_benchmark(args) -> int:
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as tmp:
        work = Path(tmp)
        rows, env = plan(work, args.bytecode, args.src.resolve())
        os.chdir(work)
        for row in rows:  # warm-up: bytecode and grammar caches, the OS's file cache
            for _ in range(2):
                time_process(row["spirvkit"], env)
                if row["peer"]:
                    time_process(row["peer"], env)
        for row in rows:
            row["spirvkit_runs"], row["peer_runs"] = [], []
        load_start = os.getloadavg()
        for r in range(args.repeat):
            for row in rows:
                pair = [("spirvkit_runs", row["spirvkit"])] + ([("peer_runs", row["peer"])] if row["peer"] else [])
                for key, cmd in (pair if r % 2 == 0 else pair[::-1]):
                    row[key].append(time_process(cmd, env))
        os.chdir(ROOT)
    results = []
    for row in rows:
        sk = statistics.median(row["spirvkit_runs"])
        peer = statistics.median(row["peer_runs"]) if row["peer_runs"] else None
        aim = AIMS_MS.get(row["command"])
        results.append({
            "command": row["command"], "spirvkit_cmd": row["spirvkit"], "peer": row["peer_name"],
            "peer_cmd": row["peer"], "spirvkit_median_s": sk, "spirvkit_min_s": min(row["spirvkit_runs"]),
            "peer_median_s": peer, "ratio": sk / peer if peer else None, "aim_ms": aim,
            "aim_met": (sk * 1e3 <= aim) if aim else None,
            "spirvkit_runs_s": row["spirvkit_runs"], "peer_runs_s": row["peer_runs"],
        })
    machine = machine_info()
    machine["loadavg_at_timing_start"] = list(load_start)
    machine["loadavg_at_end"] = list(os.getloadavg())
    report = {
        "benchmark": "bench_cli", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "repeat": args.repeat, "bytecode": args.bytecode, "spirvkit_command": spirvkit_command(),
        "src": str(args.src),
        "git_commit": git_commit(), "machine": machine, "rows": results,
    }
    text = render(report)
    print(text)
    if not args.no_write:
        args.results.mkdir(parents=True, exist_ok=True)
        suffix = "" if args.bytecode == "cached" else "-no-bytecode"
        (args.results / f"cli{suffix}.json").write_text(json.dumps(report, indent=1) + "\n")
        (args.results / f"cli{suffix}.md").write_text(text)
    return 0


def render(report: dict) -> str:
    m = report["machine"]
    lines = [
        "# Command start-up: spirvkit against SPIRV-Tools and clang-15, whole processes",
        "",
        f"{report['date']} · median of {report['repeat']} runs, alternated with the peer · bytecode "
        f"{report['bytecode']} · {m['cpu']}, nproc {m['nproc']} · Python {m['python']} · load average "
        f"{m['loadavg_at_timing_start'][0]:.2f} at start, {m['loadavg_at_end'][0]:.2f} at end · "
        f"commit {(report['git_commit'] or '?')[:10]}",
        "",
        "| command | spirvkit | min | peer | peer median | ratio | aim | met |",
        "|---|---:|---:|---|---:|---:|---:|:---:|",
    ]
    for r in report["rows"]:
        peer = f"{r['peer_median_s'] * 1e3:.1f} ms" if r["peer_median_s"] is not None else "-"
        ratio = f"{r['ratio']:.1f}x" if r["ratio"] else "-"
        aim = f"{r['aim_ms']} ms" if r["aim_ms"] else "-"
        met = "-" if r["aim_met"] is None else ("yes" if r["aim_met"] else "no")
        lines.append(f"| `{r['command']}` | {r['spirvkit_median_s'] * 1e3:.1f} ms | {r['spirvkit_min_s'] * 1e3:.1f} ms"
                     f" | {r['peer']} | {peer} | {ratio} | {aim} | {met} |")
    lines += ["", "Inputs: benchmarks/kernels/vadd.cl, vadd.spv and its spirv-dis text. spirvkit: "
              f"`{' '.join(Path(c).name for c in report['spirvkit_command'])}`; `import spirvkit + API` also "
              "touches Program and compile_cl (numpy, llvmlite and the JIT load then).", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=21, help="timed runs per command (default 21)")
    ap.add_argument("--bytecode", choices=("cached", "none"), default="cached",
                    help="cached (default: .pyc in a private PYTHONPYCACHEPREFIX) or none (PYTHONDONTWRITEBYTECODE=1)")
    ap.add_argument("--src", type=Path, default=ROOT / "src",
                    help="the spirvkit source tree to time (default this checkout's src/; e.g. an older "
                    "commit's, from git archive, for a before/after)")
    ap.add_argument("--results", type=Path, default=RESULTS)
    ap.add_argument("--no-write", action="store_true", help="print only")
    return run_benchmark(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
