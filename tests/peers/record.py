"""Re-record PoCL's results (tests/peers/records/*.json) from a working PoCL.

    python -m tests.peers.record [--only PATTERN] [--platform VERSION] [--timeout SECONDS]

It finds a PoCL whose CPU device builds and runs a smoke kernel (in a child process; with
``--platform``, only one whose version string contains VERSION, e.g. ``3.1+debian``), then
runs the tests that use PoCL's results (those whose name contains "pocl", in the test files
that mention it; ``--only`` narrows them with a pytest ``-k`` expression) with
``SPIRVKIT_PEERS=record``: each launch goes to PoCL in a child process, where a build error, a
crash or a hang is recorded for that launch alone and the run goes on. At the end it rewrites
the record files and prints what changed: new launches, launches whose results differ (which
buffer, how many elements), launches PoCL could not do, and, on a full run, launches no test
asks for any more (removed).

The tests' own verdicts (spirvkit against the new records) are printed by pytest as it runs.
Exit status: 0 when the records were written, 1 when pytest could not run the tests (the
records are left as they were), 2 when no PoCL works here.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from peers import records  # noqa: E402
from peers.pocl_client import PeerUnavailable, PoclClient  # noqa: E402


def pocl_test_files() -> list[str]:
    """The test files that use PoCL's results (tests/peers' own tests do not)."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if path.parent.name == "peers":
            continue
        if "pocl" in path.read_text(encoding="utf-8"):
            found.append(str(path.relative_to(ROOT)))
    return found


def _show(value) -> str:
    return str(value.item()) if isinstance(value, np.generic) and value.dtype.names is None else repr(value)


def describe_change(old: dict, new: dict) -> list[str]:
    """How a launch's recorded result changed, buffer by buffer."""
    if "failed" in old or "failed" in new:
        return [f"was {old.get('failed', 'a result')!r}, now {new.get('failed', 'a result')!r}"]
    lines = []
    for index in sorted(set(old["outputs"]) | set(new["outputs"]), key=int):
        before, after = old["outputs"].get(index), new["outputs"].get(index)
        if before == after:
            continue
        dtype = np.dtype(new.get("dtypes", {}).get(index) or old.get("dtypes", {}).get(index) or "u1")
        a, b = records.output_bytes(old, index), records.output_bytes(new, index)
        if a is None or b is None or len(a) != len(b) or len(a) % dtype.itemsize:
            lines.append(f"argument {index}: {'unchanged by the launch' if a is None else 'written'} before, "
                         f"{'unchanged by the launch' if b is None else 'written'} now")
            continue
        x, y = np.frombuffer(a, dtype), np.frombuffer(b, dtype)
        differ = np.flatnonzero(x.view(f"V{dtype.itemsize}") != y.view(f"V{dtype.itemsize}"))
        shown = ", ".join(f"[{i}] {_show(x[i])} -> {_show(y[i])}" for i in differ[:4])
        lines.append(f"argument {index}: {len(differ)} of {x.size} {dtype} elements differ: {shown}")
    if _printed_lines(old) != _printed_lines(new):
        lines.append("printed text differs")
    return lines or ["only the labels differ"]


def _printed_lines(entry: dict) -> list[str] | None:
    text = entry.get("stdout")
    return None if text is None else sorted(text.splitlines())


def _same_result(old: dict, new: dict) -> bool:
    """The same buffers and the same printed lines: PoCL prints from its threads in any order,
    so a text that differs only in line order keeps the old record (no churn)."""
    return (all(old.get(k) == new.get(k) for k in ("outputs", "failed"))
            and _printed_lines(old) == _printed_lines(new))


