"""Images and samplers in the executor and the host API, against the spec model in
tests/jit/image_model.py.

The kernels are SPIR-V assembly (tests/jit/asm_kernel.py, checked by spirv-val): the OpenCL C
compiler's image support is separate work. Sampled reads go through every addressing mode ×
normalized / unnormalized coordinates × nearest / linear filter, for each image type, at
coordinates outside the image, on texel edges, exactly between texels and at large
magnitudes; writes and sampler-less reads through every supported format.
"""

from __future__ import annotations


import numpy as np
import pytest

import spirvkit
from jit import image_model as model
from jit.asm_kernel import aligned, aligned_zeros, ld, simple, st

CAPABILITIES = ("ImageBasic", "LiteralSampler", "Sampled1D", "Image1D", "SampledBuffer", "ImageBuffer",
                "ImageReadWrite")

# image type -> (Dim, arrayed, spatial dimensions, coordinate components)
SHAPES = {"1d": ("1D", 0, 1, 1), "1d_buffer": ("Buffer", 0, 1, 1), "1d_array": ("1D", 1, 1, 2),
          "2d": ("2D", 0, 2, 2), "2d_array": ("2D", 1, 2, 4), "3d": ("3D", 0, 3, 4)}
# numpy shape of each image type's texels (spatial axes, numpy order) for the tests' images
SIZES = {"1d": (7,), "1d_buffer": (7,), "1d_array": (3, 5), "2d": (4, 5), "2d_array": (3, 4, 5), "3d": (3, 4, 5)}
ADDRESSING = ("NONE", "CLAMP_TO_EDGE", "CLAMP", "REPEAT", "MIRRORED_REPEAT")
SAMPLERS = [dict(normalized=n, addressing=a, filter=f)
            for a in ADDRESSING for n in (False, True) for f in ("NEAREST", "LINEAR")]


def image_types(access: str = "ReadOnly", sampled: bool = True) -> str:
    lines = [f"%img_{name} = OpTypeImage %void {dim} 0 {arrayed} 0 0 Unknown {access}"
             for name, (dim, arrayed, _, _) in SHAPES.items()]
    lines.append("%smp = OpTypeSampler")
    if sampled:
        lines += [f"%simg_{name} = OpTypeSampledImage %img_{name}" for name in SHAPES if name != "1d_buffer"]
    return "\n".join(lines)


def _coordinate(name: str, scalar: str, vector: str) -> str:
    """%coord from %c4 (a 4-vector) as the image type takes it."""
    count = SHAPES[name][3]
    if count == 1:
        return f"%coord = OpCompositeExtract %{scalar} %c4 0\n"
    if count == 2:
        return f"%coord = OpVectorShuffle %v2{scalar} %c4 %c4 0 1\n"
    return f"%coord = OpCopyObject %v4{scalar} %c4\n"


def sample_kernel(name: str, result: str = "v4float", sampler: str | None = None):
    """out[gid] = sample(img, s, coords[gid]) (``sampler``: an OpConstantSampler's operands
    instead of a sampler argument)."""
    body = ld("c4", "v4float", "coords", "gid") + _coordinate(name, "float", "v4float")
    types = image_types()
    params = [("img", f"img_{name}")]
    if sampler is None:
        params.append(("s", "smp"))
    else:
        types += f"\n%s = OpConstantSampler %smp {sampler}"
    body += (f"%si = OpSampledImage %simg_{name} %img %s\n"
             f"%v = OpImageSampleExplicitLod %{result} %si %coord Lod %float_0\n") + st("out", "gid", result, "v")
    params += [("coords", "pCW_v4float"), ("out", f"pCW_{result}")]
    return simple(params, body, types=types, capabilities=CAPABILITIES)


