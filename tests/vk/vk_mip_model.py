"""A reference model of Vulkan's level-of-detail selection, cube-map face selection and edge
handling, depth comparison and texel gathering, from the Vulkan specification's text
("Level-of-Detail Operation", "Image Level(s) Selection", "Cube Map Face Selection",
"Cube Map Edge Handling", "Depth Compare Operation", "Texel Gathering"): plain Python, one texel
at a time, in double precision, on top of vk_sampler_model's per-level sampling. It shares no
code with spirvkit.
"""

from __future__ import annotations

import math

import numpy as np

from vk import vk_sampler_model as base


def state(sampler: dict, filt: str) -> dict:
    """vk_sampler_model's sampler dict, filtering with ``filt`` within a level."""
    return dict(mag_filter=filt, address_modes=sampler.get("address_modes", ("repeat",) * 3),
                border_color=sampler.get("border_color", "float_transparent_black"),
                normalized_coords=sampler.get("normalized_coords", True))


def lod_lambda(sampler: dict, lod: float | None = None, grad=None, size=None) -> float:
    """lambda: the Lod, or log2(max(rho_x, rho_y)) with rho = |dP * size| per derivative;
    clamped to [min_lod, max_lod]."""
    if grad is not None:
        rho = [math.sqrt(sum((d * s) ** 2 for d, s in zip(g, size))) for g in grad]
        lam = math.log2(max(rho)) if max(rho) > 0 else -math.inf
    else:
        lam = lod
    return min(max(lam, sampler.get("min_lod", 0.0)), sampler.get("max_lod", 1000.0))


def levels_of(lam: float, count: int, sampler: dict) -> tuple[str, list[tuple[int, float]]]:
    """(filter within a level, [(level, weight)]) of lambda for an image of ``count`` levels."""
    filt = sampler.get("mag_filter", "nearest") if lam <= 0 else sampler.get("min_filter", "nearest")
    q = count - 1
    d = min(max(lam, 0.0), q)
    if sampler.get("mipmap_mode", "nearest") == "nearest":
        return filt, [(math.ceil(d + 0.5) - 1, 1.0)]
    hi = math.floor(d)
    delta = d - hi
    return filt, [(hi, 1 - delta), (min(hi + 1, q), delta)]


def near_decision(lam: float, count: int, sampler: dict, eps: float = 1e-3) -> bool:
    """lambda close to where the filter or the nearest level changes (tests skip those)."""
    d = min(max(lam, 0.0), count - 1)
    return abs(lam) < eps or (sampler.get("mipmap_mode", "nearest") == "nearest" and abs(d - math.floor(d) - 0.5) < eps)


def sample_mip(levels: list, coord, lam: float, sampler: dict) -> np.ndarray:
    filt, chosen = levels_of(lam, len(levels), sampler)
    out = np.zeros(4)
    for level, weight in chosen:
        if weight:
            out += weight * np.array(base.sample(levels[level], coord, state(sampler, filt)))
    return out


# ----- cubes -------------------------------------------------------------------------------------
# face: (major axis, sign, sc as (axis, sign), tc as (axis, sign)) - the spec's table.
FACES = [(0, 1, (2, -1), (1, -1)), (0, -1, (2, 1), (1, -1)), (1, 1, (0, 1), (2, 1)), (1, -1, (0, 1), (2, -1)),
         (2, 1, (0, 1), (1, -1)), (2, -1, (0, -1), (1, -1))]


def cube_face(r) -> tuple[int, float, float]:
    """(face, s, t) of a direction; ties go to x, then y, then z."""
    ax = [abs(v) for v in r]
    major = 0 if ax[0] >= ax[1] and ax[0] >= ax[2] else (1 if ax[1] >= ax[2] else 2)
    face = next(f for f, (m, sign, _, _) in enumerate(FACES) if m == major and (r[major] < 0) == (sign < 0))
    _, _, (sa, ss), (ta, ts) = FACES[face]
    ma = ax[major]
    return face, 0.5 * ss * r[sa] / ma + 0.5, 0.5 * ts * r[ta] / ma + 0.5


def face_direction(face: int, sc: float, tc: float) -> list[float]:
    major, sign, (sa, ss), (ta, ts) = FACES[face]
    r = [0.0, 0.0, 0.0]
    r[major] = float(sign)
    r[sa] = ss * sc
    r[ta] = ts * tc
    return r


