"""spirvkit.cl: images, image formats, samplers, image copies and images as kernel arguments,
with pyopencl's names, shapes and error codes (sampling itself is spirvkit.Image's, tested in
tests/jit against PoCL's records)."""

import numpy as np
import pytest

import spirvkit.cl as cl

mf = cl.mem_flags
RGBA8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
RGBAF = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)

SOURCE = """
__kernel void fill(write_only image2d_t o) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(o, p, (float4)(p.x, p.y, 0.5f, 1.0f));
}
__kernel void sample(read_only image2d_t i, sampler_t s, __global float4 *o) {
    int x = get_global_id(0);
    o[x] = read_imagef(i, s, (float2)(x + 0.5f, 0.5f));
}
__kernel void size3(read_only image3d_t i, __global int *o) {
    o[0] = get_image_width(i); o[1] = get_image_height(i); o[2] = get_image_depth(i);
}
__kernel void copy_ui(read_only image2d_t i, write_only image2d_t o) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(o, p, read_imageui(i, p) + (uint4)(1));
}
__kernel void oob(write_only image2d_t o) { write_imagef(o, (int2)(get_global_id(0) + 1, 0), (float4)(0)); }
"""


@pytest.fixture(scope="module")
def prg(ctx):
    return cl.Program(ctx, SOURCE).build()


def test_image_format():
    assert (RGBA8.channel_count, RGBA8.dtype_size, RGBA8.itemsize) == (4, 1, 4)
    assert (RGBAF.channel_count, RGBAF.dtype_size, RGBAF.itemsize) == (4, 4, 16)
    packed = cl.ImageFormat(cl.channel_order.RGB, cl.channel_type.UNORM_SHORT_565)
    assert (packed.channel_count, packed.itemsize) == (3, 2)
    assert repr(RGBA8) == "ImageFormat(RGBA, UNORM_INT8)"
    assert RGBA8 == cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8) != RGBAF
    with pytest.raises(cl.LogicError):
        cl.ImageFormat(1, 2).channel_count


def test_supported_formats(ctx):
    formats = cl.get_supported_image_formats(ctx, mf.READ_ONLY, cl.mem_object_type.IMAGE2D)
    assert RGBA8 in formats and RGBAF in formats
    assert cl.ImageFormat(cl.channel_order.RGB, cl.channel_type.UNORM_INT8) not in formats
    depth = cl.ImageFormat(cl.channel_order.DEPTH, cl.channel_type.FLOAT)
    assert depth in formats
    assert depth not in cl.get_supported_image_formats(ctx, mf.READ_ONLY, cl.mem_object_type.IMAGE3D)
    with pytest.raises(cl.LogicError):
        cl.get_supported_image_formats(ctx, mf.READ_ONLY, cl.mem_object_type.BUFFER)


def test_image_info(ctx):
    img = cl.Image(ctx, mf.READ_WRITE, RGBAF, shape=(4, 3))
    assert img.type == cl.mem_object_type.IMAGE2D and img.shape == (4, 3)
    assert (img.width, img.height, img.depth, img.array_size) == (4, 3, 0, 0)
    assert (img.element_size, img.row_pitch, img.slice_pitch) == (16, 64, 0)
    assert img.get_image_info(cl.image_info.FORMAT) == RGBAF and img.size == 4 * 3 * 16
    assert img.get_info(cl.mem_info.TYPE) == cl.mem_object_type.IMAGE2D
    vol = cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(4, 3, 2))
    assert vol.type == cl.mem_object_type.IMAGE3D and vol.shape == (4, 3, 2) and vol.slice_pitch == 48
    one = cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(5,))
    assert one.type == cl.mem_object_type.IMAGE1D and (one.width, one.height) == (5, 0)
    arr = cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(4, 3, 6), is_array=True)
    assert arr.type == cl.mem_object_type.IMAGE2D_ARRAY and arr.array_size == 6
    assert cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(4, 6), is_array=True).type == cl.mem_object_type.IMAGE1D_ARRAY
    with pytest.raises(cl.LogicError, match="only images have shapes"):
        arr.shape


