"""spirvkit.cl: buffers, copies and fills, and their error codes."""

import numpy as np
import pytest

import spirvkit.cl as cl

mf = cl.mem_flags


def read(queue, buf, dtype=np.uint8):
    out = np.empty(buf.size // np.dtype(dtype).itemsize, dtype)
    cl.enqueue_copy(queue, out, buf)
    return out


def test_copy_host_ptr_copies(ctx, queue):
    a = np.arange(16, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    assert buf.size == buf.get_info(cl.mem_info.SIZE) == 64
    assert buf.hostbuf is None and buf.get_info(cl.mem_info.FLAGS) == mf.READ_ONLY | mf.COPY_HOST_PTR
    a[:] = -1
    assert (read(queue, buf, np.float32) == np.arange(16)).all()


def test_use_host_ptr_aliases(ctx, queue):
    a = np.zeros(8, np.int32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=a)
    assert buf.hostbuf is a
    cl.enqueue_copy(queue, buf, np.arange(8, dtype=np.int32))
    assert (a == np.arange(8)).all()


@pytest.mark.parametrize("flags", [mf.READ_WRITE, mf.WRITE_ONLY, mf.READ_ONLY, mf.READ_WRITE | mf.ALLOC_HOST_PTR,
                                   mf.ALLOC_HOST_PTR, 0])
def test_plain_buffers_start_zeroed(ctx, queue, flags):
    buf = cl.Buffer(ctx, flags, 40)
    assert buf.size == 40 and buf.int_ptr % 128 == 0
    assert (read(queue, buf) == 0).all()


def test_size_from_hostbuf_and_smaller_size(ctx, queue):
    a = np.arange(10, dtype=np.uint8)
    assert cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=a).size == 10
    assert (read(queue, cl.Buffer(ctx, mf.COPY_HOST_PTR, 4, hostbuf=a)) == [0, 1, 2, 3]).all()


@pytest.mark.parametrize("flags, size, hostbuf, code", [
    (mf.READ_WRITE, 0, None, cl.status_code.INVALID_BUFFER_SIZE),
    (mf.READ_WRITE | mf.READ_ONLY, 4, None, cl.status_code.INVALID_VALUE),
    (mf.USE_HOST_PTR | mf.COPY_HOST_PTR, 0, np.zeros(4), cl.status_code.INVALID_VALUE),
    (mf.COPY_HOST_PTR, 4, None, cl.status_code.INVALID_HOST_PTR),
    (mf.READ_ONLY, 0, np.zeros(4), cl.status_code.INVALID_HOST_PTR),
    (mf.COPY_HOST_PTR, 100, np.zeros(4), cl.status_code.INVALID_VALUE),
])
def test_bad_buffers(ctx, flags, size, hostbuf, code):
    with pytest.raises(cl.LogicError) as info:
        cl.Buffer(ctx, flags, size, hostbuf=hostbuf)
    assert info.value.code == code


def test_copies_with_offsets(ctx, queue):
    src = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=np.arange(32, dtype=np.uint8))
    dst = cl.Buffer(ctx, mf.READ_WRITE, 32)
    ev = cl.enqueue_copy(queue, dst, src, byte_count=8, src_offset=4, dst_offset=16)
    ev.wait()
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE
    out = read(queue, dst)
    assert (out[16:24] == np.arange(4, 12)).all() and (out[:16] == 0).all() and (out[24:] == 0).all()
    part = np.empty(4, np.uint8)
    cl.enqueue_copy(queue, part, src, device_offset=10, is_blocking=False, wait_for=[ev]).wait()
    assert (part == [10, 11, 12, 13]).all()
    cl.enqueue_copy(queue, dst, np.full(2, 9, np.uint8), device_offset=30)
    assert (read(queue, dst)[30:] == 9).all()
    cl.enqueue_copy(queue, dst, np.full(2, 5, np.uint8), dst_offset=28)
    cl.enqueue_copy(queue, part, dst, src_offset=28)
    assert part.tolist() == [5, 5, 9, 9]
    with pytest.raises(TypeError):
        cl.enqueue_copy(queue, part, dst, src_offset=28, device_offset=0)
    with pytest.raises(TypeError):
        cl.enqueue_copy(queue, part, dst, dst_offset=28)
    cl.enqueue_copy(queue, dst, src)   # whole buffer
    assert (read(queue, dst) == np.arange(32)).all()


