"""Images and samplers against PoCL: OpenCL C kernels compiled by ``spirvkit cc`` run on
spirvkit and compared with what PoCL gave for the same launches (recorded in
tests/peers/records/jit.test_images_pocl.json; ``python -m tests.peers.record --only
images_pocl`` re-records them).

What is compared: sampled reads for every addressing mode × normalized / unnormalized
coordinates × filter on 1D, 1D array, 2D, 2D array and 3D images at coordinates outside the
image, on texel edges, between texels and at large magnitudes (the coordinates of
tests/jit/test_images.py); every channel order and type PoCL 3.1 supports (R, A and RGBA with
each of the twelve types, BGRA and ARGB with the 8-bit ones): writes, sampler-less reads, sampled
reads inside and outside the image, the format queries; round trips and size queries on every
image type; a read_write image; the clang-15 + llvm-spirv-15 fixture tests/data/clc/image_ops.spv.

Tolerances (docs/images.md, "Tests against PoCL"): nearest filtering and integer and float
channels exactly; normalized integer → float within the 1.5 ulp of env §7.4.1.3 (so at most 2
ulp from spirvkit's correctly rounded value); float → normalized integer within 0.6 of the
exact scaled value on both sides (§7.4.1.4: at most 1 apart); linear filtering, whose precision
§7.3 leaves undefined, within LINEAR_TOLERANCE. Where PoCL departs from the spec (PoCL_DEPARTS
below; docs/images.md, "Where PoCL differs"), the element is checked against the spec model
(tests/jit/image_model.py) instead, and the test checks that PoCL still departs there as listed.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pocl
import pytest

import spirvkit
from jit import image_model as model
from jit.asm_kernel import aligned
from jit.test_images import FLOAT_VALUES, INT_VALUES, SAMPLERS, SIZES, coordinates, random_image
from peers.records import cl_image_format

OPTIONS = "-cl-std=CL2.0"
CHANNEL_TYPES = spirvkit.runtime.images.CHANNEL_TYPES

# What PoCL 3.1's CPU device supports for every image type (cl.get_supported_image_formats).
POCL_FORMATS = ([(order, ctype) for order in ("R", "A", "RGBA") for ctype in
                 ("SNORM_INT8", "SNORM_INT16", "UNORM_INT8", "UNORM_INT16", "SIGNED_INT8", "SIGNED_INT16",
                  "SIGNED_INT32", "UNSIGNED_INT8", "UNSIGNED_INT16", "UNSIGNED_INT32", "HALF_FLOAT", "FLOAT")]
                + [(order, ctype) for order in ("BGRA", "ARGB")
                   for ctype in ("SNORM_INT8", "UNORM_INT8", "SIGNED_INT8", "UNSIGNED_INT8")])

# Linear filtering: §7.3 defines no precision. Both sides compute the §7.2 formulas in float32;
# they may order the sums and weight products differently, and PoCL's weights lose low bits at
# large normalized coordinates: an absolute 2^-14 of the texel range [0, 1] allows that and
# still tells a wrong texel, weight or border colour (a texel step is at least 1/65535 ... for
# random data far more).
LINEAR_TOLERANCE = 2.0 ** -14

# ----- OpenCL C source --------------------------------------------------------------------------
# image type -> (OpenCL C type, sampled coordinate expression from float4 c, integer coordinate
# expression from the work-item's x, y, z)
IMAGE_TYPES = {
    "1d": ("image1d_t", "c.x", "x"),
    "1d_buffer": ("image1d_buffer_t", None, "x"),
    "1d_array": ("image1d_array_t", "c.xy", "(int2)(x, y)"),
    "2d": ("image2d_t", "c.xy", "(int2)(x, y)"),
    "2d_array": ("image2d_array_t", "c", "(int4)(x, y, z, 0)"),
    "3d": ("image3d_t", "c", "(int4)(x, y, z, 0)"),
}
VECTORS = {"f": "float4", "i": "int4", "ui": "uint4"}

# get_image_* queries each image type answers, written to info[0..9] (-1 elsewhere):
# width, height, depth, array size, dim.x, dim.y, dim.z, dim.w, channel data type, channel order.
QUERIES = {
    "1d": "info[0] = get_image_width(img);",
    "1d_buffer": None,   # PoCL 3.1's library lacks the queries of image1d_buffer_t: query_1d_buffer
    "1d_array": "info[0] = get_image_width(img); info[3] = get_image_array_size(img);",
    "2d": "info[0] = get_image_width(img); info[1] = get_image_height(img);"
          "int2 d = get_image_dim(img); info[4] = d.x; info[5] = d.y;",
    "2d_array": "info[0] = get_image_width(img); info[1] = get_image_height(img);"
                "info[3] = get_image_array_size(img); int2 d = get_image_dim(img); info[4] = d.x; info[5] = d.y;",
    "3d": "info[0] = get_image_width(img); info[1] = get_image_height(img); info[2] = get_image_depth(img);"
          "int4 d = get_image_dim(img); info[4] = d.x; info[5] = d.y; info[6] = d.z; info[7] = d.w;",
}
INFO_WORDS = 10

ITEM = ("int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
        "  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n")


def _kernels() -> str:
    parts = ["constant sampler_t lin_norm = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;"]
    for name, (ctype, sampled, texel) in IMAGE_TYPES.items():
        for v, vec in VECTORS.items():
            parts.append(f"kernel void write_{v}_{name}(write_only {ctype} img, global const {vec} *colors) {{\n"
                         f"  {ITEM}  write_image{v}(img, {texel}, colors[i]);\n}}")
            queries = (f"  if (i == 0) {{ {QUERIES[name]} info[8] = get_image_channel_data_type(img);"
                       f" info[9] = get_image_channel_order(img); }}\n") if QUERIES[name] else ""
            parts.append(f"kernel void read_{v}_{name}(read_only {ctype} img, global {vec} *out, global int *info) {{\n"
                         f"  {ITEM}  out[i] = read_image{v}(img, {texel});\n{queries}}}")
            if sampled:
                parts.append(f"kernel void sample_{v}_{name}(read_only {ctype} img, sampler_t s, "
                             f"global const float4 *coords, global {vec} *out) {{\n"
                             f"  size_t i = get_global_id(0); float4 c = coords[i];\n"
                             f"  out[i] = read_image{v}(img, s, {sampled});\n}}")
    parts.append("kernel void sample_int_coords_2d(read_only image2d_t img, sampler_t s, global const int2 *coords,"
                 " global float4 *out) {\n  size_t i = get_global_id(0); out[i] = read_imagef(img, s, coords[i]);\n}")
    parts.append("kernel void sample_constant_sampler_2d(read_only image2d_t img, global const float2 *coords,"
                 " global float4 *out) {\n  size_t i = get_global_id(0);\n"
                 "  out[i] = read_imagef(img, lin_norm, coords[i]);\n}")
    parts.append("kernel void query_1d_buffer(read_only image1d_buffer_t img, global int *info) {\n"
                 "  info[0] = get_image_width(img); info[8] = get_image_channel_data_type(img);"
                 " info[9] = get_image_channel_order(img);\n}")
    parts.append("kernel void double_in_place(read_write image2d_t img) {\n"
                 "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n  float4 v = read_imagef(img, p);\n"
                 "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
                 "  write_imagef(img, p, v + v);\n}")
    return "\n\n".join(parts) + "\n"


SOURCE = _kernels()


@functools.cache
def _program() -> spirvkit.Program:
    return spirvkit.Program(spirvkit.compile_cl(SOURCE, OPTIONS, filename="images_pocl.cl"))


def run_both(kernel: str, global_size, args, *, source: str = SOURCE, program=None) -> tuple[list, list]:
    """The outputs of one launch on spirvkit and, recorded, on PoCL: for each argument, the
    buffer's or image's contents after the launch (None for samplers). ``args``: numpy
    arrays, pocl.Image and pocl.Sampler; spirvkit gets copies."""
    mine, outputs = [], []
    for arg in args:
        if isinstance(arg, pocl.Image):
            data = aligned(arg.data)
            mine.append(spirvkit.Image(data, arg.channel_order, arg.channel_type, arg.image_type))
            outputs.append(data)
        elif isinstance(arg, pocl.Sampler):
            mine.append(spirvkit.Sampler(arg.normalized, arg.addressing, arg.filter))
            outputs.append(None)
        else:
            data = aligned(arg)
            mine.append(data)
            outputs.append(data)
    theirs = pocl.run(source, kernel, global_size, None, args, options=OPTIONS)
    (program or _program()).kernel(kernel)(global_size, None, *mine)
    return outputs, theirs


# ----- comparisons ------------------------------------------------------------------------------
def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many float32 values lie between a and b (0 for equal values, -0.0 == 0.0)."""
    def ordered(x):
        bits = np.ascontiguousarray(x, np.float32).view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)
    return np.abs(ordered(a) - ordered(b))


