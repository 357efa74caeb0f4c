"""A chosen sub-group size (issue 20): ``Kernel.__call__(..., sub_group_size=n)`` and
``Program(..., sub_group_size=n)``, with kernels compiled by ``spirvkit cc`` from the
cl_khr_subgroups built-ins (the kernels of test_lang_subgroups.py).

The model: a work-group's work-items, in local linear id order, form sub-groups of n (the last
one of a group smaller when n does not divide the group's size, also in a partial last group of a
non-uniform NDRange); get_max_sub_group_size() is min(n, enqueued work-group size),
get_num_sub_groups() counts this group's sub-groups, get_enqueued_num_sub_groups() those of a
whole group; sub-group collectives combine the members of one sub-group only. Without n, a
work-group is one sub-group (test_lang_subgroups.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from lang_support import run_source
from test_lang_subgroups import (BARRIER_SOURCE, COLLECTIVE_SOURCE, ITEM_SOURCE, LAYOUTS, LINEAR_ID, TYPES,
                                 _expected, _inputs, sub_groups)

import spirvkit
from spirvkit.errors import KernelArgumentError

SIZES = (1, 4, 5)


def split(global_size, local_size, n: int) -> list[list[list[int]]]:
    """Per work-group, its sub-groups: global linear ids, n at a time in local linear id order."""
    return [[members[i:i + n] for i in range(0, len(members), n)] for members in sub_groups(global_size, local_size)]


def _launch(source: str, kernel: str, *args, gsize, lsize, n):
    spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0", filename="t.cl")).kernel(kernel)(
        gsize, lsize, *args, sub_group_size=n)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_work_item_functions(layout, n):
    gsize, lsize = LAYOUTS[layout]
    group_items = int(np.prod(lsize))
    groups = split(gsize, lsize, n)
    count = sum(len(s) for g in groups for s in g)
    expected = np.zeros((6, count), np.uint32)
    for group in groups:
        for k, members in enumerate(group):
            for local_id, g in enumerate(members):
                expected[:, g] = [len(members), min(n, group_items), len(group), -(-group_items // n), k, local_id]
    out = np.zeros(6 * count, np.uint32)
    _launch(ITEM_SOURCE, "items", out, gsize=gsize, lsize=lsize, n=n)
    np.testing.assert_array_equal(out.reshape(6, count), expected)


@pytest.mark.parametrize("n", SIZES[1:])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("t", ("int", "ulong", "float"))
def test_collectives_per_sub_group(t, layout, n):
    gsize, lsize = LAYOUTS[layout]
    subs = [s for g in split(gsize, lsize, n) for s in g]
    count = sum(len(s) for s in subs)
    x = _inputs(TYPES[t], count, subs)
    out = np.zeros(11 * count, TYPES[t])
    votes = np.zeros(2 * count, np.int32)
    _launch(COLLECTIVE_SOURCE, f"coll_{t}", x, out, votes, gsize=gsize, lsize=lsize, n=n)
    want, want_votes = _expected(x, subs)
    np.testing.assert_array_equal(out.reshape(11, count), want)
    np.testing.assert_array_equal(votes.reshape(2, count), want_votes)
    assert want_votes[0].min() == 0 and want_votes[1].max() == 1  # the data makes the votes differ


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sub_group_barrier_with_smaller_sub_groups(layout):
    gsize, lsize = LAYOUTS[layout]
    count = int(np.prod(gsize))
    expected = 10 * np.arange(count, dtype=np.int32)   # each round reads a neighbour's write: o[g] = 10 * g
    out = np.zeros(count, np.int32)
    _launch(BARRIER_SOURCE, "bar", out, spirvkit.LocalMemory(4 * int(np.prod(lsize))), gsize=gsize, lsize=lsize, n=5)
    np.testing.assert_array_equal(out, expected)


# Sub-groups of one work-group take different collectives: even ones a sum, odd ones a scan
# then a broadcast of their first member.
DIVERGENT_SOURCE = "kernel void div(global const int *in, global int *o) {\n" + LINEAR_ID + """
  int x = in[g];
  if (get_sub_group_id() % 2 == 0) {
    o[g] = sub_group_reduce_add(x);
  } else {
    int s = sub_group_scan_inclusive_max(x);
    o[g] = s * 1000 + sub_group_broadcast(x, 0);
  }
}
"""


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sub_groups_take_different_collectives(layout):
    gsize, lsize = LAYOUTS[layout]
    groups = split(gsize, lsize, 3)
    count = sum(len(s) for g in groups for s in g)
    x = np.random.default_rng(5).integers(-50, 50, count).astype(np.int32)
    expected = np.zeros(count, np.int32)
    for group in groups:
        for k, members in enumerate(group):
            if k % 2 == 0:
                expected[members] = x[members].sum()
            else:
                expected[members] = np.maximum.accumulate(x[members]) * 1000 + x[members[0]]
    out = np.zeros(count, np.int32)
    _launch(DIVERGENT_SOURCE, "div", x, out, gsize=gsize, lsize=lsize, n=3)
    np.testing.assert_array_equal(out, expected)


def test_program_default_and_launch_override():
    binary = spirvkit.compile_cl(ITEM_SOURCE, "-cl-std=CL2.0", filename="t.cl")
    out = np.zeros(6 * 8, np.uint32)
    kernel = spirvkit.Program(binary, sub_group_size=2).kernel("items")
    kernel(8, 8, out)
    assert out.reshape(6, 8)[4].tolist() == [0, 0, 1, 1, 2, 2, 3, 3]     # get_sub_group_id()
    kernel(8, 8, out, sub_group_size=3)
    assert out.reshape(6, 8)[4].tolist() == [0, 0, 0, 1, 1, 1, 2, 2]
    assert out.reshape(6, 8)[0].tolist() == [3, 3, 3, 3, 3, 3, 2, 2]     # get_sub_group_size()
    spirvkit.Program(binary).kernel("items")(8, 8, out)
    assert out.reshape(6, 8)[4].tolist() == [0] * 8                      # one sub-group per group
    run_source(ITEM_SOURCE, "items", out, global_size=8, local_size=8)
    assert out.reshape(6, 8)[0].tolist() == [8] * 8


@pytest.mark.parametrize("bad", [0, -4, 2.0, True, "4"])
def test_sub_group_size_must_be_a_positive_integer(bad):
    binary = spirvkit.compile_cl(ITEM_SOURCE, "-cl-std=CL2.0", filename="t.cl")
    with pytest.raises(KernelArgumentError, match="sub_group_size must be a positive integer"):
        spirvkit.Program(binary).kernel("items")(8, 8, np.zeros(48, np.uint32), sub_group_size=bad)
    with pytest.raises(KernelArgumentError, match="sub_group_size must be a positive integer"):
        spirvkit.Program(binary, sub_group_size=bad)
