"""spirvkit.cl: platforms, devices, contexts, constants, errors and the unsupported modules."""

import importlib
import os
import subprocess
import sys

import numpy as np
import pytest

import spirvkit
import spirvkit.cl as cl


def test_one_platform_one_cpu_device():
    (platform,) = cl.get_platforms()
    assert platform.name == platform.get_info(cl.platform_info.NAME) == "spirvkit"
    assert platform.get_info(cl.platform_info.VERSION).startswith("OpenCL 3.0")
    (device,) = platform.get_devices()
    assert platform.get_devices(cl.device_type.CPU) == [device]
    assert device.type == cl.device_type.CPU
    assert device.platform == platform


def test_gpu_devices_are_not_found():
    assert cl.get_platforms()[0].get_devices(cl.device_type.GPU) == []    # as pyopencl gives it
    with pytest.raises(cl.RuntimeError) as info:
        cl.Context(dev_type=cl.device_type.GPU)
    assert info.value.code == cl.status_code.DEVICE_NOT_FOUND


def test_device_info_matches_device_limits():
    d = cl.get_platforms()[0].get_devices()[0]
    limits = spirvkit.device_limits()
    assert d.max_work_group_size == d.get_info(cl.device_info.MAX_WORK_GROUP_SIZE) == limits.max_work_group_size
    assert d.max_work_item_sizes == list(limits.max_work_item_sizes)
    assert d.local_mem_size == limits.local_mem_size
    assert d.max_constant_buffer_size == limits.max_constant_buffer_size
    assert d.max_compute_units == os.cpu_count()
    assert d.global_mem_size > 0
    for name in ("name", "vendor", "version", "driver_version", "extensions", "il_version", "opencl_c_version"):
        assert isinstance(getattr(d, name), str) and getattr(d, name)
    assert d.get_info(cl.device_info.IL_VERSION).startswith("SPIR-V_1.0")
    assert "cl_khr_fp64" in d.extensions.split()


def test_unknown_info_parameter_is_invalid_value():
    with pytest.raises(cl.LogicError) as info:
        cl.get_platforms()[0].get_devices()[0].get_info(0x7777)
    assert info.value.code == cl.status_code.INVALID_VALUE
    assert info.value.routine == "clGetDeviceInfo"


def test_constants_have_opencl_values():
    assert (cl.mem_flags.READ_WRITE, cl.mem_flags.WRITE_ONLY, cl.mem_flags.READ_ONLY) == (1, 2, 4)
    assert (cl.mem_flags.USE_HOST_PTR, cl.mem_flags.ALLOC_HOST_PTR, cl.mem_flags.COPY_HOST_PTR) == (8, 16, 32)
    assert cl.command_queue_properties.PROFILING_ENABLE == 2
    assert cl.device_info.MAX_WORK_GROUP_SIZE == 0x1004
    assert cl.kernel_work_group_info.WORK_GROUP_SIZE == 0x11B0
    assert cl.program_build_info.LOG == 0x1183
    assert cl.profiling_info.START == 0x1282
    assert cl.status_code.INVALID_KERNEL_NAME == -46
    assert cl.status_code.to_string(-54) == "INVALID_WORK_GROUP_SIZE"


def test_contexts():
    ctx = cl.Context()
    assert ctx.devices == cl.get_platforms()[0].get_devices()
    assert cl.Context(dev_type=cl.device_type.ALL).num_devices == 1
    with pytest.raises(cl.LogicError):
        cl.Context(devices=[], dev_type=None)


@pytest.mark.parametrize("choice", ["0", "0:0", "spirvkit", ""])
def test_create_some_context_honours_pyopencl_ctx(monkeypatch, choice):
    monkeypatch.setenv("PYOPENCL_CTX", choice)
    ctx = cl.create_some_context(interactive=False)
    assert ctx.devices[0].name == "spirvkit CPU"


@pytest.mark.parametrize("choice", ["1", "0:3", "NVIDIA"])
def test_create_some_context_refuses_what_is_not_there(monkeypatch, choice):
    monkeypatch.setenv("PYOPENCL_CTX", choice)
    with pytest.raises(cl.RuntimeError):
        cl.create_some_context(interactive=False)


def test_error_classes():
    e = cl.LogicError("what it was", "clSomething", cl.status_code.INVALID_VALUE)
    assert isinstance(e, cl.Error) and isinstance(e, Exception)
    assert (e.code, e.routine, e.what) == (-30, "clSomething", "what it was")
    assert str(e) == "clSomething failed: INVALID_VALUE - what it was"
    assert e.args[0].code() == -30
    assert issubclass(cl.MemoryError, MemoryError) and issubclass(cl.RuntimeError, cl.Error)


@pytest.mark.parametrize("module", ["array", "elementwise", "reduction", "scan", "clrandom", "tools"])
def test_library_modules_are_not_supported_yet(module):
    with pytest.raises(ImportError, match=f"not supported yet: pyopencl.{module}"):
        importlib.import_module(f"spirvkit.cl.{module}")


def test_import_stays_cheap():
    code = "import sys, spirvkit.cl; print('llvmlite' in sys.modules, 'spirvkit.jit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_context_takes_pyopencls_arguments_only():
    # pyopencl's Context has no cache_dir (programs written for old releases fail the same way)
    with pytest.raises(TypeError):
        cl.Context(devices=cl.get_platforms()[0].get_devices(), cache_dir=None)
    assert cl.Context(devices=cl.get_platforms()[0].get_devices(), properties=None, dev_type=None).num_devices == 1


def test_vector_width_hints():
    d = cl.get_platforms()[0].get_devices()[0]
    assert d.preferred_vector_width_float == d.get_info(cl.device_info.PREFERRED_VECTOR_WIDTH_FLOAT) == 1
    assert d.native_vector_width_double == d.get_info(cl.device_info.NATIVE_VECTOR_WIDTH_DOUBLE) == 1


@pytest.mark.parametrize("name", ["SVM", "enqueue_fill", "svm_empty", "Pipe", "link_program"])
def test_pyopencl_names_not_there_yet_say_so(name):
    with pytest.raises(AttributeError, match=f"not supported yet: pyopencl.{name}"):
        getattr(cl, name)
    with pytest.raises(AttributeError, match="has no attribute"):
        cl.no_such_name


def test_small_pieces_of_the_api(ctx, queue):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    img = cl.Image(ctx, cl.mem_flags.READ_WRITE, cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT), (2, 2))
    assert isinstance(buf, cl.MemoryObject) and isinstance(img, cl.MemoryObjectHolder)
    ev = cl.enqueue_migrate_mem_objects(queue, [buf, img], cl.mem_migration_flags.HOST)
    ev.wait()
    assert ev.command_type == cl.command_type.MIGRATE_MEM_OBJECTS
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_migrate_mem_objects(queue, [np.zeros(4)])
    assert info.value.code == cl.status_code.INVALID_MEM_OBJECT
    assert cl.get_cl_header_version() == (3, 0) and issubclass(cl.CompilerWarning, UserWarning)
    assert cl.cltypes.float4.itemsize == 16        # there without importing spirvkit.cl.cltypes