def mismatches(got: np.ndarray, want: np.ndarray, ctype: str, *, linear: bool = False) -> np.ndarray:
    """A boolean mask over texels (last axis: components) where spirvkit's float read ``got``
    and PoCL's ``want`` differ by more than the spec allows for ``ctype``."""
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    if linear:
        close = np.abs(got.astype(np.float64) - want) <= LINEAR_TOLERANCE
    elif ctype in model.NORM_SCALE:   # §7.4.1.3: 1.5 ulp of the exact quotient on each side
        close = ulp_distance(got, want) <= 2
    else:
        close = same
    bad = ~(same | close)
    return bad.reshape(len(bad), -1).any(axis=1) if bad.size else np.zeros(len(bad), bool)


def stored_mismatches(mine: np.ndarray, theirs: np.ndarray, ctype: str, written: np.ndarray) -> np.ndarray:
    """A boolean mask over texels where two images' stored texels differ by more than the spec
    allows for writes of the colours ``written`` (n × 4): for normalized types §7.4.1.4's
    f_approx may be 0.6 from the exact value on each side (so 1 apart) and NaN and INF are
    implementation-defined; half may round to zero (§7.4.2: 1 apart)."""
    n = len(written)
    a, b = mine.reshape(n, -1), theirs.reshape(n, -1)
    if ctype in model.NORM_SCALE:
        bad = np.abs(a.astype(np.int64) - b) > 1
        bad &= np.isfinite(written).all(axis=1)[:, None]
    elif ctype == "HALF_FLOAT":
        steps = np.abs(a.view(np.int16).astype(np.int32) - b.view(np.int16))
        bad = ~((steps <= 1) | (np.isnan(a) & np.isnan(b)))
    elif ctype == "FLOAT":
        bad = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    else:
        bad = a != b
    return bad.any(axis=1)


