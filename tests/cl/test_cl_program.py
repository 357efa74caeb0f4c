"""spirvkit.cl: programs, kernels, arguments and launches, with pyopencl's error codes."""

import numpy as np
import pytest

import spirvkit
import spirvkit.cl as cl

mf = cl.mem_flags

SOURCE = """
__kernel void scale(__global float *x, float k, int n) {
    int i = get_global_id(0);
    if (i < n) x[i] *= k;
}
__kernel void oob(__global int *x) { x[get_global_id(0) + 1] = 7; }
__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(__global int *x, __local int *tmp) {
    tmp[get_local_id(0)] = get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    x[get_global_id(0)] = tmp[3 - get_local_id(0)];
}
"""


@pytest.fixture(scope="module")
def prg(ctx):
    return cl.Program(ctx, SOURCE).build(options=["-cl-std=CL1.2"])


def test_build_info_and_kernels(ctx, prg):
    dev = ctx.devices[0]
    assert prg.get_build_info(dev, cl.program_build_info.STATUS) == cl.build_status.SUCCESS
    assert prg.get_build_info(dev, cl.program_build_info.OPTIONS) == "-cl-std=CL1.2"
    assert sorted(k.function_name for k in prg.all_kernels()) == ["fixed", "oob", "scale"]
    assert prg.get_info(cl.program_info.NUM_KERNELS) == 3
    assert prg.scale is prg.scale and prg.scale.num_args == 3
    assert prg.fixed.attributes == "reqd_work_group_size(4,1,1)"


def test_build_failure_carries_the_diagnostics(ctx):
    bad = cl.Program(ctx, "__kernel void f(__global int *x) { x[0] = y; }")
    with pytest.raises(cl.RuntimeError) as info:
        bad.build()
    e = info.value
    assert e.code == cl.status_code.BUILD_PROGRAM_FAILURE and e.routine == "clBuildProgram"
    log = bad.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
    assert "'y'" in log and log in e.what
    assert bad.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.ERROR


@pytest.mark.parametrize("option", ["-bogus", "-cl-std=CL9.9"])
def test_bad_build_option(ctx, option):
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, "__kernel void f(__global int *x) { x[0] = 1; }").build(options=[option])
    assert info.value.code == cl.status_code.INVALID_BUILD_OPTIONS
    assert option.split("=")[-1] in info.value.what


def test_options_string_is_split_like_a_shell(ctx, queue):
    prg = cl.Program(ctx, "__kernel void f(__global int *x) { x[0] = sizeof(T); }")
    prg.build(options='-D T="unsigned long"')
    x = np.zeros(1, np.int32)
    prg.f(queue, (1,), None, cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=x)).wait()
    assert x[0] == 8
    prg.build(options="-D T=char")
    prg.f(queue, (1,), None, cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=x)).wait()
    assert x[0] == 1


def test_unbuilt_program_has_no_kernels(ctx):
    with pytest.raises(cl.LogicError) as info:
        cl.Kernel(cl.Program(ctx, SOURCE), "scale")
    assert info.value.code == cl.status_code.INVALID_PROGRAM_EXECUTABLE


def test_spirv_programs(ctx, queue):
    il = spirvkit.compile_cl("__kernel void twice(__global int *x) { x[get_global_id(0)] *= 2; }")
    for prg in (cl.Program(ctx, il).build(), cl.create_program_with_il(ctx, il).build()):
        a = np.arange(8, dtype=np.int32)
        buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=a)
        prg.twice(queue, (8,), None, buf).wait()
        assert (a == 2 * np.arange(8)).all()
        assert prg.get_info(cl.program_info.IL) == il
    with pytest.raises(cl.LogicError) as info:
        cl.Program(ctx, b"\x00" * 20)
    assert info.value.code == cl.status_code.INVALID_VALUE


def test_bad_kernel_name(prg):
    with pytest.raises(cl.LogicError) as info:
        cl.Kernel(prg, "nope")
    assert info.value.code == cl.status_code.INVALID_KERNEL_NAME
    with pytest.raises(AttributeError):
        prg.nope


