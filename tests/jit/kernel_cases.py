"""The case table of the executor's kernel corpus (tests/data/kernels).

Every ``Case`` names a fixture (the stem of a ``.spv``: ``vec2``, ``cf_switch.O0``,
``int_divrem.spir32``), a kernel, the NDRange (global size, local size or ``None``, optional
global offset), the PoCL build options for the ``.cl`` source, and the arguments in
kernel-parameter order:

- ``In(dtype, shape, gen)``: an input buffer (``__global`` / ``__constant`` pointer);
- ``Out(dtype, shape, cmp=EXACT, fill=None)``: an output buffer, filled before the launch
  (by the ``fill`` generator, or else every byte ``FILL`` = 0xA5) and compared afterwards;
- ``InOut(dtype, shape, gen, cmp=EXACT)``: an initialised buffer the kernel updates (atomics);
- ``Scalar(dtype, value)``, ``Vector(dtype, values)``, ``Struct(dtype, values)``: by-value
  arguments;
- ``Local(nbytes)``: a ``__local`` pointer parameter.

Vector buffers are arrays of shape ``(n, width)``; 3-wide vectors occupy 4 elements, so their
buffers are ``(n, 4)`` and their comparisons say ``lanes=3`` (the 4th lane is padding that
clang may write with anything). Structs are numpy structured dtypes with explicit C-layout
offsets (``struct_dtype``; the .cl files state the same offsets in comments, and the
``struct_layout`` kernel reports sizeof/offsetof at run time).

Comparisons: ``EXACT`` (integers equal; floats equal with NaN == NaN and -0.0 == +0.0),
``Bitwise()`` (raw bits), ``Ulp(n)`` (OpenCL full-profile bound ``n`` for the executor; the
reference PoCL result is allowed the same bound, so the two may differ by ``2n`` unless
``ref=`` says how exact the reference is), ``Rel(rtol, atol)`` (native_*: implementation-defined
precision), ``Interleaved(c0, c1, ...)`` (element ``k*i + j`` of the leading axis uses ``cj``:
kernels write ``o[K * i + j]``), ``Fields(name=cmp, ...)`` (per struct member; unlisted members
are EXACT).

Inputs are generated from a seed derived from the source name, the kernel and the case name,
so a variant fixture (``.O0``, ``.spir32``) gets exactly the data of its ``-O2`` original.

Two escape hatches, each used only where PoCL cannot be the reference as is: ``oracle`` (a
Python model, used where PoCL cannot run the case: non-uniform work-groups) and
``pocl_fixup`` (corrects PoCL where it breaks the spec: NaN in ``_sat`` conversions).
"""

from __future__ import annotations

import dataclasses
import math
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

KERNELS = Path(__file__).resolve().parents[1] / "data" / "kernels"

CL20 = "-cl-std=CL2.0"
# PoCL 3.0's CPU device declares the __global/__local overloads of vload_half/vstore_half and
# of the C11 atomic_* functions only for OpenCL C 3.0 (its OpenCL C 2.0 mode declares just the
# generic-pointer overloads but rejects generic pointers). The SPIR-V is built as CL2.0.
CL30 = "-cl-std=CL3.0"

i8, u8, i16, u16 = np.int8, np.uint8, np.int16, np.uint16
i32, u32, i64, u64 = np.int32, np.uint32, np.int64, np.uint64
f16, f32, f64 = np.float16, np.float32, np.float64

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
inf, nan = math.inf, math.nan

# --------------------------------------------------------------------------- generators


