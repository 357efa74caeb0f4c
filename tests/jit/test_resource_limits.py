"""Device resource limits (issue 21, spirvkit.runtime.limits): a kernel whose __local memory
(its own variables and its LocalMemory arguments together) passes CL_DEVICE_LOCAL_MEM_SIZE
raises LimitError naming the limit, the amount and the kernel, before anything is allocated,
never a MemoryError."""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from spirvkit.runtime.limits import LOCAL_MEM_SIZE


def _kernel(source: str) -> spirvkit.Kernel:
    return spirvkit.Program(source).kernel("k")


def test_huge_local_array_is_refused_before_allocation():
    k = _kernel("kernel void k(global int *p) { local int a[0xFFFFFFFF][1024]; a[p[0]][0] = 1; p[0] = a[0][0]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 16\.0 TiB \(17592186040320 bytes\) of "
                                                 r"__local memory per work-group; the device has 4\.0 MiB"):
        k(4, None, np.zeros(4, np.int32))


def test_local_memory_argument_past_the_limit():
    with pytest.raises(spirvkit.LimitError, match=r"LocalMemory\(100000000\) needs 95\.4 MiB"):
        spirvkit.LocalMemory(100_000_000)
    assert spirvkit.LocalMemory(LOCAL_MEM_SIZE).nbytes == LOCAL_MEM_SIZE


def test_variables_and_arguments_count_together():
    k = _kernel("kernel void k(global int *p, local int *l) { local int a[1000000]; a[p[0]] = 1; l[0] = a[0]; "
                "p[0] = l[0]; }")
    with pytest.raises(spirvkit.LimitError, match=r"kernel 'k' needs 4\.8 MiB"):
        k(4, None, np.zeros(4, np.int32), spirvkit.LocalMemory(1_000_000))
    out = np.zeros(4, np.int32)
    k(4, None, out, spirvkit.LocalMemory(16))  # 4 MB of variables: within the limit
    assert out[0] == 1


def test_limit_error_is_a_spirvkit_error():
    assert issubclass(spirvkit.LimitError, spirvkit.SpirvkitError)
