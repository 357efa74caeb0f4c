"""The live PoCL, so that a change of the peer is noticed: a sample of the kernel corpus runs on
PoCL now (in a child process) and is compared with spirvkit, and, where the live PoCL is the
one that made the records, with the records too.

These tests run only where a PoCL CPU device builds and runs a smoke kernel; elsewhere they
skip with the reason (the CPU, the build error, the crash) — also under CI, since that is a
property of the machine, not a missing install. ``SPIRVKIT_PEERS=none`` skips them as a
machine without a working PoCL would.
"""

from __future__ import annotations

import pocl
import pytest
from jit.kernel_cases import make_values
from jit.test_kernel_corpus import _unique_reference_cases, compare_case, pocl_launch, spirvkit_outputs
from peers import records
from peers.pocl_client import PeerFailure, PeerUnavailable, PoclClient

SAMPLE = ("vec4:vec4_float", "int_divrem:int_div", "conv_float_to_int:conv_float_to_int_sat",
          "cf_data_dependent:cf_collatz", "reduce_local:reduce_sum_tree", "atomic_histogram:hist_local",
          "struct_array:struct_aos", "math_transcendental:math_trig", "workitem_nd:workitem_2d-offset",
          "printf_basic:printf_scalars", "global_vars:global_vars")
CASES = {case.ref_key: case for case in _unique_reference_cases()}


@pytest.fixture(scope="module")
def live():
    """A client of a working live PoCL; skips (also under CI) where there is none."""
    if pocl.MODE == "none":
        pytest.skip("SPIRVKIT_PEERS=none: the live PoCL is switched off (as on a machine where it cannot build)")
    client = PoclClient()
    try:
        client.probe()
    except PeerUnavailable as why:
        client.close()
        pytest.skip(str(why))
    yield client
    client.close()


def _run_live(client: PoclClient, launch) -> list:
    """The live PoCL's results for a launch, as pocl.run gives the recorded ones."""
    try:
        answer = client.run(launch.wire())
    except PeerFailure as failure:
        pytest.skip(f"the live PoCL ({pocl.peer_label(client.facts or {})}) could not run it: {failure}")
    return pocl.results(launch, records.encode_outputs(launch, answer["buffers"], answer["stdout"]))


def test_live_sample_is_in_the_corpus():
    assert set(SAMPLE) <= set(CASES), sorted(set(SAMPLE) - set(CASES))


@pytest.mark.parametrize("ref_key", SAMPLE)
def test_live_pocl_agrees_with_spirvkit_and_the_records(live, ref_key):
    case = CASES[ref_key]
    values = make_values(case)
    launch = pocl_launch(case, values)
    live_ref = _run_live(live, launch)
    if case.pocl_fixup is not None:
        live_ref = case.pocl_fixup(values, live_ref)
    problems = compare_case(case, spirvkit_outputs(case), live_ref, " (live PoCL)")
    recorded = records.index().get(launch.key())
    if recorded is not None and recorded.get("peer") == pocl.peer_label(live.facts):
        # The peer that made the records must still give them (a peer or driver update shows here).
        rec_ref = pocl.results(launch, recorded)
        if case.pocl_fixup is not None:
            rec_ref = case.pocl_fixup(values, rec_ref)
        problems += compare_case(case, live_ref, rec_ref, " (live PoCL against its record)")
    assert not problems, "\n".join(problems)
