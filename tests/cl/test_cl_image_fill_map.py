"""spirvkit.cl: ImageDescriptor, enqueue_fill_image, enqueue_map_image.

Every expected value is what pyopencl 2026.1 on PoCL 3.1 gives for the same calls (run by hand
outside the suite, which never loads an OpenCL driver): the descriptor's quirk that ``shape``
also sets ``array_size`` (so a 1D array made from ``shape=(8, 3)`` has one layer), the fill's
conversions (PoCL truncates normalised values: 0.5 → 127 in UNORM_INT8), the map's pitches.
"""

import numpy as np
import pytest

import spirvkit.cl as cl

mf, co, ct, mt = cl.mem_flags, cl.channel_order, cl.channel_type, cl.mem_object_type
RGBA8 = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)


def info(img):
    ii = cl.image_info
    return tuple(img.get_image_info(p) for p in (ii.WIDTH, ii.HEIGHT, ii.DEPTH, ii.ARRAY_SIZE, ii.ROW_PITCH,
                                                 ii.SLICE_PITCH)) + (img.type,)


@pytest.mark.parametrize("kind,shape,expected", [
    (mt.IMAGE2D, (8, 4), (8, 4, 0, 0, 32, 0, mt.IMAGE2D)),
    (mt.IMAGE3D, (8, 4, 2), (8, 4, 2, 0, 32, 128, mt.IMAGE3D)),
    (mt.IMAGE1D, (8,), (8, 0, 0, 0, 32, 0, mt.IMAGE1D)),
    (mt.IMAGE1D_ARRAY, (8, 3), (8, 0, 0, 1, 32, 32, mt.IMAGE1D_ARRAY)),
    (mt.IMAGE2D_ARRAY, (8, 4, 3), (8, 4, 0, 3, 32, 128, mt.IMAGE2D_ARRAY)),
])
def test_descriptor_images(ctx, kind, shape, expected):
    d = cl.ImageDescriptor()
    d.image_type, d.shape, d.pitches = kind, shape, (0, 0)
    assert info(cl.Image(ctx, mf.READ_WRITE, RGBA8, desc=d)) == expected


def test_descriptor_array_size_hostbuf_and_buffer(ctx, queue):
    d = cl.ImageDescriptor()
    d.image_type, d.shape = mt.IMAGE2D_ARRAY, (8, 4, 1)
    d.array_size = 5
    assert info(cl.Image(ctx, mf.READ_WRITE, RGBA8, desc=d)) == (8, 4, 0, 5, 32, 128, mt.IMAGE2D_ARRAY)
    d = cl.ImageDescriptor()
    d.image_type, d.shape, d.pitches = mt.IMAGE2D, (4, 2), (0, 0)
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, RGBA8, desc=d, hostbuf=np.arange(32, dtype=np.uint8))
    out = np.zeros(32, np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(4, 2))
    assert out.tolist() == list(range(32))
    d = cl.ImageDescriptor()
    d.image_type, d.shape, d.buffer = mt.IMAGE1D_BUFFER, (16,), cl.Buffer(ctx, mf.READ_WRITE, 64)
    assert info(cl.Image(ctx, mf.READ_WRITE, RGBA8, desc=d)) == (16, 0, 0, 0, 64, 0, mt.IMAGE1D_BUFFER)


def test_descriptor_errors(ctx):
    d = cl.ImageDescriptor()
    assert (d.image_type, d.array_size, d.num_mip_levels, d.num_samples) == (0, 0, 0, 0)
    with pytest.raises(cl.LogicError) as info_:
        cl.Image(ctx, mf.READ_WRITE, RGBA8, desc=d)
    assert info_.value.code == cl.status_code.INVALID_VALUE
    with pytest.raises(TypeError, match="shape may not be passed when using descriptor"):
        cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(4, 4), desc=d)


FILLS = [  # format, numpy dtype, channels, color, the filled pixel on PoCL
    (co.RGBA, ct.UNORM_INT8, np.uint8, 4, np.array([0.5, 1.5, -1, 0.2], np.float32), [127, 255, 0, 51]),
    (co.BGRA, ct.UNORM_INT8, np.uint8, 4, np.array([0.1, 0.2, 0.3, 0.4], np.float32), [76, 51, 25, 102]),
    (co.RGBA, ct.UNORM_INT8, np.uint8, 4, np.array([0.498, 0.502, 0.1, 0.9], np.float32), [126, 128, 25, 229]),
    (co.RGBA, ct.UNORM_INT16, np.uint16, 4, np.array([0.5, 0.1, 0.25, 1 / 3], np.float32), [32767, 6553, 16383, 21845]),
    (co.RGBA, ct.SNORM_INT8, np.int8, 4, np.array([0.5, -0.5, -1.5, 0.1], np.float32), [63, -63, -128, 12]),
    (co.RGBA, ct.FLOAT, np.float32, 4, np.array([0.5, -2.25, np.inf, 7], np.float32), [0.5, -2.25, np.inf, 7.0]),
    (co.R, ct.FLOAT, np.float32, 1, np.array([3.5, 9, 9, 9], np.float32), 3.5),
    (co.RGBA, ct.UNSIGNED_INT8, np.uint8, 4, np.array([1, 300, 255, 7], np.uint32), [1, 255, 255, 7]),
    (co.RGBA, ct.SIGNED_INT16, np.int16, 4, np.array([-5, 40000, -40000, 7], np.int32), [-5, 32767, -32768, 7]),
    (co.RGBA, ct.HALF_FLOAT, np.float16, 4, np.array([0.1, 70000, -1, 2], np.float32),
     [0.0999755859375, np.inf, -1.0, 2.0]),
    (co.RGBA, ct.UNSIGNED_INT32, np.uint32, 4, np.array([1, 2 ** 32 - 1, 5, 7], np.uint32), [1, 2 ** 32 - 1, 5, 7]),
]


