"""Kernels compiled for their launch's image formats and samplers (jit/image_launch.py).

A launch fixes each image parameter's format and each sampler argument's bits at compile time,
one build per combination; two images of one type with different formats leave that type's
code generic (the format read from the descriptor at run time). Both paths must give the same
bits: each test here runs a kernel once with two images of one type in different formats (the
generic path for that type) and once with both in the same format (the specialised path), and
compares the images' results bit for bit, over every channel type and every channel order.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import spirvkit
from spirvkit.jit import target
from spirvkit.jit.compiler import lower_kernel
from spirvkit.runtime.images import CHANNEL_TYPES, FORMATS, launch_key

OPTIONS = "-cl-std=CL2.0"

# read_image{f,i,ui} / write_image{f,i,ui} by channel type
_KIND = {**{t: "f" for t in CHANNEL_TYPES}, **{t: "i" for t in CHANNEL_TYPES if t.startswith("SIGNED")},
         **{t: "ui" for t in CHANNEL_TYPES if t.startswith("UNSIGNED")}}
_VEC = {"f": "float4", "i": "int4", "ui": "uint4"}


def _source(kind: str) -> str:
    """Per work-item: sampled reads of ``a`` and ``b`` at coords[gid], a sampler-less read of
    ``a`` at (x, y), the format queries of ``a`` and ``c``, and the sampled values written to
    ``c`` and ``d`` at (x, y)."""
    vec = _VEC[kind]
    return f"""
