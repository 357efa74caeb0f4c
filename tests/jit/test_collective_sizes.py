"""Work-group collectives at every local size from 1 to 256 (OpenCL C allows any size up to
the device maximum, non-powers of two included). The corpus cases (kernel_cases.py) run a
sample of sizes in CI; this exhaustive run compiles the kernel once per size (the executor
specialises barrier kernels on the local size), so it is marked slow."""

from __future__ import annotations

import numpy as np
import pytest

from full_run import require_full_run
from jit.collective_oracles import wg_int
from jit.kernel_cases import KERNELS

import spirvkit


@pytest.mark.slow
def test_every_local_size_from_1_to_256(request):
    require_full_run(request)
    kernel = spirvkit.Program(KERNELS / "workgroup_collectives.spv").kernel("wg_int")
    rng = np.random.default_rng(7)
    for local in range(1, 257):
        n = 2 * local
        data = rng.integers(-100, 100, n).astype(np.int32)
        out = np.zeros(5 * n, np.int32)
        kernel(n, local, data, out)
        expected = wg_int(local)([data, None])[1]
        assert np.array_equal(out, expected), f"local size {local}"
