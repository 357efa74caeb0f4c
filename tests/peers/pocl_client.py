"""The parent side of the PoCL child process (tests/peers/pocl_worker.py): sends requests,
waits with a time limit, and turns a crash or a hang of the child into a ``PeerFailure`` for
that one request; the next request starts a fresh child.

    client = PoclClient()
    facts = client.probe()          # the device's facts, or PeerUnavailable saying why
    answer = client.run(launch)     # {"buffers": {index: array}, "stdout": str | None}
    client.close()
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from peers.pocl_worker import read_frame, write_frame

WORKER = Path(__file__).with_name("pocl_worker.py")
PROBE_TIMEOUT_S = 180.0   # the first build of a PoCL kernel library takes a while
RUN_TIMEOUT_S = 120.0


class PeerFailure(Exception):
    """The peer could not give an answer for one request: a build error, a crash, a hang."""


class PeerUnavailable(PeerFailure):
    """No working PoCL on this machine (not installed, cannot build for this CPU, crashed)."""


def cpu_name() -> str:
    """The CPU as /proc/cpuinfo names it, with its family (PoCL's LLVM picks targets by it)."""
    model = family = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and not model:
                model = value.strip()
            elif key.strip() == "cpu family" and not family:
                family = value.strip()
    except OSError:
        pass
    return f"{model or 'unknown CPU'}" + (f", family {family}" if family else "")


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


class PoclClient:
    def __init__(self, *, run_timeout: float = RUN_TIMEOUT_S, env: dict | None = None):
        self.run_timeout = run_timeout
        self.env = env
        self.process: subprocess.Popen | None = None
        self.facts: dict | None = None

    def _start(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, env=self.env, start_new_session=True)
        return self.process

    def _kill(self) -> None:
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            self.process = None

    def request(self, message: dict, timeout: float) -> dict:
        """One request to the child: its answer, or PeerFailure if it died or timed out."""
        process = self._start()
        try:
            write_frame(process.stdin, message)
        except (BrokenPipeError, OSError):
            self._kill()
            raise PeerFailure("the PoCL process died before the request reached it") from None
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        answer = read_frame(process.stdout) if ready else None
        if answer is not None:
            return answer
        if not ready:
            self._kill()
            raise PeerFailure(f"hang: no answer from PoCL within {timeout:.0f} s")
        returncode = process.wait()
        self.process = None
        self.facts = None  # a fresh child has to find its device again
        raise PeerFailure(f"crash: PoCL died of {_signal_name(returncode)}" if returncode < 0
                          else f"crash: the PoCL process exited with status {returncode}")

    def probe(self) -> dict:
        """The facts of the PoCL device that builds and runs the smoke kernel; PeerUnavailable
        (with the reason for each platform tried and this CPU) where there is none."""
        if self.facts is None:
            try:
                answer = self.request({"op": "probe"}, PROBE_TIMEOUT_S)
            except PeerFailure as failure:
                raise PeerUnavailable(f"PoCL failed its smoke kernel on {cpu_name()}: {failure}") from None
            if not answer["ok"]:
                raise PeerUnavailable(f"no working PoCL on {cpu_name()}: " + "; ".join(answer["failures"]))
            self.facts = {**answer["facts"], "cpu": cpu_name()}
        return self.facts

    def run(self, launch: dict) -> dict:
        self.probe()
        answer = self.request({"op": "run", "launch": launch}, self.run_timeout)
        if not answer["ok"]:
            raise PeerFailure(answer["error"])
        return answer

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._kill()
        self.process = None
