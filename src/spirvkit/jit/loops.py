"""A counted loop in LLVM IR, shared by the kernel entry code (kernel.py, regions.py) and the
routines the lowering emits (collectives, pipes, device-side enqueue)."""

from __future__ import annotations

from llvmlite import ir

from .function import I64


class CountedLoop:
    """``with CountedLoop(b, fn, n, name) as i:`` emits ``for (i = 0; i < n; i++)``."""

    def __init__(self, b: ir.IRBuilder, fn: ir.Function, count: ir.Value, name: str, parallel=None):
        self.b, self.fn, self.count, self.name = b, fn, count, name
        self.parallel = parallel   # loop metadata declaring the work-item iterations independent

    def __enter__(self) -> ir.Value:
        b = self.b
        self.pre = b.block
        self.head = self.fn.append_basic_block(f"{self.name}.head")
        self.body = self.fn.append_basic_block(f"{self.name}.body")
        self.exit = self.fn.append_basic_block(f"{self.name}.exit")
        b.branch(self.head)
        b.position_at_end(self.head)
        self.i = b.phi(I64, name=self.name)
        self.i.add_incoming(ir.Constant(I64, 0), self.pre)
        b.cbranch(b.icmp_unsigned("<", self.i, self.count), self.body, self.exit)
        b.position_at_end(self.body)
        return self.i

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            return
        b = self.b
        nxt = b.add(self.i, ir.Constant(I64, 1))
        self.i.add_incoming(nxt, b.block)
        back = b.branch(self.head)
        if self.parallel is not None:
            back.set_metadata("llvm.loop", self.parallel)
        b.position_at_end(self.exit)