class Gen:
    def make(self, rng: np.random.Generator, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
        raise NotImplementedError


@dataclass(frozen=True)
class Rand(Gen):
    """Uniform random: integers in [lo, hi] (both ends), floats in [lo, hi)."""

    lo: float
    hi: float
    nonzero: bool = False

    def make(self, rng, dtype, shape):
        dtype = np.dtype(dtype)
        if dtype.kind in "iu":
            out = rng.integers(int(self.lo), int(self.hi), size=shape, dtype=dtype, endpoint=True)
            if self.nonzero:
                out[out == 0] = 1
            return out
        out = rng.uniform(self.lo, self.hi, size=shape).astype(dtype)
        if self.nonzero:
            out[out == 0] = 1
        return out


@dataclass(frozen=True)
class Arange(Gen):
    start: int = 0
    step: int = 1

    def make(self, rng, dtype, shape):
        n = int(np.prod(shape))
        return (self.start + self.step * np.arange(n, dtype=np.int64)).astype(dtype).reshape(shape)


@dataclass(frozen=True)
class Const(Gen):
    value: Any

    def make(self, rng, dtype, shape):
        return np.full(shape, self.value, dtype=dtype)


@dataclass(frozen=True)
class Bits(Gen):
    """Random raw bit patterns (floats: any value including NaNs, infinities, subnormals)."""

    def make(self, rng, dtype, shape):
        dtype = np.dtype(dtype)
        n = int(np.prod(shape))
        return rng.integers(0, 256, size=n * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


@dataclass(frozen=True)
class Values(Gen):
    """The listed values first (in the flattened array), then ``rest`` (or the list again)."""

    values: tuple
    rest: Gen | None = None

    def make(self, rng, dtype, shape):
        n = int(np.prod(shape))
        if np.dtype(dtype).kind in "iu":
            head = np.array([int(v) for v in self.values], dtype=dtype)
        else:
            head = np.array([float(v) for v in self.values], dtype=np.float64).astype(dtype)
        if self.rest is None:
            out = np.resize(head, n)
        else:
            out = self.rest.make(rng, dtype, (n,)).reshape(n)
            k = min(n, head.size)
            out[:k] = head[:k]
        return out.reshape(shape)


@dataclass(frozen=True)
class FieldGens(Gen):
    """A generator per member of a structured dtype (nested structs/arrays recurse); members
    without a generator are zero."""

    gens: dict

    def make(self, rng, dtype, shape):
        dtype = np.dtype(dtype)
        out = np.zeros(shape, dtype=dtype)
        for name, gen in self.gens.items():
            ftype = dtype.fields[name][0]
            base, sub = (ftype.subdtype if ftype.subdtype else (ftype, ()))
            out[name] = gen.make(rng, base, tuple(shape) + tuple(sub))
        return out


def fields(**gens) -> FieldGens:
    return FieldGens(gens)


# --------------------------------------------------------------------------- comparisons


@dataclass(frozen=True)
class Exact:
    lanes: int | None = None


@dataclass(frozen=True)
class Bitwise:
    lanes: int | None = None


@dataclass(frozen=True)
class Ulp:
    """At most ``n`` ulp from the exact result (OpenCL full-profile bound). The reference
    (PoCL) is allowed ``ref`` ulp itself (default: the same bound), so the check is
    ``distance <= floor(n + ref)``."""

    n: float
    ref: float | None = None
    lanes: int | None = None

    @property
    def allowed(self) -> int:
        return int(math.floor(self.n + (self.n if self.ref is None else self.ref)))


@dataclass(frozen=True)
class Rel:
    """|got - ref| <= atol + rtol * |ref| (native_*: implementation-defined precision)."""

    rtol: float
    atol: float = 0.0
    lanes: int | None = None


@dataclass(frozen=True)
class Interleaved:
    cmps: tuple

    def __init__(self, *cmps):
        object.__setattr__(self, "cmps", tuple(cmps))


@dataclass(frozen=True)
class Fields:
    cmps: dict

    def __init__(self, **cmps):
        object.__setattr__(self, "cmps", dict(cmps))


EXACT = Exact()

# --------------------------------------------------------------------------- arguments

FILL = 0xA5  # byte pattern of output buffers before a launch


@dataclass(frozen=True)
class Buffer:
    dtype: Any
    shape: tuple
    gen: Gen | None = None  # None: every byte FILL
    cmp: Any = None  # None: an input, not compared

    @property
    def is_output(self) -> bool:
        return self.cmp is not None


def _shape(shape) -> tuple:
    return (shape,) if isinstance(shape, int) else tuple(shape)


def In(dtype, shape, gen: Gen) -> Buffer:  # noqa: N802 - reads like the table it builds
    return Buffer(dtype, _shape(shape), gen, None)


def Out(dtype, shape, cmp=EXACT, fill: Gen | None = None) -> Buffer:  # noqa: N802
    return Buffer(dtype, _shape(shape), fill, cmp)


def InOut(dtype, shape, gen: Gen, cmp=EXACT) -> Buffer:  # noqa: N802
    return Buffer(dtype, _shape(shape), gen, cmp)


@dataclass(frozen=True)
class Scalar:
    dtype: Any
    value: Any


@dataclass(frozen=True)
class Vector:
    dtype: Any
    values: tuple


@dataclass(frozen=True)
class Struct:
    dtype: Any
    values: tuple


@dataclass(frozen=True)
class Local:
    nbytes: int


# --------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    fixture: str  # .spv stem in tests/data/kernels
    kernel: str
    global_size: Any
    local_size: Any
    args: tuple
    options: str = CL20
    global_offset: tuple | None = None
    name: str = ""  # tells apart several cases of one kernel
    # A Python model of the kernel, values -> outputs (as pocl.run returns them), used as the
    # reference where PoCL cannot run the case (non-uniform work-groups on PoCL 3.0) and
    # checked against PoCL where it can.
    oracle: Any = None
    # Corrects PoCL's result where PoCL is known to break the OpenCL spec, as
    # (values, outputs) -> outputs; each use says what it corrects.
    pocl_fixup: Any = None
    # Why PoCL cannot run the case at all (then ``oracle`` is the reference).
    pocl_missing: str = ""
    # printf output compared too: "exact" (the same text) or "lines" (the same lines in any
    # order: PoCL prints as work-items run, spirvkit in global id order).
    printf: str = ""

    @property
    def non_uniform(self) -> bool:
        if self.local_size is None:
            return False
        g = _dims(self.global_size)
        return any(a % b for a, b in zip(g, _dims(self.local_size), strict=True))

    @property
    def source_stem(self) -> str:
        return self.fixture.split(".")[0]

    @property
    def source(self) -> Path:
        return KERNELS / f"{self.source_stem}.cl"

    @property
    def has_program_scope_globals(self) -> bool:
        """The source defines program-scope ``__global`` variables (state a launch can change)."""
        return re.search(r"^(?:__)?global\b", self.source.read_text(encoding="utf-8"), re.MULTILINE) is not None

    @property
    def spv(self) -> Path:
        return KERNELS / f"{self.fixture}.spv"

    @property
    def ref_key(self) -> str:
        """Identifies the PoCL run: variants of one fixture share it."""
        return f"{self.source_stem}:{self.kernel}" + (f"-{self.name}" if self.name else "")

    @property
    def id(self) -> str:
        return f"{self.fixture}:{self.kernel}" + (f"-{self.name}" if self.name else "")


def _dims(size) -> tuple[int, ...]:
    return (int(size),) if isinstance(size, int | np.integer) else tuple(int(s) for s in size)


def seed_of(case: Case, index: int) -> int:
    return zlib.crc32(f"{case.ref_key}/{index}".encode())


ALIGN = 128  # the largest OpenCL C alignment (long16, double16)


def aligned_copy(data: np.ndarray, align: int = ALIGN) -> np.ndarray:
    """A C-contiguous copy of ``data`` whose first byte is ``align``-byte aligned (a float8
    buffer needs 32-byte alignment; numpy only promises 16)."""
    raw = np.empty(data.nbytes + align, dtype=np.uint8)
    start = (-raw.ctypes.data) % align
    window = raw[start:start + data.nbytes]
    window[...] = np.frombuffer(np.ascontiguousarray(data).tobytes(), dtype=np.uint8)  # padding too
    return window.view(data.dtype).reshape(data.shape)


def make_values(case: Case) -> list:
    """The argument values of a case as numpy data (buffers, scalars, 1-D vectors, 0-d
    structured arrays) or ``Local`` markers. Deterministic: the same case gives the same data.
    Buffers are fresh, C-contiguous and 128-byte aligned."""
    values = []
    for index, arg in enumerate(case.args):
        if isinstance(arg, Buffer):
            dtype = np.dtype(arg.dtype)
            if arg.gen is None:
                nbytes = int(np.prod(arg.shape)) * dtype.itemsize
                data = np.full(nbytes, FILL, dtype=np.uint8).view(dtype).reshape(arg.shape)
            else:
                rng = np.random.default_rng(seed_of(case, index))
                data = np.ascontiguousarray(arg.gen.make(rng, dtype, arg.shape), dtype=dtype)
                assert data.shape == arg.shape, (case.id, index, data.shape, arg.shape)
            values.append(aligned_copy(data))
        elif isinstance(arg, Scalar):
            values.append(np.dtype(arg.dtype).type(arg.value))
        elif isinstance(arg, Vector):
            values.append(np.array(arg.values, dtype=arg.dtype))
        elif isinstance(arg, Struct):
            value = np.zeros((), dtype=arg.dtype)  # padding bytes zero, not garbage
            value[()] = arg.values
            values.append(value)
        elif isinstance(arg, Local):
            values.append(arg)
        else:
            raise TypeError(f"{case.id}: argument {index}: {arg!r}")
    return values


def struct_dtype(members: list[tuple], itemsize: int) -> np.dtype:
    """A C-layout struct: members (name, dtype, offset); itemsize includes tail padding."""
    return np.dtype({
        "names": [m[0] for m in members],
        "formats": [m[1] for m in members],
        "offsets": [m[2] for m in members],
        "itemsize": itemsize,
    })


# --------------------------------------------------------------------------- special values

F32_SPECIAL = (
    0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5,
    1.401298464324817e-45, -1.401298464324817e-45, 1.1754942106924411e-38, 1.1754943508222875e-38,
    3.4028234663852886e38, -3.4028234663852886e38, 2147483648.0, -2147483648.0, 2147483520.0,
    -2147483904.0, 4294967296.0, 4294967040.0, 127.5, -128.5, 128.0, -129.0, 255.5, 256.0,
    32767.5, -32768.5, 65535.5, 65536.0, 9.223371487098962e18, -9.223372036854776e18,
    9.223372036854776e18, 1.8446742974197924e19, 1.8446744073709552e19, 1e30, -1e30,
    0.49999997, 8388607.5, -8388607.5, 0.99999994, -0.99999994,
)
F64_SPECIAL = (
    0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 0.1, 1.0 / 3.0,
    1e300, -1e300, 5e-324, 2.2250738585072014e-308, 3.4028234663852886e38,
    3.4028235677973366e38, 3.4028236e38, 1e39, 1e-46, 7e-46, 1.401298464324817e-45,
    1.0000000596046448, 1.0000001788139343, 1.0000000596046450, -1.0000000596046448,
    2147483647.5, -2147483648.5, 2147483648.0, -2147483649.0, 9.3e18, -9.3e18,
    9.223372036854775e18, 1.8446744073709552e19, 16777217.0, -16777217.0,
)
F16_SPECIAL = (
    0.0, -0.0, inf, -inf, nan, 65504.0, -65504.0, 6.103515625e-05, 5.960464477539063e-08,
    -5.960464477539063e-08, 6.097555160522461e-05, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5,
    0.0999755859375, 2048.0, 2050.0, 1024.5, -3.0, 3.0,
)
F32_TO_HALF = (
    0.0, -0.0, inf, -inf, nan, 65504.0, 65519.99609375, 65520.0, 65536.0, 1e5, -1e5,
    5.960464477539063e-08, 2.9802322387695312e-08, 4.470348358154297e-08, 8.940696716308594e-08,
    1e-10, -1e-10, 1.0 / 3.0, 2049.0, 2051.0, -2049.0, 0.1, -0.1, 6.103515625e-05,
    6.097555160522461e-05, 6.1005353927612305e-05, 1.0009765625, 1.00048828125, 1.00146484375,
)
INT_EDGE = (
    0, 1, -1, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 127, 128, -128, -129, 255, 256,
    32767, 32768, -32768, -32769, 65535, 65536, 16777217, -16777217, 16777219, 0x55555555,
)
UINT_EDGE = (0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0xFFFFFF80, 16777217, 0x55555555, 0xAAAAAAAA)
LONG_EDGE = (
    0, 1, -1, LONG_MAX, LONG_MIN, 2**53, 2**53 + 1, -(2**53 + 1), 2**62 + 1, 16777217,
    -16777217, 2**24 + 3, 2**31, -(2**31) - 1, 2**32, 0x5555555555555555,
)
ULONG_EDGE = (0, 1, 2**64 - 1, 2**63, 2**63 + 1, 2**53 + 1, 2**40 + 7, 0xAAAAAAAAAAAAAAAA)


def specials(lo, hi, special=F32_SPECIAL) -> Gen:
    return Values(special, Rand(lo, hi))


N = 64

# --------------------------------------------------------------------------- struct types

PARTICLE = struct_dtype(
    [("id", i32, 0), ("weight", f32, 4), ("delta", i16, 8), ("tag", i8, 10), ("flags", u32, 12)], 16)
RESULT = struct_dtype([("score", f32, 0), ("id", i32, 4), ("tag2", i8, 8), ("big", i64, 16)], 24)
PARAMS = struct_dtype(
    [("scale", (f32, 4), 0), ("offset", i32, 16), ("mode", i16, 20), ("shift", u8, 22), ("bias", f32, 24)],
    32)
INNER = struct_dtype([("x", i16, 0), ("y", i16, 2), ("w", i32, 4)], 8)
OUTER = struct_dtype(
    [("pts", (INNER, 3), 0), ("name", (i8, 5), 24), ("count", i32, 32), ("extra", INNER, 36)], 44)
MIXED = struct_dtype(
    [("c0", i8, 0), ("pos", (f32, 4), 16), ("c1", i8, 32), ("n", i32, 36), ("pair", (i8, 2), 40),
     ("d", f64, 48)], 64)

# --------------------------------------------------------------------------- the table

U0 = Ulp(0)
DIV = Ulp(2.5)  # float x / y
SQRT = Ulp(3)  # float sqrt
ALL_INT = Rand(INT_MIN, INT_MAX)


def _nan_sat_is_zero(source_index: int, slots: dict):
    """PoCL 3.0 converts NaN to the most negative (signed) or largest (unsigned) value in the
    32/64-bit convert_*_sat* forms; OpenCL C 2.0 6.2.3.3 says NaN converts to 0. For every NaN
    in argument ``source_index``, zero the output elements ``o[K * i + j]`` listed in ``slots``
    ({output argument index: (j, ...)}; K is the output's elements per input element)."""

    def fix(values: list, outputs: list) -> list:
        source = values[source_index]
        nan_at = np.flatnonzero(np.isnan(source))
        fixed = list(outputs)
        for index, js in slots.items():
            out = outputs[index].copy()
            per = out.size // source.size
            flat = out.reshape(-1)
            for i in nan_at:
                for j in js:
                    flat[per * i + j] = 0
            fixed[index] = out
        return fixed

    return fix


def _vectors() -> list[Case]:
    small = Rand(-30000, 30000)
    return [
        Case("vec2", "vec2_int", N, 16, (
            In(i32, (N, 2), small), In(i32, (N, 2), small),
            Out(i32, (N, 2)), Out(i32, (N, 2)), Out(i32, (N, 2)), Out(i32, (N, 2)), Out(i32, 2 * N))),
        Case("vec2", "vec2_float", N, 16, (
            In(f32, (N, 2), specials(-100, 100)), In(f32, (N, 2), Rand(-100, 100)),
            Out(f32, (4 * N, 2), Interleaved(U0, U0, U0, DIV)), Out(f32, (N, 2), U0), Out(i32, (N, 2)))),
        Case("vec3", "vec3_float", N, 32, (
            In(f32, (N, 4), Rand(-10, 10)), In(f32, (N, 4), Rand(-10, 10)),
            Out(f32, (N, 4), Ulp(0, lanes=3)), Out(f32, (N, 4), Ulp(0, lanes=3)),
            Out(f32, (N, 4), Ulp(0, lanes=3)), Out(i32, (N, 4), Exact(lanes=3)), Out(f32, 3 * N, U0))),
        Case("vec3", "vec3_int", N, None, (
            In(i32, (N, 4), Rand(-1000, 1000)), Out(i32, (2 * N, 4), Exact(lanes=3)),
            Out(i32, (N, 4), Exact(lanes=3)))),
        Case("vec4", "vec4_int", N, 8, (
            In(i32, (N, 4), small), In(i32, (N, 4), small),
            Out(i32, (3 * N, 4)), Out(i32, (N, 4)), Out(i32, (2 * N, 2)))),
        Case("vec4", "vec4_float", N, 8, (
            In(f32, (N, 4), specials(-10, 10)), In(f32, (N, 4), Rand(-10, 10)),
            Out(f32, (4 * N, 4), Interleaved(U0, U0, DIV, U0)), Out(i32, (N, 4)))),
        Case("vec4", "vec4_uchar", N, None, (
            In(u8, (N, 4), Rand(0, 255)), In(u8, (N, 4), Rand(0, 255)),
            Out(u8, (2 * N, 4)), Out(u32, N), Out(i8, (N, 4)))),
        Case("vec8", "vec8_short", N, 32, (
            In(i16, (N, 8), Rand(-3000, 3000)), In(i16, (N, 8), Rand(-3000, 3000)),
            Out(i16, (2 * N, 8)), Out(i16, (N, 8)), Out(i16, (2 * N, 4)))),
        Case("vec8", "vec8_float", N, 32, (
            In(f32, (N, 8), Rand(-50, 50)), In(f32, (N, 8), Rand(-50, 50)),
            Out(f32, (3 * N, 8), U0), Out(i32, (N, 8)), Out(f32, (2 * N, 4), U0))),
        Case("vec16", "vec16_int", N, 64, (
            In(i32, (N, 16), Rand(-20000, 20000)), In(i32, (N, 16), Rand(-20000, 20000)),
            Out(i32, (2 * N, 16)), Out(i32, (N, 16)), Out(i32, 4 * N))),
        Case("vec16", "vec16_char", N, 64, (
            In(i8, (N, 16), Rand(-128, 127)), In(i8, (N, 16), Rand(-128, 127)),
            Out(i8, (2 * N, 16)), Out(i8, (N, 16)))),
        Case("vec16", "vec16_float", N, 64, (
            In(f32, (N, 16), specials(-100, 100)), In(f32, (N, 16), Rand(-100, 100, nonzero=True)),
            Out(f32, (3 * N, 16), Interleaved(U0, U0, DIV)), Out(i32, (N, 16)))),
        Case("vec_load_store", "vec_vload_vstore", N, 16, options=CL30, args=(
            In(f32, 1100, Rand(-10, 10)), Out(f32, 2112, U0), In(i32, 3 * N, Rand(-1000, 1000)),
            Out(i32, 3 * N))),
        Case("vec_load_store", "vec_pointer_cast", N, None, options=CL30, args=(
            In(f32, 4 * N, Rand(-10, 10)), Out(f32, 4 * N, U0))),
        Case("vec_convert", "vec_convert", N, 16, pocl_fixup=_nan_sat_is_zero(1, {5: (0,)}), args=(
            In(i32, (N, 4), Values(INT_EDGE, ALL_INT)), In(f32, (N, 8), specials(-3e9, 3e9)),
            In(i32, (N, 16), Rand(-1000, 1000)), In(f32, (N, 2), Rand(-32000, 32000)),
            Out(f32, (N, 4), U0), Out(i32, (N, 8)), Out(u8, (N, 16)), Out(i16, (N, 2)),
            Out(i8, (N, 4), Exact(lanes=3)))),
    ]


def _integers() -> list[Case]:
    divisor = Values((1, -1, 2, -2, 7, -7, 1000, INT_MAX, -INT_MAX, 3, -3), Rand(-100000, 100000, nonzero=True))
    dividend = Values((0, 7, -7, INT_MAX, INT_MIN + 1, -1, 1, 100, -100, INT_MIN + 7, 12345),
                      Rand(INT_MIN + 1, INT_MAX))
    div_args = lambda: (In(i32, N, dividend), In(i32, N, divisor))  # noqa: E731
    return [
        Case("int_wrap", "int_wrap", N, None, (
            In(u32, N, Values(UINT_EDGE, Rand(0, 2**32 - 1))), In(u32, N, Values(UINT_EDGE[::-1], Rand(0, 2**32 - 1))),
            Out(u32, 4 * N), Out(i32, 3 * N), In(u64, N, Values(ULONG_EDGE, Rand(0, 2**64 - 1))),
            Out(u64, 3 * N), Out(i64, 2 * N))),
        Case("int_shift", "int_shift", N, None, (
            In(i32, N, Values(INT_EDGE, ALL_INT)), In(i32, N, Values((0, 1, 31, 32, 33, 63, 64, 65, 127), Rand(0, 127))),
            Out(i32, 2 * N), Out(u32, 2 * N), Out(i8, 2 * N), Out(i16, 2 * N), Out(i64, 2 * N), Out(i32, (N, 4)))),
        Case("int_divrem", "int_div", N, None, (
            *div_args(), Out(i32, N), Out(u32, N), Out(i64, 2 * N), Out(i16, N), Out(i8, N))),
        Case("int_divrem", "int_rem", N, None, (
            *div_args(), Out(i32, N), Out(u32, N), Out(i64, 2 * N), Out(i16, N), Out(i8, N))),
        Case("int_narrow_types", "int_narrow_types", N, None, (
            In(i8, N, Values((-128, 127, -1, 0), Rand(-128, 127))), In(u8, N, Values((255, 0, 128), Rand(0, 255))),
            In(i16, N, Values((-32768, 32767, -1), Rand(-32768, 32767))), In(u16, N, Values((65535, 0, 32768), Rand(0, 65535))),
            Out(i8, 2 * N), Out(u8, 2 * N), Out(i16, 2 * N), Out(u16, 2 * N), Out(i32, 4 * N))),
        Case("int_builtins", "int_builtins_int", N, None, (
            In(i32, N, Values(INT_EDGE, ALL_INT)), In(i32, N, Values(INT_EDGE[::-1], ALL_INT)),
            Out(u32, N), Out(i32, 8 * N))),
        Case("int_builtins", "int_builtins_mixed", N, None, (
            In(i64, N, Values((0, 1, -1, 2**61, -(2**61), 2**40 + 3), Rand(-(2**61), 2**61))),
            In(u8, N, Rand(0, 255)), In(i16, N, Values((-32768, 32767, -1, 0), Rand(-32768, 32767))),
            Out(i64, 4 * N), Out(u64, 2 * N), Out(u8, 3 * N), Out(i16, 3 * N))),
        Case("int_saturate", "int_add_sub_sat", N, None, (
            In(i32, N, Values(INT_EDGE, ALL_INT)), In(i32, N, Values(INT_EDGE[5:] + INT_EDGE[:5], ALL_INT)),
            Out(i8, 2 * N), Out(u8, 2 * N), Out(i16, 2 * N), Out(u16, 2 * N),
            Out(i32, 2 * N), Out(u32, 2 * N), Out(i64, 2 * N), Out(u64, 2 * N))),
        Case("int_bits", "int_bits", N, None, (
            In(u32, N, Values(UINT_EDGE, Rand(0, 2**32 - 1))), In(i32, N, Values((0, 1, 31, 32, 33, 64, 100), Rand(0, 127))),
            Out(u32, 6 * N), Out(u8, 3 * N), Out(i16, 3 * N), Out(u64, 3 * N), Out(u32, (N, 4)))),
        Case("int_vector_builtins", "int_vector_builtins", N, 16, (
            In(i32, (N, 4), Rand(-(2**30), 2**30)), In(i32, (N, 4), Rand(-(2**30), 2**30)),
            In(u8, (N, 8), Rand(0, 255)), In(i16, (N, 16), Rand(-32768, 32767)),
            Out(i32, (4 * N, 4)), Out(u32, (N, 4)), Out(u8, (N, 8)), Out(i16, (N, 16)))),
        Case("bitcast", "bitcast", N, None, (
            In(f32, N, Values(F32_SPECIAL, Bits())), In(i32, (N, 4), Bits()), In(f64, N, Bits()),
            Out(u32, 3 * N), Out(f32, 2 * N, Bitwise()), Out(i8, (N, 4)), Out(i64, N), Out(f32, (N, 4), Bitwise()))),
        Case("logical_relational", "logical_ops", N, None, (
            In(i32, N, Values((0, 0, 1, -1, 0, 5), Rand(-3, 3))), In(i32, (N, 4), Rand(-2, 2)),
            Out(i32, 4 * N), Out(i32, (3 * N, 4)))),
        Case("logical_relational", "relational", N, None, (
            In(f32, N, specials(-2, 2)), In(f32, N, Values(F32_SPECIAL[3:] + F32_SPECIAL[:3], Rand(-2, 2))),
            In(f32, (N, 4), Values(F32_SPECIAL, Rand(-2, 2))), Out(i32, 14 * N), Out(i32, (5 * N, 4)))),
    ]


def _conversions() -> list[Case]:
    return [
        Case("conv_int_to_float", "conv_int_to_float", N, None, (
            In(i32, N, Values(INT_EDGE, ALL_INT)), In(u32, N, Values(UINT_EDGE, Rand(0, 2**32 - 1))),
            In(i64, N, Values(LONG_EDGE, Rand(LONG_MIN, LONG_MAX))), In(u64, N, Values(ULONG_EDGE, Rand(0, 2**64 - 1))),
            Out(f32, 17 * N, U0))),
        Case("conv_int_to_float", "conv_small_int_to_float", N, None, (
            In(i8, N, Rand(-128, 127)), In(u16, N, Rand(0, 65535)), In(i32, (N, 4), Values(INT_EDGE, ALL_INT)),
            Out(f32, 2 * N, U0), Out(f32, (N, 4), U0))),
        Case("conv_float_to_int", "conv_float_to_int", N, None, (
            In(f32, N, Values((0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0, 0.0, 0.49999997, 29999.5, -29999.5,
                              1.401298464324817e-45, -1.401298464324817e-45, 0.99999994, -0.99999994, 3.5, -3.5),
                             Rand(-30000, 30000))),
            Out(i32, 5 * N), Out(u32, 2 * N), Out(i16, N), Out(i64, 2 * N), Out(u8, N))),
        Case("conv_float_to_int", "conv_float_to_int_sat", N, None, pocl_fixup=_nan_sat_is_zero(0, {
            1: (0, 1, 2, 3), 2: (0, 1), 3: (0, 1), 4: (0,), 5: (0,), 6: (0,), 7: (0, 1), 8: (0,)}), args=(
            In(f32, N, Values(F32_SPECIAL, Rand(-1e10, 1e10))),
            Out(i32, 4 * N), Out(u32, 2 * N), Out(i8, 2 * N), Out(u8, N), Out(i16, N), Out(u16, N),
            Out(i64, 2 * N), Out(u64, N))),
        Case("conv_float_to_int", "conv_float_to_int_sat", N, None, name="small", args=(
            In(f32, N, Rand(-300, 300)),
            Out(i32, 4 * N), Out(u32, 2 * N), Out(i8, 2 * N), Out(u8, N), Out(i16, N), Out(u16, N),
            Out(i64, 2 * N), Out(u64, N))),
        Case("conv_narrowing", "conv_narrowing", N, None, (
            In(i32, N, Values(INT_EDGE, ALL_INT)), In(i64, N, Values(LONG_EDGE, Rand(LONG_MIN, LONG_MAX))),
            Out(i8, 2 * N), Out(u8, 2 * N), Out(i16, 2 * N), Out(u16, 2 * N),
            Out(i32, 3 * N), Out(u32, 3 * N), Out(i64, 2 * N), Out(u64, 2 * N))),
        Case("conv_narrowing", "conv_narrowing_vec", N, None, (
            In(i16, (N, 8), Rand(-32768, 32767)), In(u32, (N, 4), Values(UINT_EDGE, Rand(0, 2**32 - 1))),
            Out(i8, (N, 8)), Out(u8, (N, 8)), Out(i32, (N, 4)), Out(i8, (N, 4)), Out(u16, (N, 4)))),
        Case("conv_double", "conv_double", N, None, pocl_fixup=_nan_sat_is_zero(0, {5: (0, 1), 6: (0,)}), args=(
            In(f64, N, Values(F64_SPECIAL, Rand(-1e12, 1e12))), In(f32, N, Rand(-1e6, 1e6)),
            In(i64, N, Values(LONG_EDGE, Rand(LONG_MIN, LONG_MAX))),
            Out(f32, 4 * N, U0), Out(f64, 5 * N, U0), Out(i32, 3 * N), Out(i64, 2 * N))),
        Case("conv_half", "conv_half", N, None, options=CL30, pocl_fixup=_nan_sat_is_zero(1, {7: (0, 1)}), args=(
            In(f32, N, Values(F32_TO_HALF, Rand(-70000, 70000))), In(f16, N, Values(F16_SPECIAL, Rand(-60000, 60000))),
            In(f64, N, Values(F32_TO_HALF + (65519.999999, 2.98023223876953125e-08 * (1 + 2**-40)), Rand(-70000, 70000))),
            In(i32, N, Values((2049, 2051, -2049, 65519, 65520, 16777215, -16777215), Rand(-(2**24) + 1, 2**24 - 1))),
            Out(f16, 10 * N, U0), Out(f32, N, U0), Out(f64, N, U0), Out(i32, 2 * N))),
    ]


def _control_flow() -> list[Case]:
    return [
        Case("cf_if_chain", "cf_if_chain", N, None, (
            In(i32, N, Values((-1000, -1001, 0, 999, 1000, 1001, -5, 5, 6, -6), Rand(-3000, 3000))),
            In(f32, N, Values((nan, 0.0, -0.0, 0.5, 1.0, 0.25, -1.0, 2.0, 0.2), Rand(-2, 2))),
            Out(i32, 3 * N))),
        Case("cf_switch", "cf_switch", N, None, (
            In(i32, N, Values((-100000, 17, 1000, 65535, 0), Rand(-200000, 200000))),
            In(i32, N, Values(tuple(range(-3, 21)), Rand(-3, 20))), Out(i32, 3 * N))),
        Case("cf_loops", "cf_nested_loops", N, None, (In(i32, N, Rand(-(10**6), 10**6)), Out(i32, 2 * N))),
        Case("cf_loops", "cf_do_while", N, None, (
            In(u32, N, Values((0, 1, 9, 10, 2**32 - 1), Rand(0, 2**32 - 1))), Out(u32, 4 * N))),
        Case("cf_early_return", "cf_early_return", N, None, (In(i32, N, Rand(-(2**20), 2**20)), Out(i32, 3 * N))),
        Case("cf_data_dependent", "cf_collatz", N, None, (In(u32, N, Rand(0, 10000)), Out(u32, N))),
        Case("cf_data_dependent", "cf_search_gcd", N, None, (
            In(i32, 256, Rand(-50, 50)), In(i32, N, Rand(-60, 60)), Out(i32, N), Out(u32, N))),
        Case("cf_data_dependent", "cf_bubble_sort", N, None, (
            In(i32, 8 * N, Rand(-100, 100)), Out(i32, 8 * N), Out(i32, N))),
        Case("cf_calls", "cf_calls", N, None, (In(i32, N, Rand(0, 2000)), Out(i32, 4 * N), Out(f32, (N, 4), U0))),
        Case("private_arrays", "private_arrays", N, None, (
            In(i32, 256, Rand(-1000, 1000)), Out(i32, 3 * N), Out(i32, 16 * N))),
    ]


def _barriers_and_local() -> list[Case]:
    M_, N_, K_ = 32, 48, 40
    return [
        Case("matmul_tiled", "matmul_tiled", (N_, M_), (8, 8), (
            In(f32, M_ * K_, Rand(-1, 1)), In(f32, K_ * N_, Rand(-1, 1)), Out(f32, M_ * N_, U0),
            Scalar(i32, M_), Scalar(i32, N_), Scalar(i32, K_))),
        Case("matmul_tiled", "matmul_tiled_int", (32, 32), (8, 8), (
            In(i32, 32 * 32, Rand(-100, 100)), In(i32, 32 * 32, Rand(-100, 100)), Out(i32, 32 * 32),
            Scalar(i32, 32), Local(8 * 8 * 4), Local(8 * 8 * 4))),
        Case("matmul_tiled", "matmul_tiled_int", (32, 32), (16, 16), name="tile16", args=(
            In(i32, 32 * 32, Rand(-100, 100)), In(i32, 32 * 32, Rand(-100, 100)), Out(i32, 32 * 32),
            Scalar(i32, 32), Local(16 * 16 * 4), Local(16 * 16 * 4))),
        Case("reduce_local", "reduce_sum_tree", 1024, 64, (
            In(f32, 1024, Rand(-1, 1)), Out(f32, 16, U0), Local(64 * 4))),
        Case("reduce_local", "reduce_minmax_strided", 256, 64, (
            In(i32, 5000, ALL_INT), Scalar(i32, 5000), Out(i32, 8))),
        Case("reduce_local", "reduce_last_group", 1024, 64, (
            In(i32, 1024, Rand(-1000, 1000)), Out(i32, 16), InOut(u32, 1, Const(0)), Out(i32, 1), Local(64 * 4))),
        Case("scan_local", "scan_hillis_steele", 512, 64, (
            In(i32, 512, Rand(-100, 100)), Out(i32, 512), Local(2 * 64 * 4))),
        Case("scan_local", "scan_blelloch", 512, 64, (
            In(u32, 1024, Rand(0, 1000)), Out(u32, 1024), Out(u32, 8))),
        Case("barrier_shapes", "barrier_after_divergence", 256, 64, (
            In(i32, 256, Rand(-1000, 1000)), Out(i32, 256))),
        Case("barrier_shapes", "barrier_many", 256, 64, (
            In(i32, 256, Rand(-10000, 10000)), Out(i32, 256), Local(64 * 4), Local(64 * 4))),
        Case("barrier_shapes", "barrier_many", 96, 32, name="wg32", args=(
            In(i32, 96, Rand(-10000, 10000)), Out(i32, 96), Local(32 * 4), Local(32 * 4))),
        Case("barrier_shapes", "barrier_loop_uniform", 256, 32, (
            In(i32, 256, Rand(-10000, 10000)), In(i32, 8, Values((0, 1, 6), Rand(0, 6))), Out(i32, 256))),
        Case("barrier_shapes", "barrier_loop_cuts", 256, 64, (
            In(i32, 1000, Rand(0, 9)), Scalar(i32, 1000), Out(i32, 256))),
        Case("barrier_shapes", "barrier_loop_cuts", 192, 48, name="wg48", args=(
            In(i32, 777, Rand(0, 9)), Scalar(i32, 777), Out(i32, 192))),
        Case("loop_cuts", "loop_cuts_uniform", 256, 64, (
            In(i32, 100, Rand(-50, 50)), Scalar(i32, 100), Out(i32, 256))),
        Case("loop_cuts", "loop_cuts_uniform", 120, 24, name="wg24", args=(
            In(i32, 7, Rand(-50, 50)), Scalar(i32, 7), Out(i32, 120))),
        Case("local_2d", "transpose_local", (48, 32), (8, 8), (
            In(f32, 32 * 48, Bits()), Out(f32, 48 * 32, Bitwise()), Scalar(i32, 48), Scalar(i32, 32))),
        Case("local_2d", "stencil_halo", 512, 64, (
            In(f32, 512, Rand(-10, 10)), Out(f32, 512, U0), Local((64 + 4) * 4), Scalar(i32, 512))),
    ]


def _atomics() -> list[Case]:
    return [
        Case("atomic_counter", "atomic_counter", 4096, None, (
            In(i32, 4096, Rand(-1000, 1000)), InOut(i32, 5, Const(0)), InOut(u32, 3, Const(0)))),
        Case("atomic_histogram", "hist_global", 1024, 64, (
            In(u32, 10000, Rand(0, 2**32 - 1)), Scalar(i32, 10000), InOut(u32, 32, Const(0)))),
        Case("atomic_histogram", "hist_local", 1024, 64, (
            In(u32, 10000, Rand(0, 2**32 - 1)), Scalar(i32, 10000), InOut(u32, 32, Const(0)))),
        Case("atomic_histogram", "hist_local", 256, 16, name="wg16", args=(
            In(u32, 3000, Rand(0, 2**32 - 1)), Scalar(i32, 3000), InOut(u32, 32, Const(0)))),
        Case("atomic_histogram", "hist_local_arg", 4096, 128, (
            In(u8, 4096, Rand(0, 255)), InOut(i32, 20, Const(0)), Local(20 * 4), Scalar(i32, 20))),
        Case("atomic_ops", "atomic_minmax_logic", 1024, 64, (
            In(i32, 1024, ALL_INT), InOut(i32, 5, Values((INT_MAX, INT_MIN, 0, INT_MAX, INT_MIN))),
            InOut(u32, 8, Values((2**32 - 1, 0, 2**32 - 1, 0, 0, 0, 2**32 - 1, 0))))),
        Case("atomic_ops", "atomic_cmpxchg_loops", 2048, 64, (
            In(i32, 2048, Rand(-1000, 1000)), InOut(i32, 1, Const(0)), InOut(i32, 1, Const(INT_MIN)),
            InOut(f32, 1, Const(0.0)))),
        Case("atomic_ops", "atom_32", 1024, 64, (
            In(i32, 1024, Rand(-1000, 1000)), InOut(i32, 5, Values((0, 0, INT_MIN, 0, 0))))),
        Case("atomic_64", "atom64_global", 2048, None, (
            In(i64, 2048, Rand(-(2**40), 2**40)), InOut(i64, 6, Values((0, 0, 0, LONG_MAX, LONG_MIN, 0))),
            InOut(u64, 3, Const(0)))),
        Case("atomic_64", "atom64_local", 1024, 64, (In(i64, 1024, Rand(-(2**50), 2**50)), Out(i64, 32))),
        Case("atomic_c11", "atomic_c11", 2048, 64, options=CL30, args=(
            In(i32, 2048, Rand(-5000, 5000)), InOut(i32, 7, Values((0, 0, 0, INT_MAX, INT_MIN, 0, 0))),
            InOut(u32, 3, Values((0, 2**32 - 1, 0))), InOut(i64, 1, Const(0)))),
    ]


def _structs_and_program_scope() -> list[Case]:
    particle = fields(id=ALL_INT, weight=Rand(-100, 100), delta=Rand(-1000, 1000), tag=Rand(-128, 127),
                      flags=Rand(0, 2**32 - 1))
    inner = fields(x=Rand(-100, 100), y=Rand(-100, 100), w=Rand(-10000, 10000))
    outer = fields(pts=inner, name=Rand(-128, 127), count=Rand(-1000, 1000), extra=inner)
    mixed = fields(c0=Rand(-100, 100), pos=Rand(-10, 10), c1=Rand(-10, 10), n=Rand(-1000, 1000),
                   pair=Rand(-128, 127), d=Rand(-1000, 1000))
    return [
        Case("struct_array", "struct_aos", N, None, (
            In(PARTICLE, N, particle), Out(RESULT, N, Fields(score=U0)), Out(PARTICLE, N, Fields(weight=U0)))),
        Case("struct_byvalue", "struct_by_value", N, 16, (
            In(f32, (N, 4), Rand(-10, 10)), Out(f32, (N, 4), U0), Out(i32, 2 * N),
            Struct(PARAMS, ((1.5, -2.0, 0.25, 3.0), 7, 2, 3, 0.125)), Scalar(i32, 11),
            Vector(i32, (0xFF, 0, 0, 0x0F)), Scalar(f32, -0.75))),
        Case("struct_byvalue", "struct_by_value", N, None, name="mode1", args=(
            In(f32, (N, 4), Rand(-10, 10)), Out(f32, (N, 4), U0), Out(i32, 2 * N),
            Struct(PARAMS, ((-1.0, 0.5, 8.0, -0.125), -100, 1, 9, -3.5)), Scalar(i32, -4),
            Vector(i32, (7, 1, 2, 3)), Scalar(f32, 2.0))),
        Case("struct_nested", "struct_nested", N, None, (
            In(OUTER, N, outer), Out(OUTER, N), Out(i32, N))),
        Case("struct_layout", "struct_layout", N, None, (
            In(MIXED, N, mixed), Out(MIXED, N, Fields(pos=Ulp(0, lanes=3), d=U0)), Out(i32, 8),
            Out(f32, 3 * N, U0))),
        Case("const_tables", "crc32_nibble", N, None, (
            In(u8, N * 16, Rand(0, 255)), Scalar(i32, 16), Out(u32, N))),
        Case("const_tables", "const_lookup", N, None, (
            In(f32, N, Rand(-2, 2)), In(u8, N, Values((0, 63, 64, 127, 128, 191, 192, 255), Rand(0, 255))),
            Out(f32, N, U0))),
        Case("const_tables", "constant_arg", N, None, (
            In(i32, 32, Rand(-100, 100)), In(f32, (8, 4), Rand(-10, 10)), In(i32, N, ALL_INT),
            Out(f32, (N, 4), U0))),
        Case("global_vars", "global_vars", N, N, (
            In(i32, N, Rand(-1000, 1000)), Out(i32, 2 * N), Out(f32, N, U0))),
        Case("global_vars", "global_counter_readout", N, N, (In(i32, N, Rand(-1000, 1000)), Out(i32, 1))),
        # PoCL rejects generic pointers; POCL_NO_GENERIC selects per-address-space overloads.
        Case("generic_as", "generic_ptr", N, N, options=CL20 + " -DPOCL_NO_GENERIC", args=(
            InOut(i32, 3 * N, Rand(-1000, 1000)), Out(i32, 4 * N))),
    ]


def _floats() -> list[Case]:
    positive = Values((0.0, -0.0, inf, nan, 1e-40, 1.0, 4.0, 0.25, 2.0, 1e30, -1.0), Rand(1e-3, 1e3))
    basic = Values((0.5, 1.5, 2.5, -0.5, -2.5, -0.0, 0.0, inf, -inf, nan, 1.401298464324817e-45,
                    -1.401298464324817e-45, 1.1754943508222875e-38, 8388607.5, -8388607.5, 8388609.0,
                    0.49999997, -0.49999997, 1e30, -1e30, 3.5, -3.5), Rand(-100, 100))
    half_in = Values(F16_SPECIAL, Rand(-100, 100))
    return [
        Case("double_arith", "double_arith", N, None, (
            In(f64, N, Values(F64_SPECIAL, Rand(-1e3, 1e3))), In(f64, N, Values(F64_SPECIAL[::-1], Rand(-1e3, 1e3))),
            Out(f64, 7 * N, U0), Out(i64, N))),
        Case("double_arith", "double_vec", N, None, (
            In(f64, (N, 4), Rand(-100, 100)), In(f64, (N, 2), Rand(-100, 100)),
            Out(f64, (2 * N, 4), U0), Out(i64, (N, 4)))),
        Case("half_arith", "half_arith", N, None, options=CL30, args=(
            In(f16, N, half_in), In(f16, N, Values(F16_SPECIAL[::-1], Rand(-100, 100))),
            Out(f16, 8 * N, Interleaved(U0, U0, U0, Ulp(1, ref=0), U0, U0, Ulp(1, ref=0), U0)), Out(i32, N))),
        Case("half_arith", "half_vec", N, None, options=CL30, args=(
            In(f16, 4 * N, Rand(-100, 100)), In(f16, 4 * N, Rand(-100, 100)), Out(f16, 12 * N, U0))),
        Case("math_basic", "math_basic", N, None, (
            In(f32, N, basic), In(f32, N, Values(basic.values[::-1], Rand(-100, 100))),
            Out(f32, 9 * N, U0), Out(f32, 2 * N, Interleaved(SQRT, Ulp(2))))),
        Case("math_basic", "math_basic_vec", N, None, (
            In(f32, (N, 4), basic), In(f32, (N, 4), Rand(-100, 100)),
            Out(f32, (4 * N, 4), U0), Out(f32, (N, 4), SQRT))),
        Case("math_transcendental", "math_exp_log", N, None, (
            In(f32, N, Values((0.0, -0.0, 1.0, -1.0, 88.0, -87.0, 0.5, inf, -inf, nan), Rand(-20, 20))),
            In(f32, N, positive), Out(f32, 2 * N, Ulp(3)), Out(f32, 2 * N, Ulp(3)), Out(f32, N, Ulp(16)))),
        Case("math_transcendental", "math_trig", N, None, (
            In(f32, N, Values((0.0, -0.0, 1.0, -1.0, 3.1415927, 1.5707964, -1.5707964), Rand(-10, 10))),
            In(f32, N, Values((0.0, -0.0, 1.0, -1.0, inf, -inf, 10.0, -10.0), Rand(-10, 10))),
            Out(f32, 2 * N, Ulp(4)), Out(f32, N, Ulp(4)), Out(f32, N, Ulp(6)), Out(f32, N, Ulp(5)))),
        Case("math_transcendental", "math_vec", N, None, (
            In(f32, (N, 8), Rand(-5, 5)), Out(f32, (N, 8), Ulp(3)), Out(f32, (N, 8), Ulp(4)),
            Out(f32, (N, 2), Ulp(16)))),
        Case("math_native_half", "math_native", N, None, (
            In(f32, N, Values((0.1, 1.0, 2.0, 4.0, 8.0, 3.1415927), Rand(0.1, 8))), Out(f32, 10 * N, Rel(1e-3, 1e-3)))),
        Case("math_native_half", "math_half_forms", N, None, (
            In(f32, N, Values((0.1, 1.0, 2.0, 4.0, 8.0, 3.1415927), Rand(0.1, 8))), Out(f32, 10 * N, Ulp(8192)))),
        Case("math_double", "math_double", N, None, (
            In(f64, N, Values((0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-310, 3.0), Rand(-20, 20))),
            In(f64, N, Values((0.0, -0.0, 1.0, -1.0, 50.0, -50.0), Rand(-50, 50))),
            Out(f64, 8 * N, U0),
            Out(f64, 11 * N, Interleaved(Ulp(3), Ulp(3), Ulp(3), Ulp(3), Ulp(16), Ulp(4), Ulp(4), Ulp(4),
                                         Ulp(6), Ulp(5), Ulp(2))))),
    ]


GEO_F32 = (0.0, 0.0, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, inf, 1.0, -inf, 2.0, nan, 1.0, 2.0, 3.0,
           1e30, 1e30, -1e30, 1e30, 1e-40, 2e-40, -3e-40, 1e-41, 3.0, 4.0, 0.0, 0.0, 1e-20, 1e-20, 1e-20, 1e-20,
           1e20, -1e20, 1e20, 5.0, 0.0, -7.0, 0.0, 0.0)
GEO_F64 = (0.0, 0.0, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, inf, 1.0, -inf, 2.0, nan, 1.0, 2.0, 3.0,
           1e300, 1e300, -1e300, 1e300, 1e-310, 2e-310, -3e-310, 1e-311, 3.0, 4.0, 0.0, 0.0,
           1e-200, 1e-200, 1e-200, 1e-200, 1e200, -1e200, 1e200, 5.0, 0.0, -7.0, 0.0, 0.0)
# cross: the bound is absolute (max^2 * 3 * FLT_EPSILON, max <= 100 here, for each side) plus
# relative room for the huge rows.
CROSS = Rel(1e-5, 8e-3)


def _geometric() -> list[Case]:
    f_len = Interleaved(*(Ulp(2.75 + 0.5 * n) for n in (1, 2, 3, 4)), *(Ulp(2.5 + 2 * n) for n in (1, 2, 3, 4)),
                        *(Ulp(8191.5 + n) for n in (1, 2, 3, 4)), *(Ulp(8191.5 + 2 * n) for n in (1, 2, 3, 4)))
    d_len = Interleaved(*(Ulp(5.5 + n) for n in (1, 2, 3, 4)), *(Ulp(5.5 + 2 * n) for n in (1, 2, 3, 4)))
    return [
        Case("geometric", "geometric_float", N, None, (
            In(f32, (N, 4), Values(GEO_F32, Rand(-100, 100))), In(f32, (N, 4), Rand(-100, 100)),
            Out(f32, (6 * N, 4), Interleaved(CROSS, CROSS, Ulp(6), Ulp(6), Ulp(8194), Ulp(8196))),
            Out(f32, 16 * N, f_len))),
        Case("geometric", "geometric_double", N, None, (
            In(f64, (N, 4), Values(GEO_F64, Rand(-100, 100))), In(f64, (N, 4), Rand(-100, 100)),
            Out(f64, (4 * N, 4), Interleaved(CROSS, CROSS, Ulp(8.5), Ulp(8.5))), Out(f64, 8 * N, d_len))),
        Case("shuffle", "shuffle_const", N, None, (
            In(f32, (N, 4), Rand(-100, 100)), In(f32, (N, 4), Rand(-100, 100)),
            Out(f32, (N, 8)), Out(f32, (N, 4)), Out(f32, (N, 2)))),
        Case("shuffle", "shuffle_dynamic", N, None, (
            In(i32, (N, 4), ALL_INT), In(i32, (N, 4), ALL_INT), In(u32, (N, 4), Rand(0, 0xFFFFFFFF)),
            In(u32, (N, 8), Rand(0, 0xFFFFFFFF)), Out(i32, (N, 4)), Out(i32, (N, 8)), Out(i32, (N, 4)))),
        Case("shuffle", "shuffle_bytes", N, None, (
            In(u8, (N, 16), Rand(0, 255)), In(u8, (N, 16), Rand(0, 255)), In(u16, (N, 8), Rand(0, 0xFFFF)),
            In(u16, (N, 8), Rand(0, 0xFFFF)), Out(u8, (N, 16)), Out(u16, (N, 8)), Out(u8, (N, 2)))),
    ]


def _printf() -> list[Case]:
    # PoCL 3.0 prints double arguments rounded to float (1e300 as inf): the double inputs are
    # values float represents exactly, so both sides print the same text.
    return [
        Case("printf_basic", "printf_scalars", 4, None, printf="exact", args=(
            In(i32, 9, Values((-42, 7, 255, 8, -3, 12, 300, 70000, 65))),
            In(f32, 12, Values((3.14159, -2.5, 1234.56789, 0.05, 1234.5, 0.000123456, 0.0001, 1e20, 2.5, inf, -inf,
                                nan))),
            In(f64, 4, Values((0.375, 2.0**-30, 2.0**100, -1.0 / 1024))),
            In(i64, 4, Values((-(1 << 40), -1, 0xDEADBEEFCAFE, 511))), Out(i32, 9))),
        Case("printf_vector", "printf_vectors", 8, None, printf="lines", args=(
            In(f32, (4, 4), Values((1.0, 2.0, 3.0, 4.0), Rand(-100, 100))), In(i32, (4, 4), ALL_INT),
            In(f64, (4, 2), Values((923.25, -0.125, 1e3, 3.5, 0.5, -7.75, 100.0, 2.0))),
            In(i8, (4, 8), Rand(-128, 127)), In(i16, (4, 2), Rand(-32768, 32767)),
            In(i64, (4, 4), Rand(LONG_MIN, LONG_MAX)), Out(i32, 16))),
        Case("printf_order", "printf_many", 48, 16, printf="lines", args=(
            In(i32, 48, Rand(0, 3)), Out(i32, 96), Local(16 * 4))),
        Case("printf_order", "printf_many", 200, 8, name="l8", printf="lines", args=(
            In(i32, 200, Rand(0, 2)), Out(i32, 400), Local(8 * 4))),
    ]


def _nonuniform_oracle(values: list) -> list:
    """workitem_nonuniform with global 1000, local 64: 15 groups of 64 and one of 40."""
    data = values[0]
    n, wg = data.size, 64
    groups = -(-n // wg)
    out = np.empty((n, 4), dtype=np.int32)
    gid = np.arange(n)
    out[:, 0] = np.where(gid // wg == groups - 1, n - (groups - 1) * wg, wg)
    out[:, 1] = gid % wg
    out[:, 2] = gid // wg
    out[:, 3] = groups
    sums = np.array([data[g * wg:(g + 1) * wg].sum(dtype=np.int64) for g in range(groups)], dtype=np.int32)
    return [None, out.reshape(-1), sums]


def _collectives() -> list[Case]:
    from . import collective_oracles as oracles

    missing = "PoCL 3.0's CPU device does not link work_group_* functions"
    cases = []
    # Every local size from 1 to 256 would be 256 compilations (the executor compiles a
    # barrier kernel per local size); these cover 1, odd, prime, powers of two and 256.
    for local in (1, 3, 7, 16, 31, 64, 100, 256):
        n = local * 3
        cases.append(Case("workgroup_collectives", "wg_int", n, local, name=f"l{local}", oracle=oracles.wg_int(local),
                          pocl_missing=missing, args=(In(i32, n, Rand(-100, 100)), Out(i32, 5 * n))))
    for local in (1, 5, 64):
        n = local * 4
        cases.append(Case("workgroup_collectives", "wg_wide", n, local, name=f"l{local}",
                          oracle=oracles.wg_wide(local), pocl_missing=missing,
                          args=(In(u32, n, Bits()), In(i64, n, Bits()), Out(u64, 5 * n))))
    for local, width, height in (((4, 3), 8, 6), ((16, 16), 32, 32), ((5, 2), 10, 4)):
        cases.append(Case("workgroup_collectives", "wg_float_2d", (width, height), local,
                          name=f"l{local[0]}x{local[1]}", oracle=oracles.wg_float_2d(width, local),
                          pocl_missing=missing, args=(In(f32, width * height, Rand(-10, 10)),
                                                      Out(f32, 4 * width * height))))
    for local, stride in ((16, 2), (8, 3), (1, 1)):
        n = local * 4
        cases.append(Case("async_copy", "async_copy", n, local, name=f"l{local}s{stride}", args=(
            In(f32, n * stride + 8, Rand(-10, 10)), Out(f32, 2 * n), Local(local * 4), Scalar(i32, stride))))
    for local in (8, 64):
        cases.append(Case("workgroup_collectives", "wg_loop", local * 2, local, name=f"l{local}",
                          oracle=oracles.wg_loop(local), pocl_missing=missing,
                          args=(In(i32, local * 2, Rand(0, 50)), Out(i32, local * 2), Scalar(i32, 3))))
    return cases


def _work_items() -> list[Case]:
    return [
        Case("workitem_1d", "workitem_1d", 256, 64, (Out(i32, 12 * 256),)),
        Case("workitem_1d", "workitem_1d", 256, 32, global_offset=(17,), name="offset", args=(Out(i32, 12 * 256),)),
        Case("workitem_nd", "workitem_2d", (16, 8), (4, 2), (Out(i32, 28 * 128),)),
        Case("workitem_nd", "workitem_2d", (16, 8), (8, 4), global_offset=(3, 5), name="offset",
             args=(Out(i32, 28 * 128),)),
        Case("workitem_nd", "workitem_3d", (8, 4, 6), (2, 2, 3), global_offset=(1, 2, 3), args=(Out(i32, 28 * 192),)),
        Case("workitem_nonuniform", "workitem_nonuniform", 1000, 64, oracle=_nonuniform_oracle, args=(
            In(i32, 1000, Rand(-1000, 1000)), Out(i32, 4000), Out(i32, 16))),
    ]


# Fixtures regenerate.sh also builds at -O0 (X.O0.spv) and for 32-bit SPIR (X.spir32.spv):
# every case of those sources runs on each variant too.
O0_SOURCES = ("cf_switch", "cf_loops", "cf_data_dependent", "cf_calls", "struct_nested", "reduce_local",
              "atomic_histogram", "generic_as", "private_arrays")
SPIR32_SOURCES = ("int_divrem", "matmul_tiled", "struct_array", "scan_local", "cf_switch")


def _with_variants(cases: list[Case]) -> list[Case]:
    out = []
    for case in cases:
        out.append(case)
        if case.fixture in O0_SOURCES:
            out.append(dataclasses.replace(case, fixture=f"{case.fixture}.O0"))
        if case.fixture in SPIR32_SOURCES:
            out.append(dataclasses.replace(case, fixture=f"{case.fixture}.spir32"))
    return out


BASE_CASES: list[Case] = [
    *_vectors(), *_integers(), *_conversions(), *_control_flow(), *_barriers_and_local(), *_collectives(), *_atomics(),
    *_structs_and_program_scope(), *_floats(), *_work_items(), *_geometric(), *_printf(),
]
CASES: list[Case] = _with_variants(BASE_CASES)

__all__ = [
    "CASES", "BASE_CASES", "KERNELS", "Case", "Buffer", "Scalar", "Vector", "Struct", "Local", "Exact", "Bitwise",
    "Ulp", "Rel", "Interleaved", "Fields", "EXACT", "FILL", "make_values",
]