def test_bad_images(ctx):
    with pytest.raises(cl.RuntimeError) as info:
        cl.Image(ctx, mf.READ_ONLY, cl.ImageFormat(cl.channel_order.RGB, cl.channel_type.UNORM_INT8), shape=(4, 4))
    assert info.value.code == cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED
    with pytest.raises(cl.LogicError) as info:
        cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(100000, 3))
    assert info.value.code == cl.status_code.INVALID_IMAGE_SIZE
    with pytest.raises(cl.Error):
        cl.Image(ctx, mf.READ_ONLY, RGBA8)                      # no shape, no hostbuf
    with pytest.raises(cl.Error):
        cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(4, 4), pitches=(64,))
    with pytest.raises(cl.LogicError) as info:
        cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, RGBA8, shape=(4, 4), hostbuf=np.zeros(8, np.uint8))
    assert info.value.code == cl.status_code.INVALID_VALUE     # pyopencl + PoCL read past the array here
    with pytest.raises(cl.LogicError) as info:
        cl.Image(ctx, mf.READ_ONLY, "RGBA", shape=(4, 4))
    assert info.value.code == cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR
    with pytest.raises(TypeError):
        cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(4,), is_array=True)
    with pytest.raises(cl.LogicError, match="not supported yet"):
        cl.Image(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, RGBA8, shape=(2, 2), pitches=(32,),
                 hostbuf=np.zeros(64, np.uint8))


def test_copy_host_ptr_with_pitches(ctx, queue):
    host = np.arange(3 * 40, dtype=np.uint8).reshape(3, 40)    # rows of 32 bytes of pixels + 8 of padding
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, RGBA8, shape=(8, 3), pitches=(40,), hostbuf=host)
    out = np.zeros((3, 8, 4), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(8, 3))
    assert (out.reshape(3, 32) == host[:, :32]).all()


def test_use_host_ptr_aliases(ctx, queue, prg):
    host = np.zeros((3, 4, 4), np.float32)
    img = cl.Image(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, RGBAF, shape=(4, 3), hostbuf=host)
    prg.fill(queue, (4, 3), None, img)
    queue.finish()
    assert host[2, 3].tolist() == [3, 2, 0.5, 1] and img.host_ptr == host.ctypes.data


def test_image_from_array(ctx, queue):
    a = np.arange(5 * 3 * 4, dtype=np.uint8).reshape(3, 5, 4)
    img = cl.image_from_array(ctx, a, 4, norm_int=True)
    assert img.shape == (5, 3) and img.format == RGBA8
    assert img.get_info(cl.mem_info.FLAGS) == mf.READ_ONLY | mf.COPY_HOST_PTR
    f = cl.image_from_array(ctx, np.ones((3, 5), np.float32), mode="w")
    assert f.format == cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT) and f.flags & mf.WRITE_ONLY
    from spirvkit.cl import cltypes
    v = cl.image_from_array(ctx, np.zeros((2, 3), cltypes.float4))
    assert v.format == RGBAF and v.shape == (3, 2)
    u = cl.image_from_array(ctx, np.zeros((2, 3, 2), np.uint16), 2)
    assert u.format == cl.ImageFormat(cl.channel_order.RG, cl.channel_type.UNSIGNED_INT16)
    with pytest.raises(KeyError):
        cl.image_from_array(ctx, np.zeros((3, 5), np.float64))
    with pytest.raises(ValueError):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float32)[:, ::2])
    with pytest.raises(cl.RuntimeError):
        cl.image_from_array(ctx, np.zeros((4, 4, 3), np.float32), 4)
    with pytest.raises(ValueError):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float32), mode="rw")