def cube_texel(faces: np.ndarray, face: int, i: int, j: int):
    """The texel (i, j) of ``face``, an off-face one from the adjacent face (None: a corner)."""
    w = faces.shape[2]
    inside_i, inside_j = 0 <= i < w, 0 <= j < w
    if inside_i and inside_j:
        return faces[face, j, i].astype(np.float64)
    if not inside_i and not inside_j:
        return None
    other, s, t = cube_face(face_direction(face, 2 * (i + 0.5) / w - 1, 2 * (j + 0.5) / w - 1))
    return faces[other, min(max(int(math.floor(t * w)), 0), w - 1), min(max(int(math.floor(s * w)), 0), w - 1)] \
        .astype(np.float64)


def cube_sample(faces: np.ndarray, r, filt: str) -> np.ndarray:
    """One level of a cube (faces: (6, w, w, 4)) at direction r."""
    face, s, t = cube_face(r)
    w = faces.shape[2]
    if filt == "nearest":
        i = min(max(int(math.floor(s * w)), 0), w - 1)
        j = min(max(int(math.floor(t * w)), 0), w - 1)
        return faces[face, j, i].astype(np.float64)
    u, v = s * w - 0.5, t * w - 0.5
    i0, j0 = math.floor(u), math.floor(v)
    a, b = u - i0, v - j0
    corners = [(i0, j0, (1 - a) * (1 - b)), (i0 + 1, j0, a * (1 - b)), (i0, j0 + 1, (1 - a) * b),
               (i0 + 1, j0 + 1, a * b)]
    texels = [cube_texel(faces, face, i, j) for i, j, _ in corners]
    for k, texel in enumerate(texels):
        if texel is None:   # a cube corner: the average of the other three
            texels[k] = sum(t for m, t in enumerate(texels) if m != k) / 3
    return sum(wgt * t for (_, _, wgt), t in zip(corners, texels))


def cube_near_boundary(r, w: int, filt: str, eps: float = 1e-3) -> bool:
    face, s, t = cube_face(r)
    ax = sorted(abs(v) for v in r)
    if ax[2] - ax[1] < eps:
        return True
    shift = 0.5 if filt == "linear" else 0.0
    return any(abs(c * w - shift - round(c * w - shift)) < eps for c in (s, t))


# ----- depth comparison and gathers ------------------------------------------------------------------
COMPARE = {"never": lambda r, d: False, "less": lambda r, d: r < d, "equal": lambda r, d: r == d,
           "less_or_equal": lambda r, d: r <= d, "greater": lambda r, d: r > d, "not_equal": lambda r, d: r != d,
           "greater_or_equal": lambda r, d: r >= d, "always": lambda r, d: True}


def compared(texels: np.ndarray, ref: float, op: str) -> np.ndarray:
    """The texels' depth (first component) compared with ``ref``: 1.0 where ``ref op depth``."""
    out = np.zeros(texels.shape[:-1] + (4,))
    out[..., 0] = np.vectorize(lambda d: float(COMPARE[op](ref, d)))(texels[..., 0].astype(np.float64))
    out[..., 3] = 1.0
    return out


def footprint(texels: np.ndarray, coord, offset=(0, 0), mode: str = "repeat"):
    """The four (i, j) of the 2x2 footprint in gather order (i0, j1), (i1, j1), (i1, j0), (i0, j0)."""
    h, w = texels.shape[:2]
    u, v = coord[0] * w + offset[0] - 0.5, coord[1] * h + offset[1] - 0.5
    i0, j0 = math.floor(u), math.floor(v)
    wrap = base.wrap
    i = [wrap(i0, w, mode), wrap(i0 + 1, w, mode)]
    j = [wrap(j0, h, mode), wrap(j0 + 1, h, mode)]
    return [(i[0], j[1]), (i[1], j[1]), (i[1], j[0]), (i[0], j[0])]


def gather(texels: np.ndarray, coord, component: int, offset=(0, 0), mode: str = "repeat") -> np.ndarray:
    return np.array([float(texels[j, i, component]) for i, j in footprint(texels, coord, offset, mode)])


def near_texel_boundary(coord, sizes, linear: bool, offset=(0, 0), eps: float = 1e-3) -> bool:
    shift = 0.5 if linear else 0.0
    return any(abs(c * s + o - shift - round(c * s + o - shift)) < eps for c, s, o in zip(coord, sizes, offset))
