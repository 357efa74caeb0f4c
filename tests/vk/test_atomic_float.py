"""Float atomics of SPV_EXT_shader_atomic_float_add / _min_max (OpAtomicFAddEXT, OpAtomicFMinEXT,
OpAtomicFMaxEXT) and OpAtomicExchange on floats, 32- and 64-bit, in storage buffers and shared
memory: atomic_float.comp (compiled once with glslang: tests/data/vk/regenerate.sh) and a
hand-written module without the extensions, which the validator refuses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from jit.asm_kernel import GID, program   # tests/ is on sys.path (conftest.py)
from spirvkit import KernelFault, SpirvkitError
from spirvkit.vk import ComputePipeline

DATA = Path(__file__).parent.parent / "data" / "vk"
GROUPS, LOCAL = 6, 64


@pytest.mark.parametrize("unchecked", [False, True])
def test_float_add_min_max_exchange_in_buffers_and_shared_memory(unchecked):
    rng = np.random.default_rng(5)
    # Multiples of 1/8 below 2^10: every partial sum is exact in float, in any order, so the
    # atomic sum must equal numpy's exactly (a lost update would show).
    xs = (rng.integers(-8000, 8000, GROUPS * LOCAL) / 8).astype(np.float32)
    acc = np.zeros(4 + 6 + 3 * GROUPS, np.float32)   # sum lo hi swapped | dsum dlo dhi | groups
    acc[1], acc[2] = np.inf, -np.inf
    d = acc[4:10].view(np.float64)
    d[:] = (0.0, np.inf, -np.inf)
    p = ComputePipeline(DATA / "atomic_float.spv")
    p.bind(0, 0, xs).bind(0, 1, acc).dispatch(GROUPS, unchecked=unchecked)
    assert acc[0] == xs.sum(dtype=np.float64)
    assert (acc[1], acc[2]) == (xs.min(), xs.max())
    assert acc[3] in xs
    assert tuple(acc[4:10].view(np.float64)) == (xs.sum(dtype=np.float64), xs.min(), xs.max())
    groups = acc[10:].reshape(GROUPS, 3)
    per_group = xs.reshape(GROUPS, LOCAL)
    np.testing.assert_array_equal(groups[:, 0], per_group.sum(axis=1, dtype=np.float64))
    np.testing.assert_array_equal(groups[:, 1], per_group.min(axis=1))
    np.testing.assert_array_equal(groups[:, 2], per_group.max(axis=1))


def test_float_atomics_need_their_extension_declared():
    import spirvkit

    text = spirvkit.disassemble((DATA / "atomic_float.spv").read_bytes())
    without = text.replace('OpExtension "SPV_EXT_shader_atomic_float_add"', "")
    with pytest.raises(SpirvkitError, match="requires one of these extensions: SPV_EXT_shader_atomic_float_add"):
        ComputePipeline(without, target_env="vulkan1.1")
    ComputePipeline(text, target_env="vulkan1.1")   # the same text with the extension is accepted


def test_a_short_binding_is_refused_before_the_float_atomics_run():
    p = ComputePipeline(DATA / "atomic_float.spv")
    with pytest.raises(SpirvkitError, match="set 0 binding 1"):
        p.bind(0, 0, np.zeros(64, np.float32)).bind(0, 1, np.zeros(4, np.float32)).dispatch(1)


# The OpenCL path shares the lowering (ops_atomic.py): the same instructions in a Kernel module,
# on CrossWorkgroup and Workgroup memory, with a runtime index that a test sends out of bounds.
KERNEL = """
%wg_sum = OpVariable %pWG_float Workgroup
%main = OpFunction %void None %fn
%out = OpFunctionParameter %pCW_float
%dout = OpFunctionParameter %pCW_double
%xs = OpFunctionParameter %pCW_float
%at = OpFunctionParameter %ulong
%entry = OpLabel
""" + GID + """
%lid3 = OpLoad %v3ulong %LocalInvocationId Aligned 32
%lid = OpCompositeExtract %ulong %lid3 0
%grp3 = OpLoad %v3ulong %WorkgroupId Aligned 32
%grp = OpCompositeExtract %ulong %grp3 0
%px = OpInBoundsPtrAccessChain %pCW_float %xs %gid
%x = OpLoad %float %px Aligned 4
%dx = OpFConvert %double %x
%first = OpIEqual %bool %lid %ulong_0
OpSelectionMerge %init_done None
OpBranchConditional %first %init %init_done
%init = OpLabel
OpStore %wg_sum %float_0 Aligned 4
OpBranch %init_done
%init_done = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_0x110
%s0 = OpAtomicFAddEXT %float %out %uint_1 %uint_0 %x
%p1 = OpInBoundsPtrAccessChain %pCW_float %out %ulong_1
%s1 = OpAtomicFMinEXT %float %p1 %uint_1 %uint_0 %x
%p2 = OpInBoundsPtrAccessChain %pCW_float %out %ulong_2
%s2 = OpAtomicFMaxEXT %float %p2 %uint_1 %uint_0 %x
%d0 = OpAtomicFAddEXT %double %dout %uint_1 %uint_0 %dx
%pd1 = OpInBoundsPtrAccessChain %pCW_double %dout %ulong_1
%d1 = OpAtomicFMaxEXT %double %pd1 %uint_1 %uint_0 %dx
%w0 = OpAtomicFAddEXT %float %wg_sum %uint_2 %uint_0 %x
%pat = OpInBoundsPtrAccessChain %pCW_double %dout %at
%d2 = OpAtomicFAddEXT %double %pat %uint_1 %uint_0 %dx
OpControlBarrier %uint_2 %uint_2 %uint_0x110
OpSelectionMerge %done None
OpBranchConditional %first %publish %done
%publish = OpLabel
%total = OpLoad %float %wg_sum Aligned 4
%slot = OpIAdd %ulong %grp %ulong_3
%pg = OpInBoundsPtrAccessChain %pCW_float %out %slot
OpStore %pg %total Aligned 4
OpBranch %done
%done = OpLabel
OpReturn
OpFunctionEnd
"""
KERNEL_TYPES = "%fn = OpTypeFunction %void %pCW_float %pCW_double %pCW_float %ulong"
KERNEL_CAPS = ("AtomicFloat32AddEXT", "AtomicFloat64AddEXT", "AtomicFloat32MinMaxEXT", "AtomicFloat64MinMaxEXT")
KERNEL_EXTS = ("SPV_EXT_shader_atomic_float_add", "SPV_EXT_shader_atomic_float_min_max")


def _kernel():
    return program(KERNEL, types=KERNEL_TYPES, capabilities=KERNEL_CAPS, extensions=KERNEL_EXTS,
                   entry_points=("main",)).kernel("main")


@pytest.mark.parametrize("unchecked", [False, True])
def test_opencl_kernels_share_the_float_atomics(unchecked):
    xs = (np.random.default_rng(7).integers(-4000, 4000, 4 * 32) / 4).astype(np.float32)
    out = np.zeros(3 + 4, np.float32)
    out[1], out[2] = np.inf, -np.inf
    dout = np.array([0.0, -np.inf, 0.0]).astype(np.float64)
    _kernel()(xs.size, 32, out, dout, xs, np.uint64(2), unchecked=unchecked)
    assert tuple(out[:3]) == (xs.sum(dtype=np.float64), xs.min(), xs.max())
    np.testing.assert_array_equal(out[3:], xs.reshape(4, 32).sum(axis=1, dtype=np.float64))
    assert tuple(dout) == (xs.sum(dtype=np.float64), xs.max(), xs.sum(dtype=np.float64))


def test_an_out_of_bounds_float_atomic_is_located():
    out = np.zeros(7, np.float32)
    with pytest.raises(KernelFault, match="atomic"):
        _kernel()(32, 32, out, np.zeros(3), np.zeros(32, np.float32), np.uint64(3))
