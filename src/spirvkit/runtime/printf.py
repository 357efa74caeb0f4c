"""OpenCL C ``printf``: the format parser, the record buffer of a launch and the host formatter.

How it works. Each ``printf`` call site of a kernel is known at compile time: its format string
(a literal in the constant address space, OpenCL C 2.0 section 6.13.13) and the types of its
arguments (``jit/opencl_printf.py`` records them as the kernel's *printf sites*). At run time a
call reserves a record in the launch's printf buffer with one atomic add and writes

    u32 site | u32 record bytes | u64 global linear id | one 8-byte-aligned slot per argument

(scalar ints zero-extended to 64 bits, half/float/double widened to double, pointers as their
address, vectors as their raw elements). After the kernel has finished, the runtime formats the
records here, in Python, and writes the text.

Output order. Records are sorted by (global linear id, position in the buffer). A work-item's
records are appended in its program order, so each work-item's output appears in the order it
called printf, and work-items appear in global linear id order (x fastest) -- the same text
whatever the number of threads or the scheduling, which is what tests comparing output want.
Output of one launch appears when the launch ends (as OpenCL flushes at kernel completion), also
when it ends in a fault (what was printed before the fault is the most useful debugging aid).

Where output goes: ``kernel(..., printf=target)`` with a file-like object (``.write``), a list
(one string per printf call is appended) or a callable (called with each call's text); without
it, the innermost active :func:`capture_printf` block of the calling thread, else ``sys.stdout``.

The buffer holds ``SPIRVKIT_PRINTF_BUFFER`` bytes per launch (default 1 MiB, the OpenCL full
profile's minimum ``CL_DEVICE_PRINTF_BUFFER_SIZE``). A call whose record does not fit returns -1
and prints nothing; the launch then warns (:class:`PrintfBufferFull`) with the number dropped.

Text: the format's bytes and the converted values are read as UTF-8 (a UTF-8 literal prints as
written); a byte that is not UTF-8 (``%c`` of 0xfd) appears as the escape ``\\xfd``.

Malformed calls (undefined behaviour in the spec): an invalid conversion specification (unknown
conversion, ``*`` width, ``ll``/``j``/``z``/``t``/``L``, ``%n``, a vector specifier without a
length modifier or with a size other than 2, 3, 4, 8, 16, ``%s``/``%c``/``%p`` with a vector
specifier, a width or precision above 2^20), too few arguments, or an argument whose type does not match its conversion (a vector
of another type or size, a float for ``%d``, ``%s`` with an argument that is not a literal
string): the call prints nothing and returns -1. This is decided at compile time, per call site.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import threading
import warnings

import numpy as np

from ..jit.printf_format import (
    _FLOAT_CONVERSIONS, _INT_CONVERSIONS, _INT_LENGTH_BITS, HEADER_BYTES, Conversion, argument_slot_bytes,
    parse_format,
)

DEFAULT_BUFFER_BYTES = 1 << 20


class PrintfBufferFull(RuntimeWarning):
    """Some printf calls of a launch did not fit in the printf buffer (they returned -1)."""


# ---------------------------------------------------------------------------------------------
# Formatting one record (C semantics through the C library's own snprintf)

_libc = ctypes.CDLL(None)
_snprintf = _libc.snprintf
_snprintf.restype = ctypes.c_int


def _c_format(spec: bytes, arg) -> str:
    """snprintf of one conversion, built by us from a parsed specification (so it is always a
    valid C format with exactly one argument of the right C type)."""
    n = _snprintf(None, 0, spec, arg)
    if n < 0:
        return ""
    buf = ctypes.create_string_buffer(n + 1)
    _snprintf(buf, n + 1, spec, arg)
    return buf.raw[:n].decode("latin-1")


def _int_value(raw: int, arg_bits: int, bits: int, signed: bool) -> int:
    """The argument converted as C does for the conversion's length modifier: truncated to
    `bits` (hh: char, h: short ...), or extended from the argument's width when wider."""
    raw &= (1 << arg_bits) - 1
    if bits <= arg_bits:
        raw &= (1 << bits) - 1
        width = bits
    else:
        width = arg_bits
    if signed and raw >> (width - 1) & 1:
        raw -= 1 << width
    return raw


def _format_number(c: Conversion, value, bits: int) -> str:
    prec = "" if c.precision is None else "." + c.precision
    head = f"%{c.flags}{c.width}{prec}"
    if c.conversion in _FLOAT_CONVERSIONS:
        return _c_format(f"{head}{c.conversion}".encode(), ctypes.c_double(float(value)))
    signed = c.conversion in "di"
    v = value if isinstance(value, int) else int(value)
    v = _int_value(v, bits, bits, signed)
    ctype = ctypes.c_longlong if signed else ctypes.c_ulonglong
    return _c_format(f"{head}ll{c.conversion}".encode(), ctype(v))


_VECTOR_DTYPES = {("vi", 8): np.uint8, ("vi", 16): np.uint16, ("vi", 32): np.uint32, ("vi", 64): np.uint64,
                  ("vf", 16): np.float16, ("vf", 32): np.float32, ("vf", 64): np.float64}