def _report(what: str, bad: np.ndarray, inputs: np.ndarray, got: np.ndarray, want: np.ndarray) -> str:
    where = np.flatnonzero(bad)[:4]
    return (f"{what}: {bad.sum()} of {len(bad)} differ beyond the spec's tolerance; at inputs "
            f"{inputs.reshape(len(bad), -1)[where].tolist()}: spirvkit {got.reshape(len(bad), -1)[where].tolist()}, "
            f"PoCL {want.reshape(len(bad), -1)[where].tolist()}")


def _model_sample(name, image: pocl.Image, coords, sampler: pocl.Sampler, integer=False, border=None,
                  layer: int | None = None) -> np.ndarray:
    """The spec model's sampled reads (with another border colour, or every read from one layer,
    to model what PoCL does instead)."""
    arrayed, spatial = spirvkit.runtime.images.IMAGE_TYPES[name][1], spirvkit.runtime.images.IMAGE_TYPES[name][3]
    colors = model.decoded(image.data, image.channel_order, image.channel_type, spatial, bool(arrayed))
    s = dict(normalized=sampler.normalized, addressing=sampler.addressing, filter=sampler.filter)
    if layer is not None:
        coords = coords.copy()
        coords[:, spatial] = layer
    return np.array([model.sample(colors, image.channel_order, c, s, spatial, bool(arrayed), integer, border)
                     for c in coords], np.int64 if integer else np.float32)


# ----- where PoCL 3.1 departs from the spec (docs/images.md, "Where PoCL differs") --------------
HALF_BROKEN = {("R", "HALF_FLOAT"), ("A", "HALF_FLOAT")}   # writes store 0, reads give garbage
INT_RANGE_LIMIT = 2.0 ** 31


