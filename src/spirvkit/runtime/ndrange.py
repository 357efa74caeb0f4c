"""NDRange shapes: global size, local size, offset, as the launch context holds them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import KernelArgumentError
from ..jit.abi import PICKED_GROUP_ITEMS
from .limits import MAX_WORK_GROUP_SIZE


def _dims(value, what: str) -> tuple[int, ...]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (value,)
    if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= 3:
        raise KernelArgumentError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise KernelArgumentError(f"{what} must hold ints, got {v!r}")
        out.append(int(v))
    return tuple(out)


@dataclass
class NDRange:
    work_dim: int
    global_size: tuple[int, int, int]
    local_size: tuple[int, int, int]
    global_offset: tuple[int, int, int]

    @property
    def num_groups(self) -> tuple[int, int, int]:
        return tuple(-(-g // l) for g, l in zip(self.global_size, self.local_size))

    @property
    def total_groups(self) -> int:
        x, y, z = self.num_groups
        return x * y * z

    @property
    def group_items(self) -> int:
        x, y, z = self.local_size
        return x * y * z


def make_ndrange(global_size, local_size, global_offset, required_local=None) -> NDRange:
    g = _dims(global_size, "global_size")
    dim = len(g)
    if any(v < 1 for v in g):
        raise KernelArgumentError(f"global_size must be positive in every dimension, got {g}")
    if local_size is None:
        local = required_local[:dim] if required_local else _pick_local(g)
    else:
        local = _dims(local_size, "local_size")
        if len(local) != dim:
            raise KernelArgumentError(f"local_size {local} has {len(local)} dimensions, global_size {g} has {dim}")
        if any(v < 1 for v in local):
            raise KernelArgumentError(f"local_size must be positive in every dimension, got {local}")
        if required_local and tuple(local) != tuple(required_local[:dim]):
            raise KernelArgumentError(f"local_size {local} differs from the kernel's "
                                      f"reqd_work_group_size {tuple(required_local[:dim])}")
    if int(np.prod(local)) > MAX_WORK_GROUP_SIZE:   # OpenCL's CL_INVALID_WORK_GROUP_SIZE: an argument error
        raise KernelArgumentError(f"local_size {local} has {int(np.prod(local))} work-items; the limit is "
                                  f"{MAX_WORK_GROUP_SIZE} (CL_DEVICE_MAX_WORK_GROUP_SIZE, spirvkit.device_limits())")
    # A local size larger than the global size would only make empty work-items.
    local = tuple(min(lv, gv) for lv, gv in zip(local, g))
    offset = (0,) * dim if global_offset is None else _dims(global_offset, "global_offset")
    if len(offset) != dim:
        raise KernelArgumentError(f"global_offset {offset} has {len(offset)} dimensions, global_size has {dim}")
    pad = (1,) * (3 - dim)
    return NDRange(dim, g + pad, tuple(local) + pad, tuple(offset) + (0,) * (3 - dim))


def _pick_local(g: tuple[int, ...]) -> tuple[int, ...]:
    """A local size for ``local_size=None``: up to PICKED_GROUP_ITEMS work-items, dividing the
    global size (so no group is partial), filled from the first dimension."""
    budget, out = PICKED_GROUP_ITEMS, []
    for v in g:
        best = max(d for d in range(1, min(v, budget) + 1) if v % d == 0) if budget > 1 else 1
        out.append(best)
        budget //= best
    return tuple(out)