def format_record(pieces: list, kinds: list, data: bytes) -> str:
    """The text of one printf call from its argument slots."""
    out = []
    at = 0
    args = iter(kinds)
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        c = piece
        kind = next(args)
        slot = data[at:at + argument_slot_bytes(kind)]
        at += argument_slot_bytes(kind)
        if c.vector:
            elems = np.frombuffer(slot, _VECTOR_DTYPES[(kind[0], kind[1])], count=kind[2])
            values = [int(e) if kind[0] == "vi" else float(e) for e in elems]
            out.append(",".join(_format_number(c, v, kind[1]) for v in values))
            continue
        word = int.from_bytes(slot[:8], "little")
        if c.conversion in _FLOAT_CONVERSIONS:
            out.append(_format_number(c, np.frombuffer(slot[:8], np.float64)[0], 64))
        elif c.conversion in _INT_CONVERSIONS:
            signed = c.conversion in "di"
            value = _int_value(word, kind[1], _INT_LENGTH_BITS[c.length], signed)
            out.append(_format_number(c, value, 64))
        elif c.conversion == "c":
            spec = f"%{c.flags}{c.width}c".encode()
            out.append(_c_format(spec, ctypes.c_int(word & 0xFF)))
        elif c.conversion == "s":
            prec = "" if c.precision is None else "." + c.precision
            text = kind[1].encode("latin-1")
            out.append(_c_format(f"%{c.flags}{c.width}{prec}s".encode(), ctypes.c_char_p(text)))
        else:   # p
            out.append(_c_format(f"%{c.flags}{c.width}p".encode(), ctypes.c_void_p(word)))
    # The pieces hold bytes as latin-1 characters; the text is those bytes read as UTF-8 (so
    # UTF-8 literals print as written), with any other byte (%c of 0xfd ...) shown as \xfd.
    return "".join(out).encode("latin-1").decode("utf-8", "backslashreplace")


# ---------------------------------------------------------------------------------------------
# Where the text goes

_captures = threading.local()


class PrintfCapture:
    """What :func:`capture_printf` collects: ``calls`` (one string per printf call, in output
    order), ``text`` (all of it) and ``dropped`` (calls that did not fit in a launch's buffer)."""

    def __init__(self):
        self.calls: list[str] = []
        self.dropped = 0

    @property
    def text(self) -> str:
        return "".join(self.calls)

    def __repr__(self):
        return f"<PrintfCapture {len(self.calls)} calls, {self.dropped} dropped>"


@contextlib.contextmanager
def capture_printf():
    """``with spirvkit.capture_printf() as out: kernel(...)``: the printf output of the launches
    this thread makes inside the block goes to ``out`` instead of sys.stdout."""
    stack = getattr(_captures, "stack", None)
    if stack is None:
        stack = _captures.stack = []
    capture = PrintfCapture()
    stack.append(capture)
    try:
        yield capture
    finally:
        stack.remove(capture)


def _sink(target):
    """(write one call's text, capture or None) for a launch's printf= argument."""
    if target is None:
        stack = getattr(_captures, "stack", None)
        if stack:
            capture = stack[-1]
            return capture.calls.append, capture
        return (lambda text: sys.stdout.write(text)), None
    if isinstance(target, PrintfCapture):
        return target.calls.append, target
    if isinstance(target, list):
        return target.append, None
    if hasattr(target, "write"):
        return target.write, None
    if callable(target):
        return target, None
    raise TypeError(f"printf= takes a file-like object, a list or a callable, not {type(target).__name__}")


# ---------------------------------------------------------------------------------------------
# The launch's buffer

def buffer_bytes() -> int:
    env = os.environ.get("SPIRVKIT_PRINTF_BUFFER", "")
    if env.isdigit() and int(env) >= HEADER_BYTES:
        return int(env)
    return DEFAULT_BUFFER_BYTES


class PrintfBuffer:
    """The printf record buffer of one launch of a kernel with printf sites."""

    def __init__(self, sites: list[dict], capacity: int | None = None):
        self.sites = sites
        self.capacity = capacity or buffer_bytes()
        self.data = np.zeros(self.capacity + 8, np.uint8)
        self._parsed: list | None = None

    def attach(self, ctx: np.ndarray, context_layout: dict) -> None:
        ctx[context_layout["printf_buffer"]] = self.data.ctypes.data
        ctx[context_layout["printf_capacity"]] = self.capacity
        ctx[context_layout["printf_used"]] = 0
        ctx[context_layout["printf_dropped"]] = 0

    def records(self, used: int) -> list[tuple[int, int, int, int]]:
        """(global linear id, offset, site, size) of every complete record, in output order."""
        limit = min(int(used), self.capacity)
        raw = self.data
        found, at = [], 0
        while at + HEADER_BYTES <= limit:
            site = int(raw[at:at + 4].view(np.uint32)[0])
            size = int(raw[at + 4:at + 8].view(np.uint32)[0])
            if size < HEADER_BYTES or at + size > limit or site >= len(self.sites):
                break    # never written (a reservation that did not fit ends the records)
            gid = int(raw[at + 8:at + 16].view(np.uint64)[0])
            found.append((gid, at, site, size))
            at += size
        found.sort()
        return found

    def emit(self, used: int, dropped: int, target, name: str) -> None:
        write, capture = _sink(target)
        if self._parsed is None:
            self._parsed = [parse_format(s["format"].encode("latin-1")) for s in self.sites]
        raw = self.data
        for _gid, at, site, size in self.records(used):
            pieces = self._parsed[site]
            if pieces is None:
                continue   # not reachable: malformed sites never write records
            write(format_record(pieces, self.sites[site]["args"], bytes(raw[at + HEADER_BYTES:at + size])))
        if target is None and capture is None:
            sys.stdout.flush()
        if dropped:
            if capture is not None:
                capture.dropped += dropped
            warnings.warn(f"kernel {name!r}: {dropped} printf call(s) did not fit in the {self.capacity}-byte "
                          f"printf buffer and printed nothing (they returned -1); set SPIRVKIT_PRINTF_BUFFER "
                          f"to a larger size in bytes", PrintfBufferFull, stacklevel=4)
