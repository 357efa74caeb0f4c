"""The fuzz driver: inputs from a target's mutator, run in child processes, classified, shrunk.

A target module provides:

- ``TIMEOUT``: seconds one input may take in the child before it counts as a hang;
- ``corpus() -> list``: the seed inputs (read in the parent);
- ``mutate(rng, corpus) -> input | None``: one mutant (None: try again);
- ``execute(input) -> tuple[str, str]``: run in the child; returns (outcome, detail), outcome
  'ok', 'error' (a clean spirvkit error), or a finding class; exceptions that escape are
  classified by the child loop;
- ``split(input) -> list`` and ``join(parts) -> input``: the units the shrinker deletes;
- ``SUFFIX``: the reproducer's file extension.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

TARGETS = ("binary", "asm", "clc", "exec", "grammar", "programs")
FINDINGS = ("traceback", "crash", "hang", "invalid-output", "guard", "mismatch")


def load_target(name: str):
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r}; one of {', '.join(TARGETS)}")
    # Relative to this package: it is ``tests.fuzz`` under ``python -m``, ``fuzz`` under pytest.
    return importlib.import_module(f".{'exec_kernels' if name == 'exec' else name}", __package__)


# -- the child ---------------------------------------------------------------------------------------

def classify_exception(exc: BaseException) -> tuple[str, str]:
    """A clean spirvkit error, or a traceback finding (its signature: type and innermost frame
    of spirvkit's code, so that shrinking keeps the same bug)."""
    from spirvkit.errors import SpirvkitError

    text = str(exc)
    if isinstance(exc, SpirvkitError) and "internal compiler error" not in text:
        return "error", f"{type(exc).__name__}: {text[:200]}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "spirvkit" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].name}" if frames else "?"
    kind = type(exc).__name__
    if isinstance(exc, SpirvkitError):   # an internal compiler error: the wrapped exception names it
        kind = text.split("internal compiler error (", 1)[-1].split(":", 1)[0]
    detail = "".join(traceback.format_exception(exc)[-6:])
    return "traceback", f"{kind} at {where}\n{detail}"


def signature(outcome: str, detail: str) -> str:
    """What makes two findings the same bug."""
    if outcome == "traceback":
        return f"traceback: {detail.splitlines()[0]}"
    if outcome in ("invalid-output", "guard"):
        return f"{outcome}: {detail.splitlines()[0][:120]}"
    return outcome


def _child(target_name: str, conn) -> None:
    os.environ.setdefault("SPIRVKIT_CACHE", "0")        # no kernel cache on disk for mutants
    os.environ.setdefault("SPIRVKIT_THREADS", "1")
    target = load_target(target_name)
    while True:
        try:
            data = conn.recv()
        except EOFError:
            return
        try:
            result = target.execute(data)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:   # noqa: BLE001 - every escape is a result to report
            result = classify_exception(exc)
        conn.send(result)


class Worker:
    """One child process; restarted after a crash or a hang."""

    def __init__(self, target_name: str):
        self.target_name = target_name
        self.proc = None
        self.conn = None
        self.started = 0.0
        self.data = None
        self.start()

    def start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_child, args=(self.target_name, child), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent

    def submit(self, data) -> None:
        self.data = data
        self.started = time.monotonic()
        self.conn.send(data)

    def stop(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()
        if self.proc is not None:
            self.proc.join()
        self.conn.close()

    def collect(self, timeout: float) -> tuple[str, str] | None:
        """The result if it is there, a crash or hang finding (and a fresh child), else None."""
        try:
            if self.conn.poll(0):
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        if not self.proc.is_alive() or (self.conn.closed is False and self._dead()):
            code = self.proc.exitcode
            self.stop()
            self.start()
            name = signal.Signals(-code).name if code is not None and code < 0 else f"exit {code}"
            return "crash", name
        if time.monotonic() - self.started > timeout:
            self.stop()
            self.start()
            return "hang", f"no answer after {timeout} s"
        return None

    def _dead(self) -> bool:
        self.proc.join(0)
        return self.proc.exitcode is not None


def run_one(worker: Worker, data, timeout: float) -> tuple[str, str]:
    worker.submit(data)
    while True:
        wait([worker.conn, worker.proc.sentinel], timeout=0.05)
        result = worker.collect(timeout)
        if result is not None:
            return result


# -- shrinking -------------------------------------------------------------------------------------

def shrink(worker: Worker, target, data, sig: str, budget_s: float) -> object:
    """Delete chunks of the input's units (halves, quarters ... single units) while the same
    finding persists, until no deletion keeps it or the time budget is spent."""
    parts = target.split(data)
    deadline = time.monotonic() + budget_s
    timeout = target.TIMEOUT
    chunk = max(1, len(parts) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i, removed = 0, False
        while i < len(parts) and time.monotonic() < deadline:
            candidate = parts[:i] + parts[i + chunk:]
            if candidate:
                outcome, detail = run_one(worker, target.join(candidate), timeout)
                if outcome != "ok" and outcome != "error" and signature(outcome, detail) == sig:
                    parts, removed = candidate, True
                    continue
            i += chunk
        if not removed:
            chunk //= 2
    return target.join(parts)


# -- the campaign ----------------------------------------------------------------------------------

@dataclass
class Report:
    target: str
    seconds: float = 0.0
    inputs: int = 0
    outcomes: dict = field(default_factory=dict)
    findings: dict = field(default_factory=dict)   # signature -> (path of the reproducer, count)

    def summary(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        return (f"{self.target}: {self.inputs} inputs in {self.seconds:.0f} s ({counts}); "
                f"{len(self.findings)} distinct finding(s)")


def fuzz(target_name: str, seconds: float, seed: int, out: str | None = None, workers: int = 1,
         shrink_seconds: float = 60.0, log=print) -> Report:
    target = load_target(target_name)
    rng = random.Random(seed)
    corpus = target.corpus()
    out_dir = Path(out or tempfile.mkdtemp(prefix=f"spirvkit-fuzz-{target_name}-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    report = Report(target_name)
    pool = [Worker(target_name) for _ in range(max(1, workers))]
    busy: dict[Worker, object] = {}
    start = time.monotonic()
    deadline = start + seconds
    try:
        while time.monotonic() < deadline or busy:
            for w in pool:
                if w not in busy and time.monotonic() < deadline:
                    data = None
                    while data is None:
                        data = target.mutate(rng, corpus)
                    w.submit(data)
                    busy[w] = data
            wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=0.05)
            for w in list(busy):
                result = w.collect(target.TIMEOUT)
                if result is None:
                    continue
                data = busy.pop(w)
                outcome, detail = result
                report.inputs += 1
                report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
                if outcome in FINDINGS:
                    _record(report, target, w, data, outcome, detail, out_dir, shrink_seconds, log)
    finally:
        for w in pool:
            w.stop()
    report.seconds = time.monotonic() - start
    log(report.summary())
    return report


def _record(report, target, worker, data, outcome, detail, out_dir: Path, shrink_seconds, log) -> None:
    sig = signature(outcome, detail)
    if sig in report.findings:
        path, count = report.findings[sig]
        report.findings[sig] = (path, count + 1)
        return
    small = shrink(worker, target, data, sig, shrink_seconds if outcome != "hang" else min(shrink_seconds, 30))
    path = out_dir / f"{outcome}-{len(report.findings):03d}{target.SUFFIX}"
    path.write_bytes(small if isinstance(small, bytes) else small.encode("utf-8", "surrogateescape"))
    report.findings[sig] = (str(path), 1)
    log(f"FINDING {sig}\n  reproducer: {path}\n  " + detail.replace("\n", "\n  "))
    sys.stdout.flush()
