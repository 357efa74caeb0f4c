"""A reference model of OpenCL image reads and writes, written from the specs' text alone:
the OpenCL SPIR-V environment §7 (addressing, filtering, conversions) and OpenCL C 2.0
§6.13.14 (channel mapping, border colour, array layers). Plain Python and numpy float32
scalars, one texel at a time: slow and obvious.

Float arithmetic is float32 where the spec computes in float (numpy float32 scalars round
each operation as IEEE single does), in the order the spec writes the formulas; indices are
Python integers (exact at any magnitude). Where the spec leaves a result undefined the model
makes the executor's documented choice (docs/images.md): NONE reads outside the image give
the border colour, REPEAT / MIRRORED_REPEAT normalize unnormalized coordinates first.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

F = np.float32

# Stored components of each channel order, in memory order (the order's name read left to
# right; x is padding; INTENSITY, LUMINANCE, DEPTH store one value).
SINGLE = {"INTENSITY": "i", "LUMINANCE": "l", "DEPTH": "d"}


def stored_components(order: str) -> str:
    if order in SINGLE:
        return SINGLE[order]
    name = order[1:] if order.startswith("s") else order
    return name.lower()


def to_rgba(order: str, stored: dict, zero, one) -> list:
    """OpenCL C 2.0 §6.13.14.7's table: the (r, g, b, a) a read returns."""
    if order in ("INTENSITY",):
        return [stored["i"]] * 4
    if order in ("LUMINANCE",):
        return [stored["l"]] * 3 + [one]
    if order == "DEPTH":
        return [stored["d"], zero, zero, one]
    return [stored.get("r", zero), stored.get("g", zero), stored.get("b", zero), stored.get("a", one)]


def border_color(order: str, integer: bool = False) -> list:
    """§6.13.14.3: (0,0,0,0) for the orders with alpha (or padding); (0,0,0,1) for R, RG, RGB,
    LUMINANCE (and the executor's choice for sRGB and DEPTH, which the spec's lists omit)."""
    one = 1 if integer else F(1)
    zero = 0 if integer else F(0)
    alpha = one if order in ("R", "RG", "RGB", "LUMINANCE", "sRGB", "DEPTH") else zero
    return [zero, zero, zero, alpha]


# ----- conversions (§7.4) -----------------------------------------------------------------------
PACKED = {"UNORM_SHORT_565": [(11, 5), (5, 6), (0, 5)], "UNORM_SHORT_555": [(10, 5), (5, 5), (0, 5)],
          "UNORM_INT_101010": [(20, 10), (10, 10), (0, 10)]}
NORM_SCALE = {"UNORM_INT8": (255, 0, 255), "UNORM_INT16": (65535, 0, 65535),
              "SNORM_INT8": (127, -128, 127), "SNORM_INT16": (32767, -32768, 32767)}
INT_RANGE = {"SIGNED_INT8": (-128, 127), "SIGNED_INT16": (-32768, 32767), "SIGNED_INT32": (-2**31, 2**31 - 1),
             "UNSIGNED_INT8": (0, 255), "UNSIGNED_INT16": (0, 65535), "UNSIGNED_INT32": (0, 2**32 - 1)}


def srgb_decode(x: int) -> F:
    r = x / 255
    return F(r / 12.92 if r <= 0.04045 else ((r + 0.055) / 1.055) ** 2.4)


def srgb_encode(y: float) -> float:
    """c_sRGB with the standard's - 0.055 (the spec's text lost it)."""
    if math.isnan(y) or y < 0:
        return 0.0
    if y < 0.0031308:
        return 12.92 * y
    return 1.055 * y ** (1 / 2.4) - 0.055 if y <= 1 else 1.0


def read_texel(raw, order: str, ctype: str) -> list:
    """The colour of one stored texel (``raw``: its numpy components, or the packed word)."""
    if ctype in PACKED:
        word = int(raw)
        values = [F(F((word >> shift) & ((1 << bits) - 1)) / F((1 << bits) - 1)) for shift, bits in PACKED[ctype]]
        stored = dict(zip("rgb", values))
        return to_rgba(order, stored, F(0), F(1))
    letters = stored_components(order)
    stored = {}
    for letter, value in zip(letters, np.atleast_1d(raw)):
        if ctype in INT_RANGE:
            stored[letter] = int(value)
        elif ctype in NORM_SCALE:
            scale = NORM_SCALE[ctype][0]
            if order.startswith("s") and letter in "rgb":
                stored[letter] = srgb_decode(int(value))
            else:
                v = F(F(int(value)) / F(scale))
                stored[letter] = max(F(-1), v) if ctype.startswith("SNORM") else v
        else:
            stored[letter] = F(value)
    integer = ctype in INT_RANGE
    return to_rgba(order, stored, 0 if integer else F(0), 1 if integer else F(1))


def round_even(x: Fraction) -> int:
    floor = math.floor(x)
    rest = x - floor
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and floor % 2):
        return floor + 1
    return floor