kernel void k(read_only image2d_t a, read_only image2d_t b, sampler_t s, write_only image2d_t c,
              write_only image2d_t d, global const float2 *coords, global {vec} *out) {{
  int x = get_global_id(0), y = get_global_id(1), i = y * get_global_size(0) + x;
  {vec} va = read_image{kind}(a, s, coords[i]), vb = read_image{kind}(b, s, coords[i]);
  out[4 * i] = va;
  out[4 * i + 1] = vb;
  out[4 * i + 2] = read_image{kind}(a, (int2)(x, y));
  out[4 * i + 3] = ({vec})(get_image_channel_order(a), get_image_channel_data_type(a),
                           get_image_channel_order(c), get_image_channel_data_type(c));
  write_image{kind}(c, (int2)(x, y), va);
  write_image{kind}(d, (int2)(x, y), vb);
}}"""


def _texels(order: str, ctype: str, shape=(6, 5), seed: int = 0) -> np.ndarray:
    dtype, packed = CHANNEL_TYPES[ctype]
    channels = 1 if packed else len(spirvkit.runtime.images.CHANNEL_ORDERS[order])
    full = shape + ((channels,) if channels > 1 else ())
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return (rng.random(full) * 2 - 0.5).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, full, endpoint=True, dtype=dtype)


def _run(kernel, kind: str, a, b, c, d, sampler, coords):
    h, w = a[0].shape[:2]
    out = np.zeros((h * w * 4, 4), np.float32 if kind == "f" else np.int32)
    images = [spirvkit.Image(a[0], *a[1:], access="read_only"), spirvkit.Image(b[0], *b[1:], access="read_only"),
              sampler, spirvkit.Image(c[0], *c[1:], access="write_only"),
              spirvkit.Image(d[0], *d[1:], access="write_only")]
    kernel((w, h), None, *images, coords, out)
    return out.view(np.uint32)


# Each channel type once and each channel order once (with a type it takes), as the image under
# test; the other image of its type in a format of the same read kind.
_OTHER = {"f": ("RGBA", "FLOAT"), "i": ("R", "SIGNED_INT16"), "ui": ("RG", "UNSIGNED_INT8")}
_CASES = sorted({("RGBA", t) for t in CHANNEL_TYPES if t in FORMATS["RGBA"]}
                | {(o, FORMATS[o][-1]) for o in FORMATS if o != "DEPTH"} | {("RGB", "UNORM_SHORT_565")}
                | {("sBGRA", "UNORM_INT8"), ("INTENSITY", "UNORM_INT16"), ("LUMINANCE", "SNORM_INT8")})
_SAMPLERS = {"f": spirvkit.Sampler(True, "MIRRORED_REPEAT", "LINEAR"),
             "i": spirvkit.Sampler(False, "CLAMP", "NEAREST"), "ui": spirvkit.Sampler(True, "REPEAT", "NEAREST")}


@pytest.fixture(scope="module")
def kernels():
    return {kind: spirvkit.Program(spirvkit.compile_cl(_source(kind), OPTIONS)).kernel("k") for kind in _VEC}


@pytest.mark.parametrize("order,ctype", _CASES)
def test_generic_and_specialised_paths_agree(kernels, order, ctype):
    kind = _KIND[ctype]
    other = _OTHER[kind]
    if other == (order, ctype):
        other = ("RA", "FLOAT") if kind == "f" else ("RGBA", ctype)
    mine, theirs = _texels(order, ctype, seed=1), _texels(*other, seed=2)
    h, w = mine.shape[:2]
    coords = (np.random.default_rng(3).random((h * w, 2)) * 3 - 1).astype(np.float32)
    coords[::3] *= np.float32(w)    # some unnormalized-looking, far outside
    sampler = _SAMPLERS[kind]
    kernel = kernels[kind]

    def images(second):
        written = np.zeros_like(mine), np.zeros_like(second)
        return ((mine, order, ctype), (second, *((order, ctype) if second is mine else other)),
                (written[0], order, ctype), (written[1], *((order, ctype) if second is mine else other))), written

    generic_args, generic_written = images(theirs)         # a and b (and c and d) differ: generic code
    special_args, special_written = images(mine)           # the same format: specialised code
    generic = _run(kernel, kind, *generic_args[:2], *generic_args[2:], sampler, coords)
    special = _run(kernel, kind, *special_args[:2], *special_args[2:], sampler, coords)
    g, s = generic.reshape(h * w, 4, 4), special.reshape(h * w, 4, 4)
    np.testing.assert_array_equal(g[:, 0], s[:, 0])        # sampled read of a
    np.testing.assert_array_equal(g[:, 2], s[:, 2])        # sampler-less read of a
    np.testing.assert_array_equal(g[:, 3], s[:, 3])        # format queries
    np.testing.assert_array_equal(generic_written[0].view(np.uint8), special_written[0].view(np.uint8))
    assert np.any(g[:, 0])


def test_one_build_per_format_and_sampler(kernels, monkeypatch):
    """A new format or sampler compiles once; a launch with ones seen before compiles nothing."""
    monkeypatch.setenv("SPIRVKIT_JIT", "quick")   # no optimised builds in the background
    kernel = kernels["f"]
    a = _texels("RGBA", "UNORM_INT8")
    coords = np.zeros((a.shape[0] * a.shape[1], 2), np.float32)

    def launch(order, ctype, sampler):
        img = _texels(order, ctype)
        spec = (img, order, ctype)
        return _run(kernel, "f", spec, spec, (np.zeros_like(img), order, ctype), (np.zeros_like(img), order, ctype),
                    sampler, coords)

    nearest = spirvkit.Sampler(False, "CLAMP_TO_EDGE", "NEAREST")
    launch("RGBA", "UNORM_INT8", nearest)
    builds = sum(target.stats.values())
    launch("RGBA", "UNORM_INT8", spirvkit.Sampler(False, "CLAMP_TO_EDGE", "NEAREST"))
    assert sum(target.stats.values()) == builds
    launch("RGBA", "FLOAT", nearest)
    assert sum(target.stats.values()) == builds + 1
    launch("RGBA", "FLOAT", spirvkit.Sampler(True, "REPEAT", "LINEAR"))
    assert sum(target.stats.values()) == builds + 2


def test_fixed_format_code_is_straight_line():
    """For a fixed format the read and write paths have no switch on the channel type and no
    read of the descriptor's format words; without a launch's formats they do."""
    module = spirvkit.Module.from_bytes(spirvkit.compile_cl(_source("f"), OPTIONS))
    img = _texels("RGBA", "UNORM_INT8")
    args = [spirvkit.Image(img, "RGBA", "UNORM_INT8", access="read_only")] * 2 + [spirvkit.Sampler()] + \
        [spirvkit.Image(img.copy(), "RGBA", "UNORM_INT8", access="write_only")] * 2
    fixed, _, _ = lower_kernel(module, "k", checked=True, images=launch_key(args))
    generic, _, _ = lower_kernel(module, "k", checked=True)
    assert " switch " in generic and " switch " not in fixed
    definitions = re.findall(r"define [^\n]*spirvkit\.image\.\w+\.t\d+o\d+[^\n]*", fixed)
    assert len(definitions) >= 3 and all("alwaysinline" in d for d in definitions)   # load, sample, store


BOX = """
kernel void box(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 total = 0.0f;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i)
      total += read_imagef(src, s, (float2)(x + i - 0.5f, y + j - 0.5f));
  }
  write_imagef(dst, (int2)(x, y), total * (1.0f / 9.0f));
}
kernel void rows(read_only image2d_t src, sampler_t s, write_only image2d_t dst, int n) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = (float4)(0.0f);
  for (int dy = 0; dy < n; dy++)
    sum += read_imagef(src, s, (float2)(p.x + 0.5f, p.y + dy + 0.5f));
  write_imagef(dst, p, sum / n);
}
"""


def test_short_constant_loops_stay_whole():
    """A 3x3 filter's loops (constant, three iterations) are left to LLVM's unroller, not cut
    into region passes (jit/loop_cuts.py); a loop to a run-time bound is still cut. Both give
    the filter's values."""
    program = spirvkit.Program(spirvkit.compile_cl(BOX, OPTIONS))
    box, rows = program.kernel("box"), program.kernel("rows")
    assert not box._loop_cuts and rows._loop_cuts
    src = np.random.default_rng(5).integers(0, 256, (9, 11, 4), dtype=np.uint8)
    out = np.zeros_like(src)
    smp = spirvkit.Sampler(False, "CLAMP_TO_EDGE", "NEAREST")
    box((11, 9), None, spirvkit.Image(src, access="read_only"), smp, spirvkit.Image(out, access="write_only"))
    padded = np.pad(src.astype(np.float32) / np.float32(255), ((1, 1), (1, 1), (0, 0)), mode="edge")
    want = np.zeros(src.shape, np.float32)
    for dy in range(3):
        for dx in range(3):
            want += padded[dy:dy + 9, dx:dx + 11]
    want = want * np.float32(1 / 9)
    assert np.abs(out.astype(np.float32) - want * 255).max() <= 0.6
    out3 = np.zeros_like(src)
    rows((11, 9), None, spirvkit.Image(src, access="read_only"), smp, spirvkit.Image(out3, access="write_only"),
         np.int32(1))
    np.testing.assert_array_equal(out3, src)
