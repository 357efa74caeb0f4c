"""The machinery behind PoCL's recorded results: the child process that isolates the live peer,
the records and their keys, the record command's report, and the suite's behaviour with
``SPIRVKIT_PEERS=none``. None of these need PoCL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pocl
import pytest
from peers import records
from peers.pocl_client import PeerFailure, PoclClient
from peers.record import merge, pocl_test_files

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- isolation


def test_a_crash_of_the_peer_fails_one_request_and_the_next_gets_a_fresh_process():
    client = PoclClient()
    try:
        with pytest.raises(PeerFailure, match="crash: PoCL died of SIGSEGV"):
            client.request({"op": "selftest", "what": "crash"}, timeout=30)
        answer = client.request({"op": "selftest", "what": "nothing"}, timeout=30)
        assert answer == {"ok": False, "error": "unknown selftest 'nothing'"}
    finally:
        client.close()


def test_a_hang_of_the_peer_is_cut_at_the_time_limit():
    client = PoclClient()
    start = time.monotonic()
    try:
        with pytest.raises(PeerFailure, match="hang: no answer from PoCL within 1 s"):
            client.request({"op": "selftest", "what": "hang"}, timeout=1)
    finally:
        client.close()
    assert time.monotonic() - start < 20


# --------------------------------------------------------------------------- records


def test_every_record_file_names_its_peer_and_command():
    groups = records.all_groups()
    assert "kernel_corpus" in groups
    for name, data in groups.items():
        assert data["command"] == records.COMMAND, name
        assert {"platform", "device", "driver", "non_uniform_work_groups"} <= set(data["peer"]), name
        assert data["launches"], name
        for entry in data["launches"].values():
            assert entry["peer"].startswith("PoCL ") and entry["test"] and entry["kernel"], (name, entry)


def test_records_are_compact():
    total = sum(path.stat().st_size for path in records.RECORDS.glob("*.json"))
    assert total < 20_000_000, f"{total} bytes of records"


def _launch(data: np.ndarray, options: str = "") -> records.Launch:
    return pocl.make_launch("kernel void k(global int *o) {}", "k", 4, None, [data, np.int32(3)], options=options)


def test_the_key_covers_source_options_and_every_input_byte():
    data = np.arange(4, dtype=np.int32)
    key = _launch(data).key()
    assert _launch(data.copy()).key() == key
    changed = data.copy()
    changed[3] = 4
    assert _launch(changed).key() != key
    assert _launch(data, "-cl-std=CL2.0").key() != key
    assert _launch(data.view(np.float32)).key() != key  # the dtype too


def test_struct_padding_is_kept_so_keys_are_deterministic():
    dtype = np.dtype({"names": ["a", "b"], "formats": ["i1", "i4"], "offsets": [0, 4], "itemsize": 8})
    data = np.full(32, 0xA5, np.uint8).view(dtype)
    launch = pocl.make_launch("kernel void k(global int *o) {}", "k", 4, None, [data])
    assert launch.args[0][1].tobytes() == data.tobytes()  # numpy's copy() would not keep padding


def test_outputs_round_trip_bit_for_bit():
    data = np.array([1.0, np.nan, -0.0, 3.0], np.float32)
    launch = pocl.make_launch("kernel void k(global float *o) {}", "k", 4, None, [data.copy(), data.copy()])
    after = np.array([0x7FC00001, 0x80000000, 1, 0xFFFFFFFF], np.uint32).view(np.float32)
    entry = records.encode_outputs(launch, {0: after, 1: data.copy()}, None)
    assert entry["outputs"]["1"] == "same"
    decoded, printed = records.decode_outputs(launch, json.loads(json.dumps(entry)))
    assert decoded[0].tobytes() == after.tobytes() and decoded[1].tobytes() == data.tobytes()
    assert printed is None


def _group(launches: dict) -> dict:
    return {"format": records.FORMAT, "peer": {"driver": "old"}, "launches": launches}


def test_the_record_report_says_what_changed_and_how():
    data = np.arange(4, dtype=np.int32)
    launch = _launch(data)
    old = {"test": "t::test_pocl_x", "kernel": "k", "peer": "PoCL old",
           **records.encode_outputs(launch, {0: data + 1}, "a\nb\n")}
    new = {**old, **records.encode_outputs(launch, {0: data * 5}, "b\na\n"), "peer": "PoCL new"}
    stale = {"test": "t::test_pocl_gone", "kernel": "k", "peer": "PoCL old", "outputs": {}}
    journal = [{"key": "K1", "group": "g", "facts": {"driver": "new"}, "entry": new}]
    groups, report = merge(journal, {"g": _group({"K1": old, "K2": stale})}, full=True)
    text = "\n".join(report)
    assert report[0].startswith("1 launches recorded: 0 unchanged, 1 changed, 0 new, 0 that PoCL could not do; 1 removed")
    assert "argument 0: 4 of 4 int32 elements differ: [0] 1 -> 0, [1] 2 -> 5" in text
    assert "printed text differs" not in text  # the same lines in another order
    assert "t::test_pocl_gone" in text
    assert set(groups["g"][1]) == {"K1"} and groups["g"][0] == {"driver": "new"}
    # A partial run (--only) keeps what it did not run.
    groups, _ = merge(journal, {"g": _group({"K1": old, "K2": stale})}, full=False)
    assert set(groups["g"][1]) == {"K1", "K2"}


def test_pocl_a_launch_without_a_record_fails_naming_the_record_command():
    data = np.arange(4, dtype=np.int32)
    with pytest.raises(pytest.fail.Exception, match=r"no recorded PoCL result .* python -m tests\.peers\.record"):
        pocl.run("kernel void never_recorded(global int *o) {}", "never_recorded", 4, None, [data])


def test_a_test_using_the_records_must_say_so_in_its_name():
    with pytest.raises(pytest.fail.Exception, match="its name must contain 'pocl'"):
        pocl.run("kernel void k(global int *o) {}", "k", 4, None, [np.zeros(4, np.int32)])


def test_the_record_command_finds_the_tests_that_use_pocl():
    found = pocl_test_files()
    assert "tests/jit/test_kernel_corpus.py" in found and "tests/clc/test_compile_corpus.py" in found
    assert not any(path.startswith("tests/peers/") for path in found)


# --------------------------------------------------------------------------- no peer


def test_with_no_peer_the_live_tests_skip_and_the_suite_stays_green():
    """As on a machine where no PoCL can build: SPIRVKIT_PEERS=none, under CI. The rest of the
    suite reads only records (and the session fixture in conftest.py fails any run that loads
    an OpenCL driver into the pytest process), so it is the same with or without a PoCL."""
    env = {**os.environ, "SPIRVKIT_PEERS": "none", "CI": "true"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/peers/test_live_pocl.py",
         "tests/jit/test_kernel_corpus.py", "-k", "live or (pocl_reference and vec4)"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "SPIRVKIT_PEERS=none: the live PoCL is switched off" in result.stdout
    assert " passed" in result.stdout.splitlines()[-1] and " skipped" in result.stdout.splitlines()[-1]


def test_an_unknown_peer_mode_is_refused():
    env = {**os.environ, "SPIRVKIT_PEERS": "sometimes"}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--co",
                             "tests/peers/test_pocl_records.py"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode != 0
    assert "SPIRVKIT_PEERS=sometimes" in result.stdout + result.stderr