def test_call_set_args_and_enqueue(ctx, queue, prg):
    a = np.arange(10, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
    ev = prg.scale(queue, (16,), (8,), buf, np.float32(2), np.int32(10))
    ev.wait()
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE
    k = cl.Kernel(prg, "scale")
    k.set_args(buf, np.float32(3), np.int32(5))
    cl.enqueue_nd_range_kernel(queue, k, (5,), None, wait_for=[ev])
    k.set_arg(1, np.float32(0.5))
    k(queue, (1,), None, buf, np.float32(0.5), np.int32(10), global_offset=(9,))
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    expected = a * 2
    expected[:5] *= 3
    expected[9] *= 0.5
    assert (out == expected).all()


def test_scalar_arg_dtypes(ctx, queue, prg):
    a = np.ones(4, np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=a)
    k = prg.all_kernels()[[k.function_name for k in prg.all_kernels()].index("scale")]
    k.set_scalar_arg_dtypes([None, np.float32, np.int32])
    k(queue, (4,), None, buf, 4, 4)
    queue.finish()
    assert (a == 4).all()
    with pytest.raises(cl.LogicError):
        k.set_scalar_arg_dtypes([None])


@pytest.mark.parametrize("args, code", [
    (("buf", 2.0, np.int32(4)), cl.status_code.INVALID_VALUE),                # Python float, no dtype
    (("buf", np.float64(2), np.int32(4)), cl.status_code.INVALID_ARG_SIZE),   # 8 bytes for a float
    ((np.zeros(4, np.float32), np.float32(2), np.int32(4)), cl.status_code.INVALID_ARG_SIZE),
    (("buf", "buf", np.int32(4)), cl.status_code.INVALID_ARG_VALUE),
])
def test_bad_arguments(ctx, queue, prg, args, code):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    args = tuple(buf if isinstance(a, str) else a for a in args)
    k = cl.Kernel(prg, "scale")
    k.set_scalar_arg_dtypes([None, None, None])
    with pytest.raises(cl.LogicError) as info:
        k(queue, (4,), None, *args)
    assert info.value.code == code


def test_argument_count_and_index(ctx, queue, prg):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 16)
    k = cl.Kernel(prg, "scale")
    with pytest.raises(cl.LogicError) as info:
        k(queue, (4,), None, buf)
    assert info.value.code == cl.status_code.INVALID_KERNEL_ARGS and isinstance(info.value, TypeError)
    with pytest.raises(cl.LogicError) as info:
        k.set_arg(3, np.int32(1))
    assert info.value.code == cl.status_code.INVALID_ARG_INDEX
    k.set_arg(0, buf)
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_nd_range_kernel(queue, k, (4,), None)
    assert info.value.code == cl.status_code.INVALID_KERNEL_ARGS


@pytest.mark.parametrize("gsize, lsize, code", [
    ((10,), (4,), cl.status_code.INVALID_WORK_GROUP_SIZE),
    ((8192,), (8192,), cl.status_code.INVALID_WORK_GROUP_SIZE),
    ((64, 64), (64, 128), cl.status_code.INVALID_WORK_GROUP_SIZE),
    ((8, 8), (8,), cl.status_code.INVALID_VALUE),
    ((1, 1, 1, 1), None, cl.status_code.INVALID_WORK_DIMENSION),
])
def test_bad_ndranges(ctx, queue, prg, gsize, lsize, code):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    with pytest.raises(cl.LogicError) as info:
        prg.scale(queue, gsize, lsize, buf, np.float32(1), np.int32(0))
    assert info.value.code == code


@pytest.mark.parametrize("allow", [False, True])
def test_empty_ndrange_is_a_no_op(ctx, queue, prg, allow):
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    ev = prg.scale(queue, (0,), None, buf, np.float32(1), np.int32(0), allow_empty_ndrange=allow)
    ev.wait()
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE


def test_reqd_work_group_size_and_local_memory(ctx, queue, prg):
    out = np.zeros(8, np.int32)
    buf = cl.Buffer(ctx, mf.WRITE_ONLY | mf.USE_HOST_PTR, hostbuf=out)
    k = prg.fixed
    assert k.get_work_group_info(cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE, ctx.devices[0]) == [4, 1, 1]
    k(queue, (8,), (4,), buf, cl.LocalMemory(16)).wait()
    assert (out == [3, 2, 1, 0, 7, 6, 5, 4]).all()
    assert k.get_work_group_info(cl.kernel_work_group_info.LOCAL_MEM_SIZE, ctx.devices[0]) >= 16
    with pytest.raises(cl.LogicError) as info:
        k(queue, (8,), (8,), buf, cl.LocalMemory(32))
    assert info.value.code == cl.status_code.INVALID_WORK_GROUP_SIZE
    with pytest.raises(cl.LogicError) as info:
        k(queue, (8,), (4,), buf, buf)
    assert info.value.code == cl.status_code.INVALID_ARG_VALUE
    with pytest.raises(cl.LogicError) as info:
        k(queue, (8,), (4,), buf, cl.LocalMemory(0))
    assert info.value.code == cl.status_code.INVALID_ARG_SIZE


def test_out_of_bounds_is_a_located_runtime_error(ctx, queue, prg):
    a = np.zeros(4, np.int32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=a)
    ev = prg.oob(queue, (4,), None, buf)   # runs on the device thread: the fault shows at a wait
    with pytest.raises(cl.RuntimeError) as info:
        ev.wait()
    e = info.value
    assert e.code == cl.status_code.OUT_OF_RESOURCES and e.routine == "clEnqueueNDRangeKernel"
    assert isinstance(e.__cause__, spirvkit.KernelFault)
    assert "'oob'" in e.what and "global id (3, 0, 0)" in e.what
    assert (a[:4] == 0).all() or a.tolist() == [0, 7, 7, 7]


