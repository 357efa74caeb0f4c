"""spirvkit.vk.ComputePipeline: GLCompute shaders (GLSL fixtures compiled once with glslang, see
tests/data/vk/regenerate.sh, and hand-written assembly) run on the CPU executor, their results
checked against numpy models; bad bindings and unsupported features give clear errors."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from spirvkit import KernelArgumentError, KernelFault, KernelTimeout, NotSupportedError, SpirvkitError
from spirvkit.vk import ComputePipeline

DATA = Path(__file__).parent.parent / "data" / "vk"


def test_shared_memory_reduction_with_specialised_local_size_and_push_constants():
    # local_size_x_id = 0 sizes the work-group and the shared array (through WorkgroupSize).
    for size in (8, 16, 64):
        p = ComputePipeline(DATA / "reduce.spv", specialization={0: size, 1: 3})
        assert p.local_size == (size, 1, 1)
        n = 1000
        src = np.random.default_rng(size).standard_normal(n).astype(np.float32)
        groups = -(-n // size)
        dst = np.zeros(1 + groups, np.float32)
        p.bind(set=0, binding=0, resource=src).bind(set=0, binding=1, resource=dst)
        p.push_constants(struct.pack("<If", n, 0.5))
        p.dispatch(groups)
        padded = np.concatenate([src, np.zeros(groups * size - n, np.float32)]).reshape(groups, size)
        assert dst[:1].view(np.uint32)[0] == groups                      # atomicAdd once per group
        np.testing.assert_allclose(dst[1:], padded.astype(np.float64).sum(axis=1) * 3 + 0.5, rtol=1e-5, atol=1e-4)


def test_std140_uniform_std430_struct_with_vec3_and_array_length():
    p = ComputePipeline(DATA / "layout.spv")
    assert p.bindings == [(0, 0, "uniform"), (0, 1, "storage"), (0, 2, "storage")]
    u = np.zeros(20, np.float32)          # std140: scale @0, off @8, float arr[4] with stride 16 @16
    u[0], u[2:4] = 2.0, (10, 20)
    u[4:20:4] = [100, 101, 102, 103]
    items = np.zeros((4, 8), np.float32)  # std430 Item: a @0, vec3 b @16, int c @28; stride 32
    for k in range(4):
        items[k, 0], items[k, 4:7] = k + 1, (k, k + 0.5, k + 0.25)
        items[k, 7:8].view(np.int32)[0] = 10 * k
    out = np.zeros((4, 4), np.float32)
    p.bind(0, 0, u).bind(0, 1, items).bind(0, 2, out)
    p.dispatch(1)
    k = np.arange(4)
    b = np.stack([k * 2 + 10.0, (k + 0.5) * 2 + 20, (k + 0.25) * 2 + 100 + k], axis=1)
    np.testing.assert_array_equal(items[:, 4:7], b)
    np.testing.assert_array_equal(items[:, 7].view(np.int32), 10 * k + k + 4)   # + items.length()
    np.testing.assert_array_equal(items[:, 0], k + 1)                           # untouched
    np.testing.assert_allclose(out, np.stack([np.sqrt(k + 1.0), np.floor(b[:, 0]), b[:, 1] % 1,
                                              np.clip(b[:, 2], 0, 2)], axis=1), rtol=1e-7)


def _glsl_model(x: float) -> float:
    acc = 2 ** (x * 0.25) + np.log2(abs(x) + 1) + np.sin(x) * np.cos(x) + abs(x) ** 1.5 + 1 / np.sqrt(abs(x) + 1)
    t = min(max((x + 1) / 2, 0.0), 1.0)
    half_away = np.sign(x) * np.floor(abs(x) + 0.5)
    acc += (0.75 * x + 0.25 * 2 * x) + t * t * (3 - 2 * t) + (0.0 if x < 0.5 else 1.0) + np.sign(x) + np.trunc(x)
    acc += half_away + np.round(x) + np.ceil(x)
    return acc + np.arctan2(x, 2.0) + np.tanh(x) + min(x, 1.0) + max(x, -1.0)


def _wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def _lsb(v: int) -> int:
    v &= 0xFFFFFFFF
    return (v & -v).bit_length() - 1 if v else -1


def _msb(v: int) -> int:
    v = ~v if v < 0 else v
    return v.bit_length() - 1 if v else -1


def test_glsl_std_450_functions_and_a_private_variable():
    p = ComputePipeline(DATA / "glsl_std.spv")
    x = np.array([-2.5, -1.5, -0.5, 0, 0.5, 1.5, 2.5, 3.7, -3.2, 0.25, 7.5, -7.5, 1e-3, 10, -0.75, 4.5], np.float32)
    v = np.array([0, 1, -1, 8, -8, 12, -100, 2**31 - 1, -2**31, 5, 6, 7, -7, 3, 4, 64], np.int32)
    ints, floats = np.zeros(64, np.int32), np.zeros(16, np.float32)
    p.bind(0, 0, x).bind(0, 1, v).bind(0, 3, ints).bind(0, 4, floats)
    p.dispatch(2)
    np.testing.assert_allclose(floats, [_glsl_model(float(t)) for t in x], rtol=2e-6, atol=2e-6)
    expected = []
    for a in map(int, v):
        absolute = _wrap32(_wrap32(abs(a)) + int(np.sign(a)))      # abs(INT_MIN) wraps, as in GLSL
        expected += [_lsb(a), _msb(a), absolute, max(-5, min(a, 5)) + min(a, 3) + max(a, -3)]
    np.testing.assert_array_equal(ints, np.array(expected, np.int64).astype(np.int32))


@pytest.mark.parametrize("subgroup_size", [4, 32])
def test_compute_builtins_subgroups_and_workgroup_atomics(subgroup_size):
    p = ComputePipeline(DATA / "subgroup.spv", subgroup_size=subgroup_size)
    assert p.local_size == (8, 2, 1)
    out = np.zeros(2 * 3 * 16 * 8, np.uint32)
    p.bind(0, 0, out).dispatch(2, 3)
    rows = out.reshape(2 * 3, 16, 8)
    for g in range(6):
        gx, gy = g % 2, g // 2
        for index in range(16):
            lx, ly = index % 8, index // 8
            assert rows[g, index].tolist() == [
                subgroup_size, index % subgroup_size, -(-16 // subgroup_size), index // subgroup_size,
                sum(range(16)), gx * 8 + lx, gy * 2 + ly, ly]


def test_hand_written_local_size_id_spec_op_private_push_constants_array_length():
    p = ComputePipeline(DATA / "spec_length.spvasm", specialization={0: 8, 1: 3}, target_env="vulkan1.1")
    assert p.local_size == (8, 1, 1) and p.bindings == [(1, 2, "storage")]
    out = np.zeros((16 + 24 * 8) // 4, np.uint32)
    p.bind(set=1, binding=2, resource=out).push_constants(np.array([5, 7], np.uint32)).dispatch(3)
    gid = np.arange(24)
    neighbour = gid // 8 * 8 + (gid % 8 + 1) % 8
    assert out[0] == 24
    np.testing.assert_array_equal(out[4::2], neighbour + 100 * neighbour + (1 + 5) + 24 * 7)
    np.testing.assert_array_equal(out[5::2], 0)     # the padding of ArrayStride 8 is not written


def test_vulkan_memory_model_workgroup_size_constant_and_whole_struct_access():
    p = ComputePipeline(DATA / "vulkan_mm.spvasm", target_env="vulkan1.2")
    assert p.local_size == (4, 1, 1)                # WorkgroupSize overrides LocalSize 2 1 1
    b = np.zeros(4 + 8 * 8, np.float32)
    items = b[4:].reshape(8, 8)
    items[:, 0] = np.arange(8)
    items[:, 4:7] = (1, 2, 3)
    items[:, 7].view(np.int32)[:] = 10 * np.arange(8)
    items[:, 1:4] = -1                              # padding: left as it was
    p.bind(0, 0, b).dispatch(2)
    assert b[:1].view(np.uint32)[0] == 8
    np.testing.assert_array_equal(items[:, 4:7], np.arange(8)[:, None] * [1, 2, 3])
    np.testing.assert_array_equal(items[:, 7].view(np.int32), 10 * np.arange(8) + 4)
    np.testing.assert_array_equal(items[:, 1:4], -1)


def test_unchecked_dispatch_gives_the_same_results():
    p = ComputePipeline(DATA / "spec_length.spvasm", target_env="vulkan1.1")
    results = []
    for unchecked in (False, True):
        out = np.zeros((16 + 8 * 8) // 4, np.uint32)
        p.bind(1, 2, out).push_constants(np.array([1, 1], np.uint32)).dispatch(2, unchecked=unchecked)
        results.append(out)
    np.testing.assert_array_equal(*results)


# ----- errors ---------------------------------------------------------------------------------

def test_out_of_bounds_access_names_binding_and_invocation():
    p = ComputePipeline(DATA / "layout.spv")
    u, items, out = np.zeros(20, np.float32), np.zeros((4, 8), np.float32), np.zeros((3, 4), np.float32)
    p.bind(0, 0, u).bind(0, 1, items).bind(0, 2, out)
    with pytest.raises(KernelFault) as info:
        p.dispatch(1)
    message = str(info.value)
    assert "set 0 binding 2 (storage buffer" in message
    assert "invocation GlobalInvocationId (3, 0, 0)" in message
    assert "byte offset 48" in message and "OpStore" in message


def test_binding_mismatches_are_clear_errors():
    p = ComputePipeline(DATA / "reduce.spv")
    with pytest.raises(KernelArgumentError, match=r"no descriptor at set 0 binding 5 \(it uses: set 0 binding 0, set 0 "
                                                  r"binding 1\)"):
        p.bind(0, 5, np.zeros(4, np.float32))
    with pytest.raises(KernelArgumentError, match="C-contiguous"):
        p.bind(0, 0, np.zeros(8, np.float32)[::2])
    with pytest.raises(KernelArgumentError, match="numpy array"):
        p.bind(0, 0, [1.0, 2.0])
    readonly = np.zeros(4, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(KernelArgumentError, match="read-only"):
        p.bind(0, 1, readonly)
    p.bind(0, 0, np.zeros(4, np.float32))
    with pytest.raises(KernelArgumentError, match=r"set 0 binding 1 \(storage buffer 'dst'\) is not bound"):
        p.dispatch(1)
    p.bind(0, 1, np.zeros(1, np.uint8))           # the block's uint count needs 4 bytes
    with pytest.raises(KernelArgumentError, match=r"declares 4 bytes plus 4 per runtime-array element; the bound "
                                                  r"array has 1"):
        p.dispatch(1)
    p.bind(0, 1, np.zeros(4, np.float32))
    with pytest.raises(KernelArgumentError, match=r"push constants \(8 bytes\)"):
        p.dispatch(1)
    p.push_constants(b"\x01\x00\x00\x00")
    with pytest.raises(KernelArgumentError, match="is 8 bytes; only 4 were given"):
        p.dispatch(1)
    with pytest.raises(KernelArgumentError, match="gy must be a positive number"):
        p.dispatch(1, 0)


def test_bad_modules_and_entry_points():
    with pytest.raises(SpirvkitError, match="no GLCompute entry point named 'other'"):
        ComputePipeline(DATA / "reduce.spv", entry="other")
    with pytest.raises(SpirvkitError, match="no specialization constant has SpecId 7"):
        ComputePipeline(DATA / "reduce.spv", specialization={7: 1})
    with pytest.raises(SpirvkitError, match="version word"):
        ComputePipeline(b"\x03\x02\x23\x07" + bytes(16))
    kernel = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n" \
             "OpEntryPoint Kernel %k \"k\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n" \
             "%k = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
    with pytest.raises(SpirvkitError, match="not valid SPIR-V for vulkan1.0"):
        ComputePipeline(kernel)
    with pytest.raises(SpirvkitError, match="no GLCompute entry point named 'k'"):
        ComputePipeline(kernel, entry="k", validate=False)
    with pytest.raises(SpirvkitError, match="cannot read"):
        ComputePipeline(DATA / "missing.spv")


@pytest.mark.parametrize("name, env, what", [
    ("imix.spvasm", "vulkan1.0", "not supported yet: GLSL.std.450 IMix"),
])
def test_unsupported_features_say_so(name, env, what):
    with pytest.raises(NotSupportedError, match=what):
        p = ComputePipeline(DATA / name, target_env=env)
        p.bind(0, 0, np.zeros(64, np.float32))
        p.dispatch(1)


def test_timeout_stops_a_spinning_shader():
    p = ComputePipeline(DATA / "spin.spv")
    flag = np.zeros(2, np.uint32)
    with pytest.raises(KernelTimeout, match="compute shader 'main' ran longer than its timeout of 0.5 s"):
        p.bind(0, 0, flag).dispatch(1, timeout=0.5)


def test_helper_functions_with_a_private_variable_and_a_barrier_are_inlined():
    p = ComputePipeline(DATA / "helper.spv")
    v = np.arange(8, dtype=np.float32)
    p.bind(0, 0, v).dispatch(2)
    t = 1 + 2 * np.arange(8.0)                      # acc = 1 + 2 v[i]; then + the neighbour's acc
    np.testing.assert_array_equal(v, t + t.reshape(2, 4)[:, [1, 2, 3, 0]].ravel())


def _pack(values, scale, signed, bits):
    low = -1.0 if signed else 0.0
    ints = np.rint(np.clip(np.float32(values), low, 1).astype(np.float32) * np.float32(scale)).astype(np.int64)
    return sum((int(x) & ((1 << bits) - 1)) << (bits * k) for k, x in enumerate(ints))


def test_glsl_std_450_geometry_modf_frexp_and_packing():
    p = ComputePipeline(DATA / "glsl_extra.spv")
    v = np.array([[0.3, -0.7, 0.5, -0.2], [0.1, 0.9, -0.4, 0.2], [-1.5, 0.25, 0.75, 2.0], [0.5, 0.5, 0.5, 0.5]],
                 np.float32)
    f, u = np.zeros((12, 4), np.float32), np.zeros(16, np.uint32)
    p.bind(0, 0, v).bind(0, 1, f).bind(0, 2, u).dispatch(2)
    for i in range(2):
        a, n = v[2 * i].astype(np.float64), v[2 * i + 1].astype(np.float64)
        out, words = f[6 * i: 6 * i + 6], u[8 * i: 8 * i + 8]
        np.testing.assert_allclose(out[0], a - 2 * np.dot(n, a) * n, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(out[1], n if np.dot(a[::-1], a) < 0 else -n)
        nn = n / np.linalg.norm(n)
        d = np.dot(nn, a)
        k = 1 - 0.25 * (1 - d * d)
        np.testing.assert_allclose(out[2], 0 if k < 0 else 0.5 * a - (0.5 * d + np.sqrt(k)) * nn, rtol=1e-5, atol=1e-6)
        scaled = v[2 * i] * np.float32(3.3)
        np.testing.assert_array_equal(out[3], scaled - np.trunc(scaled))
        np.testing.assert_array_equal(out[4], np.trunc(scaled))
        np.testing.assert_array_equal(out[5], np.frexp(v[2 * i] * np.float32(100))[0])
        assert words[0] == _pack(v[2 * i], 127, True, 8)
        assert words[1] == _pack(v[2 * i + 1], 255, False, 8)
        assert words[2] == _pack(v[2 * i][:2], 32767, True, 16)
        assert words[3] == _pack(v[2 * i + 1][2:], 65535, False, 16)
        assert words[4] == int(v[2 * i][2:].astype(np.float16).view(np.uint32)[0])
        sy = np.float32(max(np.int8(np.uint8((int(words[0]) >> 8) & 0xFF).view(np.int8)) / np.float32(127), -1))
        total = np.float32(np.float32(v[2 * i][2].astype(np.float16)) + sy) + np.float32((int(words[3]) & 0xFFFF) / 65535)
        assert words[5] == np.float32(total).view(np.uint32)
        assert words[6:8].tolist() == [i + 7, 0x40000000]


def test_matrices_std140_columns_row_major_members_and_products():
    rng = np.random.default_rng(1)
    p = ComputePipeline(DATA / "matrix.spv")
    m3 = rng.integers(-4, 5, (3, 3)).astype(np.float32)          # m3[c]: column c
    ms = rng.integers(-4, 5, (2, 2, 3)).astype(np.float32)       # ms[k][c]: column c of mat2x3 k
    u = np.zeros(3 * 4 + 2 * 2 * 4, np.float32)                  # std140: columns 16 bytes apart
    for c in range(3):
        u[4 * c: 4 * c + 3] = m3[c]
    for k in range(2):
        for c in range(2):
            u[12 + 8 * k + 4 * c: 12 + 8 * k + 4 * c + 3] = ms[k, c]
    rm = rng.integers(-4, 5, (2, 3)).astype(np.float32)          # rm[c][r]
    r4 = rng.integers(-3, 4, (2, 4, 4)).astype(np.float32)       # r4[k][c][r]
    v = rng.integers(-3, 4, 4).astype(np.float32)
    # std430, row_major: mat2x3 as 3 rows of vec2 (stride 8) at 0; mat4[2] at 32; vec4 v at 160.
    r = np.zeros(44, np.float32)
    for c in range(2):
        for row in range(3):
            r[row * 2 + c] = rm[c, row]
    for k in range(2):
        for c in range(4):
            for row in range(4):
                r[8 + 16 * k + row * 4 + c] = r4[k, c, row]
    r[40:44] = v
    o = np.zeros(6 * 16, np.float32)
    p.bind(0, 0, u).bind(0, 1, r).bind(0, 2, o).dispatch(1)
    got = o.reshape(6, 4, 4).transpose(0, 2, 1)                  # got[m][row][column]

    def matrix(columns):
        return np.array(columns, np.float64).T

    a, e = matrix(m3), float(rm[1, 2])
    for i in range(2):
        b, c, d, col = matrix(ms[i]), matrix(rm), matrix(r4[i]), ms[i, 1].astype(np.float64)
        res = np.stack([np.append(a @ col, e), np.append(col @ a, 1), d @ v, v @ d], axis=1)
        wide_b, wide_ct = np.eye(4), np.eye(4)
        wide_b[:3, :2], wide_ct[:2, :3] = b, c.T
        np.testing.assert_array_equal(got[3 * i], res)
        np.testing.assert_array_equal(got[3 * i + 1], wide_b * 2 + wide_ct + np.outer(v, v[::-1]))
        np.testing.assert_array_equal(got[3 * i + 2], d @ d.T)
    assert r[2] == e + 7                                         # rm[0][1]: row 1, column 0 of a row-major member
    np.testing.assert_array_equal(r[8:24].reshape(4, 4), r4[1])  # r4[0] = transpose(r4[1]), stored row-major


@pytest.mark.parametrize("negate", [False, True])
def test_small_and_wide_types_in_buffers_and_a_bool_specialisation_constant(negate):
    layout = np.dtype([("i8", np.int8, 8), ("u16", np.uint16, 4), ("h", np.float16, 4), ("i64", np.int64, 4),
                       ("d", np.float64, 4)], align=True)     # = the std430 block of types.comp
    data = np.zeros(1, layout)
    data["i8"], data["u16"], data["h"] = [1, -2, 50, 100, 9, 9, 9, 9], [1, 30000, 65535, 5], [1, 2, 3, 0.1]
    data["i64"], data["d"] = [2**40, -5, 7, 1], [4, 9, 2, 16]
    before = data.copy()
    p = ComputePipeline(DATA / "types.spv", specialization={0: negate})
    p.bind(0, 0, data.view(np.uint8)).dispatch(1)
    np.testing.assert_array_equal(data["i8"][0], np.append((before["i8"][0][:4] * np.int8(3)), [9] * 4))  # wraps
    np.testing.assert_array_equal(data["u16"][0], before["u16"][0] + np.uint16(40000))
    np.testing.assert_array_equal(data["h"][0], before["h"][0] * np.float16(0.5))
    np.testing.assert_array_equal(data["i64"][0], before["i64"][0] * (-3 if negate else 3))
    np.testing.assert_array_equal(data["d"][0], np.sqrt(before["d"][0]))


@pytest.mark.parametrize("size", [4, 8, 16])
def test_group_non_uniform_operations_at_several_subgroup_sizes(size):
    p = ComputePipeline(DATA / "sgops.spv", subgroup_size=size)
    b = np.zeros(64 + 16 * 8, np.uint32)
    b[:16] = np.arange(16) * 3 + 1
    x = b[:16].copy()
    p.bind(0, 0, b).dispatch(1)
    got = b[64:].reshape(16, 8)
    for i in range(16):
        group = x[i // size * size: (i // size + 1) * size]
        lane = i % size
        ballot = sum(1 << k for k, value in enumerate(group) if value & 1)
        assert got[i].tolist() == [group.sum(), group.max(), group[:lane].sum(), group[0], 1, ballot & 0xFFFFFFFF,
                                   group[(lane + 1) % size], bin(ballot).count("1")]


@pytest.mark.parametrize("size", [4, 8])
def test_subgroup_masks(size):
    p = ComputePipeline(DATA / "masks.spv", subgroup_size=size)
    b = np.zeros(40, np.uint32)
    p.bind(0, 0, b).dispatch(1)
    below = (1 << size) - 1
    for i, row in enumerate(b.reshape(8, 5).tolist()):
        lane = i % size
        assert row == [1 << lane, below & ~((1 << lane) - 1), below & ~((2 << lane) - 1), (2 << lane) - 1,
                       (1 << lane) - 1]


@pytest.mark.parametrize("unchecked_first", [False, True])
def test_fault_in_a_padded_runtime_array_is_found_by_the_checked_build(unchecked_first):
    # ArrayStride 8: invocation 15 of 16 writes bytes [136, 140) of a 136-byte buffer. The group
    # guard (one range test per group on the explicit layout) must not let that through.
    p = ComputePipeline(DATA / "spec_length.spvasm", target_env="vulkan1.1", specialization={0: 8})
    out = np.zeros((16 + 15 * 8) // 4, np.uint32)
    p.bind(1, 2, np.zeros(100, np.uint32)).push_constants(np.array([1, 1], np.uint32))
    if unchecked_first:
        p.dispatch(2, unchecked=True)
    p.bind(1, 2, out)
    with pytest.raises(KernelFault, match=r"invocation GlobalInvocationId \(15, 0, 0\): of 4 byte\(s\) at byte offset "
                                          r"136 of set 1 binding 2 \(storage buffer 'out'\) \(136 bytes\)"):
        p.dispatch(2)


def test_columns_of_a_row_major_matrix_are_gathered_and_scattered():
    p = ComputePipeline(DATA / "rowcol.spv")
    m = np.zeros(8 + 6 + 6, np.float32)        # r: rows at 0 and 16 bytes; c at 32 (3 x vec2); got at 56
    r = np.array([[1, 2, 3], [4, 5, 6]], np.float32)      # r[row][column]
    m[0:3], m[4:7] = r
    c = np.array([[7, 8], [9, 10], [11, 12]], np.float32)  # c[column][row]
    m[8:14] = c.ravel()
    p.bind(0, 0, m).dispatch(1)
    np.testing.assert_array_equal(m[14:20].reshape(3, 2), r.T)              # got[k] = column k of r
    np.testing.assert_array_equal(m[8:10], r[:, 2])                        # c[0] = r[2]
    np.testing.assert_array_equal(m[10:14], c[1:].ravel())
    expected = r.copy()
    expected[:, 1] = c[0] * 10
    expected[1, 2] = 99
    np.testing.assert_array_equal(np.stack([m[0:3], m[4:7]]), expected)
    assert m[3] == 0 and m[7] == 0                                          # row padding untouched


def test_spirv_1_5_build_with_copy_logical_gives_the_same_results():
    results = []
    for name in ("layout.spv", "layout_vk12.spv"):
        p = ComputePipeline(DATA / name)
        u, items, out = np.arange(20, dtype=np.float32), np.arange(32, dtype=np.float32).reshape(4, 8), np.zeros((4, 4),
                                                                                                              np.float32)
        p.bind(0, 0, u).bind(0, 1, items).bind(0, 2, out).dispatch(1)
        results.append((items, out))
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("unchecked", [False, True])
def test_zero_initialised_workgroup_memory_is_zero_in_every_group(unchecked):
    # Many groups per worker thread: each must start from zeroed shared variables.
    p = ComputePipeline(DATA / "zero_init.spv")
    out = np.full(2 * 64, 7, np.uint32)
    p.bind(0, 0, out).dispatch(64, unchecked=unchecked)
    np.testing.assert_array_equal(out[0::2], 4)            # atomicAdd(counter, 1) by 4 invocations
    np.testing.assert_array_equal(out[1::2], 1 + 2 + 3 + 4)