def test_samplers(ctx, queue, prg):
    s = cl.Sampler(ctx, True, cl.addressing_mode.REPEAT, cl.filter_mode.LINEAR)
    assert s.get_info(cl.sampler_info.ADDRESSING_MODE) == cl.addressing_mode.REPEAT
    assert s.get_info(cl.sampler_info.NORMALIZED_COORDS) == 1
    assert s.get_info(cl.sampler_info.FILTER_MODE) == cl.filter_mode.LINEAR
    p = cl.Sampler(ctx, [cl.sampler_info.NORMALIZED_COORDS, False, cl.sampler_info.FILTER_MODE, cl.filter_mode.LINEAR])
    assert (p.normalized_coords, p.addressing_mode) == (0, cl.addressing_mode.CLAMP)
    with pytest.raises(cl.LogicError):
        cl.Sampler(ctx, False, 7, cl.filter_mode.NEAREST)
    with pytest.raises(cl.LogicError):
        cl.Sampler(ctx, [cl.sampler_info.CONTEXT, 1])
    with pytest.raises(TypeError):
        cl.Sampler(ctx, False, cl.addressing_mode.CLAMP)
    # A read through LINEAR at pixel centres gives the pixels; CLAMP outside gives the border.
    row = np.array([[[0, 0, 0, 0], [10, 20, 30, 40], [4, 4, 4, 4]]], np.float32)
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, RGBAF, shape=(3, 1), hostbuf=row)
    out = np.zeros((3, 4), np.float32)
    out_g = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.sample(queue, (3,), None, img, cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.LINEAR),
               out_g)
    cl.enqueue_copy(queue, out, out_g)
    assert (out == row[0]).all()


def test_host_image_copies(ctx, queue):
    img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(8, 6))
    block = np.arange(3 * 2 * 4, dtype=np.uint8).reshape(2, 3, 4) + 1
    cl.enqueue_copy(queue, img, block, origin=(4, 3), region=(3, 2), is_blocking=False)
    whole = np.zeros((6, 8, 4), np.uint8)
    ev = cl.enqueue_copy(queue, whole, img, origin=(0, 0), region=(8, 6))
    assert ev.command_type == cl.command_type.READ_IMAGE
    assert (whole[3:5, 4:7] == block).all() and whole.sum() == block.sum()
    padded = np.zeros((2, 16), np.uint8)                      # host rows of 16 bytes, pitches=(16,)
    cl.enqueue_copy(queue, padded, img, origin=(4, 3), region=(3, 2), pitches=(16,))
    assert (padded[:, :12].reshape(2, 3, 4) == block).all() and (padded[:, 12:] == 0).all()
    vol = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(2, 2, 3))
    cube = np.arange(48, dtype=np.uint8).reshape(3, 2, 2, 4)
    cl.enqueue_copy(queue, vol, cube, origin=(0, 0, 0), region=(2, 2, 3))
    back = np.zeros_like(cube[1:])
    cl.enqueue_copy(queue, back, vol, origin=(0, 0, 1), region=(2, 2, 2))
    assert (back == cube[1:]).all()


def test_image_buffer_and_image_image_copies(ctx, queue):
    src = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, RGBA8, shape=(4, 4),
                   hostbuf=np.arange(64, dtype=np.uint8))
    buf = cl.Buffer(ctx, mf.READ_WRITE, 8 + 2 * 2 * 4)
    ev = cl.enqueue_copy(queue, buf, src, origin=(1, 1), region=(2, 2), offset=8)
    assert ev.command_type == cl.command_type.COPY_IMAGE_TO_BUFFER
    out = np.zeros(24, np.uint8)
    cl.enqueue_copy(queue, out, buf)
    grid = np.arange(64, dtype=np.uint8).reshape(4, 4, 4)
    assert (out[8:].reshape(2, 2, 4) == grid[1:3, 1:3]).all()
    dst = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(4, 4))
    cl.enqueue_copy(queue, dst, buf, offset=8, origin=(2, 0), region=(2, 2))
    cl.enqueue_copy(queue, dst, src, src_origin=(0, 3), dest_origin=(0, 3), region=(4, 1))
    back = np.zeros((4, 4, 4), np.uint8)
    cl.enqueue_copy(queue, back, dst, origin=(0, 0), region=(4, 4))
    assert (back[0:2, 2:4] == grid[1:3, 1:3]).all() and (back[3] == grid[3]).all() and back[2].sum() == 0


