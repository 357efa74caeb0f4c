"""Vulkan images beyond one level at Lod 0: mip levels (textureLod, textureGrad, texelFetch at a
level, level and size queries), cube and cube-array images (face selection, seamless linear
filtering), depth comparison and gathers, multisampled images. GLSL fixtures compiled once with
glslangValidator (tests/data/amber/README.md); expected values from vk_mip_model.py, a numpy
model written from the Vulkan specification's formulas."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from spirvkit.errors import KernelArgumentError, NotSupportedError
from spirvkit.vk import ComputePipeline, Image, Sampler

from vk import vk_mip_model as model
from vk import vk_sampler_model as base

GLSL = Path(__file__).parent.parent / "data" / "amber" / "glsl"


def _levels(rng, h: int, w: int, count: int, layers: int | None = None) -> list[np.ndarray]:
    lead = (layers,) if layers else ()
    return [rng.uniform(-1, 1, lead + (max(1, h >> k), max(1, w >> k), 4)).astype(np.float32) for k in range(count)]


# ----- mip levels -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mip_pipeline():
    return ComputePipeline(GLSL / "mip_lod.spv")


@pytest.mark.parametrize("filt", ["nearest", "linear"])
@pytest.mark.parametrize("mipmap_mode", ["nearest", "linear"])
def test_textureLod_and_textureGrad_choose_levels_as_vulkan(mip_pipeline, filt, mipmap_mode):
    rng = np.random.default_rng(7 + len(filt) * 3 + len(mipmap_mode))
    levels = _levels(rng, 8, 16, 5)
    sampler = dict(mag_filter="nearest" if filt == "linear" else "linear", min_filter=filt, mipmap_mode=mipmap_mode,
                   min_lod=0.25, max_lod=3.5, address_modes=("repeat",) * 3)
    vk_sampler = Sampler(mag_filter=sampler["mag_filter"], min_filter=filt, mipmap_mode=mipmap_mode, min_lod=0.25,
                         max_lod=3.5)
    n = 64
    c = np.zeros((n, 4), np.float32)
    c[:, :2] = rng.uniform(-0.5, 1.5, (n, 2))
    c[:, 2] = rng.uniform(-1.5, 5.0, n)
    c[:, 3] = rng.integers(0, 5, n)
    c[::7, 2] = -1.0   # below min_lod: clamped up to it
    c[:, :2][c[:, 3] >= 0] = np.mod(c[:, :2][c[:, 3] >= 0], 1.0)   # texelFetch needs coordinates inside
    g = rng.uniform(-0.4, 0.4, (n, 4)).astype(np.float32)
    g[::5] *= 0.01   # magnified
    out = np.zeros((3 * n, 4), np.float32)
    q = np.zeros((2, 4), np.int32)
    mip_pipeline.bind(0, 0, (Image(levels, "R32G32B32A32_SFLOAT"), vk_sampler)).bind(0, 1, c).bind(0, 2, g)
    mip_pipeline.bind(0, 3, out).bind(0, 4, q).dispatch(n // 16)
    assert q.tolist() == [[5, 16, 8, 0], [8, 4, 4, 2]]
    checked = 0
    for i in range(n):
        coord = [float(v) for v in c[i, :2]]
        for k, lam in ((0, model.lod_lambda(sampler, lod=float(c[i, 2]))),
                       (1, model.lod_lambda(sampler, grad=[g[i, :2].tolist(), g[i, 2:].tolist()], size=(16, 8)))):
            f, chosen = model.levels_of(lam, 5, sampler)
            if model.near_decision(lam, 5, sampler) or any(
                    base.distance_to_boundary(coord, list(reversed(levels[lv].shape[:2])), model.state(sampler, f))
                    < 1e-3 for lv, _ in chosen):
                continue
            want = model.sample_mip(levels, coord, lam, sampler)
            np.testing.assert_allclose(out[3 * i + k], want, atol=3e-4, err_msg=f"{'lod grad'.split()[k]} {i} {lam}")
            checked += 1
        level = int(c[i, 3])
        data = levels[level]
        x, y = (int(v * s) for v, s in zip(c[i, :2], (data.shape[1], data.shape[0])))
        np.testing.assert_array_equal(out[3 * i + 2], data[y, x])
    assert checked > 80


def test_mip_levels_not_given_start_as_zeros_and_the_count_is_checked():
    data = np.ones((4, 8, 4), np.float32)
    image = Image(data, "R32G32B32A32_SFLOAT", mip_levels=3)
    assert [lv.shape for lv in image.levels] == [(4, 8, 4), (2, 4, 4), (1, 2, 4)]
    assert image.levels[0].sum() == 4 * 8 * 4 and image.levels[1].sum() == 0
    with pytest.raises(KernelArgumentError, match=r"a 8x4 image has 1 to 4 mip levels; asked for 5"):
        Image(data, "R32G32B32A32_SFLOAT", mip_levels=5)
    with pytest.raises(KernelArgumentError, match=r"1 to 4 mip levels; asked for 0"):
        Image(data, "R32G32B32A32_SFLOAT", mip_levels=0)
    with pytest.raises(KernelArgumentError, match=r"mip level 1 of this image is a float32 array of shape \(2, 4, 4\), "
                                                  r"got a float32 array of shape \(4, 4, 4\)"):
        Image([data, np.ones((4, 4, 4), np.float32)], "R32G32B32A32_SFLOAT")
    with pytest.raises(KernelArgumentError, match="texel buffer image has one mip level"):
        Image(np.ones((8, 4), np.float32), "R32G32B32A32_SFLOAT", dim="buffer", mip_levels=2)


# ----- cubes ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cube_pipeline():
    return ComputePipeline(GLSL / "cube.spv")


@pytest.mark.parametrize("filt", ["nearest", "linear"])
def test_cube_and_cube_array_sampling(cube_pipeline, filt):
    rng = np.random.default_rng(11 + len(filt))
    w = 4
    cube_levels = _levels(rng, w, w, 3, layers=6)
    array_levels = _levels(rng, w, w, 3, layers=12)
    sampler = dict(mag_filter=filt, min_filter=filt, mipmap_mode="nearest", max_lod=4.0)
    vk_sampler = Sampler(mag_filter=filt, min_filter=filt, max_lod=4.0)
    n = 96
    c = np.zeros((n, 4), np.float32)
    c[:, :3] = rng.uniform(-1, 1, (n, 3))
    c[:, 3] = rng.choice([0.0, 0.0, 1.0, 2.0, 0.7], n)
    layer = rng.uniform(-0.6, 2.4, n).astype(np.float32)
    out = np.zeros((2 * n, 4), np.float32)
    q = np.zeros((2, 4), np.int32)
    p = cube_pipeline
    p.bind(0, 0, (Image(cube_levels, "R32G32B32A32_SFLOAT", dim="cube"), vk_sampler))
    p.bind(0, 1, (Image(array_levels, "R32G32B32A32_SFLOAT", dim="cube_array"), vk_sampler))
    p.bind(0, 2, c).bind(0, 3, layer).bind(0, 4, out).bind(0, 5, q).dispatch(n // 16)
    assert q.tolist() == [[w, w, w, w], [2, 3, 0, 0]]
    checked = 0
    for i in range(n):
        r = [float(v) for v in c[i, :3]]
        lam = model.lod_lambda(sampler, lod=float(c[i, 3]))
        f, [(level, _)] = model.levels_of(lam, 3, sampler)
        size = max(1, w >> level)
        if model.near_decision(lam, 3, sampler) or model.cube_near_boundary(r, size, f):
            continue
        want = model.cube_sample(cube_levels[level], r, f)
        np.testing.assert_allclose(out[2 * i], want, atol=3e-4, err_msg=f"cube {r} lod {c[i, 3]}")
        cube = min(max(int(np.rint(layer[i])), 0), 1)
        want = model.cube_sample(array_levels[level][6 * cube:6 * cube + 6], r, f)
        np.testing.assert_allclose(out[2 * i + 1], want, atol=3e-4, err_msg=f"cube array {r} layer {layer[i]}")
        checked += 1
    assert checked > 45


@pytest.mark.parametrize("mipmap_mode", ["nearest", "linear"])
def test_cube_textureGrad_carries_the_derivatives_onto_the_face(mipmap_mode):
    """lambda from the face coordinates' derivatives, which the model takes by finite
    differences of its own face selection (independent of the analytic formula)."""
    rng = np.random.default_rng(17 + len(mipmap_mode))
    w = 16
    levels = _levels(rng, w, w, 5, layers=6)
    sampler = dict(mag_filter="linear", min_filter="linear", mipmap_mode=mipmap_mode, max_lod=8.0)
    n = 128
    c = np.zeros((n, 4), np.float32)
    c[:, :3] = rng.uniform(-1, 1, (n, 3))
    dx = (rng.uniform(-0.3, 0.3, (n, 4)) * rng.choice([0.01, 0.1, 1.0], (n, 1))).astype(np.float32)
    dy = (rng.uniform(-0.3, 0.3, (n, 4)) * rng.choice([0.01, 0.1, 1.0], (n, 1))).astype(np.float32)
    out = np.zeros((n, 4), np.float32)
    p = ComputePipeline(GLSL / "cube_grad.spv")
    p.bind(0, 0, (Image(levels, "R32G32B32A32_SFLOAT", dim="cube"), Sampler(mag_filter="linear", min_filter="linear",
                                                                         mipmap_mode=mipmap_mode, max_lod=8.0)))
    p.bind(0, 1, c).bind(0, 2, dx).bind(0, 3, dy).bind(0, 4, out).dispatch(n // 16)
    checked = 0
    for i in range(n):
        r = c[i, :3].astype(np.float64)
        face, s, t = model.cube_face(r.tolist())
        rho = []
        for d in (dx[i, :3], dy[i, :3]):
            eps = 1e-6
            face2, s2, t2 = model.cube_face((r + eps * d.astype(np.float64)).tolist())
            rho.append(math.hypot((s2 - s) / eps * w, (t2 - t) / eps * w) if face2 == face else None)
        if None in rho:
            continue
        lam = model.lod_lambda(sampler, lod=math.log2(max(rho)) if max(rho) > 0 else -math.inf)
        f, chosen = model.levels_of(lam, 5, sampler)
        if model.near_decision(lam, 5, sampler) or abs(lam) < 2e-3 or any(
                model.cube_near_boundary(r.tolist(), max(1, w >> lv), f) for lv, _ in chosen):
            continue
        want = sum(weight * model.cube_sample(levels[lv], r.tolist(), f) for lv, weight in chosen if weight)
        np.testing.assert_allclose(out[i], want, atol=1e-3, err_msg=f"{r} lambda {lam}")
        checked += 1
    assert checked > 50


def test_cube_linear_filtering_is_seamless_across_edges_and_corners(cube_pipeline):
    """Worked by hand from the spec's face table: +X's right edge meets -Z's left edge and its top
    edge +Y's right edge; a corner texel is the average of the footprint's other three."""
    w = 4
    faces = np.zeros((6, w, w, 4), np.float32)
    for face, value in ((0, 1.0), (5, 5.0), (2, 3.0)):
        faces[face] = value
    sampler = Sampler(mag_filter="linear", min_filter="linear")
    s_edge = (w - 0.25) / w          # u - 0.5 = w - 0.75: i0 = w - 1 (weight 0.75), i1 = w off the face
    t_mid, t_top = 0.5, 0.25 / w      # v - 0.5 = -0.25: j0 = -1 off the face (weight 0.25), j1 = 0

    def direction(s, t):   # on +X: sc = -rz, tc = -ry, |ma| = rx = 1
        return [1.0, -(2 * t - 1), -(2 * s - 1)]

    c = np.zeros((16, 4), np.float32)
    c[0, :3] = direction(s_edge, t_mid)
    c[1, :3] = direction(s_edge, t_top)
    out = np.zeros((32, 4), np.float32)
    cube_pipeline.bind(0, 0, (Image(faces, "R32G32B32A32_SFLOAT", dim="cube"), sampler))
    cube_pipeline.bind(0, 1, (Image(np.zeros((6, w, w, 4), np.float32), "R32G32B32A32_SFLOAT", dim="cube_array"),
                              sampler))
    cube_pipeline.bind(0, 2, c).bind(0, 3, np.zeros(16, np.float32)).bind(0, 4, out)
    cube_pipeline.bind(0, 5, np.zeros((2, 4), np.int32)).dispatch(1)
    np.testing.assert_allclose(out[0], [0.75 * 1 + 0.25 * 5] * 4, atol=1e-5)
    # (i0, j0) on +Y: 3; (i1, j0) the corner: (3 + 1 + 5) / 3; (i0, j1) +X: 1; (i1, j1) -Z: 5.
    want = 0.1875 * 3 + 0.0625 * 3 + 0.5625 * 1 + 0.1875 * 5
    np.testing.assert_allclose(out[2], [want] * 4, atol=1e-5)
    for k in (0, 1):   # the model agrees
        np.testing.assert_allclose(out[2 * k], model.cube_sample(faces, c[k, :3].tolist(), "linear"), atol=1e-5)


# ----- depth comparison and gathers ---------------------------------------------------------------
@pytest.fixture(scope="module")
def shadow_pipeline():
    return ComputePipeline(GLSL / "shadow_gather.spv")


@pytest.mark.parametrize("filt, op, fmt", [("nearest", "less", "D32_SFLOAT"), ("linear", "less_or_equal", "D32_SFLOAT"),
                                           ("linear", "greater", "D16_UNORM"), ("nearest", "always", "D16_UNORM"),
                                           ("linear", "never", "D32_SFLOAT"), ("nearest", "not_equal", "D32_SFLOAT")])
def test_depth_comparison_and_gathers(shadow_pipeline, filt, op, fmt):
    rng = np.random.default_rng(len(filt) + 10 * len(op) + len(fmt))
    h, w = 6, 8
    if fmt == "D16_UNORM":
        stored = rng.integers(0, 65536, (h, w)).astype(np.uint16)
        depth = stored / 65535.0
    else:
        stored = rng.uniform(0, 1, (h, w)).astype(np.float32)
        depth = stored.astype(np.float64)
    colour = rng.uniform(-1, 1, (h, w, 4)).astype(np.float32)
    n = 64
    c = np.zeros((n, 4), np.float32)
    c[:, :2] = rng.uniform(-0.3, 1.3, (n, 2))
    c[:, 2] = rng.uniform(-0.2, 1.2, n)        # references outside [0, 1] clamp for D16_UNORM
    c[:, 3] = 0.0
    out = np.zeros((6 * n, 4), np.float32)
    shadow = Sampler(mag_filter=filt, compare=True, compare_op=op, address_mode_u="clamp_to_edge",
                     address_mode_v="clamp_to_edge")
    plain = Sampler(mag_filter=filt)   # repeat
    shadow_pipeline.bind(0, 0, (Image(stored, fmt), shadow)).bind(0, 1, (Image(colour, "R32G32B32A32_SFLOAT"), plain))
    shadow_pipeline.bind(0, 2, c).bind(0, 3, out).dispatch(n // 16)
    depth4 = np.repeat(depth[..., None], 4, axis=-1)
    checked = 0
    for i in range(n):
        coord = [float(v) for v in c[i, :2]]
        ref = float(c[i, 2])
        if fmt == "D16_UNORM":
            ref = min(max(ref, 0.0), 1.0)
        if np.min(np.abs(depth - np.float32(ref))) < 1e-6 or model.near_texel_boundary(coord, (w, h), True) \
                or model.near_texel_boundary(coord, (w, h), False):
            continue
        results = model.compared(depth4, ref, op)
        want = base.sample(results, coord, dict(mag_filter=filt, address_modes=("clamp_to_edge",) * 3,
                                                border_color="float_transparent_black", normalized_coords=True))
        np.testing.assert_allclose(out[6 * i, 0], want[0], atol=2e-5, err_msg=f"compare {coord} {ref}")
        np.testing.assert_allclose(out[6 * i + 1], model.gather(colour, coord, 1), atol=0)
        np.testing.assert_allclose(out[6 * i + 2], model.gather(colour, coord, 2, offset=(1, -1)), atol=0)
        want = [results[j, k, 0] for k, j in model.footprint(depth4, coord, mode="clamp_to_edge")]
        np.testing.assert_allclose(out[6 * i + 3], want, atol=0)
        offsets = [(0, 0), (1, 0), (-2, 1), (0, 3)]
        want = [model.gather(colour, coord, 0, offset=o)[3] for o in offsets]   # (i0, j0) of each footprint
        np.testing.assert_allclose(out[6 * i + 4], want, atol=0)
        if not model.near_texel_boundary(coord, (w, h), filt == "linear", offset=(2, -1)):
            want = base.sample(np.roll(colour, (1, -2), axis=(0, 1)), coord,
                               dict(mag_filter=filt, address_modes=("repeat",) * 3,
                                    border_color="float_transparent_black", normalized_coords=True))
            np.testing.assert_allclose(out[6 * i + 5], want, atol=3e-5, err_msg=f"offset {coord}")
        checked += 1
    assert checked > 30


# ----- multisampled images ------------------------------------------------------------------------
def test_multisampled_storage_images_read_and_write_each_sample():
    rng = np.random.default_rng(5)
    samples, h, w = 4, 3, 5
    src = rng.uniform(-1, 1, (samples, h, w, 4)).astype(np.float32)
    dst = np.zeros_like(src)
    fetched = rng.uniform(-1, 1, (samples, h, w, 4)).astype(np.float32)
    out = np.zeros((h * w * samples, 4), np.float32)
    q = np.zeros((1, 4), np.int32)
    p = ComputePipeline(GLSL / "multisample.spv")
    p.bind(0, 0, Image(src, "R32G32B32A32_SFLOAT", samples=samples))
    p.bind(0, 1, Image(dst, "R32G32B32A32_SFLOAT", samples=samples))
    p.bind(0, 2, (Image(fetched, "R32G32B32A32_SFLOAT", samples=samples), Sampler()))
    p.bind(0, 3, out).bind(0, 4, q).dispatch(2, 1)
    assert q.tolist() == [[samples, samples, w, h]]
    want = src * 2 + np.arange(samples, dtype=np.float32)[:, None, None, None]
    np.testing.assert_array_equal(dst, want)
    np.testing.assert_array_equal(out.reshape(h, w, samples, 4), fetched.transpose(1, 2, 0, 3))


# ----- errors -------------------------------------------------------------------------------------
def test_wrong_image_types_bound_are_clear_errors(mip_pipeline, cube_pipeline):
    faces = np.zeros((6, 4, 4, 4), np.float32)
    with pytest.raises(KernelArgumentError, match=r"set 0 binding 0.*declares a 2D image; got a cube image of 4x4"):
        mip_pipeline.bind(0, 0, (Image(faces, "R32G32B32A32_SFLOAT", dim="cube"), Sampler()))
    with pytest.raises(KernelArgumentError, match=r"declares a Cube image; got a 2d array image"):
        cube_pipeline.bind(0, 0, (Image(faces, "R32G32B32A32_SFLOAT", dim="2d_array"), Sampler()))
    with pytest.raises(KernelArgumentError, match=r"declares a Cube arrayed image; got a cube image"):
        cube_pipeline.bind(0, 1, (Image(faces, "R32G32B32A32_SFLOAT", dim="cube"), Sampler()))
    ms = Image(np.zeros((2, 4, 4, 4), np.float32), "R32G32B32A32_SFLOAT", samples=2)
    with pytest.raises(KernelArgumentError, match=r"declares a 2D image; got a 2d image of 4x4 .*, 2 samples"):
        mip_pipeline.bind(0, 0, (ms, Sampler()))
    p = ComputePipeline(GLSL / "multisample.spv")
    with pytest.raises(KernelArgumentError, match=r"declares a 2D multisampled image; got a 2d image"):
        p.bind(0, 0, Image(np.zeros((4, 4, 4), np.float32), "R32G32B32A32_SFLOAT"))


@pytest.mark.parametrize("kwargs, message", [
    (dict(data=np.zeros((6, 4, 2, 4), np.float32), dim="cube"), "a cube image's faces are square; got 2x4"),
    (dict(data=np.zeros((5, 4, 4, 4), np.float32), dim="cube"), "a cube image has 6 layers"),
    (dict(data=np.zeros((8, 4, 4, 4), np.float32), dim="cube_array"), "a multiple of 6 layers"),
    (dict(data=np.zeros((3, 4, 4, 4), np.float32), samples=3), "samples is one of 1, 2, 4"),
    (dict(data=np.zeros((2, 4, 4), np.float32), dim="1d_array", samples=2), "multisampled images are 2d or 2d_array"),
    (dict(data=np.zeros((2, 4, 4, 4), np.float32), samples=4), r"array has shape \(samples, h, w, 4\)"),
    (dict(data=np.zeros((2, 4, 4, 4), np.float32), samples=2, mip_levels=2), "multisampled image has one mip level"),
])
def test_bad_images_are_clear_errors(kwargs, message):
    data = kwargs.pop("data")
    with pytest.raises(KernelArgumentError, match=message):
        Image(data, "R32G32B32A32_SFLOAT", **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(compare_op="lesser"), "compare_op is one of never, less"),
    (dict(min_lod=2.0, max_lod=1.0), r"max_lod \(1.0\) is below min_lod \(2.0\)"),
    (dict(min_lod=-1.0), "min_lod is a level of detail >= 0"),
    (dict(mipmap_mode="cubic"), "mipmap_mode is one of nearest, linear"),
    (dict(normalized_coords=False, address_mode_u="clamp_to_edge", address_mode_v="clamp_to_edge",
          address_mode_w="clamp_to_edge", compare=True), "unnormalized coordinates take no depth comparison"),
])
def test_bad_samplers_are_clear_errors(kwargs, message):
    with pytest.raises(KernelArgumentError, match=message):
        Sampler(**kwargs)


IMPLICIT = """
OpCapability Shader
OpCapability ComputeDerivativeGroupQuadsNV
OpExtension "SPV_NV_compute_shader_derivatives"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %tex
OpExecutionMode %main LocalSize 2 2 1
OpExecutionMode %main DerivativeGroupQuadsNV
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v2 = OpTypeVector %float 2
%v4 = OpTypeVector %float 4
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%si = OpTypeSampledImage %img
%ptr = OpTypePointer UniformConstant %si
%tex = OpVariable %ptr UniformConstant
%half = OpConstant %float 0.5
%uv = OpConstantComposite %v2 %half %half
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpLoad %si %tex
%r = OpImageSampleImplicitLod %v4 %s %uv
OpReturn
OpFunctionEnd
"""


def test_implicit_lod_in_a_compute_shader_is_not_supported_yet():
    from spirvkit import assemble

    p = ComputePipeline(assemble(IMPLICIT))
    p.bind(0, 0, (Image(np.zeros((2, 2, 4), np.uint8)), Sampler()))
    with pytest.raises(NotSupportedError, match="not supported yet: OpImageSampleImplicitLod .*implicit "
                                                "level-of-detail needs screen-space derivatives"):
        p.dispatch(1)


# ----- packed storage formats ----------------------------------------------------------------------
def _ufloat_value(code: int, mb: int) -> float:
    e, m = code >> mb, code & ((1 << mb) - 1)
    if e == 31:
        return math.inf if m == 0 else math.nan
    return m * 2.0 ** (-14 - mb) if e == 0 else (1 + m / 2 ** mb) * 2.0 ** (e - 15)


def _ufloat_code(x: float, mb: int) -> int:
    """Vulkan's "Unsigned 11-Bit / 10-Bit Floating-Point Numbers": negative -> 0, NaN -> NaN,
    +INF -> INF, finite -> the closest representable finite value (ties to the even code)."""
    if math.isnan(x):
        return (31 << mb) | ((1 << mb) - 1)
    if x == math.inf:
        return 31 << mb
    if x <= 0:
        return 0
    finite = [_ufloat_value(c, mb) for c in range(31 << mb)]
    best = min(range(len(finite)), key=lambda c: (abs(finite[c] - x), c & 1))
    return best


def test_packed_storage_formats_read_and_write_as_vulkan_converts():
    rng = np.random.default_rng(3)
    h, w = 2, 4
    words = lambda: rng.integers(0, 2 ** 32, (h, w), dtype=np.uint64).astype(np.uint32)  # noqa: E731
    unorm, uint, ufloat = words(), words(), words()
    ufloat[0, 0] = (31 << 22) | (0 << 11) | (0x3F << 0)   # b INF, g 0, r NaN
    dst = [np.zeros((h, w), np.uint32) for _ in range(3)]
    values = rng.uniform(-0.2, 1.2, (h * w * 2, 4)).astype(np.float32)
    values[1::2] = (rng.uniform(-10, 70000, (h * w, 4)) * rng.choice([1e-5, 1.0, 1e-3], (h * w, 4))).astype(np.float32)
    values[1, :3] = [np.nan, np.inf, -3.0]
    values[3, :3] = [6.103515625e-05 * 0.75, 65024.0 + 1000, 2.0 ** -20]   # denormal, above the largest, tiny
    uvalues = rng.integers(0, 3000, (h * w, 4)).astype(np.uint32)
    loaded = np.zeros((h * w * 2, 4), np.float32)
    uloaded = np.zeros((h * w, 4), np.uint32)
    p = ComputePipeline(GLSL / "packed_formats.spv")
    for binding, (data, fmt) in enumerate([(unorm, "A2B10G10R10_UNORM_PACK32"), (uint, "A2B10G10R10_UINT_PACK32"),
                                           (ufloat, "B10G11R11_UFLOAT_PACK32"), (dst[0], "A2B10G10R10_UNORM_PACK32"),
                                           (dst[1], "A2B10G10R10_UINT_PACK32"), (dst[2], "B10G11R11_UFLOAT_PACK32")]):
        p.bind(0, binding, Image(data, fmt))
    p.bind(0, 6, loaded).bind(0, 7, values).bind(0, 8, uvalues).bind(0, 9, uloaded).dispatch(1, 1)
    fields = [(0, 10), (10, 10), (20, 10), (30, 2)]
    for y in range(h):
        for x in range(w):
            i = y * w + x
            word = int(unorm[y, x])
            np.testing.assert_allclose(loaded[2 * i], [(word >> s & (1 << b) - 1) / ((1 << b) - 1) for s, b in fields],
                                       rtol=1e-7)
            word = int(uint[y, x])
            assert uloaded[i].tolist() == [word >> s & (1 << b) - 1 for s, b in fields]
            word = int(ufloat[y, x])
            want = [_ufloat_value(word >> s & (1 << (mb + 5)) - 1, mb) for s, mb in ((0, 6), (11, 6), (22, 5))] + [1.0]
            np.testing.assert_array_equal(loaded[2 * i + 1], np.array(want, np.float32))
            word = int(dst[0][y, x])
            v = values[2 * i].astype(np.float64)
            assert [word >> s & (1 << b) - 1 for s, b in fields] == \
                [int(np.rint(min(max(c, 0.0), 1.0) * ((1 << b) - 1))) for c, (_, b) in zip(v, fields)]
            word = int(dst[1][y, x])
            assert [word >> s & (1 << b) - 1 for s, b in fields] == \
                [min(int(c), (1 << b) - 1) for c, (_, b) in zip(uvalues[i], fields)]
            word = int(dst[2][y, x])
            v = values[2 * i + 1].astype(np.float64)
            assert [word >> s & (1 << (mb + 5)) - 1 for s, mb in ((0, 6), (11, 6), (22, 5))] == \
                [_ufloat_code(float(c), mb) for c, mb in zip(v[:3], (6, 6, 5))], (i, v)


@pytest.mark.parametrize("mode", ["repeat", "mirrored_repeat", "clamp_to_edge"])
def test_gather_with_run_time_offsets(mode):
    rng = np.random.default_rng(23 + len(mode))
    h, w = 5, 7
    colour = rng.uniform(-1, 1, (h, w, 4)).astype(np.float32)
    n = 64
    c = np.zeros((n, 4), np.float32)
    c[:, :2] = rng.uniform(-0.5, 1.5, (n, 2))
    o = rng.integers(-8, 8, (n, 2)).astype(np.int32)
    out = np.zeros((n, 4), np.float32)
    p = ComputePipeline(GLSL / "gather_offset.spv")
    p.bind(0, 0, (Image(colour, "R32G32B32A32_SFLOAT"), Sampler(address_mode_u=mode, address_mode_v=mode)))
    p.bind(0, 1, c).bind(0, 2, o).bind(0, 3, out).dispatch(n // 16)
    checked = 0
    for i in range(n):
        coord = [float(v) for v in c[i, :2]]
        offset = tuple(int(v) for v in o[i])
        if model.near_texel_boundary(coord, (w, h), True, offset=offset):
            continue
        np.testing.assert_array_equal(out[i], model.gather(colour, coord, 3, offset=offset, mode=mode))
        checked += 1
    assert checked > 50


def test_multisampled_image_atomics_reach_each_sample():
    counts = np.zeros((4, 1, 2), np.uint32)   # 4 samples of a 2x1 image
    ComputePipeline(GLSL / "ms_atomic.spv").bind(0, 0, Image(counts, "R32_UINT", samples=4)).dispatch(1, 1)
    # 8 invocations over 2 texels: each texel's sample k gets 4 * (k + 1)
    assert counts[:, 0, :].tolist() == [[4, 4], [8, 8], [12, 12], [16, 16]]
