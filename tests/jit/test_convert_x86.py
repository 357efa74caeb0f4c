"""Float-to-integer conversions out of range: the x86-64 results, on every host.

OpenCL C leaves a NaN or an out-of-range value converted without ``_sat`` undefined (§6.2.3.3);
spirvkit gives what PoCL's x86-64 (AVX-512) code gives (src/spirvkit/jit/ops_convert.py,
docs/conversions.md): INT_MIN / LONG_MIN for ``int`` / ``long``, all ones for ``uint`` / ``ulong``,
and for the narrower types the ``int`` result's low bits. ``_sat`` conversions clamp, NaN giving 0.

Each kernel converts edge values with ``convert_T`` (scalar and 2..16 wide), with a cast and
with ``convert_T_sat`` (scalar), from float and from double. spirvkit is checked against a model
of those rules written here, and against PoCL's recorded answers (tests/peers/records): equal
for the 32- and 64-bit types and for ``_sat``. For ``char``/``short`` PoCL is not consistent with
itself: where LLVM narrows a vector with the saturating ``pack*`` instructions its lanes are
clamped instead of truncated (``packed`` below), so each PoCL lane must be one of the two, and
the launches where PoCL differs from spirvkit are pinned in PACKED.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import spirvkit

TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
VALUES = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, -0.5, -0.99, -1.0, -1.5, 127.5, 128, 255,
          255.9, 256, 300, -129, -200, 32767, 32768, 65535, 65536, 70000.5, -32769, -70000, 2**31 - 128, 2**31,
          2**32, 4294967040, -2**31, -2147483904.0, -2147483648.5, -2147483649.0, 2147483647.5, 4294967295.5,
          3e9, -3e9, 5e9, 1e10, -1e10, 2**63, 9.2233715e18, 2**64, 1.8446743e19, -2**63, -9.223373e18, 1e20,
          -1e20, 3.4e38, -3.4e38, 1e300, -1e300]
SOURCES = {"float": np.float32, "double": np.float64}
WIDTHS = (1, 2, 4, 8, 16)

# The launches where PoCL's lanes are (partly) clamped rather than truncated: its vectorised
# narrowing. Everything else PoCL gives is what spirvkit gives.
PACKED = {("float", "char", 8, "convert"), ("float", "uchar", 8, "convert"),
          ("double", "char", 8, "convert"), ("double", "uchar", 8, "convert"),
          ("double", "char", 16, "convert"), ("double", "uchar", 16, "convert"),
          ("float", "short", 1, "convert"), ("float", "short", 1, "cast"), ("float", "short", 4, "convert"),
          ("float", "ushort", 1, "convert"), ("float", "ushort", 1, "cast"), ("float", "ushort", 4, "convert"),
          ("double", "short", 1, "convert"), ("double", "short", 1, "cast"), ("double", "short", 4, "convert"),
          ("double", "ushort", 1, "convert"), ("double", "ushort", 1, "cast"), ("double", "ushort", 4, "convert")}


def run_source(source: str, kernel: str, *args, global_size=1, options: str = "-cl-std=CL1.2") -> None:
    spirvkit.Program(spirvkit.compile_cl(source, options)).kernel(kernel)(global_size, None, *args)


def inputs(src: str) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.array(VALUES, np.float64).astype(SOURCES[src])


def launches():
    for src in SOURCES:
        for n in WIDTHS:
            for form in (("convert", "cast", "sat") if n == 1 else ("convert",)):
                yield src, n, form


def kernel_source(src: str, n: int, form: str) -> str:
    vec = "" if n == 1 else str(n)
    body = []
    for t in TYPES:
        e = {"convert": f"convert_{t}{vec}(x)", "cast": f"({t})x", "sat": f"convert_{t}_sat(x)"}[form]
        body.append(f"o_{t}[i] = {e};" if n == 1 else f"vstore{n}({e}, i, o_{t});")
    params = ", ".join(f"global {t} *o_{t}" for t in TYPES)
    load = "a[i]" if n == 1 else f"vload{n}(i, a)"
    pragma = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" if src == "double" else ""
    return (f"{pragma}kernel void k(global const {src} *a, {params}) {{\n"
            f"  size_t i = get_global_id(0);\n  {src}{vec} x = {load};\n  " + "\n  ".join(body) + "\n}\n")


def padded(src: str, n: int) -> np.ndarray:
    x = inputs(src)
    return np.concatenate([x, np.zeros((-len(x)) % n, x.dtype)])


def args(src: str, n: int) -> list:
    x = padded(src, n)
    return [x] + [np.zeros(len(x), dt) for dt in TYPES.values()]


# -- the rules, in Python ----------------------------------------------------------------------


def bits_of(t: str) -> tuple[int, bool]:
    info = np.iinfo(TYPES[t])
    return info.bits, info.min < 0


def x86(value: float, t: str) -> int:
    """convert_T without _sat, as spirvkit documents it."""
    bits, signed = bits_of(t)
    if bits < 32:
        return int(np.array(x86(value, "int"), np.int64).astype(np.uint64).astype(TYPES[t]))  # low bits
    low, high = (-2 ** (bits - 1), 2 ** (bits - 1)) if signed else (0, 2 ** bits)
    if math.isnan(value) or math.isinf(value):
        return low if signed else high - 1
    truncated = math.trunc(value)
    if low <= truncated < high:
        return truncated
    return low if signed else high - 1


def packed(value: float, t: str) -> int:
    """What PoCL's vector narrowing gives: the int result clamped to a 16-bit type (packssdw /
    packusdw), or its low 16 bits clamped to an 8-bit type (packsswb / packuswb)."""
    info = np.iinfo(TYPES[t])
    wide = x86(value, "int")
    if info.bits == 8:
        wide = int(np.array(wide, np.int64).astype(np.int16))
    return min(max(wide, int(info.min)), int(info.max))


def saturated(value: float, t: str) -> int:
    info = np.iinfo(TYPES[t])
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return int(info.max) if value > 0 else int(info.min)
    return min(max(math.trunc(value), int(info.min)), int(info.max))


def spirvkit_results(src: str, n: int, form: str) -> dict[str, list[int]]:
    a = args(src, n)
    run_source(kernel_source(src, n, form), "k", *a, global_size=len(a[0]) // n)
    m = len(VALUES)
    return {t: [int(v) for v in out[:m]] for t, out in zip(TYPES, a[1:])}


@pytest.mark.parametrize("src,n,form", list(launches()))
def test_spirvkit_gives_the_documented_results(src, n, form):
    got = spirvkit_results(src, n, form)
    rule = saturated if form == "sat" else x86
    for t in TYPES:
        assert got[t] == [rule(float(v), t) for v in inputs(src)], t


def test_spirvkit_agrees_with_pocl():
    import pocl  # its run() skips (fails under CI) when PoCL is missing

    differ = set()
    for src, n, form in launches():
        ref = pocl.run(kernel_source(src, n, form), "k", (len(padded(src, n)) // n,), None, args(src, n),
                       options="-cl-std=CL1.2")
        got = spirvkit_results(src, n, form)
        for t, out in zip(TYPES, ref[1:]):
            theirs = [int(v) for v in out[:len(VALUES)]]
            if theirs == got[t]:
                continue
            differ.add((src, t, n, form))
            bits, _ = bits_of(t)
            assert bits < 32 and form != "sat", (src, t, n, form)
            for v, mine, their in zip(inputs(src), got[t], theirs):
                assert their in (mine, packed(float(v), t)), (src, t, n, form, float(v))
    assert differ == PACKED


def test_saturated_nan_is_zero_and_half_widens_exactly():
    source = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
              "kernel void k(global int *o, global uint *u, global long *l, float nan, global half *hp) {\n"
              "  half h = hp[0];\n"
              "  o[0] = convert_int_sat(nan); u[0] = convert_uint_sat(nan); l[0] = convert_long_sat(nan);\n"
              "  o[1] = convert_int(nan); u[1] = convert_uint(nan); l[1] = convert_long(nan);\n"
              "  o[2] = convert_int(h); u[2] = convert_uint(h); l[2] = convert_long(-h);\n}\n")
    o, u, ll = np.zeros(3, np.int32), np.zeros(3, np.uint32), np.zeros(3, np.int64)
    run_source(source, "k", o, u, ll, np.float32("nan"), np.array([-65504.0], np.float16))
    assert o.tolist() == [0, -2 ** 31, -65504]
    assert u.tolist() == [0, 2 ** 32 - 1, 2 ** 32 - 1]
    assert ll.tolist() == [0, -2 ** 63, 65504]