@pytest.mark.parametrize("make_copy", [
    lambda q, big, small: cl.enqueue_copy(q, np.empty(80, np.uint8), big),
    lambda q, big, small: cl.enqueue_copy(q, small, np.zeros(17, np.uint8)),
    lambda q, big, small: cl.enqueue_copy(q, big, np.zeros(4, np.uint8), device_offset=62),
    lambda q, big, small: cl.enqueue_copy(q, big, np.zeros(4, np.uint8), dst_offset=62),
    lambda q, big, small: cl.enqueue_copy(q, np.zeros(4, np.uint8), big, src_offset=61),
    lambda q, big, small: cl.enqueue_copy(q, big, small, byte_count=16, dst_offset=60),
    lambda q, big, small: cl.enqueue_copy(q, big, small, src_offset=4),
])
def test_copy_out_of_range_is_invalid_value(ctx, queue, make_copy):
    big, small = cl.Buffer(ctx, mf.READ_WRITE, 64), cl.Buffer(ctx, mf.READ_WRITE, 16)
    with pytest.raises(cl.LogicError) as info:
        make_copy(queue, big, small)
    assert info.value.code == cl.status_code.INVALID_VALUE


def test_buffer_to_smaller_buffer_copies_the_smaller_size(ctx, queue):
    big = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=np.arange(64, dtype=np.uint8))
    small = cl.Buffer(ctx, mf.READ_WRITE, 16)
    cl.enqueue_copy(queue, small, big)
    assert (read(queue, small) == np.arange(16)).all()


def test_overlapping_copy_in_one_buffer(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    cl.enqueue_copy(queue, buf, buf, byte_count=8, src_offset=0, dst_offset=32)
    with pytest.raises(cl.RuntimeError) as info:
        cl.enqueue_copy(queue, buf, buf, byte_count=8, src_offset=0, dst_offset=4)
    assert info.value.code == cl.status_code.MEM_COPY_OVERLAP


def test_copy_needs_a_buffer_and_writable_host(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 8)
    with pytest.raises(cl.LogicError):
        cl.enqueue_copy(queue, np.zeros(2), np.zeros(2))
    with pytest.raises(cl.LogicError):
        cl.enqueue_copy(queue, b"12345678", buf)
    with pytest.raises(cl.LogicError, match="one side must be a Buffer or an Image"):
        cl.enqueue_copy(queue, np.zeros(8, np.uint8), np.zeros(8, np.uint8), buffer_origin=(0, 0),
                        host_origin=(0, 0), region=(8, 1))


def test_fill_buffer(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 32)
    cl.enqueue_fill_buffer(queue, buf, np.float32(2.5), 8, 16)
    out = read(queue, buf, np.float32)
    assert (out == [0, 0, 2.5, 2.5, 2.5, 2.5, 0, 0]).all()
    cl.enqueue_fill_buffer(queue, buf, np.array([1, 2], np.uint16), 0, 32)
    assert (read(queue, buf, np.uint16) == [1, 2] * 8).all()
    for offset, size in ((2, 8), (0, 6), (16, 32)):
        with pytest.raises(cl.LogicError) as info:
            cl.enqueue_fill_buffer(queue, buf, np.float32(1), offset, size)
        assert info.value.code == cl.status_code.INVALID_VALUE


def test_map_buffer_is_the_buffers_memory(ctx, queue):
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(16, dtype=np.int32))
    ary, ev = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ | cl.map_flags.WRITE, 8, (2, 3), np.int32)
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE
    assert ary.tolist() == [[2, 3, 4], [5, 6, 7]] and buf.map_count == 1
    ary[0, 0] = -1
    done = ary.base.release(queue)
    assert done.command_type == cl.command_type.UNMAP_MEM_OBJECT and buf.map_count == 0
    assert read(queue, buf, np.int32)[2] == -1
    ary, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, 16, np.int32)
    with ary.base:
        assert ary.sum() == np.arange(16).sum() - 3
    with pytest.raises(cl.LogicError):
        ary.base.release()
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 8, 16, np.int32)
    assert info.value.code == cl.status_code.INVALID_VALUE


