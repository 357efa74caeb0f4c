"""Access to the 64-bit words of the launch context and the thread state (jit/abi.py) from the
emitted code, shared by the kernel entry code (kernel.py, regions.py) and the collectives."""

from __future__ import annotations

from llvmlite import ir

from .function import I64, PTR


def word(b: ir.IRBuilder, base: ir.Value, index: int) -> ir.Value:
    """The address of word ``index`` of the array at ``base``."""
    return b.gep(base, [ir.Constant(I64, index)], source_etype=I64)


def load_word(b: ir.IRBuilder, base: ir.Value, index: int) -> ir.Value:
    return b.load(word(b, base, index), typ=I64)


def load_pointer(b: ir.IRBuilder, base: ir.Value, index: int) -> ir.Value:
    """A word holding an address, loaded as a pointer: no inttoptr, so LLVM still sees that
    addresses derived from it share their origin (and folds bounds checks between them)."""
    return b.load(word(b, base, index), typ=PTR)