@pytest.mark.parametrize("what", ["outside", "small host", "small buffer", "format", "overlap", "missing"])
def test_bad_image_copies(ctx, queue, what):
    img = cl.Image(ctx, mf.READ_WRITE, RGBA8, shape=(4, 3))
    code = cl.status_code.INVALID_VALUE
    if what == "outside":
        call = lambda: cl.enqueue_copy(queue, np.zeros(48, np.uint8), img, origin=(1, 0), region=(4, 3))  # noqa: E731
    elif what == "small host":
        call = lambda: cl.enqueue_copy(queue, np.zeros(4, np.uint8), img, origin=(0, 0), region=(4, 3))  # noqa: E731
    elif what == "small buffer":
        buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
        call = lambda: cl.enqueue_copy(queue, buf, img, origin=(0, 0), region=(4, 3), offset=0)  # noqa: E731
    elif what == "format":
        other = cl.Image(ctx, mf.READ_WRITE, RGBAF, shape=(4, 3))
        call = lambda: cl.enqueue_copy(queue, other, img, src_origin=(0, 0), dest_origin=(0, 0),  # noqa: E731
                                       region=(4, 3))
        code = cl.status_code.IMAGE_FORMAT_MISMATCH
    elif what == "overlap":
        call = lambda: cl.enqueue_copy(queue, img, img, src_origin=(0, 0), dest_origin=(1, 0),  # noqa: E731
                                       region=(2, 2))
        code = cl.status_code.MEM_COPY_OVERLAP
    else:
        with pytest.raises(TypeError, match="'region'"):
            cl.enqueue_copy(queue, np.zeros(48, np.uint8), img, origin=(0, 0))
        return
    with pytest.raises(cl.Error) as info:
        call()
    assert info.value.code == code


def test_images_as_kernel_arguments(ctx, queue, prg):
    img = cl.Image(ctx, mf.WRITE_ONLY, RGBAF, shape=(4, 3))
    prg.fill(queue, (4, 3), None, img)
    out = np.zeros((3, 4, 4), np.float32)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(4, 3))
    assert out[1, 2].tolist() == [2, 1, 0.5, 1]
    vol = cl.Image(ctx, mf.READ_ONLY, RGBA8, shape=(5, 4, 3))
    sizes = np.zeros(3, np.int32)
    sizes_g = cl.Buffer(ctx, mf.WRITE_ONLY, 12)
    prg.size3(queue, (1,), None, vol, sizes_g)
    cl.enqueue_copy(queue, sizes, sizes_g)
    assert sizes.tolist() == [5, 4, 3]
    u8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
    a = cl.image_from_array(ctx, np.full((2, 2, 4), 41, np.uint8), 4)
    b = cl.Image(ctx, mf.WRITE_ONLY, u8, shape=(2, 2))
    prg.copy_ui(queue, (2, 2), None, a, b)
    res = np.zeros((2, 2, 4), np.uint8)
    cl.enqueue_copy(queue, res, b, origin=(0, 0), region=(2, 2))
    assert (res == 42).all()
    q = cl.kernel_arg_access_qualifier
    assert prg.sample.get_arg_info(0, cl.kernel_arg_info.ACCESS_QUALIFIER) == q.READ_ONLY
    assert prg.fill.get_arg_info(0, cl.kernel_arg_info.ACCESS_QUALIFIER) == q.WRITE_ONLY
    assert prg.sample.get_arg_info(1, cl.kernel_arg_info.TYPE_NAME) == "sampler_t"