def _huge(name: str, coords: np.ndarray, sampler: pocl.Sampler) -> np.ndarray:
    """Reads whose unnormalized coordinate is beyond int's range: PoCL converts it to int
    unclamped (x86 gives INT_MIN), so CLAMP_TO_EDGE gives texel 0 instead of the last."""
    if sampler.addressing in ("REPEAT", "MIRRORED_REPEAT"):
        return np.zeros(len(coords), bool)
    spatial = spirvkit.runtime.images.IMAGE_TYPES[name][3]
    sizes = np.array(list(reversed(SIZES[name]))[:spatial], np.float64)
    u = coords[:, :spatial].astype(np.float64) * (sizes if sampler.normalized else 1)
    return (np.abs(u) >= INT_RANGE_LIMIT).any(axis=1)


def _other_layer(name: str, coords: np.ndarray, sampler: pocl.Sampler) -> np.ndarray:
    """Reads from an image array whose layer PoCL picks otherwise than clamp(rint(layer), 0,
    layers - 1) on the unnormalized layer coordinate: every read under a normalized sampler
    (PoCL scales the layer too), and non-integral or out-of-range layers."""
    arrayed, spatial = spirvkit.runtime.images.IMAGE_TYPES[name][1], spirvkit.runtime.images.IMAGE_TYPES[name][3]
    if not arrayed:
        return np.zeros(len(coords), bool)
    layer = coords[:, spatial]
    exact = (layer == np.floor(layer)) & (layer >= 0) & (layer < SIZES[name][0])
    return np.full(len(coords), sampler.normalized) | ~exact


def check_sampled(name: str, image: pocl.Image, sampler: pocl.Sampler, coords: np.ndarray, mine: np.ndarray,
                  theirs: np.ndarray, integer: bool = False) -> list[str]:
    """Sampled reads on spirvkit against PoCL's within the spec's tolerance, except where PoCL
    departs from the spec: there spirvkit against the spec model, and PoCL against what the
    departure predicts."""
    order, ctype = image.channel_order, image.channel_type
    linear = sampler.filter == "LINEAR" and not integer
    spec = _model_sample(name, image, coords, sampler, integer)
    huge, layered = _huge(name, coords, sampler), _other_layer(name, coords, sampler)
    departs = huge | layered
    predicted = spec.copy()
    if order == "R":   # PoCL's R border colour is (0, 0, 0, 0); its integer reads' alpha 0
        predicted = _model_sample(name, image, coords, sampler, integer, border=[0, 0, 0, 0])
        if integer:
            predicted[:, 3] = 0
        departs |= (predicted != spec).any(axis=1)
    if (order, ctype) in HALF_BROKEN:
        departs[:] = True
    failures = []

    def compare(what, mask, got, want, tolerant=True):
        bad = np.zeros(len(coords), bool)
        if tolerant:
            bad[mask] = (mismatches(got[mask], want[mask], ctype, linear=linear) if not integer
                         else (got[mask] != want[mask]).any(axis=1))
        else:
            bad[mask] = ~((got[mask] == want[mask]) | (np.isnan(got[mask]) & np.isnan(want[mask]))).all(axis=1)
        if bad.any():
            failures.append(_report(f"{label(sampler)}, {what}", bad, coords, got, want))

    compare("spirvkit against PoCL", ~departs, mine, theirs)
    compare("spirvkit against the spec model where PoCL departs", departs, mine, spec, tolerant=False)
    shown = departs & ~huge & ~layered & ((order, ctype) not in HALF_BROKEN)
    compare("PoCL against its documented departure", shown, theirs, predicted)
    if layered.any() and not linear:   # PoCL reads one of the layers, at the right spatial coordinates
        some_layer = np.zeros(len(coords), bool)
        for layer in range(SIZES[name][0]):
            at = _model_sample(name, image, coords, sampler, integer, border=None if order != "R" else [0, 0, 0, 0],
                               layer=layer)
            some_layer |= ~(mismatches(at, theirs, ctype) if not integer else (at != theirs).any(axis=1))
        compare("PoCL reads no layer of the array", layered & ~huge & ~some_layer, theirs, spec, tolerant=False)
    return failures