@pytest.mark.parametrize("order,ctype,dtype,channels,color,pixel", FILLS)
def test_fill_image_as_pocl(ctx, queue, order, ctype, dtype, channels, color, pixel):
    fmt = cl.ImageFormat(order, ctype)
    img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, shape=(6, 4),
                   hostbuf=np.zeros(6 * 4 * fmt.itemsize, np.uint8))
    cl.enqueue_fill_image(queue, img, color, (1, 1), (3, 2))
    out = np.zeros((4, 6, channels) if channels > 1 else (4, 6), dtype)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(6, 4))
    assert out[1, 1].tolist() == pixel and out[2, 3].tolist() == pixel
    filled = (out != 0).any(axis=-1) if channels > 1 else out != 0
    assert filled.sum() == 6 and filled[1:3, 1:4].all()


def test_fill_3d_and_errors(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, RGBA8, shape=(4, 3, 2), hostbuf=np.zeros(96, np.uint8))
    cl.enqueue_fill_image(queue, img, np.array([9, 8, 7, 6], np.uint32), (0, 1, 1), (4, 2, 1))
    out = np.zeros((2, 3, 4, 4), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0, 0), region=(4, 3, 2))
    assert out[1, 1, 0].tolist() == [9, 8, 7, 6] and out[0, 1, 0].tolist() == [0] * 4
    assert (out != 0).any(axis=-1).sum() == 8
    small = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(6, 4))
    with pytest.raises(cl.LogicError) as info_:
        cl.enqueue_fill_image(queue, small, np.array([1, 2, 3, 4], np.uint32), (4, 0), (3, 1))
    assert info_.value.code == cl.status_code.INVALID_VALUE
    with pytest.raises(cl.LogicError) as info_:
        cl.enqueue_fill_image(queue, cl.Buffer(ctx, mf.READ_WRITE, 64), np.array([1, 2, 3, 4], np.uint32), (0, 0),
                              (1, 1))
    assert info_.value.code == cl.status_code.INVALID_MEM_OBJECT


def test_map_image_views_and_writes_back(ctx, queue):
    src = np.arange(6 * 4 * 4, dtype=np.uint8).reshape(4, 6, 4)
    img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, RGBA8, shape=(6, 4), hostbuf=src)
    ary, ev, rp, sp = cl.enqueue_map_image(queue, img, cl.map_flags.READ | cl.map_flags.WRITE, (1, 1), (2, 2),
                                           (2, 2, 4), np.uint8, strides=(24, 4, 1))
    assert ary.tolist() == [[[28, 29, 30, 31], [32, 33, 34, 35]], [[52, 53, 54, 55], [56, 57, 58, 59]]]
    assert (rp, sp, ary.shape, ary.strides) == (24, 0, (2, 2, 4), (24, 4, 1))
    ary[0, 0] = [200, 201, 202, 203]
    ary.base.release(queue)
    queue.finish()
    out = np.zeros((4, 6, 4), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(6, 4))
    assert out[1, 1].tolist() == [200, 201, 202, 203] and out[1, 2].tolist() == [32, 33, 34, 35]
    img3 = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(4, 3, 2))
    a3, _, rp, sp = cl.enqueue_map_image(queue, img3, cl.map_flags.READ, (0, 0, 1), (4, 3, 1), (3, 4, 4), np.uint8)
    assert (rp, sp, a3.shape) == (16, 48, (3, 4, 4))
    with a3.base:
        pass


def test_map_image_errors(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(6, 4))
    for call, code in [
        (lambda: cl.enqueue_map_image(queue, img, cl.map_flags.READ, (5, 0), (2, 1), (2, 4), np.uint8),
         cl.status_code.INVALID_VALUE),
        (lambda: cl.enqueue_map_image(queue, cl.Buffer(ctx, mf.READ_WRITE, 64), cl.map_flags.READ, (0, 0), (1, 1),
                                      (4,), np.uint8), cl.status_code.INVALID_MEM_OBJECT),
        # spirvkit.cl only: an array reaching past the image (pyopencl would read past it)
        (lambda: cl.enqueue_map_image(queue, img, cl.map_flags.READ, (5, 3), (1, 1), (2, 4), np.uint8),
         cl.status_code.INVALID_VALUE),
    ]:
        with pytest.raises(cl.LogicError) as info_:
            call()
        assert info_.value.code == code
