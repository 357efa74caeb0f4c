"""spirvkit.cl sub-buffers: ``Buffer.get_sub_region`` and ``buf[a:b]``.

The expected error classes and codes, and the inherited flags, are what pyopencl 2026.1 on
PoCL 3.1 gives for the same calls (run by hand: /tmp-side script with ``import pyopencl``;
the suite never loads an OpenCL driver).
"""

import numpy as np
import pytest

import spirvkit.cl as cl

mf = cl.mem_flags


@pytest.fixture
def buf(ctx):
    return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(1024, dtype=np.int32))


def read(queue, b, dtype=np.int32):
    out = np.empty(b.size // np.dtype(dtype).itemsize, dtype)
    cl.enqueue_copy(queue, out, b)
    return out


def test_sub_region_is_the_parents_memory(buf, queue):
    sub = buf.get_sub_region(128, 256)
    assert (sub.size, sub.offset) == (256, 128)
    assert sub.get_info(cl.mem_info.OFFSET) == 128 and sub.get_info(cl.mem_info.SIZE) == 256
    assert sub.get_info(cl.mem_info.ASSOCIATED_MEMOBJECT) is buf
    assert buf.get_info(cl.mem_info.ASSOCIATED_MEMOBJECT) is None
    assert sub.get_info(cl.mem_info.FLAGS) == mf.READ_WRITE | mf.COPY_HOST_PTR  # inherited
    assert read(queue, sub).tolist() == list(range(32, 96))


def test_slices_as_pyopencl_takes_them(buf):
    assert (buf[128:384].size, buf[128:384].offset) == (256, 128)
    assert (buf[-1024:].size, buf[-1024:].offset) == (1024, 3072)
    assert buf[512:].get_info(cl.mem_info.FLAGS) == mf.READ_WRITE | mf.COPY_HOST_PTR   # inherited


@pytest.mark.parametrize("make,kind,code", [
    (lambda b: b.get_sub_region(4, 16), cl.RuntimeError, cl.status_code.MISALIGNED_SUB_BUFFER_OFFSET),
    (lambda b: b[4:128], cl.RuntimeError, cl.status_code.MISALIGNED_SUB_BUFFER_OFFSET),
    (lambda b: b.get_sub_region(128, 4096), cl.LogicError, cl.status_code.INVALID_VALUE),
    (lambda b: b.get_sub_region(128, 0), cl.LogicError, cl.status_code.INVALID_BUFFER_SIZE),
    (lambda b: b.get_sub_region(128, 512).get_sub_region(0, 128), cl.LogicError, cl.status_code.INVALID_MEM_OBJECT),
    (lambda b: b[0:256:2], cl.LogicError, cl.status_code.INVALID_VALUE),
    (lambda b: b[256:128], cl.LogicError, cl.status_code.INVALID_VALUE),
    (lambda b: b[3], cl.LogicError, cl.status_code.INVALID_VALUE),
    (lambda b: b.get_sub_region(0, 128, mf.COPY_HOST_PTR), cl.LogicError, cl.status_code.INVALID_VALUE),
    (lambda b: b.get_sub_region(0, 128, mf.USE_HOST_PTR), cl.LogicError, cl.status_code.INVALID_VALUE),
])
def test_errors_are_pyopencls(buf, make, kind, code):
    with pytest.raises(kind) as info:
        make(buf)
    assert info.value.code == code


def test_flags_inherited_and_narrowed(ctx):
    ro = cl.Buffer(ctx, mf.READ_ONLY, 4096)
    for bad in (mf.READ_WRITE, mf.WRITE_ONLY):
        with pytest.raises(cl.LogicError) as info:
            ro.get_sub_region(0, 128, bad)
        assert info.value.code == cl.status_code.INVALID_VALUE
    assert ro.get_sub_region(0, 128).get_info(cl.mem_info.FLAGS) == mf.READ_ONLY
    assert ro[0:128].get_info(cl.mem_info.FLAGS) == mf.READ_ONLY
    rw = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(1024, np.int32))
    assert rw.get_sub_region(0, 128, mf.READ_ONLY).get_info(cl.mem_info.FLAGS) == mf.READ_ONLY | mf.COPY_HOST_PTR
    assert rw.get_sub_region(0, 128, mf.HOST_NO_ACCESS).get_info(cl.mem_info.FLAGS) == \
        mf.HOST_NO_ACCESS | mf.COPY_HOST_PTR | mf.READ_WRITE
    host_ro = cl.Buffer(ctx, mf.READ_WRITE | mf.HOST_READ_ONLY, 4096)
    with pytest.raises(cl.LogicError):
        host_ro.get_sub_region(0, 128, mf.HOST_WRITE_ONLY)


def test_use_host_ptr_parent(ctx):
    h = np.zeros(256, np.int32)
    uh = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=h)
    with pytest.raises(cl.LogicError) as info:   # pyopencl slices with the parent's USE_HOST_PTR
        uh[0:512]
    assert info.value.code == cl.status_code.INVALID_VALUE
    sub = uh.get_sub_region(512, 512)
    assert sub.get_info(cl.mem_info.FLAGS) == mf.READ_WRITE | mf.USE_HOST_PTR
    queue = cl.CommandQueue(ctx)
    cl.enqueue_copy(queue, sub, np.full(128, 9, np.int32))
    assert h[:128].tolist() == [0] * 128 and h[128:].tolist() == [9] * 128


def test_kernels_copies_maps_and_fills_through_a_sub_buffer(ctx, queue, buf):
    """The same calls and printed values as on pyopencl + PoCL."""
    prg = cl.Program(ctx, "kernel void inc(global int *p) { p[get_global_id(0)] += 1; }").build()
    s = buf[512:1024]
    prg.inc(queue, (128,), None, s)
    out = read(queue, buf)
    assert out[120:132].tolist() == [120, 121, 122, 123, 124, 125, 126, 127, 129, 130, 131, 132]
    assert out[250:260].tolist() == [251, 252, 253, 254, 255, 256, 256, 257, 258, 259]
    part = read(queue, s)
    assert part[:4].tolist() == [129, 130, 131, 132] and part[-2:].tolist() == [255, 256]
    cl.enqueue_copy(queue, s, np.full(128, 7, np.int32))
    out = read(queue, buf)
    assert out[126:130].tolist() == [126, 127, 7, 7] and out[255:258].tolist() == [7, 256, 257]
    d = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    cl.enqueue_copy(queue, d, s, byte_count=512)
    assert read(queue, d)[:3].tolist() == [7, 7, 7]
    cl.enqueue_copy(queue, buf[0:512], d, byte_count=128, src_offset=0, dst_offset=128)
    out = read(queue, buf)
    assert out[30:34].tolist() == [30, 31, 7, 7] and out[62:66].tolist() == [7, 7, 64, 65]
    cl.enqueue_copy(queue, buf[0:1024], buf[512:1536], byte_count=512)   # overlapping: PoCL copies
    m, _ = cl.enqueue_map_buffer(queue, s, cl.map_flags.READ, 0, (4,), np.int32)
    assert m.tolist() == [7, 7, 7, 7]
    m.base.release(queue)
    cl.enqueue_fill_buffer(queue, s, np.int32(5), 0, 512)
    assert read(queue, buf)[126:130].tolist() == [7, 7, 5, 5]
    queue.finish()