# The samplers the OpenCL API can make: clCreateSampler refuses REPEAT and MIRRORED_REPEAT with
# unnormalized coordinates (CL_INVALID_VALUE; OpenCL C leaves them undefined), so PoCL has no
# result for them; tests/jit/test_images.py checks the executor's documented choice.
API_SAMPLERS = [pocl.Sampler(s["normalized"], s["addressing"], s["filter"]) for s in SAMPLERS
                if s["normalized"] or s["addressing"] not in ("REPEAT", "MIRRORED_REPEAT")]


def label(s: pocl.Sampler) -> str:
    return f"{'norm' if s.normalized else 'unnorm'}-{s.addressing}-{s.filter}"
SAMPLING_CASES = [(name, "RGBA", "FLOAT") for name in ("1d", "1d_array", "2d", "2d_array", "3d")] + [
    ("2d", "R", "UNORM_INT8"), ("2d_array", "BGRA", "SNORM_INT8")]


# ----- sampled reads ----------------------------------------------------------------------------
@pytest.mark.parametrize("name,order,ctype", SAMPLING_CASES, ids=lambda v: v)
def test_sampling_agrees_with_pocl(name, order, ctype):
    """Every addressing × normalization × filter, at the edge, between-texel, outside and huge
    coordinates of tests/jit/test_images.py."""
    image = pocl.Image(random_image(name, order, ctype), order, ctype, name)
    failures = []
    for sampler in API_SAMPLERS:
        coords = coordinates(name, sampler.normalized)
        out = np.zeros((len(coords), 4), np.float32)
        mine, theirs = run_both(f"sample_f_{name}", len(coords), [image, sampler, coords, out])
        failures += check_sampled(name, image, sampler, coords, mine[3], theirs[3])
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("order,ctype,v", [("RGBA", "SIGNED_INT16", "i"), ("R", "UNSIGNED_INT8", "ui"),
                                           ("ARGB", "SIGNED_INT8", "i")], ids=lambda v: v)
def test_integer_sampling_agrees_with_pocl(order, ctype, v):
    """read_imagei / read_imageui: nearest only (§6.13.14.2), every addressing × normalization."""
    image = pocl.Image(random_image("2d", order, ctype), order, ctype, "2d")
    failures = []
    for sampler in API_SAMPLERS:
        if sampler.filter == "LINEAR":
            continue
        coords = coordinates("2d", sampler.normalized)
        out = np.zeros((len(coords), 4), np.int32 if v == "i" else np.uint32)
        mine, theirs = run_both(f"sample_{v}_2d", len(coords), [image, sampler, coords, out])
        failures += check_sampled("2d", image, sampler, coords, mine[3], theirs[3], integer=True)
    assert not failures, "\n".join(failures)


def test_integer_coordinates_agree_with_pocl():
    """Integer coordinates take unnormalized, nearest samplers with CLAMP, CLAMP_TO_EDGE or NONE."""
    image = pocl.Image(random_image("2d", "RGBA", "UNORM_INT16"), "RGBA", "UNORM_INT16", "2d")
    coords = np.array([[x, y] for x in (-3, -1, 0, 2, 4, 5, 9) for y in (-2, 0, 3, 4, 100)], np.int32)
    for addressing in ("CLAMP", "CLAMP_TO_EDGE", "NONE"):
        out = np.zeros((len(coords), 4), np.float32)
        mine, theirs = run_both("sample_int_coords_2d", len(coords),
                                [image, pocl.Sampler(False, addressing, "NEAREST"), coords, out])
        bad = mismatches(mine[3], theirs[3], "UNORM_INT16")
        assert not bad.any(), _report(addressing, bad, coords, mine[3], theirs[3])


def test_constant_sampler_agrees_with_pocl():
    """A program-scope constant sampler (normalized, REPEAT, LINEAR)."""
    image = pocl.Image(random_image("2d", "RGBA", "UNORM_INT8", seed=4), "RGBA", "UNORM_INT8", "2d")
    coords = np.ascontiguousarray(coordinates("2d", True)[:, :2])
    out = np.zeros((len(coords), 4), np.float32)
    mine, theirs = run_both("sample_constant_sampler_2d", len(coords), [image, coords, out])
    bad = mismatches(mine[2], theirs[2], "UNORM_INT8", linear=True)
    assert not bad.any(), _report("lin_norm", bad, coords, mine[2], theirs[2])