def random_image(name: str, order: str, ctype: str, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype, packed = spirvkit.runtime.images.CHANNEL_TYPES[ctype]
    channels = 1 if packed else len(model.stored_components(order))
    shape = SIZES[name] + ((channels,) if channels > 1 else ())
    if np.dtype(dtype).kind == "f":
        return rng.random(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)


def coordinates(name: str, normalized: bool) -> np.ndarray:
    """Coordinates outside the image, on texel edges, exactly between texels (texel centres
    for linear filtering), at large magnitudes, and some random ones."""
    spatial = SHAPES[name][2]
    arrayed = SHAPES[name][1]
    widths = list(reversed(SIZES[name][arrayed:]))
    per_axis = []
    for d in range(spatial):
        w = widths[d]
        values = [-1e9, -3e6, -w - 0.5, -2.0, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, w / 2,
                  w - 1.5, w - 0.5, w - 0.25, w, w + 0.5, w + 2.25, 3 * w + 0.75, 1e7 + 0.5, 3e9]
        if normalized:
            values = [v / w for v in values] + [-1.0, -0.5, 1.0, 1.5, 2.75, -3.125, 1e6, 0.999999]
        per_axis.append(values)
    n = max(len(v) for v in per_axis)
    rng = np.random.default_rng(7)
    rows = []
    for k in range(2 * n):
        rows.append([per_axis[d][(k * (d + 1) + d) % len(per_axis[d])] for d in range(spatial)])
    for _ in range(32):
        rows.append([rng.uniform(-1.5, 2.5) * (1 if normalized else widths[d]) for d in range(spatial)])
    if arrayed:   # the layer: unnormalized always, rounded to nearest even, clamped
        layers = SIZES[name][0]
        layer_values = [-5.0, -0.5, 0.0, 0.5, 0.75, 1.5, 2.5, layers - 0.5, layers + 7.0, 1e9]
        for k, row in enumerate(rows):
            row.append(layer_values[k % len(layer_values)])
    out = np.zeros((len(rows), 4), np.float32)
    for k, row in enumerate(rows):
        out[k, :len(row)] = row
    return out


def _model_sample(name, order, ctype, data, coords, sampler, integer=False):
    _, arrayed, spatial, _ = SHAPES[name]
    colors = model.decoded(data, order, ctype, spatial, bool(arrayed))
    return np.array([model.sample(colors, order, c, sampler, spatial, bool(arrayed), integer) for c in coords],
                    np.int64 if integer else np.float32)


def _sampler(s: dict) -> spirvkit.Sampler:
    return spirvkit.Sampler(s["normalized"], s["addressing"], s["filter"])


# ----- sampled reads ----------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", [("RGBA", "FLOAT"), ("R", "UNORM_INT8")], ids=lambda f: "/".join(f))
@pytest.mark.parametrize("name", ["1d", "1d_array", "2d", "2d_array", "3d"])
def test_sampling_matches_the_spec_model(name, fmt):
    """Every addressing × normalization × filter combination: the same float32 operations in
    the spec's order, so the results are bit for bit the model's."""
    order, ctype = fmt
    k = sample_kernel(name)
    data = random_image(name, order, ctype)
    img = spirvkit.Image(data, order, ctype, image_type=name)
    for s in SAMPLERS:
        coords = aligned(coordinates(name, s["normalized"]))
        out = aligned_zeros((len(coords), 4), np.float32)
        k(len(coords), None, img, _sampler(s), coords, out)
        want = _model_sample(name, order, ctype, data, coords, s)
        bad = np.nonzero(~((out == want) | (np.isnan(out) & np.isnan(want))).all(axis=1))[0]
        assert not len(bad), (f"{s}: at coordinates {coords[bad[:4]].tolist()}: got {out[bad[:4]].tolist()}, "
                              f"the model {want[bad[:4]].tolist()}")


def test_sampling_integer_images():
    """read_imagei: nearest, raw values; the border colour is integer (0, 0, 0, 0)."""
    k = sample_kernel("2d", result="v4uint")
    data = random_image("2d", "RGBA", "SIGNED_INT16")
    img = spirvkit.Image(data, "RGBA", "SIGNED_INT16")
    for s in SAMPLERS:
        if s["filter"] == "LINEAR":
            continue
        coords = aligned(coordinates("2d", s["normalized"]))
        out = aligned_zeros((len(coords), 4), np.uint32)
        k(len(coords), None, img, _sampler(s), coords, out)
        want = _model_sample("2d", "RGBA", "SIGNED_INT16", data, coords, s, integer=True)
        np.testing.assert_array_equal(out.view(np.int32), want.astype(np.int32), err_msg=str(s))


def test_integer_border_alpha_is_one_for_orders_without_alpha():
    """§6.13.14.3: R's border colour is (0, 0, 0, 1), as an integer for read_imageui (PoCL 3.1
    was seen to return an alpha of 0 there)."""
    k = sample_kernel("2d", result="v4uint")
    img = spirvkit.Image(np.full((2, 2), 9, np.uint8), "R", "UNSIGNED_INT8")
    coords = aligned(np.array([[-3, 0, 0, 0], [0.5, 0.5, 0, 0]], np.float32))
    out = aligned_zeros((2, 4), np.uint32)
    k(2, None, img, spirvkit.Sampler(False, "CLAMP", "NEAREST"), coords, out)
    assert out.tolist() == [[0, 0, 0, 1], [9, 0, 0, 1]]


def test_constant_sampler():
    """OpConstantSampler RepeatMirrored, normalized, Linear: as the model says."""
    k = sample_kernel("2d", sampler="RepeatMirrored 1 Linear")
    data = random_image("2d", "RGBA", "FLOAT", seed=3)
    img = spirvkit.Image(data, "RGBA", "FLOAT")
    coords = aligned(coordinates("2d", True))
    out = aligned_zeros((len(coords), 4), np.float32)
    k(len(coords), None, img, coords, out)
    s = dict(normalized=True, addressing="MIRRORED_REPEAT", filter="LINEAR")
    np.testing.assert_array_equal(out, _model_sample("2d", "RGBA", "FLOAT", data, coords, s))


def test_half_results():
    """read_imageh: the float result rounded to half."""
    k = sample_kernel("2d", result="v4half")
    data = random_image("2d", "RGBA", "UNORM_INT16")
    img = spirvkit.Image(data, "RGBA", "UNORM_INT16")
    s = dict(normalized=True, addressing="CLAMP_TO_EDGE", filter="LINEAR")
    coords = aligned(coordinates("2d", True))
    out = aligned_zeros((len(coords), 4), np.float16)
    k(len(coords), None, img, _sampler(s), coords, out)
    np.testing.assert_array_equal(out, _model_sample("2d", "RGBA", "UNORM_INT16", data, coords, s).astype(np.float16))


# ----- writes and sampler-less reads ------------------------------------------------------------
def rw_kernel(name: str, write: bool, integer: bool):
    """write: img[coords[gid]] = colors[gid]; read: out[gid] = img[coords[gid]]."""
    vec = "v4uint" if integer else "v4float"
    body = ld("c4", "v4uint", "coords", "gid") + _coordinate(name, "uint", "v4uint")
    types = image_types("WriteOnly" if write else "ReadOnly", sampled=False)
    if write:
        body += ld("color", vec, "colors", "gid") + "OpImageWrite %img %coord %color\n"
        params = [("img", f"img_{name}"), ("coords", "pCW_v4uint"), ("colors", f"pCW_{vec}")]
    else:
        body += f"%v = OpImageRead %{vec} %img %coord\n" + st("out", "gid", vec, "v")
        params = [("img", f"img_{name}"), ("coords", "pCW_v4uint"), ("out", f"pCW_{vec}")]
    return simple(params, body, types=types, capabilities=CAPABILITIES)


FLOAT_VALUES = [0.0, 1.0, -1.0, 0.5, 0.25, 0.3, 0.999, 1.5, -2.0, 100.0, 1e-3, 2e-3, 0.5 / 255, 1.5 / 255,
                -0.5 / 127, 0.00313, 0.2, 0.7, np.nan, np.inf, -np.inf, -0.0, 65504.0, 1e5, 3e-6, 1e-8]
INT_VALUES = [0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
              2**31 - 1, -2**31, 100000, -100000, 7]


def _texel_coords(name: str) -> np.ndarray:
    """Every texel's coordinate (x, y, z/layer) in the image type's coordinate order."""
    _, arrayed, spatial, _ = SHAPES[name]
    shape = SIZES[name]
    coords = []
    for index in np.ndindex(*shape):
        rev = list(reversed(index))           # x, y, z; an array's layer last
        coords.append(rev + [0] * (4 - len(rev)))
    return np.array(coords, np.uint32)


def _round_trip(name, order, ctype, seed=5):
    integer = ctype in model.INT_RANGE
    dtype, packed = spirvkit.runtime.images.CHANNEL_TYPES[ctype]
    channels = 1 if packed else len(model.stored_components(order))
    shape = SIZES[name] + ((channels,) if channels > 1 else ())
    data = np.zeros(shape, dtype)
    img = spirvkit.Image(data, order, ctype, image_type=name)
    coords = aligned(_texel_coords(name))
    n = len(coords)
    rng = np.random.default_rng(seed)
    values = INT_VALUES if integer else FLOAT_VALUES
    colors = np.array([[values[(i * 4 + c) % len(values)] if (i + c) % 3 else rng.uniform(-0.2, 1.2)
                        for c in range(4)] for i in range(n)])
    colors = aligned(colors.astype(np.int64).astype(np.uint32) if integer else colors.astype(np.float32))
    rw_kernel(name, True, integer)(n, None, img, coords, colors)
    # What the model says each write stores, texel by texel.
    texels = data.reshape((n,) + (() if packed or channels == 1 else (channels,)))
    for i in range(n):
        color = [int(np.int32(v)) if ctype.startswith("SIGNED") else int(v) for v in colors[i]] if integer \
            else list(colors[i])
        want = model.write_texel(color, order, ctype)
        got = texels[i].tolist() if not packed else int(texels[i])
        want = want if packed else np.array(want, dtype).tolist()
        assert np.array_equal(np.ravel(np.array(got, dtype)), np.ravel(np.array(want, dtype)), equal_nan=not integer), \
            f"{order}/{ctype}: writing {colors[i].tolist()} stored {got}, the model {want}"
    # Reading back: the model's conversion of what is stored.
    vec = np.uint32 if integer else np.float32
    out = aligned_zeros((n, 4), vec)
    rw_kernel(name, False, integer)(n, None, spirvkit.Image(data, order, ctype, image_type=name, access="read_only"),
                                    coords, out)
    want = np.array([model.read_texel(texels[i], order, ctype) for i in range(n)])
    if integer:
        np.testing.assert_array_equal(out.view(np.int32) if ctype.startswith("SIGNED") else out, want)
    else:
        np.testing.assert_array_equal(out, want.astype(np.float32))


@pytest.mark.parametrize("order,ctype", [f for f in spirvkit.supported_image_formats("2d") if f[0] != "DEPTH"],
                         ids=lambda v: v)
def test_write_then_read_every_format(order, ctype):
    _round_trip("2d", order, ctype)


@pytest.mark.parametrize("name", ["1d", "1d_buffer", "1d_array", "2d_array", "3d"])
def test_write_then_read_every_image_type(name):
    _round_trip(name, "RGBA", "FLOAT")
    _round_trip(name, "RG", "UNSIGNED_INT16")


def test_snorm_and_unorm_reads_are_exact_at_the_ends():
    """§7.4.1.3: -128 and -127 -> -1.0, 0 -> 0, 127 -> 1.0; 255 -> 1.0."""
    k = rw_kernel("1d", False, False)
    coords = aligned(np.array([[i, 0, 0, 0] for i in range(4)], np.uint32))
    out = aligned_zeros((4, 4), np.float32)
    k(4, None, spirvkit.Image(np.array([-128, -127, 0, 127], np.int8), "R", "SNORM_INT8", "1d"), coords, out)
    assert out[:, 0].tolist() == [-1.0, -1.0, 0.0, 1.0]
    k(4, None, spirvkit.Image(np.array([0, 1, 254, 255], np.uint8), "A", "UNORM_INT8", "1d"), coords, out)
    assert out[:, 3].tolist() == [0.0, np.float32(1 / 255), np.float32(254 / 255), 1.0]
    assert out[:, :3].tolist() == [[0.0, 0.0, 0.0]] * 4


# ----- queries ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SHAPES))
def test_queries(name):
    """Sizes as the type has them (an array's layer count last); format and order as SPIR-V's
    enumerants (CL_RGBA - 0x10B0 = 5, CL_UNORM_INT16 - 0x10D0 = 3)."""
    count = SHAPES[name][2] + SHAPES[name][1]
    size_t = "uint" if count == 1 else f"v{count}uint"
    body = f"%size = OpImageQuerySizeLod %{size_t} %img %uint_0\n" if name != "1d_buffer" else \
        f"%size = OpImageQuerySize %{size_t} %img\n"
    body += "%fmt = OpImageQueryFormat %uint %img\n%ord = OpImageQueryOrder %uint %img\n"
    for i in range(count):
        part = "%size" if count == 1 else f"%s{i}"
        if count > 1:
            body += f"%s{i} = OpCompositeExtract %uint %size {i}\n"
        body += st("out", f"ulong_{i}", "uint", part[1:])
    body += st("out", "ulong_3", "uint", "fmt") + st("out", "ulong_4", "uint", "ord")
    k = simple([("img", f"img_{name}"), ("out", "pCW_uint")], body, types=image_types(sampled=False),
               capabilities=CAPABILITIES)
    data = np.zeros(SIZES[name] + (4,), np.uint16)
    img = spirvkit.Image(data, "RGBA", "UNORM_INT16", image_type=name)
    out = aligned(np.full(5, 99, np.uint32))
    k(1, None, img, out)
    sizes = list(reversed(SIZES[name][SHAPES[name][1]:])) + ([SIZES[name][0]] if SHAPES[name][1] else [])
    assert out[:count].tolist() == sizes
    assert out[3:].tolist() == [0x10D3 - 0x10D0, 0x10B5 - 0x10B0]
    assert img.shape == tuple(sizes)


# ----- argument errors --------------------------------------------------------------------------
def test_image_argument_errors():
    k = sample_kernel("2d")
    coords = aligned_zeros((1, 4), np.float32)
    out = aligned_zeros((1, 4), np.float32)
    s = spirvkit.Sampler()
    img = spirvkit.Image(np.zeros((2, 2, 4), np.float32), "RGBA", "FLOAT")
    error = spirvkit.KernelArgumentError
    with pytest.raises(error, match=r"argument 0 \('img'\) is an image2d_t: pass a spirvkit.Image"):
        k(1, None, np.zeros((2, 2, 4), np.float32), s, coords, out)
    with pytest.raises(spirvkit.KernelArgumentError, match=r"'img'\) is an image2d_t, got a 3d"):
        k(1, None, spirvkit.Image(np.zeros((2, 2, 2, 4), np.float32), "RGBA", "FLOAT"), s, coords, out)
    with pytest.raises(spirvkit.KernelArgumentError, match=r"'img'\) is an image2d_t, got a 1d_array"):
        k(1, None, spirvkit.Image(np.zeros((2, 2, 4), np.float32), "RGBA", "FLOAT", "1d_array"), s, coords, out)
    with pytest.raises(error, match=r"'img'\) is a read_only image2d_t: the image is write_only"):
        k(1, None, spirvkit.Image(np.zeros((2, 2, 4), np.float32), "RGBA", "FLOAT", access="write_only"), s, coords,
          out)
    with pytest.raises(spirvkit.KernelArgumentError, match=r"argument 1 \('s'\) is a sampler_t"):
        k(1, None, img, 0x14, coords, out)
    w = rw_kernel("2d", True, False)
    frozen = np.zeros((2, 2, 4), np.float32)
    frozen.flags.writeable = False
    with pytest.raises(error, match=r"'img'\) is a write_only image2d_t: the image is read_only"):
        w(1, None, spirvkit.Image(frozen, "RGBA", "FLOAT"), aligned_zeros((1, 4), np.uint32), out)


@pytest.mark.parametrize("args,message", [
    ((np.zeros((2, 2, 4), np.uint16), "RGBA", "UNORM_INT8"), "holds uint8 components, got a uint16 array"),
    ((np.zeros((2, 2, 3), np.uint8), "RGBA", "UNORM_INT8"), r"shape \(h, w, 4\), got \(2, 2, 3\)"),
    ((np.zeros((2, 2), np.uint8), "RGBA", "UNORM_INT8", "3d"), r"shape \(d, h, w, 4\)"),
    ((np.zeros((2, 2), np.uint16), "RGB", "UNORM_INT8"), "RGB/UNORM_INT8 is not supported"),
    ((np.zeros((2, 2), np.uint16), "RGBA", "UNORM_INT_8"), "unknown channel type 'UNORM_INT_8'"),
    ((np.zeros((2, 2), np.uint16), "CL_RGBA", "UNORM_INT8"), "unknown channel order 'CL_RGBA'"),
    ((np.zeros((2, 2), np.uint16), "RGB", "UNORM_SHORT_565", "2d_array"), r"shape \(layers, h, w\)"),
    ((np.zeros((2, 2), np.uint16), "R", "UNORM_INT16", "cube"), "unknown image type 'cube'"),
    (([[1, 2]], "R", "UNORM_INT8"), "numpy array, not list"),
])
def test_image_constructor_errors(args, message):
    with pytest.raises(spirvkit.KernelArgumentError, match=message):
        spirvkit.Image(*args)


def test_sampler_constructor_errors():
    with pytest.raises(spirvkit.KernelArgumentError, match="unknown addressing mode 'WRAP'"):
        spirvkit.Sampler(True, "WRAP", "LINEAR")
    with pytest.raises(spirvkit.KernelArgumentError, match="unknown filter mode 'BILINEAR'"):
        spirvkit.Sampler(True, "REPEAT", "BILINEAR")
    assert spirvkit.Sampler(True, "REPEAT", "LINEAR").bits == 0x1 | 0x6 | 0x20   # CLK_* values


def test_supported_image_formats():
    formats = spirvkit.supported_image_formats("2d")
    assert ("RGBA", "UNORM_INT8") in formats and ("BGRA", "UNORM_INT8") in formats
    assert ("BGRA", "FLOAT") not in formats and ("DEPTH", "FLOAT") in formats
    assert spirvkit.supported_image_formats("2d_depth") == [("DEPTH", "UNORM_INT16"), ("DEPTH", "FLOAT")]
    assert ("DEPTH", "FLOAT") not in spirvkit.supported_image_formats("3d")


# ----- faults -----------------------------------------------------------------------------------
def test_read_outside_the_image_is_a_located_fault():
    k = rw_kernel("2d", False, False)
    img = spirvkit.Image(np.zeros((3, 4, 4), np.float32), "RGBA", "FLOAT")
    coords = aligned(np.array([[0, 0, 0, 0], [3, 2, 0, 0], [4, 1, 0, 0]], np.uint32))
    out = aligned_zeros((3, 4), np.float32)
    with pytest.raises(spirvkit.KernelFault) as info:
        k(3, None, img, coords, out)
    text = str(info.value)
    assert "out-of-bounds image read" in text and "work-item global id (2, 0, 0)" in text
    assert "at coordinate (4, 1), outside argument 0 ('img'), a 2d RGBA/FLOAT image of 4×3" in text
    assert "OpImageRead" in text
    k(2, None, img, coords, out, unchecked=True)   # inside: fine either way


def test_write_outside_the_image_is_a_fault_and_writes_nothing():
    k = rw_kernel("2d_array", True, True)
    data = np.zeros((2, 2, 3, 4), np.uint8)
    img = spirvkit.Image(data, "RGBA", "UNSIGNED_INT8", "2d_array")
    coords = aligned(np.array([[0, 0, 2, 0]], np.uint32))   # layer 2 of 2
    colors = aligned(np.full((1, 4), 7, np.uint32))
    with pytest.raises(spirvkit.KernelFault, match=r"image write .* at coordinate \(0, 0, 2\), outside argument 0"):
        k(1, None, img, coords, colors)
    assert not data.any()
    k(1, None, img, coords, colors, unchecked=True)   # unchecked: no report, still nothing written
    assert not data.any()


def test_layers_of_1d_arrays_in_fault_reports():
    k = rw_kernel("1d_array", False, True)
    img = spirvkit.Image(np.zeros((2, 3, 4), np.int32), "RGBA", "SIGNED_INT32", "1d_array")
    out = aligned_zeros((1, 4), np.uint32)
    with pytest.raises(spirvkit.KernelFault, match=r"at coordinate \(1, 5\), outside"):
        k(1, None, img, aligned(np.array([[1, 5, 0, 0]], np.uint32)), out)


def test_image_arguments_are_zero_copy():
    """A write lands in the array the Image wraps, through every launch."""
    k = rw_kernel("2d", True, False)
    data = np.zeros((1, 2, 4), np.float32)
    img = spirvkit.Image(data, "RGBA", "FLOAT")
    for value in (1.0, 2.0):
        k(1, None, img, aligned(np.array([[1, 0, 0, 0]], np.uint32)), aligned(np.full((1, 4), value, np.float32)))
        assert data[0, 1].tolist() == [value] * 4 and not data[0, 0].any()
    assert img.data is data


def test_model_self_check():
    """The model against values worked by hand from the spec's formulas."""
    s = dict(normalized=False, addressing="CLAMP", filter="LINEAR")
    colors = np.arange(2 * 4, dtype=np.float32).reshape(1, 1, 2, 4, 1) * np.ones(4, np.float32)
    # u = 1.0, v = 1.0: between texels (0,0) (1,0) (0,1) (1,1): (0 + 1 + 4 + 5) / 4
    assert model.sample(colors, "RGBA", [1.0, 1.0], s, 2, False)[0] == 2.5
    # u = 0.25: t = -0.25, i0 = -1 (border 0), i1 = 0, a = 0.75 -> 0.75 * T[0] = 0 at row 0
    assert model.sample(colors, "RGBA", [0.25, 0.5], s, 2, False) == [0.0] * 4
    assert model.axis(-0.1, 4, "REPEAT", True, False) == (3, None, None)       # u = 0.9 * 4 = 3.6
    assert model.axis(1.25, 4, "MIRRORED_REPEAT", True, False)[0] == 3       # s' = |1.25 - 2| = 0.75
    # 255 * 0.5 = 127.5: to even, 128; 63.75 -> 64; clamped at both ends
    assert model.write_texel([0.5, 0.25, -1.0, 2.0], "RGBA", "UNORM_INT8") == [128, 64, 0, 255]


# ----- read_write images, depth images, the command line ----------------------------------------
def test_read_write_image_with_a_fence():
    """A read_write image: read, fence (atomic_work_item_fence(CLK_IMAGE_MEM_FENCE), as
    OpMemoryBarrier with ImageMemory semantics), write back doubled."""
    types = "%img_rw = OpTypeImage %void 2D 0 0 0 0 Unknown ReadWrite"
    body = ("%x = OpUConvert %uint %gid\n%coord = OpCompositeConstruct %v2uint %x %uint_0\n"
            "%v = OpImageRead %v4float %img %coord\n"
            "OpMemoryBarrier %uint_4 %uint_0x800\n"   # Invocation scope; ImageMemory (0x800), relaxed
            "%twice = OpFAdd %v4float %v %v\n"
            "OpImageWrite %img %coord %twice\n")
    k = simple([("img", "img_rw")], body, types=types, capabilities=CAPABILITIES)
    data = np.arange(12, dtype=np.float32).reshape(1, 3, 4)
    k(3, None, spirvkit.Image(data, "RGBA", "FLOAT"))
    assert data.ravel().tolist() == [2.0 * v for v in range(12)]


def test_depth_images():
    """image2d_depth_t: reads give the depth as a scalar float; writes take one."""
    types = ("%img_d = OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly\n"
             "%img_dw = OpTypeImage %void 2D 1 0 0 0 Unknown WriteOnly")
    body = ("%x = OpUConvert %uint %gid\n%coord = OpCompositeConstruct %v2uint %x %uint_1\n"
            "%d = OpImageRead %float %src %coord\n%half_d = OpFMul %float %d %float_0p5\n"
            "OpImageWrite %dst %coord %half_d\n" + st("out", "gid", "float", "d"))
    k = simple([("src", "img_d"), ("dst", "img_dw"), ("out", "pCW_float")], body, types=types,
               capabilities=CAPABILITIES)
    src = np.array([[0, 0, 0], [0, 65535, 32768]], np.uint16)
    dst = np.zeros((2, 3), np.float32)
    out = aligned_zeros(3, np.float32)
    k(3, None, spirvkit.Image(src, "DEPTH", "UNORM_INT16"), spirvkit.Image(dst, "DEPTH", "FLOAT"), out)
    assert out.tolist() == [0.0, 1.0, np.float32(32768 / 65535)]
    assert dst[1].tolist() == (out * np.float32(0.5)).tolist() and not dst[0].any()
    with pytest.raises(spirvkit.KernelArgumentError, match=r"'src'\) is an image2d_depth_t, got a 2d RGBA"):
        k(3, None, spirvkit.Image(np.zeros((2, 3, 4), np.uint16), "RGBA", "UNORM_INT16"),
          spirvkit.Image(dst, "DEPTH", "FLOAT"), out)


def test_run_command_takes_images_and_samplers(tmp_path, capsys):
    from spirvkit.cli import main
    from jit.asm_kernel import simple_binary

    body = ld("c4", "v4float", "coords", "gid") + _coordinate("2d", "float", "v4float")
    body += ("%si = OpSampledImage %simg_2d %img %s\n"
             "%v = OpImageSampleExplicitLod %v4float %si %coord Lod %float_0\n") + st("out", "gid", "v4float", "v")
    binary = simple_binary([("img", "img_2d"), ("s", "smp"), ("coords", "pCW_v4float"), ("out", "pCW_v4float")],
                           body, types=image_types(), capabilities=CAPABILITIES)
    module = tmp_path / "sample.spv"
    module.write_bytes(binary)
    texels = tmp_path / "texels.npy"
    np.save(texels, np.arange(2 * 2 * 4, dtype=np.float32).reshape(2, 2, 4))
    assert main(["run", str(module), "--global", "4", "--arg", f"image2d:RGBA:FLOAT:{texels}",
                 "--arg", "sampler:norm,REPEAT,NEAREST", "--arg", "full:4x4:0.25", "--arg", "zeros:4x4",
                 "--out", str(tmp_path / "out")]) == 0
    assert np.load(tmp_path / "out" / "3_out.npy").tolist() == [[0.0, 1.0, 2.0, 3.0]] * 4
    assert main(["run", str(module), "--global", "4", "--arg", "image2d:RGBA:FLOAT:zeros:2x2x4",
                 "--arg", "sampler:whatever", "--arg", "zeros:4x4", "--arg", "zeros:4x4"]) == 1
    assert "a sampler is sampler:norm|unnorm,ADDRESSING,FILTER" in capsys.readouterr().err


def test_image_values_live_across_barriers():
    """A sampled image made before a barrier and used after it (a kernel split into regions
    keeps the image, the sampler and the pair in each work-item's record)."""
    body = (ld("c4", "v4float", "coords", "gid") + _coordinate("2d", "float", "v4float")
            + "%si = OpSampledImage %simg_2d %img %s\n"
            + "OpControlBarrier %uint_2 %uint_2 %uint_0x110\n"
            + "%v = OpImageSampleExplicitLod %v4float %si %coord Lod %float_0\n"
            + "OpControlBarrier %uint_2 %uint_2 %uint_0x110\n"
            + "%size = OpImageQuerySizeLod %v2uint %img %uint_0\n%w = OpCompositeExtract %uint %size 0\n"
            + "%wf = OpConvertUToF %float %w\n%scaled = OpVectorTimesScalar %v4float %v %wf\n"
            + st("out", "gid", "v4float", "scaled"))
    k = simple([("img", "img_2d"), ("s", "smp"), ("coords", "pCW_v4float"), ("out", "pCW_v4float")], body,
               types=image_types(), capabilities=CAPABILITIES)
    data = random_image("2d", "RGBA", "FLOAT", seed=11)
    s = dict(normalized=True, addressing="REPEAT", filter="LINEAR")
    coords = aligned(coordinates("2d", True)[:64])
    out = aligned_zeros((64, 4), np.float32)
    k(64, 16, spirvkit.Image(data, "RGBA", "FLOAT"), _sampler(s), coords, out)
    want = _model_sample("2d", "RGBA", "FLOAT", data, coords, s) * np.float32(SIZES["2d"][1])
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("smp", [dict(normalized=False, addressing="CLAMP", filter="NEAREST"),
                                 dict(normalized=False, addressing="CLAMP_TO_EDGE", filter="LINEAR")],
                         ids=["clamp-nearest", "edge-linear"])
def test_clang_compiled_image_kernel(smp):
    """tests/data/clc/image_ops.cl as clang-15 + llvm-spirv-15 compiled it (a literal sampler,
    a sampler argument, 2D/3D sampled reads with float and int coordinates, a read_write image,
    a 1D buffer image, the queries with llvm-spirv's CLK_ offsets), against the model."""
    from pathlib import Path

    k = spirvkit.Program(Path(__file__).parent.parent / "data" / "clc" / "image_ops.spv").kernel("image_ops")
    rng = np.random.default_rng(4)
    h, w = 3, 4
    src_data = rng.random((h, w, 4)).astype(np.float32)
    vol_data = rng.integers(0, 256, (2, h, w, 4), dtype=np.uint8)
    dst = np.zeros((h, w, 4), np.float32)
    rw = rng.integers(0, 1000, (h, w, 4), dtype=np.uint32)
    rw_before = rw.copy()
    buf = np.zeros((w, 4), np.float32)
    info = np.zeros(4, np.int32)
    k((w, h), None, spirvkit.Image(src_data, "RGBA", "FLOAT"), spirvkit.Image(dst, "RGBA", "FLOAT"),
      spirvkit.Image(vol_data, "RGBA", "UNORM_INT8"), _sampler(smp), spirvkit.Image(rw, "RGBA", "UNSIGNED_INT32"),
      spirvkit.Image(buf, "RGBA", "FLOAT", "1d_buffer"), info)
    assert info.tolist() == [0x10DE, 0x10B5, 2, w * h]          # CL_FLOAT, CL_RGBA
    np.testing.assert_array_equal(rw, rw_before + 1)
    lin = dict(normalized=True, addressing="CLAMP_TO_EDGE", filter="LINEAR")
    src = model.decoded(src_data, "RGBA", "FLOAT", 2, False)
    vol = model.decoded(vol_data, "RGBA", "UNORM_INT8", 3, False)
    column_writes = {x: [] for x in range(w)}     # every row writes buf[x]: one of them wins
    for y in range(h):
        for x in range(w):
            uv = [np.float32(x) / np.float32(w), np.float32(y) / np.float32(h)]
            a = np.array(model.sample(src, "RGBA", uv, lin, 2, False), np.float32)
            nearest = dict(smp, filter="NEAREST")   # integer coordinates read the texel they name
            b = np.array(model.sample(src, "RGBA", [x, y], nearest, 2, False), np.float32)
            c = np.array(model.sample(vol, "RGBA", uv + [0.5], smp, 3, False), np.float32)
            np.testing.assert_array_equal(dst[y, x], (a + b) + c)
            column_writes[x].append(a.tolist())
    assert all(buf[x].tolist() in column_writes[x] for x in range(w))


INT_COORDS_LINEAR = """
constant sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
kernel void k(read_only image2d_t src, read_only image3d_t vol, sampler_t s, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1), i = 3 * (y * get_global_size(0) + x);
  out[i] = read_imagef(src, lin, (int2)(x, y));
  out[i + 1] = read_imagef(vol, s, (int4)(x, y, 1, 0));
  out[i + 2] = read_imagef(src, s, (float2)(x, y));
}
"""


def test_integer_coordinates_with_a_linear_sampler_read_the_texel():
    """Integer coordinates take NEAREST samplers only (OpenCL C 2.0 §6.13.14.2); with a LINEAR one
    (a constant sampler or an argument) spirvkit reads the texel the coordinate names, as PoCL
    does (docs/images.md); float coordinates still filter."""
    k = spirvkit.Program(spirvkit.compile_cl(INT_COORDS_LINEAR, "-cl-std=CL2.0")).kernel("k")
    rng = np.random.default_rng(9)
    src = rng.random((3, 4, 4)).astype(np.float32)
    vol = rng.integers(0, 256, (2, 3, 4, 4), dtype=np.uint8)
    out = np.zeros((3 * 4, 3, 4), np.float32)
    k((4, 3), None, spirvkit.Image(src, "RGBA", "FLOAT"), spirvkit.Image(vol, "RGBA", "UNORM_INT8"),
      spirvkit.Sampler(False, "CLAMP_TO_EDGE", "LINEAR"), out)
    np.testing.assert_array_equal(out[:, 0], src.reshape(-1, 4))
    np.testing.assert_array_equal(out[:, 1], (vol[1].astype(np.float32) / np.float32(255)).reshape(-1, 4))
    linear = dict(normalized=False, addressing="CLAMP_TO_EDGE", filter="LINEAR")
    decoded = model.decoded(src, "RGBA", "FLOAT", 2, False)
    want = [model.sample(decoded, "RGBA", [x, y], linear, 2, False) for y in range(3) for x in range(4)]
    np.testing.assert_array_equal(out[:, 2], np.array(want, np.float32))
    assert not np.array_equal(out[:, 2], out[:, 0])