def test_rectangular_copies(ctx, queue):
    host = np.arange(3 * 6 * 8, dtype=np.uint8).reshape(3, 6, 8)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 400)
    cl.enqueue_fill_buffer(queue, buf, np.uint8(255), 0, 400)
    cl.enqueue_copy(queue, buf, host, buffer_origin=(2, 1, 0), host_origin=(1, 2, 1), region=(3, 2, 2),
                    buffer_pitches=(10, 50), host_pitches=(8, 48))
    expected = np.full(400, 255, np.uint8)
    as_rows = expected.reshape(8, 5, 10)
    as_rows[0:2, 1:3, 2:5] = host[1:3, 2:4, 1:4]
    assert (read(queue, buf) == expected).all()

    back = np.zeros((2, 4, 5), np.uint8)
    cl.enqueue_copy(queue, back, buf, buffer_origin=(1, 1, 0), host_origin=(0, 1, 0), region=(4, 2, 2),
                    buffer_pitches=(10, 50), host_pitches=(5, 20))
    want = np.zeros((2, 4, 5), np.uint8)
    want[:, 1:3, 0:4] = as_rows[0:2, 1:3, 1:5]
    assert (back == want).all()

    other = cl.Buffer(ctx, mf.READ_WRITE, 64)
    cl.enqueue_copy(queue, other, buf, src_origin=(2, 1, 0), dst_origin=(0, 0, 0), region=(3, 2),
                    src_pitches=(10, 50), dst_pitches=(4, 8))
    assert read(queue, other)[:8].tolist() == [*as_rows[0, 1, 2:5], 0, *as_rows[0, 2, 2:5], 0]


@pytest.mark.parametrize("region, pitches", [((10, 100, 1), None), ((10, 2, 1), (5, 0)), ((0, 1, 1), None)])
def test_bad_rectangular_copies(ctx, queue, region, pitches):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 400)
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_copy(queue, buf, np.zeros(400, np.uint8), buffer_origin=(0, 0, 0), host_origin=(0, 0, 0),
                        region=region, buffer_pitches=pitches)
    assert info.value.code == cl.status_code.INVALID_VALUE


def test_host_buffer_kinds(ctx, queue):
    with pytest.raises(cl.LogicError):   # USE_HOST_PTR needs memory the kernels can write
        cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=b"12345678")
    buf = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=b"12345678")
    assert bytes(read(queue, buf)) == b"12345678"
    cl.enqueue_copy(queue, buf, np.float32(1.5), dst_offset=4)
    assert read(queue, buf)[4:].view(np.float32)[0] == 1.5
    with pytest.raises(cl.LogicError) as info:
        cl.Buffer("ctx", mf.READ_WRITE, 4)
    assert info.value.code == cl.status_code.INVALID_CONTEXT


def test_rectangular_read_with_one_number_origins(ctx, queue):
    # OpenCL in Action's listing 3.2: origins of one number, a region of three.
    full = np.arange(80, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=full)
    out = np.zeros(80, np.float32)
    cl.enqueue_copy(queue, dest=out, src=buf, is_blocking=True, buffer_origin=(0,), host_origin=(8,),
                    region=(8, 3, 1))
    assert out[2:8].tolist() == [0, 1, 2, 3, 4, 5] and out.sum() == 15   # rows packed: pitch = 8 bytes