def merge(journal: list[dict], old_groups: dict[str, dict], full: bool) -> tuple[dict, list[str]]:
    """The new record files ({group: (peer, launches)}) and the report lines."""
    old_place = {key: group for group, data in old_groups.items() for key in data["launches"]}
    fresh: dict[str, dict] = {}
    facts: dict[str, dict] = {}
    old_entry = {key: entry for data in old_groups.values() for key, entry in data["launches"].items()}
    for item in journal:
        group = old_place.get(item["key"], item["group"])
        entry = item["entry"]
        if "stdout" in entry and item["key"] in old_entry and _same_result(old_entry[item["key"]], entry):
            entry = {**entry, "stdout": old_entry[item["key"]]["stdout"]}  # keep the old line order
        fresh.setdefault(group, {})[item["key"]] = entry
        facts[group] = item["facts"]
    groups = {}
    for group in sorted(set(fresh) | (set() if full else set(old_groups))):
        launches = {} if full else dict(old_groups.get(group, {}).get("launches", {}))
        launches.update(fresh.get(group, {}))
        peer = facts.get(group) or old_groups[group]["peer"]
        groups[group] = (peer, launches)

    report, new, changed, failed = [], [], [], []
    recorded = {key for _, launches in groups.values() for key in launches}
    for group, launches in fresh.items():
        for key, entry in launches.items():
            label = f"{group}: {entry['test']} kernel {entry['kernel']}"
            if "failed" in entry:
                failed.append(f"  {label}: {entry['failed']}")
            if key not in old_entry:
                new.append(f"  {label}")
            elif not _same_result(old_entry[key], entry):
                changed.append(f"  {label}:\n" + "\n".join(f"    {line}" for line in describe_change(old_entry[key], entry)))
    removed = [f"  {old_place[key]}: {entry['test']} kernel {entry['kernel']}"
               for key, entry in old_entry.items() if key not in recorded]
    unchanged = sum(1 for launches in fresh.values() for key in launches if key in old_entry) - len(changed)
    report.append(f"{sum(len(v) for v in fresh.values())} launches recorded: {unchanged} unchanged, "
                  f"{len(changed)} changed, {len(new)} new, {len(failed)} that PoCL could not do; "
                  f"{len(removed)} removed")
    for title, lines in (("changed", changed), ("new", new), ("PoCL could not do", failed), ("removed", removed)):
        if lines:
            report.append(f"{title}:")
            report.extend(sorted(lines)[:200])
            if len(lines) > 200:
                report.append(f"  ... and {len(lines) - 200} more")
    return groups, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.peers.record", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", metavar="PATTERN", help="a pytest -k expression: record only these tests")
    parser.add_argument("--platform", metavar="VERSION",
                        help="use the PoCL platform whose version string contains VERSION (e.g. 3.1+debian)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per launch before it counts as a hang")
    parser.add_argument("--dry-run", action="store_true", help="report what changed without writing the records")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    if args.platform:
        env["SPIRVKIT_POCL_PLATFORM"] = args.platform
    client = PoclClient(env=env)
    try:
        facts = client.probe()
    except PeerUnavailable as why:
        print(f"record: {why}", file=sys.stderr)
        return 2
    finally:
        client.close()
    print(f"record: {facts['platform']} / {facts['device']} (driver {facts['driver']})")

    old_groups = {path.stem: records.read_group(path) for path in sorted(records.RECORDS.glob("*.json"))}
    with tempfile.TemporaryDirectory() as tmp:
        journal_path = Path(tmp) / "journal.jsonl"
        env.update(SPIRVKIT_PEERS="record", SPIRVKIT_RECORD_JOURNAL=str(journal_path),
                   SPIRVKIT_POCL_TIMEOUT=str(args.timeout))
        selection = "pocl" if not args.only else f"pocl and ({args.only})"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", selection, *pocl_test_files()]
        print("record: " + " ".join(command[1:]), flush=True)
        tests = subprocess.run(command, cwd=ROOT, env=env)
        if tests.returncode not in (0, 1):  # 0: all passed, 1: some failed; else pytest did not run them
            print(f"record: pytest stopped with status {tests.returncode}; the records are unchanged", file=sys.stderr)
            return 1
        journal = ([json.loads(line) for line in journal_path.read_text(encoding="utf-8").splitlines()]
                   if journal_path.exists() else [])
    groups, report = merge(journal, old_groups, full=not args.only)
    print("\n".join(f"record: {line}" if i == 0 else line for i, line in enumerate(report)))
    if args.dry_run:
        return 0
    for group, (peer, launches) in groups.items():
        records.write_group(group, peer, launches)
    if not args.only:
        for stale in set(old_groups) - set(groups):
            records.group_path(stale).unlink()
    total = sum(p.stat().st_size for p in records.RECORDS.glob("*.json"))
    print(f"record: wrote {len(groups)} files under {records.RECORDS.relative_to(ROOT)} ({total / 1e6:.2f} MB in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
