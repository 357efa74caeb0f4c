"""What whole pyopencl programs print on pyopencl + PoCL, recorded like the kernel launches of
tests/pocl.py: the record command runs each program in the PoCL child process (its
``import spirvkit.cl as cl`` line made ``import pyopencl as cl``) and stores its printed text,
keyed by the program's text; the tests run it on spirvkit.cl and compare.

    text = programs.printed_by_pocl(Path("tests/cl/programs/vector_add.py"))
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pocl
import pytest
from peers import records
from peers.pocl_client import PeerFailure

SPIRVKIT_IMPORT = "import spirvkit.cl as cl"


def printed_by_pocl(path: Path, group: str | None = None) -> str:
    source = path.read_text(encoding="utf-8")
    if SPIRVKIT_IMPORT not in source:
        raise ValueError(f"{path}: a program here imports spirvkit.cl with '{SPIRVKIT_IMPORT}'")
    key = records.program_key(source)
    test = pocl.current_test()
    if test and "pocl" not in test.split("::")[-1].lower():
        pytest.fail(f"{test} uses PoCL's results, so its name must contain 'pocl'")
    if pocl.MODE == "record":
        entry = _record(path.name, source, key, group or pocl.default_group())
    else:
        entry = records.index().get(key)
        if entry is None:
            pytest.fail(f"no recorded PoCL output for {path.name} (key {key}): the program changed since "
                        f"recording; re-record: {records.COMMAND} --only '{test.split('::')[-1]}'")
    if "failed" in entry:
        pytest.fail(f"{path.name} failed on PoCL when it was recorded ({entry['peer']}): {entry['failed']}")
    return entry["stdout"]


def _record(name: str, source: str, key: str, group: str) -> dict:
    client = pocl._client()
    facts = client.probe()
    try:
        answer = client.request({"op": "program", "source": source.replace(SPIRVKIT_IMPORT, "import pyopencl as cl")},
                                client.run_timeout)
        entry = {"outputs": {}, "stdout": answer["stdout"]} if answer["ok"] else {"failed": answer["error"]}
    except PeerFailure as failure:
        entry = {"failed": str(failure)}
    entry = {"test": pocl.current_test(), "kernel": f"program {name}", "peer": pocl.peer_label(facts), **entry}
    journal = os.environ.get("SPIRVKIT_RECORD_JOURNAL")
    if journal:
        with open(journal, "a", encoding="utf-8") as out:
            out.write(json.dumps({"key": key, "group": group, "facts": client.facts or facts, "entry": entry}) + "\n")
    return entry
