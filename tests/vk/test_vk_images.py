"""spirvkit.vk images, samplers, texel buffers and arrays of descriptors: GLSL shaders compiled
once with glslangValidator (tests/data/amber/glsl, see tests/data/amber/README.md), checked
against numpy models of Vulkan's sampling and format conversions (vk_sampler_model.py), and
bad bindings / out-of-range accesses giving clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spirvkit.errors import KernelArgumentError, KernelFault, NotSupportedError
from spirvkit.vk import ComputePipeline, Image, Sampler
from spirvkit.vk.resources import VkFormat

from vk import vk_sampler_model as model

GLSL = Path(__file__).parent.parent / "data" / "amber" / "glsl"


# ----- sampling ------------------------------------------------------------------------------------
def _sampler_cases():
    modes = ["repeat", "mirrored_repeat", "clamp_to_edge", "clamp_to_border"]
    for filt in ("nearest", "linear"):
        for mode in modes:
            borders = list(model.BORDERS) if mode == "clamp_to_border" else ["float_transparent_black"]
            for border in borders:
                yield filt, mode, border, True
        for mode in ("clamp_to_edge", "clamp_to_border"):
            yield filt, mode, "float_opaque_white", False


@pytest.fixture(scope="module")
def sampling_pipeline():
    return ComputePipeline(GLSL / "sampler_model.spv")


@pytest.mark.parametrize("filt, mode, border, normalized", list(_sampler_cases()),
                         ids=lambda v: str(v))
def test_sampling_matches_the_vulkan_model(sampling_pipeline, filt, mode, border, normalized):
    rng = np.random.default_rng(hash((filt, mode, border, normalized)) % 2**32)
    images = [rng.uniform(-1, 1, shape + (4,)).astype(np.float32) for shape in [(5,), (3, 5), (2, 3, 4)]]
    state = dict(mag_filter=filt, address_modes=(mode,) * 3, border_color=border, normalized_coords=normalized)
    sampler = Sampler(mag_filter=filt, address_mode_u=mode, address_mode_v=mode, address_mode_w=mode,
                      border_color=border, normalized_coords=normalized)
    n = 64
    lo, hi = (-1.5, 2.5) if normalized else (-2.0, 7.0)
    coords = rng.uniform(lo, hi, (n, 4)).astype(np.float32)
    out = np.zeros((3 * n, 4), np.float32)
    p = sampling_pipeline
    for binding, data in enumerate(images):
        p.bind(0, binding, (Image(data, "R32G32B32A32_SFLOAT"), sampler))
    p.bind(0, 3, coords).bind(0, 4, out).dispatch(n // 16)
    checked = 0
    for i in range(n):
        for d, data in enumerate(images):
            c = [float(v) for v in coords[i, :d + 1]]
            sizes = list(reversed(data.shape[:-1]))
            if model.distance_to_boundary(c, sizes, state) < 1e-3:
                continue   # Vulkan's sub-texel precision allows either neighbour there
            want = model.sample(data, c, state)
            np.testing.assert_allclose(out[3 * i + d], want, atol=2e-4, err_msg=f"{d + 1}D at {c}")
            checked += 1
    assert checked > 150


# ----- formats -------------------------------------------------------------------------------------
FLOAT_FORMATS = ["R8G8B8A8_UNORM", "R8_UNORM", "R8G8_SNORM", "R16G16B16A16_UNORM", "R16_SNORM", "R8G8B8A8_SRGB",
                 "B8G8R8A8_UNORM", "R16G16B16A16_SFLOAT", "R32G32_SFLOAT", "R32_SFLOAT", "R8G8B8A8_SNORM",
                 "R32G32B32_SFLOAT", "B8G8R8A8_SRGB"]
SINT_FORMATS = ["R8G8B8A8_SINT", "R16_SINT", "R32G32B32A32_SINT", "R16G16_SINT", "R16G16B16_SINT"]
UINT_FORMATS = ["R8_UINT", "R16G16_UINT", "R32_UINT", "R8G8B8A8_UINT"]


def _texels(rng, fmt: str) -> np.ndarray:
    f = VkFormat(fmt)
    shape = (4, 4) + ((f.channels,) if f.channels > 1 else ())
    if f.dtype.kind == "f":
        return rng.uniform(-100, 100, shape).astype(f.dtype)
    info = np.iinfo(f.dtype)
    return rng.integers(info.min, info.max, shape, dtype=f.dtype, endpoint=True)


@pytest.mark.parametrize("k", range(len(FLOAT_FORMATS)))
def test_texel_fetch_converts_formats_as_vulkan(k):
    fmt_f, fmt_s, fmt_u = FLOAT_FORMATS[k], SINT_FORMATS[k % len(SINT_FORMATS)], UINT_FORMATS[k % len(UINT_FORMATS)]
    rng = np.random.default_rng(k)
    data = {fmt: _texels(rng, fmt) for fmt in (fmt_f, fmt_s, fmt_u)}
    p = ComputePipeline(GLSL / "formats.spv")
    out = np.zeros(16 * 4 * 3, np.uint32)
    p.bind(0, 0, Image(data[fmt_f], fmt_f)).bind(0, 1, Image(data[fmt_s], fmt_s)).bind(0, 2, Image(data[fmt_u], fmt_u))
    p.bind(0, 3, Sampler()).bind(0, 4, out).dispatch(1)
    floats, sints, uints = out[:64].view(np.float32), out[64:128].view(np.int32), out[128:]
    for fmt, got, tol in ((fmt_f, floats, 1e-6), (fmt_s, sints, 0), (fmt_u, uints, 0)):
        texels = data[fmt].reshape(16, -1)
        if fmt.startswith("B8G8R8A8"):     # stored b, g, r, a
            texels, name = texels[:, [2, 1, 0, 3]], "R8G8B8A8_" + fmt.split("_")[1]
        else:
            name = fmt
        want = np.array([model.decode(t, name) for t in texels])
        np.testing.assert_allclose(got.reshape(16, 4).astype(np.float64), want, rtol=tol, atol=tol, err_msg=fmt)


# ----- storage images and texel buffers -----------------------------------------------------------
def test_storage_images_read_write_and_size():
    p = ComputePipeline(GLSL / "images.spv")
    assert p.bindings == [(0, 0, "storage_image"), (0, 1, "storage_image"), (0, 2, "storage_image")]
    src = (np.arange(6 * 5 * 4) * 7 % 256).astype(np.uint8).reshape(5, 6, 4)
    dst = np.zeros((5, 6, 4), np.float32)
    counts = np.full((5, 6), 7, np.uint32)
    p.bind(0, 0, Image(src, "R8G8B8A8_UNORM")).bind(0, 1, Image(dst, "R32G32B32A32_SFLOAT"))
    p.bind(0, 2, Image(counts, "R32_UINT")).push_constants(np.array([0, 0], np.int32))
    p.dispatch(2, 2)      # 8 x 8 invocations over a 6 x 5 image: imageSize bounds them
    np.testing.assert_allclose(dst, src / 255.0 * 2, rtol=1e-6)
    np.testing.assert_array_equal(counts, 7 + np.arange(6)[None, :] + 10 * np.arange(5)[:, None])


def test_texel_buffers():
    p = ComputePipeline(GLSL / "texel_buffers.spv")
    assert p.bindings == [(0, 0, "uniform_texel_buffer"), (0, 1, "storage_texel_buffer")]
    values = np.array([0.1, 0.25, 0.5, 0.75, 1.0, 0.0, 0.3, 0.9], np.float32)
    sums = np.arange(8, dtype=np.uint32)
    p.bind(0, 0, Image(values, "R32_SFLOAT", dim="buffer")).bind(0, 1, Image(sums, "R32_UINT", dim="buffer"))
    p.dispatch(1)
    np.testing.assert_array_equal(sums, np.arange(8) + np.round(values * 100).astype(np.uint32) + 8)


def test_out_of_range_image_coordinates_fault_with_the_coordinate():
    p = ComputePipeline(GLSL / "images.spv")
    src = np.zeros((5, 6, 4), np.uint8)
    p.bind(0, 0, Image(src, "R8G8B8A8_UNORM")).bind(0, 1, Image(np.zeros((5, 6, 4), np.float32), "R32G32B32A32_SFLOAT"))
    p.bind(0, 2, Image(np.zeros((5, 6), np.uint32), "R32_UINT")).push_constants(np.array([1, 0], np.int32))
    with pytest.raises(KernelFault, match=r"out-of-bounds image read in compute shader 'main', invocation "
                                          r"GlobalInvocationId \(5, 0, 0\): at coordinate \(6, 0\), outside set 0 "
                                          r"binding 0 \(storage image 'src'\), a 2d image of 6x5 R8G8B8A8_UNORM"):
        p.dispatch(2, 2)
    p.dispatch(2, 2, unchecked=True)   # no fault, no access outside: the texel read is texel 0's


# ----- arrays of descriptors -----------------------------------------------------------------------
def test_array_of_storage_buffers():
    p = ComputePipeline(GLSL / "desc_array.spv")
    ins = [np.arange(8, dtype=np.uint32) + 3 * k for k in range(3)]
    ins[1] = np.arange(10, dtype=np.uint32) + 1
    out = np.zeros(8, np.uint32)
    p.bind(0, 0, ins).bind(0, 1, out)
    for which in (0, 2):
        for unchecked in (False, True):
            out[:] = 0
            p.push_constants(np.array([which], np.uint32)).dispatch(2, unchecked=unchecked)
            want = ins[0] + ins[1][:8] * 10 + ins[2] * 100 + ins[which][:8] * 1000 + 10 * 100000
            np.testing.assert_array_equal(out, want)


def test_descriptor_index_outside_the_array_faults_naming_the_element():
    p = ComputePipeline(GLSL / "desc_array.spv")
    p.bind(0, 0, [np.zeros(8, np.uint32)] * 3).bind(0, 1, np.zeros(8, np.uint32))
    p.push_constants(np.array([3], np.uint32))
    with pytest.raises(KernelFault, match=r"out-of-bounds descriptor index in compute shader 'main', invocation "
                                          r"GlobalInvocationId \(0, 0, 0\): index 3 of set 0 binding 0 \(an array of 3 "
                                          r"storage buffers 'ins'\)\n  instruction: OpAccessChain"):
        p.dispatch(2)


def test_arrays_of_images_and_a_bad_index():
    p = ComputePipeline(GLSL / "image_array.spv")
    a = np.arange(16, dtype=np.float32).reshape(2, 2, 4)
    b = a * 100
    o0, o1 = np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32)
    s = Sampler()
    p.bind(0, 0, [(Image(a, "R32G32B32A32_SFLOAT"), s), (Image(b, "R32G32B32A32_SFLOAT"), s)])
    p.bind(0, 1, [Image(o0, "R32_SFLOAT"), Image(o1, "R32_SFLOAT")])
    p.push_constants(np.array([1], np.int32)).dispatch(1)
    np.testing.assert_array_equal(o1, a[..., 0] + 10 * b[..., 0])
    np.testing.assert_array_equal(o0, a[..., 1])
    for which in (2, -1):
        p.push_constants(np.array([which], np.int32))
        with pytest.raises(KernelFault, match=rf"index {which} of set 0 binding 0 \(an array of 2 combined image "
                                              rf"samplers 'texs'\)"):
            p.dispatch(1)
        p.dispatch(1, unchecked=True)   # an index outside picks entry 0: never a descriptor that is not one


def test_runtime_arrays_of_descriptors():
    p = ComputePipeline(GLSL / "runtime_array.spv")
    ins = [np.array([1, 2, 1, 2, 0, 0, 0, 0], np.uint32), np.array([0, 1, 1, 0, 0, 0, 0, 0], np.uint32),
           np.array([1, 1, 0, 0, 0, 0, 0, 0], np.uint32)]
    texs = [Image(np.full((1, 1, 4), v, np.float32), "R32G32B32A32_SFLOAT") for v in (10.0, 20.0)]
    out = np.zeros((8, 4), np.float32)
    p.bind(0, 0, ins).bind(0, 1, texs).bind(0, 2, Sampler()).bind(0, 3, out).dispatch(2)
    np.testing.assert_array_equal(out[:, 0], [10, 21, 21, 10, 10, 10, 10, 10])
    # Two formats in one array: the shader reads them through the format-generic texel code.
    texs[1] = Image(np.full((1, 1, 4), 51, np.uint8), "R8G8B8A8_UNORM")
    p.bind(0, 1, texs).dispatch(2)
    np.testing.assert_allclose(out[:, 0], [10, 1.2, 1.2, 10, 10, 10, 10, 10], rtol=1e-6)
    ins[0][5] = 7
    with pytest.raises(KernelFault, match=r"invocation GlobalInvocationId \(5, 0, 0\): index 7 of set 0 binding 0 "
                                          r"\(a runtime array of storage buffers 'ins'\), 3 bound"):
        p.dispatch(2)


# ----- bad bindings ------------------------------------------------------------------------------
def test_bad_image_and_sampler_bindings_are_clear_errors():
    p = ComputePipeline(GLSL / "images.spv")
    rgba8 = np.zeros((5, 6, 4), np.uint8)
    cases = [
        (0, np.zeros(4, np.float32), "set 0 binding 0 (storage image 'src'): bind a spirvkit.vk.Image, not ndarray"),
        (0, Image(np.zeros((5, 6, 4), np.float32), "R32G32B32A32_SFLOAT"),
         "the shader declares the image format Rgba8; got a 2d image of 6x5 R32G32B32A32_SFLOAT"),
        (2, Image(np.zeros((5, 6), np.int32), "R32_SINT"),
         "the shader reads it as uint texels; a 2d image of 6x5 R32_SINT has int ones"),
        (0, Image(np.zeros((6, 4), np.uint8), "R8G8B8A8_UNORM"),
         "the shader declares a 2D image; got a 1d image of 6 R8G8B8A8_UNORM"),
        (1, Image(np.zeros((5, 6, 4), np.float32)[:], "R32G32B32A32_SFLOAT"), None),
        (0, [Image(rgba8, "R8G8B8A8_UNORM")], "bind a spirvkit.vk.Image, not list"),
    ]
    for binding, value, message in cases:
        if message is None:
            p.bind(0, binding, value)
            continue
        with pytest.raises(KernelArgumentError) as e:
            p.bind(0, binding, value)
        assert message in str(e.value)
    readonly = np.zeros((5, 6), np.uint32)
    readonly.flags.writeable = False
    with pytest.raises(KernelArgumentError, match="read-only, and a storage image may be written"):
        p.bind(0, 2, Image(readonly, "R32_UINT"))

    s = ComputePipeline(GLSL / "sample.spv")
    img = Image(np.zeros((2, 2, 4), np.uint8), "R8G8B8A8_UNORM")
    with pytest.raises(KernelArgumentError, match=r"combined image sampler 'tex'\): bind an \(Image, Sampler\) pair"):
        s.bind(0, 0, img)
    with pytest.raises(KernelArgumentError, match=r"sampler 'smp'\): bind a spirvkit.vk.Sampler, not Image"):
        s.bind(0, 2, img)
    with pytest.raises(NotSupportedError, match=r"not supported yet: a sampler with different address modes per "
                                                r"axis \(repeat, clamp_to_edge\)"):
        s.bind(0, 0, (img, Sampler(address_mode_v="clamp_to_edge")))
    s.bind(0, 0, (img, Sampler(address_mode_w="clamp_to_edge")))   # a 2D image has no w axis
    with pytest.raises(NotSupportedError, match="not supported yet: the mirror_clamp_to_edge address mode"):
        s.bind(0, 2, Sampler(address_mode_u="mirror_clamp_to_edge", address_mode_v="mirror_clamp_to_edge",
                             address_mode_w="mirror_clamp_to_edge"))

    a = ComputePipeline(GLSL / "desc_array.spv")
    with pytest.raises(KernelArgumentError, match=r"set 0 binding 0 \(an array of 3 storage buffers 'ins'\): the shader "
                                                  r"declares 3 descriptor\(s\); the list has 2"):
        a.bind(0, 0, [np.zeros(4, np.uint32)] * 2)
    with pytest.raises(KernelArgumentError, match="is an array of descriptors: bind a list, not ndarray"):
        a.bind(0, 0, np.zeros(4, np.uint32))
    with pytest.raises(KernelArgumentError, match=r"set 0 binding 0 element 1 \(storage buffer 'ins'\): bind a numpy "
                                                  r"array, not int"):
        a.bind(0, 0, [np.zeros(4, np.uint32), 5, np.zeros(4, np.uint32)])
    a.bind(0, 0, [np.zeros(4, np.uint32), np.zeros(1, np.uint8), np.zeros(4, np.uint32)])
    a.bind(0, 1, np.zeros(8, np.uint32)).push_constants(np.array([0], np.uint32))
    with pytest.raises(KernelFault, match=r"of set 0 binding 0 element 1 \(storage buffer 'ins'\)"):
        a.dispatch(2)   # element 1 is one byte long: its first read is outside it


def test_image_and_sampler_constructors_check_their_arguments():
    cases = [
        (lambda: Image([1, 2], "R8_UNORM"), KernelArgumentError, "Image takes a numpy array, not list"),
        (lambda: Image(np.zeros((2, 2, 4), np.float32), "R8G8B8A8_UNORM"), KernelArgumentError,
         "a R8G8B8A8_UNORM image holds uint8 components, got a float32 array"),
        (lambda: Image(np.zeros((2, 2, 3), np.uint8), "R8G8B8A8_UNORM"), KernelArgumentError,
         "a 2d R8G8B8A8_UNORM image's array has shape (h, w, 4), got (2, 2, 3)"),
        (lambda: Image(np.zeros((2, 2), np.uint16), "R5G6B5_UNORM_PACK16"), KernelArgumentError,
         "not supported yet: the image format R5G6B5_UNORM_PACK16"),
        (lambda: Image(np.zeros(4, np.uint8), "R8_UNORM", dim="rect"), KernelArgumentError, "dim is one of"),
        (lambda: Sampler(mag_filter="cubic"), KernelArgumentError, "mag_filter is one of nearest, linear"),
        (lambda: Sampler(normalized_coords=False), KernelArgumentError,
         "unnormalized coordinates take the clamp_to_edge and clamp_to_border address modes only"),
        (lambda: Sampler(border_color="pink"), KernelArgumentError, "border_color is one of"),
        (lambda: Sampler(compare=True, compare_op="lesser"), KernelArgumentError, "compare_op is one of never"),
    ]
    for make, error, message in cases:
        with pytest.raises(error) as e:
            make()
        assert message in str(e.value)
    img = Image(np.zeros((3, 2, 4), np.uint8), "B8G8R8A8_SRGB")
    assert img.shape == (2, 3) and img.describe() == "a 2d image of 2x3 B8G8R8A8_SRGB"


def test_arrayed_images():
    p = ComputePipeline(GLSL / "arrayed.spv")
    layers = np.arange(3 * 2 * 2 * 4, dtype=np.float32).reshape(3, 2, 2, 4)
    lines = np.arange(3 * 4, dtype=np.float32).reshape(3, 4)
    out = np.zeros((4, 4), np.float32)
    p.bind(0, 0, (Image(layers, "R32G32B32A32_SFLOAT", dim="2d_array"), Sampler()))
    p.bind(0, 1, Image(lines, "R32_SFLOAT", dim="1d_array")).bind(0, 2, out).dispatch(1)
    np.testing.assert_array_equal(out[0], layers[1, 1, 0])      # layer 1.0, texel (0, 1)
    np.testing.assert_array_equal(out[1], layers[2, 0, 1])      # layer 5.7 clamps to the last
    np.testing.assert_array_equal(out[2], [2, 2, 3, 1])         # width, height, layers; one level
    np.testing.assert_array_equal(out[3], [9 + 4, 3, 0, 1])     # texel 1 of layer 2 (r, 0, 0, 1) + (w, layers)
    assert lines[1, 0] == 42
    with pytest.raises(KernelArgumentError, match=r"the shader declares a 2D arrayed image; got a 2d image of 2x2"):
        p.bind(0, 0, (Image(layers[0], "R32G32B32A32_SFLOAT"), Sampler()))


def test_image_atomics():
    p = ComputePipeline(GLSL / "image_atomics.spv")
    for unchecked in (False, True):
        hist, m0, m1 = np.zeros((2, 3), np.uint32), np.full(2, -1000, np.int32), np.zeros(2, np.int32)
        p.bind(0, 0, Image(hist, "R32_UINT")).bind(0, 1, [Image(m0, "R32_SINT"), Image(m1, "R32_SINT")])
        p.push_constants(np.array([0], np.int32)).dispatch(1, unchecked=unchecked)
        # 8 x 8 invocations add 1 at x % 3; the largest value one of them saw is 23
        np.testing.assert_array_equal(hist, [[24, 24, 16], [7, 5, 0]])
        np.testing.assert_array_equal(m0, [23, -1000])
        np.testing.assert_array_equal(m1, [-67, -77])    # min of -x - 10 y over even / odd y
    p.push_constants(np.array([1], np.int32))
    with pytest.raises(KernelFault, match=r"out-of-bounds image atomic in compute shader 'main', invocation "
                                          r"GlobalInvocationId \(2, 0, 0\): at coordinate \(3, 0\), outside set 0 "
                                          r"binding 0 \(storage image 'hist'\), a 2d image of 3x2 R32_UINT\n"
                                          r"  instruction: OpImageTexelPointer"):
        p.dispatch(1)
    hist[:] = 0
    p.dispatch(1, unchecked=True)     # the atomics outside the image change nothing
    np.testing.assert_array_equal(hist, [[0, 24, 24], [7, 5, 0]])