def write_texel(color: list, order: str, ctype: str):
    """The stored components (or packed word) an image write of ``color`` leaves."""
    def normalized(v, scale, lo, hi):
        if math.isnan(v):          # implementation-defined: the executor writes 0 ...
            return 0
        if math.isinf(v):          # ... and saturates infinities
            return hi if v > 0 else lo
        exact = Fraction(float(v)) * scale
        return round_even(max(Fraction(lo), min(Fraction(hi), exact)))

    if ctype in PACKED:
        word = 0
        for v, (shift, bits) in zip(color[:3], PACKED[ctype]):
            top = (1 << bits) - 1
            word |= normalized(v, top, 0, top) << shift
        return word
    r, g, b, a = color
    if order.startswith("s"):
        r, g, b = (F(srgb_encode(float(F(c)))) for c in (r, g, b))
    by_letter = {"r": r, "g": g, "b": b, "a": a, "i": r, "l": r, "d": r, "x": 0}
    out = []
    for letter in stored_components(order):
        v = by_letter[letter]
        if ctype in INT_RANGE:
            lo, hi = INT_RANGE[ctype]
            v = int(v) % 2**32 if ctype.startswith("UNSIGNED") else int(v)
            out.append(max(lo, min(hi, v)))
        elif ctype in NORM_SCALE:
            out.append(normalized(v, *NORM_SCALE[ctype]) if letter != "x" else 0)
        elif ctype == "HALF_FLOAT":
            with np.errstate(over="ignore"):     # float -> half: beyond 65504 is infinity
                out.append(np.float16(F(v)))
        else:
            out.append(F(v))
    return out


# ----- addressing and filtering (§7.2) ----------------------------------------------------------
def _clamp(v, lo, hi):
    return lo if v < lo else (hi if v > hi else v)


def axis(s, size: int, mode: str, normalized: bool, linear: bool):
    """(i0, i1, a) for one coordinate: nearest gives (i, None, None)."""
    s, S = F(s), F(size)
    if mode in ("REPEAT", "MIRRORED_REPEAT"):
        if not normalized:
            s = F(s / S)
        if mode == "REPEAT":
            u = F(F(s - np.floor(s)) * S)
        else:
            sp = F(F(2) * np.rint(F(F(0.5) * s)))
            sp = F(abs(F(s - sp)))
            u = F(sp * S)
    else:
        u = F(s * S) if normalized else s
    if not linear:
        i = int(np.floor(u))
        if mode == "REPEAT":
            if i > size - 1:
                i -= size
        elif mode == "MIRRORED_REPEAT":
            i = min(i, size - 1)
        elif mode == "CLAMP_TO_EDGE":
            i = _clamp(i, 0, size - 1)
        elif mode == "CLAMP":
            i = _clamp(i, -1, size)
        return i, None, None
    t = F(u - F(0.5))
    i0 = int(np.floor(t))
    i1 = i0 + 1
    a = F(t - np.floor(t))
    if mode == "REPEAT":
        if i0 < 0:
            i0 += size
        if i1 > size - 1:
            i1 -= size
    elif mode == "MIRRORED_REPEAT":
        i0, i1 = max(i0, 0), min(i1, size - 1)
    elif mode == "CLAMP_TO_EDGE":
        i0, i1 = _clamp(i0, 0, size - 1), _clamp(i1, 0, size - 1)
    elif mode == "CLAMP":
        i0, i1 = _clamp(i0, -1, size), _clamp(i1, -1, size)
    return i0, i1, a


def sample(colors: np.ndarray, order: str, coord, sampler: dict, spatial: int, arrayed: bool,
           integer: bool = False, border: list | None = None) -> list:
    """A sampled read. ``colors``: the image's texels already read (``read_texel``), indexed
    [layer][z][y][x] -> 4 values (layer and z 0 when absent); ``coord``: the coordinate's
    components; ``sampler``: normalized (bool), addressing, filter ('NEAREST' / 'LINEAR');
    ``border``: another border colour than the spec's (to model a peer that departs from it)."""
    layers, depth, height, width = colors.shape[:4]
    sizes = [width, height, depth][:spatial]
    layer = 0
    if arrayed:   # §6.13.14.3: clamp(rint(coord), 0, layers - 1), unnormalized
        layer = _clamp(int(np.rint(F(coord[spatial]))), 0, layers - 1)
    linear = sampler["filter"] == "LINEAR" and not integer
    axes = [axis(coord[d], sizes[d], sampler["addressing"], sampler["normalized"], linear) for d in range(spatial)]
    border = border_color(order, integer) if border is None else border

    def texel(indices):
        idx = list(indices) + [0] * (3 - len(indices))
        if any(not 0 <= i < n for i, n in zip(idx, [width, height, depth])):
            return border
        return list(colors[layer, idx[2], idx[1], idx[0]])

    if not linear:
        return texel([a[0] for a in axes])
    total = None
    for corner in range(1 << spatial):
        bits = [(corner >> d) & 1 for d in range(spatial)]
        weight = None
        for d, bit in enumerate(bits):
            a = axes[d][2]
            w = a if bit else F(F(1) - a)
            weight = w if weight is None else F(weight * w)
        t = texel([axes[d][1] if bit else axes[d][0] for d, bit in enumerate(bits)])
        term = [F(weight * F(c)) for c in t]
        total = term if total is None else [F(x + y) for x, y in zip(total, term)]
    return total


def decoded(data: np.ndarray, order: str, ctype: str, spatial: int, arrayed: bool) -> np.ndarray:
    """Every texel of an image read with read_texel, as [layer][z][y][x][4] (float32 or int64)."""
    packed = ctype in PACKED
    channels = 1 if packed else len(stored_components(order))
    texel_shape = data.shape if packed or channels == 1 else data.shape[:-1]
    # to [layer][z][y][x]
    spatial_shape = texel_shape[1:] if arrayed else texel_shape
    layers = texel_shape[0] if arrayed else 1
    full = (layers,) + (1,) * (3 - spatial) + tuple(spatial_shape)
    texels = data.reshape(full + (() if packed or channels == 1 else (channels,)))
    integer = ctype in INT_RANGE
    out = np.zeros(full + (4,), np.int64 if integer else np.float32)
    for index in np.ndindex(*full):
        out[index] = read_texel(texels[index], order, ctype)
    return out
