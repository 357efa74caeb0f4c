"""The OpenCL C printf format string: parsing, and checking it against the argument types.

Shared by the compiler (a malformed call site becomes ``printf`` returning -1, decided at compile
time: :mod:`.opencl_printf`) and the host formatter (:mod:`spirvkit.runtime.printf`). It lives in
the ``jit`` package so that the compiled-kernel cache, keyed by a hash of this package's source,
never reuses a kernel compiled under other format rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADER_BYTES = 16   # a record's header: u32 site, u32 record bytes, u64 global linear id


@dataclass(frozen=True)
class Conversion:
    flags: str
    width: str
    precision: str | None      # digits after '.', '' for a lone '.', None when absent
    vector: int                # 0 for scalars
    length: str                # '', 'hh', 'h', 'hl', 'l'
    conversion: str


_SPEC = re.compile(rb"%([-+ #0]*)([0-9]*)(?:\.([0-9]*))?(?:v([0-9]+))?(hh|hl|h|l)?([diouxXfFeEgGaAcsp%])")
_INT_CONVERSIONS, _FLOAT_CONVERSIONS = "diouxX", "fFeEgGaA"
_VECTOR_SIZES = (2, 3, 4, 8, 16)
_INT_LENGTH_BITS = {"hh": 8, "h": 16, "": 32, "hl": 32, "l": 64}
_FLOAT_LENGTH_BITS = {"h": 16, "hl": 32, "l": 64}
_MAX_FIELD = 1 << 20


def parse_format(fmt: bytes) -> list | None:
    """The format as a list of literal text (str) and :class:`Conversion` pieces, or None when a
    conversion specification is not one OpenCL C defines."""
    pieces: list = []
    at = 0
    while True:
        pct = fmt.find(b"%", at)
        if pct < 0:
            if at < len(fmt):
                pieces.append(fmt[at:].decode("latin-1"))
            return pieces
        if pct > at:
            pieces.append(fmt[at:pct].decode("latin-1"))
        m = _SPEC.match(fmt, pct)
        if m is None:
            return None
        flags, width, precision, vector, length, conv = (g.decode("ascii") if g is not None else None
                                                         for g in m.groups())
        length = length or ""
        vector = int(vector) if vector is not None else 0
        if conv == "%":
            if m.end() - pct != 2:
                return None      # "the complete conversion specification shall be %%"
            pieces.append("%")
        else:
            if vector and (vector not in _VECTOR_SIZES or not length or conv not in _INT_CONVERSIONS + _FLOAT_CONVERSIONS):
                return None
            if not vector and length == "hl":
                return None      # hl exists only with a vector specifier
            if conv in _FLOAT_CONVERSIONS and length and (length == "hh" or (not vector and length != "l")):
                return None
            if conv in "csp" and length:
                return None
            if int(width or 0) > _MAX_FIELD or int(precision or 0) > _MAX_FIELD:
                return None      # a field no one means (and a host allocation to refuse)
            pieces.append(Conversion(flags, width, precision, vector, length, conv))
        at = m.end()


def argument_slot_bytes(kind: list) -> int:
    """Bytes an argument of this kind takes in a record (a multiple of 8)."""
    if kind[0] in ("vi", "vf"):
        return (kind[1] // 8 * kind[2] + 7) // 8 * 8
    return 8


def conversions_match(pieces: list, kinds: list) -> bool:
    """Whether every conversion has an argument of a type it accepts. Argument kinds (from the
    compiler): ['i', bits], ['f', bits], ['p', literal string or None], ['vi', bits, n],
    ['vf', bits, n], ['?'] (a type printf cannot take)."""
    convs = [p for p in pieces if isinstance(p, Conversion)]
    if len(convs) > len(kinds):
        return False     # too few arguments; excess ones are evaluated and ignored (spec)
    for c, kind in zip(convs, kinds):
        k = kind[0]
        if c.vector:
            want = "vi" if c.conversion in _INT_CONVERSIONS else "vf"
            bits = (_INT_LENGTH_BITS if want == "vi" else _FLOAT_LENGTH_BITS)[c.length]
            if k != want or kind[1] != bits or kind[2] != c.vector:
                return False
        elif c.conversion in _INT_CONVERSIONS + "c":
            if k != "i":
                return False
        elif c.conversion in _FLOAT_CONVERSIONS:
            if k != "f":
                return False
        elif c.conversion == "s":
            if k != "p" or kind[1] is None:
                return False
        elif c.conversion == "p":
            if k != "p":
                return False
    return True
