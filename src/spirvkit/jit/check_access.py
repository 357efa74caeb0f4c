"""The access check: writes to memory the kernel must not write.

A buffer is read-only for a launch when the host passed a read-only numpy array for it
(``a.flags.writeable == False``) or when it is a ``__constant`` argument. The runtime lists
the region base of each such argument in the check state's ``read_only`` words (one per kernel
parameter, NOT_READ_ONLY for the others); a write (store, atomic other than a load, the target
of a copy) whose pointer's region is one of them is a finding and is not performed. The
parameter count is fixed per kernel, so the test is a few compares of the pointer's region base
with loop-invariant words: LLVM hoists the loads, and for a pointer derived from a parameter the
compare itself.
"""

from __future__ import annotations


from .abi import CONTEXT
from .check_passes import CHECK_STATE, I64, PTR, _word

_READS = {"OpAtomicLoad"}   # the one atomic that only reads


class AccessCheck:
    def __init__(self, passes):
        self.passes = passes
        self._copy_calls = 0     # a copy checks its target, then its source

    def _writes(self, fl, kind: str) -> bool:
        if kind == "store":
            return True
        if kind == "atomic":
            return fl.current is None or fl.current.opname not in _READS
        if kind == "copy":
            self._copy_calls += 1
            return self._copy_calls % 2 == 1
        return False

    def _read_only(self, b, ctx, base):
        count = self.passes.kernel_params
        if not count:
            return None
        state = b.load(_word(b, ctx, CONTEXT["checks"]), typ=PTR)
        table = b.load(_word(b, state, CHECK_STATE["read_only"]), typ=PTR)
        found = None
        for k in range(count):
            hit = b.icmp_unsigned("==", base, b.load(_word(b, table, k), typ=I64))
            found = hit if found is None else b.or_(found, hit)
        return found

    def group_copy(self, passes, b, ctx, ts, inst, spv_fn, sides):
        """An async work-group copy into read-only memory."""
        addr, base, end, span = sides[0]
        found = self._read_only(b, ctx, base)
        if found is not None:
            passes.report_group(b, ctx, ts, found, passes.ml.site(inst, "read-only write", spv_fn), addr, base, end,
                                span)
        return found

    def access(self, fl, ptr, addr, base, end, size, kind: str):
        if not self._writes(fl, kind):
            return None
        found = self._read_only(fl.builder, fl.ctx, base)
        if found is None:
            return None
        self.passes.report(fl, found, fl.site("read-only write"), addr, base, end, size, 0)
        return found
