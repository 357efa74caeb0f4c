"""A reference model of Vulkan image sampling at Lod 0 and of Vulkan's format conversions, from
the Vulkan specification's text ("Texel Coordinate Systems", "Wrapping Operation", "Texel
Replacement", "Texel Filtering", "Fixed-Point Data Conversions"): plain Python, one texel at a
time, in double precision (the executor computes in float: tests compare with a tolerance and
keep coordinates away from texel boundaries, where Vulkan's subTexelPrecisionBits allow either
neighbour).
"""

from __future__ import annotations

import math

import numpy as np

BORDERS = {"float_transparent_black": (0, 0, 0, 0), "float_opaque_black": (0, 0, 0, 1),
           "float_opaque_white": (1, 1, 1, 1)}


def mirror(n: int) -> int:
    return n if n >= 0 else -(1 + n)


def wrap(i: int, size: int, mode: str) -> int | None:
    """The wrapping operation on one integer texel coordinate (None: a border texel)."""
    if mode == "repeat":
        return i % size
    if mode == "mirrored_repeat":
        return (size - 1) - mirror((i % (2 * size)) - size)
    if mode == "clamp_to_edge":
        return min(max(i, 0), size - 1)
    if mode == "clamp_to_border":
        return i if 0 <= i < size else None
    raise ValueError(mode)


def sample(texels: np.ndarray, coord, sampler: dict) -> tuple:
    """textureLod(..., 0) of ``texels`` (shape (d, h, w, 4) / (h, w, 4) / (w, 4), float values)
    at ``coord`` (one float per dimension), with sampler state ``sampler`` (mag_filter,
    address_modes, border_color, normalized_coords)."""
    sizes = list(reversed(texels.shape[:-1]))   # width, height, depth
    dims = len(sizes)
    linear = sampler["mag_filter"] == "linear"
    per_axis = []
    for d in range(dims):
        u = coord[d] * sizes[d] if sampler["normalized_coords"] else coord[d]
        if linear:
            i0 = math.floor(u - 0.5)
            alpha = (u - 0.5) - i0
            per_axis.append([(i0, 1 - alpha), (i0 + 1, alpha)])
        else:
            per_axis.append([(math.floor(u), 1.0)])
    border = BORDERS[sampler["border_color"]]
    total = [0.0] * 4
    for corner in np.ndindex(*[len(a) for a in per_axis]):
        weight, index = 1.0, []
        for d, k in enumerate(corner):
            i, w = per_axis[d][k]
            weight *= w
            index.append(wrap(i, sizes[d], sampler["address_modes"][d]))
        if None in index:
            value = border
        else:
            value = texels[tuple(reversed(index))]
        for c in range(4):
            total[c] += weight * float(value[c])
    return tuple(total)


def distance_to_boundary(coord, sizes, sampler: dict) -> float:
    """How far (in texels) the coordinate is from where nearest or linear filtering changes
    texels: tests skip those closer than Vulkan's sub-texel precision."""
    worst = math.inf
    for d, s in enumerate(coord):
        u = s * sizes[d] if sampler["normalized_coords"] else s
        shifted = u - 0.5 if sampler["mag_filter"] == "linear" else u
        worst = min(worst, abs(shifted - round(shifted)))
    return worst


# ----- formats ------------------------------------------------------------------------------------
def srgb_to_linear(c: int) -> float:
    x = c / 255
    return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4


def decode(stored: np.ndarray, fmt: str) -> tuple:
    """(r, g, b, a) a shader reads from one texel's stored components (memory order) of the
    Vulkan format ``fmt``: UNORM c / (2^b - 1), SNORM max(c / (2^(b-1) - 1), -1), SRGB's
    transfer function on r, g, b, integers and floats as they are; missing g, b read 0 and a
    missing alpha 1."""
    letters = "".join(ch for ch in fmt.split("_")[0] if ch.isalpha())
    kind = fmt.split("_")[1]
    bits = stored.dtype.itemsize * 8
    values = {}
    for letter, c in zip(letters, stored.tolist()):
        if kind == "UNORM":
            v = c / (2 ** bits - 1)
        elif kind == "SNORM":
            v = max(c / (2 ** (bits - 1) - 1), -1.0)
        elif kind == "SRGB":
            v = srgb_to_linear(c) if letter != "A" else c / 255
        else:
            v = c
        values[letter] = v
    return tuple(values.get(letter, 1 if letter == "A" else 0) for letter in "RGBA")