# ----- every format: writes, reads, sampled reads, format queries ------------------------------
def write_colors(count: int, integer: bool, seed: int = 5) -> np.ndarray:
    """Colours for ``count`` texels: the edge values of each conversion, and random ones."""
    rng = np.random.default_rng(seed)
    values = INT_VALUES if integer else FLOAT_VALUES
    colors = np.array([[values[(i * 4 + c) % len(values)] if (i + c) % 3 else rng.uniform(-0.2, 1.2)
                        for c in range(4)] for i in range(count)])
    return colors.astype(np.int64).astype(np.int32) if integer else colors.astype(np.float32)


def _kind(ctype: str) -> str:
    return "i" if ctype.startswith("SIGNED") else "ui" if ctype.startswith("UNSIGNED") else "f"


def _texel_grid(name: str) -> tuple[int, ...]:
    """The NDRange that visits every texel once: width, height / layers, depth / layers."""
    return tuple(reversed(SIZES[name]))


def _info(name: str, order: str, ctype: str) -> list[int]:
    """What the queries of read_*: give for an image of SIZES[name] (the spec's values)."""
    info = [-1] * INFO_WORDS
    sizes = list(reversed(SIZES[name]))
    arrayed = spirvkit.runtime.images.IMAGE_TYPES[name][1]
    spatial = sizes[:len(sizes) - arrayed]
    info[:len(spatial)] = spatial
    if arrayed:
        info[3] = sizes[-1]
    if name in ("2d", "2d_array"):
        info[4:6] = spatial
    elif name == "3d":
        info[4:8] = spatial + [0]
    info[9], info[8] = cl_image_format(order, ctype)
    return info


def check_round_trip(name: str, order: str, ctype: str) -> list[str]:
    """Write every texel of an image, and read every texel of another (with the queries), on
    both sides; what differs beyond the spec's tolerance."""
    v = _kind(ctype)
    dtype, _ = CHANNEL_TYPES[ctype]
    data = random_image(name, order, ctype, seed=9)
    count = int(np.prod(_texel_grid(name)))
    colors = write_colors(count, v != "f")
    if v == "ui":
        colors = colors.view(np.uint32)
    failures = []
    broken = (order, ctype) in HALF_BROKEN   # spirvkit against the spec model alone
    blank = pocl.Image(np.zeros_like(data), order, ctype, name)
    mine, theirs = run_both(f"write_{v}_{name}", _texel_grid(name), [blank, colors])
    if broken:
        theirs[0] = np.array([model.write_texel(list(c), order, ctype) for c in colors], dtype).reshape(data.shape)
    bad = stored_mismatches(mine[0], theirs[0], ctype, colors.astype(np.float64))
    if bad.any():
        failures.append(_report("write" + " (against the spec model)" * broken, bad, colors, mine[0], theirs[0]))
    out = np.zeros((count, 4), colors.dtype)
    info = np.full(INFO_WORDS, -1, np.int32)
    mine, theirs = run_both(f"read_{v}_{name}", _texel_grid(name), [pocl.Image(data, order, ctype, name), out, info])
    texels = data.reshape(count, -1)
    spec = np.array([model.read_texel(t if t.size > 1 else t[0], order, ctype) for t in texels]).astype(out.dtype)
    if broken:
        theirs[1] = spec
    elif order == "R" and v != "f":   # PoCL's integer reads from R give alpha 0, the spec's 1
        if (theirs[1][:, 3] != 0).any():
            failures.append(f"PoCL's integer reads from R no longer give alpha 0: {theirs[1][:4].tolist()}")
        theirs[1] = np.concatenate([theirs[1][:, :3], spec[:, 3:]], axis=1)
    bad = mismatches(mine[1], theirs[1], ctype) if v == "f" else (mine[1] != theirs[1]).any(axis=1)
    if bad.any():
        failures.append(_report("read" + " (against the spec model)" * broken, bad, data, mine[1], theirs[1]))
    answers = [("spirvkit", mine[2]), ("PoCL", theirs[2])]
    if name == "1d_buffer":   # spirvkit alone: PoCL 3.1 cannot link these queries
        info = np.full(INFO_WORDS, -1, np.int32)
        _program().kernel("query_1d_buffer")(1, None, spirvkit.Image(data, order, ctype, name), info)
        answers = [("spirvkit", info), ("PoCL", theirs[2] if theirs[2].tolist() != [-1] * INFO_WORDS else None)]
    for side, got in answers:
        if got is not None and got.tolist() != _info(name, order, ctype):
            failures.append(f"{side}'s queries: {got.tolist()}, the spec's {_info(name, order, ctype)}")
    return failures