@pytest.mark.parametrize("what, code", [
    ("read-only image to write_only", cl.status_code.INVALID_ARG_VALUE),
    ("3d image to image2d_t", cl.status_code.INVALID_ARG_VALUE),
    ("buffer to image2d_t", cl.status_code.INVALID_MEM_OBJECT),
    ("buffer to sampler_t", cl.status_code.INVALID_SAMPLER),
    ("image to a pointer", cl.status_code.INVALID_ARG_VALUE),
])
def test_bad_image_arguments(ctx, queue, prg, what, code):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    img = cl.Image(ctx, mf.READ_ONLY, RGBAF, shape=(4, 3))
    call = {
        "read-only image to write_only": lambda: prg.fill(queue, (4, 3), None, img),
        "3d image to image2d_t": lambda: prg.fill(queue, (4, 3), None,
                                                  cl.Image(ctx, mf.READ_WRITE, RGBAF, shape=(4, 3, 2))),
        "buffer to image2d_t": lambda: prg.fill(queue, (4, 3), None, buf),
        "buffer to sampler_t": lambda: prg.sample(queue, (4,), None, img, buf, buf),
        "image to a pointer": lambda: prg.sample(queue, (4,), None, img,
                                                 cl.Sampler(ctx, False, cl.addressing_mode.NONE,
                                                            cl.filter_mode.NEAREST), img),
    }[what]
    with pytest.raises(cl.LogicError) as info:
        call()
    assert info.value.code == code and info.value.routine == "clSetKernelArg"


def test_image_write_outside_is_a_located_fault(ctx, queue, prg):
    img = cl.Image(ctx, mf.WRITE_ONLY, RGBAF, shape=(4, 1))
    with pytest.raises(cl.RuntimeError) as info:
        prg.oob(queue, (4,), None, img).wait()
    assert info.value.code == cl.status_code.OUT_OF_RESOURCES
    assert "'oob'" in info.value.what and "(4, 0)" in info.value.what


def test_one_d_buffer_image_shares_the_buffers_memory(ctx, queue):
    data = np.arange(16, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=data)
    img = cl.Image(ctx, mf.READ_ONLY, RGBAF, shape=(4,), buffer=buf)
    assert img.type == cl.mem_object_type.IMAGE1D_BUFFER and img.buffer is buf
    prg = cl.Program(ctx, "__kernel void f(read_only image1d_buffer_t i, __global float4 *o) "
                          "{ o[get_global_id(0)] = read_imagef(i, (int)get_global_id(0)); }").build()
    out = np.zeros(16, np.float32)
    out_g = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.f(queue, (4,), None, img, out_g)
    cl.enqueue_copy(queue, out, out_g)
    assert (out == data).all()
    with pytest.raises(cl.LogicError) as info:
        cl.Image(ctx, mf.READ_ONLY, RGBAF, shape=(8,), buffer=buf)
    assert info.value.code == cl.status_code.INVALID_IMAGE_SIZE


def test_device_reports_image_support(ctx):
    dev = ctx.devices[0]
    assert dev.image_support and dev.get_info(cl.device_info.IMAGE2D_MAX_WIDTH) == 16384
    assert dev.image3d_max_depth == 2048


def test_create_image_and_uint16_images(ctx, queue):
    # OpenCL in Action's listing 6.1: R/UNSIGNED_INT16 images from image_from_array, read_imageui.
    prg = cl.Program(ctx, """
        __constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
        __kernel void sub(read_only image2d_t i, write_only image2d_t o) {
            int2 c = (int2)(get_global_id(0), get_global_id(1));
            uint4 p = read_imageui(i, s, c);
            p.x -= c.y * 0x4000 + c.x * 0x1000;
            write_imageui(o, c, p);
        }""").build()
    src = cl.image_from_array(ctx, np.full((4, 4), 0xFFFF, np.uint16), mode="r")
    dst = cl.create_image(ctx, mf.WRITE_ONLY, cl.ImageFormat(cl.channel_order.R, cl.channel_type.UNSIGNED_INT16),
                          (4, 4))
    assert src.format == dst.format and dst.shape == (4, 4)
    prg.sub(queue, (4, 4), None, src, dst)
    out = np.empty((4, 4), np.uint16)
    cl.enqueue_copy(queue, dest=out, src=dst, is_blocking=True, origin=(0, 0), region=(4, 4))
    y, x = np.mgrid[0:4, 0:4]
    assert (out == (0xFFFF - y * 0x4000 - x * 0x1000) & 0xFFFF).all()