def test_unchecked_build_option(ctx, queue):
    prg = cl.Program(ctx, "__kernel void inc(__global int *x) { x[get_global_id(0)] += 1; }")
    prg.build(options="-spirvkit-unchecked")
    assert prg.unchecked and prg.get_build_info(ctx.devices[0], cl.program_build_info.OPTIONS) == ""
    a = np.zeros(4, np.int32)
    prg.inc(queue, (4,), None, cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=a)).wait()
    assert (a == 1).all()


def test_work_group_info(ctx, prg):
    dev = ctx.devices[0]
    k = prg.scale
    assert k.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, dev) == dev.max_work_group_size
    assert k.get_work_group_info(cl.kernel_work_group_info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE, dev) >= 1
    assert k.get_work_group_info(cl.kernel_work_group_info.PRIVATE_MEM_SIZE, dev) >= 0
    assert k.get_work_group_info(cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE, dev) == [0, 0, 0]
    assert k.get_info(cl.kernel_info.FUNCTION_NAME) == "scale"
    with pytest.raises(cl.LogicError):
        k.get_work_group_info(0x1, dev)


def test_attribute_access_before_build_builds_with_a_warning(ctx):
    prg = cl.Program(ctx, "__kernel void f(__global int *x) { x[0] = 1; }")
    with pytest.warns(UserWarning, match="Pre-build attribute access"):
        assert prg.f.function_name == "f"
    assert prg.get_build_info(ctx.devices[0], cl.program_build_info.STATUS) == cl.build_status.SUCCESS


def test_arg_info(ctx):
    prg = cl.Program(ctx, "__kernel void f(__global const float *o, __local int *l, float4 v, "
                          "__constant int *c) { }").build()
    k = prg.f
    names = [k.get_arg_info(i, cl.kernel_arg_info.NAME) for i in range(4)]
    spaces = [k.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER) for i in range(4)]
    q = cl.kernel_arg_address_qualifier
    assert names == ["o", "l", "v", "c"] and spaces == [q.GLOBAL, q.LOCAL, q.PRIVATE, q.CONSTANT]
    assert k.get_arg_info(2, cl.kernel_arg_info.TYPE_NAME) == "float4"
    assert k.get_arg_info(0, cl.kernel_arg_info.ACCESS_QUALIFIER) == cl.kernel_arg_access_qualifier.NONE
    with pytest.raises(cl.LogicError) as info:
        k.get_arg_info(4, cl.kernel_arg_info.NAME)
    assert info.value.code == cl.status_code.INVALID_ARG_INDEX
    q = cl.kernel_arg_type_qualifier
    assert [k.get_arg_info(i, cl.kernel_arg_info.TYPE_QUALIFIER) for i in range(4)] == [q.CONST, q.NONE, q.NONE,
                                                                                        q.CONST]


def test_cltypes_vectors_as_arguments(ctx, queue):
    from spirvkit.cl import cltypes

    assert cltypes.float4.itemsize == 16 and cltypes.float3.itemsize == 16 and cltypes.int == np.int32
    v = cltypes.make_float4(1, 2, 3, 4)
    assert v["x"] == v["s0"] == 1 and v["w"] == 4
    assert (cltypes.filled_int2(7)["y"], cltypes.zeros_uchar16()["s15"], cltypes.ones_double3()["z"]) == (7, 0, 1)
    assert cltypes.vec_types[np.dtype(np.float32), 4] == cltypes.float4
    prg = cl.Program(ctx, "__kernel void f(__global float *o, float4 v, float3 w, int2 i) "
                          "{ o[0] = v.x + v.w; o[1] = w.z; o[2] = i.y; }").build()
    o = np.zeros(3, np.float32)
    prg.f(queue, (1,), None, cl.Buffer(ctx, mf.USE_HOST_PTR, hostbuf=o), v, cltypes.make_float3(5, 6, 7),
          cltypes.make_int2(8, 9)).wait()
    assert o.tolist() == [5, 7, 9]
    with pytest.raises(cl.LogicError) as info:
        prg.f(queue, (1,), None, cl.Buffer(ctx, mf.READ_WRITE, 12), cltypes.make_float2(1, 2), v, v)
    assert info.value.code == cl.status_code.INVALID_ARG_SIZE


def test_bad_program_inputs(ctx):
    with pytest.raises(TypeError):
        cl.Program(ctx, 42)
    with pytest.raises(cl.LogicError) as info:
        cl.Program("ctx", SOURCE)
    assert info.value.code == cl.status_code.INVALID_CONTEXT
    with pytest.raises(cl.LogicError) as info:
        cl.Program(ctx, ctx.devices, [b"binary"])
    assert info.value.code == cl.status_code.INVALID_BINARY