@pytest.mark.parametrize("order,ctype", POCL_FORMATS, ids=lambda v: v)
def test_every_pocl_format_agrees_with_pocl(order, ctype):
    failures = check_round_trip("2d", order, ctype)
    # Sampled: inside, on the edges and outside (the border colour), CLAMP; nearest for the
    # integer types (the only filter they take), linear for the others.
    v = _kind(ctype)
    linear = v == "f"
    image = pocl.Image(random_image("2d", order, ctype, seed=2), order, ctype, "2d")
    coords = coordinates("2d", False)
    out = np.zeros((len(coords), 4), np.float32 if linear else np.int32 if v == "i" else np.uint32)
    sampler = pocl.Sampler(False, "CLAMP", "LINEAR" if linear else "NEAREST")
    mine, theirs = run_both(f"sample_{v}_2d", len(coords), [image, sampler, coords, out])
    failures += check_sampled("2d", image, sampler, coords, mine[3], theirs[3], integer=not linear)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", list(IMAGE_TYPES))
@pytest.mark.parametrize("order,ctype", [("RGBA", "FLOAT"), ("R", "UNSIGNED_INT16")], ids=lambda v: v)
def test_every_image_type_agrees_with_pocl(name, order, ctype):
    """Writes, reads and the size queries of 1D, 1D buffer, 1D array, 2D, 2D array and 3D images."""
    failures = check_round_trip(name, order, ctype)
    assert not failures, "\n".join(failures)


def test_read_write_image_agrees_with_pocl():
    image = pocl.Image(random_image("2d", "RGBA", "HALF_FLOAT", seed=6), "RGBA", "HALF_FLOAT", "2d")
    mine, theirs = run_both("double_in_place", _texel_grid("2d"), [image])
    np.testing.assert_array_equal(mine[0], theirs[0])


def test_clang_fixture_agrees_with_pocl():
    """tests/data/clc/image_ops.cl: PoCL built from the source; spirvkit from clang-15 +
    llvm-spirv-15's image_ops.spv and from its own compile of the source."""
    folder = Path(__file__).parent.parent / "data" / "clc"
    source = (folder / "image_ops.cl").read_text(encoding="utf-8")
    rng = np.random.default_rng(4)
    h, w = 3, 4
    args = [pocl.Image(rng.random((h, w, 4)).astype(np.float32), "RGBA", "FLOAT", "2d"),
            pocl.Image(np.zeros((h, w, 4), np.float32), "RGBA", "FLOAT", "2d"),
            pocl.Image(rng.integers(0, 256, (2, h, w, 4), dtype=np.uint8), "RGBA", "UNORM_INT8", "3d"),
            pocl.Sampler(False, "CLAMP", "NEAREST"),
            pocl.Image(rng.integers(0, 1000, (h, w, 4), dtype=np.uint32), "RGBA", "UNSIGNED_INT32", "2d"),
            pocl.Image(np.zeros((w, 4), np.float32), "RGBA", "FLOAT", "1d_buffer"),
            np.zeros(4, np.int32)]
    for program in (spirvkit.Program(folder / "image_ops.spv"),
                    spirvkit.Program(spirvkit.compile_cl(source, OPTIONS, filename="image_ops.cl"))):
        mine, theirs = run_both("image_ops", (w, h), args, source=source, program=program)
        for index in (1, 4, 6):
            bad = mismatches(mine[index].astype(np.float32), theirs[index].astype(np.float32), "FLOAT", linear=True)
            assert not bad.any(), _report(f"argument {index}", bad, mine[index], mine[index], theirs[index])
        # Every row writes buf[x] (a race): each column holds one of the rows' values, which
        # are the linear reads ``a`` that dst's sums also contain.
        assert mine[5].shape == theirs[5].shape
