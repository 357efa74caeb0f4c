"""``spirvkit run --sub-group-size N`` (issue 20): the launch's sub-groups are N work-items of
consecutive local linear ids, as ``Kernel.__call__(..., sub_group_size=N)`` makes them
(tests/clc/test_sub_group_size.py); without the flag a work-group is one sub-group."""

from __future__ import annotations

import numpy as np
import pytest
from test_cli import spirvkit_cli

SOURCE = """kernel void sg(global uint *id, global int *sum, global const int *x) {
  size_t g = get_global_id(0);
  id[g] = get_sub_group_id();
  sum[g] = sub_group_reduce_add(x[g]);
}
"""


@pytest.fixture
def module(tmp_path):
    src = tmp_path / "sg.cl"
    src.write_text(SOURCE)
    out = tmp_path / "sg.spv"
    result = spirvkit_cli("cc", "-cl-std=CL2.0", str(src), "-o", str(out))
    assert result.returncode == 0, result.stderr.decode()
    return out


def _run(module, tmp_path, *flags):
    result = spirvkit_cli("run", str(module), "--global", "10", "--local", "8", "--arg", "zeros:10",
                          "--arg", "zeros:10", "--arg", "range:10", "--out", str(tmp_path / "out"), *flags)
    return result


@pytest.mark.parametrize("n", [None, 1, 3, 8])
def test_sub_group_size_flag(module, tmp_path, n):
    result = _run(module, tmp_path, *(() if n is None else ("--sub-group-size", str(n))))
    assert result.returncode == 0, result.stderr.decode()
    ids, sums = np.load(tmp_path / "out" / "0_id.npy"), np.load(tmp_path / "out" / "1_sum.npy")
    want_ids, want_sums = [], []
    for members in (list(range(8)), [8, 9]):          # two work-groups, the last one partial
        step = n or len(members)
        for k, start in enumerate(range(0, len(members), step)):
            sub = members[start:start + step]
            want_ids += [k] * len(sub)
            want_sums += [sum(sub)] * len(sub)
    assert ids.tolist() == want_ids
    assert sums.tolist() == want_sums
    assert "id (uint*): " in result.stdout.decode() and "sum (int*): int32[10]" in result.stdout.decode()


@pytest.mark.parametrize("value", ["0", "-2"])
def test_sub_group_size_must_be_positive(module, tmp_path, value):
    result = _run(module, tmp_path, "--sub-group-size", value)
    assert result.returncode == 1
    assert "sub_group_size must be a positive integer" in result.stderr.decode()


def test_sub_group_size_must_be_an_integer(module, tmp_path):
    result = _run(module, tmp_path, "--sub-group-size", "two")
    assert result.returncode == 2
    assert "--sub-group-size: invalid int value: 'two'" in result.stderr.decode()


def test_help_lists_the_flag():
    result = spirvkit_cli("run", "--help")
    assert result.returncode == 0 and b"--sub-group-size N" in result.stdout
