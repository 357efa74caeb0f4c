"""The host's access declarations (``spirvkit.read_only`` / ``spirvkit.write_only``) and the
access check's findings on them; and misaligned loads and stores, which the pointers check
reports and still performs (as Oclgrind does), in every memory space.

Planted faults (in the kernel, through helper functions, in loops, atomics, async copies) and
their clean twins, with the outputs each launch must leave."""

from __future__ import annotations

import numpy as np
import pytest

import spirvkit
from spirvkit.errors import KernelArgumentError, KernelCheckError

SOURCE = r"""
int get(global const int *p, int k) { return p[k]; }
void put(global int *p, int k, int v) { p[k] = v; }

kernel void accumulate(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] += in[i];                                   // reads out: write-only
}

kernel void fill(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 3;                                // only writes out
}

kernel void read_in_helper_loop(global int *wo, global int *out) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < 4; k++)
    acc += get(wo, k);
  out[i] = acc;
}

kernel void write_in_helper_loop(global int *ro, global int *out) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 3; k++)
    if (i == 1)
      put(ro, k, 99);
  out[i] = ro[i];
}

kernel void atomic_on(global int *counter, global int *out) {
  out[get_global_id(0)] = atomic_inc(counter) >= 0;
}

kernel void copy_out_of(global int *src, global int *out) {
  local int tmp[16];
  event_t e = async_work_group_copy(tmp, src + 16 * get_group_id(0), 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[15 - get_local_id(0)];
}

kernel void copy_into(global int *dst) {
  local int tmp[16];
  tmp[get_local_id(0)] = 5 + get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(dst + 16 * get_group_id(0), tmp, 16, 0);
  wait_group_events(1, &e);
}

kernel void set_component(global int4 *out) {
  out[get_global_id(0)].x = 42;                      // a load, an insert, a store: only a write
}

void set_x_synced(global int4 *p, local int *t) {   // has a barrier: inlined into the kernel
  t[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  p->x = 41 + t[0];
}

kernel void set_component_in_synced_helper(global int4 *out) {
  local int t[4];
  set_x_synced(out + get_global_id(0), t);
}

kernel void swap_components(global int4 *out) {
  size_t i = get_global_id(0);
  out[i].x = out[i].y;                               // reads out
}

kernel void swizzles(global const float4 *in, global float4 *a, global float4 *b, global float4 *c) {
  size_t i = get_global_id(0);
  a[i].zy = (float2)(7.0f, 42.0f);                   // a shuffle keeping the other lanes: a write
  b[i].wzyx = in[i];                                 // every lane replaced: a write
  c[i].wzyx = c[i];                                  // lanes moved: reads c
}

kernel void set_member(global struct { int a; float b; } *out) {
  out[get_global_id(0)].b = 1.5f;
}

kernel void read_constant(constant int *c, global int *out) {
  out[get_global_id(0)] = c[get_global_id(0)] + 1;
}

// ----- misaligned accesses ------------------------------------------------------------------

kernel void load_global(global const int *in, global int *out) {
  global const char *c = (global const char *)in + 2;
  out[get_global_id(0)] = *(global const int *)(c + 4 * get_global_id(0));
}

kernel void store_global(global int *p) {
  global char *c = (global char *)p + 1;
  *(global int *)(c + 8 * get_global_id(0)) = 0x11223344 + (int)get_global_id(0);
}

kernel void load_vector(global const float *in, global float4 *out) {
  global const char *c = (global const char *)in + 4;      // float-aligned, not float4-aligned
  out[get_global_id(0)] = *(global const float4 *)(c + 16 * get_global_id(0));
}

kernel void store_vector(global float *p) {
  global char *c = (global char *)p + 8;
  *(global float2 *)(c + 16 * get_global_id(0) + 4) = (float2)(1.5f, 2.5f);
}

kernel void local_both(global int *out) {
  local int tmp[20];
  size_t l = get_local_id(0);
  tmp[l] = 0;
  tmp[l + 8] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  local char *c = (local char *)tmp;
  if (l == 0)
    *(local int *)(c + 3) = 0x01020304;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = *(local int *)(c + 3);
}

kernel void private_both(global int *out) {
  int priv[4] = {0, 0, 0, 0};
  char *c = (char *)priv;
  *(int *)(c + 5) = 0x0A0B0C0D + (int)get_global_id(0);
  out[get_global_id(0)] = *(int *)(c + 5);
}

kernel void constant_load(constant int *table, global int *out) {
  constant char *c = (constant char *)table + 1;
  out[get_global_id(0)] = *(constant int *)(c + 4 * get_global_id(0));
}

kernel void atomic_misaligned(global int *p) {
  global char *c = (global char *)p + 2;
  atomic_add((global int *)c, 7);
}

kernel void aligned_twin(global const int *in, global int *out) {
  global const char *c = (global const char *)in + 4;
  out[get_global_id(0)] = *(global const int *)(c + 4 * get_global_id(0)) + c[1];
}
"""


@pytest.fixture(scope="module", params=[["-g"], ["-g", "-cl-opt-disable"]], ids=["opt", "noopt"])
def program(request):
    return spirvkit.Program(spirvkit.compile_cl(SOURCE, request.param, filename="access_host.cl"))


def _line(text: str) -> int:
    """The SOURCE line that holds ``text`` (what a finding's location must name)."""
    return next(n for n, line in enumerate(SOURCE.splitlines(), 1) if text in line)


def _at(finding) -> int:
    return int(finding.location.split(":")[-2])


def _what(findings):
    return sorted((f.kind, f.what, f.instruction.split()[0], f.count) for f in findings)


# ----- write-only ------------------------------------------------------------------------------

def test_a_read_of_a_write_only_buffer_is_reported_and_done(program):
    a, out = np.arange(8, dtype=np.int32), np.full(8, 100, np.int32)
    findings = program.kernel("accumulate")(8, 4, a, spirvkit.write_only(out), checks="all", report=True)
    assert _what(findings) == [("access", "read from write-only memory", "OpLoad", 8)]
    [f] = findings
    assert f.argument == "argument 1 ('out', __global)" and f.space == "global" and f.size == 4
    assert f.global_id == (0, 0, 0) and f.offset == 0
    assert f.location.startswith("access_host.cl:") and _at(f) == _line("out[i] += in[i]")
    assert "write-only" in f.message
    assert (out == 100 + a).all()                 # the read happened (as on Oclgrind)


def test_the_declaration_turns_the_access_check_on_and_raises(program):
    a, out = np.arange(8, dtype=np.int32), np.zeros(8, np.int32)
    with pytest.raises(KernelCheckError) as info:
        program.kernel("accumulate")(8, 4, a, spirvkit.write_only(out))
    assert [f.kind for f in info.value.findings] == ["access"]
    assert "write-only" in str(info.value)
    assert (out == a).all()


def test_writing_a_write_only_buffer_is_clean(program):
    a, out = np.arange(16, dtype=np.int32), np.zeros(16, np.int32)
    assert program.kernel("fill")(16, 4, spirvkit.read_only(a), spirvkit.write_only(out), report=True) == []
    assert (out == 3 * a).all()
    assert program.kernel("fill")(16, 4, a, spirvkit.write_only(out), checks="all", report=True) == []


def test_a_write_only_read_in_a_helper_in_a_loop(program):
    wo, out = np.arange(4, dtype=np.int32), np.zeros(8, np.int32)
    findings = program.kernel("read_in_helper_loop")(8, 8, spirvkit.write_only(wo), out, report=True)
    assert _what(findings) == [("access", "read from write-only memory", "OpLoad", 32)]
    assert _at(findings[0]) == _line("int get(")                 # in the helper
    assert (out == 6).all()
    assert program.kernel("read_in_helper_loop")(8, 8, wo, out, checks="all", report=True) == []


def test_atomics_read_write_only_memory(program):
    counter, out = np.zeros(1, np.int32), np.zeros(16, np.int32)
    findings = program.kernel("atomic_on")(16, 16, spirvkit.write_only(counter), out, report=True)
    assert _what(findings) == [("access", "read from write-only memory", "OpAtomicIIncrement", 16)]
    assert counter[0] == 16 and (out == 1).all()                 # done


def test_async_copy_out_of_a_write_only_buffer(program):
    src, out = np.arange(32, dtype=np.int32), np.zeros(32, np.int32)
    findings = program.kernel("copy_out_of")(32, 16, spirvkit.write_only(src), out, report=True)
    assert _what(findings) == [("access", "read from write-only memory", "OpGroupAsyncCopy", 2)]
    assert (out == np.concatenate([np.arange(15, -1, -1), np.arange(31, 15, -1)])).all()
    dst = np.zeros(32, np.int32)                                  # the clean twin: copying into it
    assert program.kernel("copy_into")(32, 16, spirvkit.write_only(dst), report=True) == []
    assert (dst == np.tile(np.arange(5, 21), 2)).all()


def test_a_write_only_constant_buffer_reports_its_reads(program):
    c, out = np.arange(8, dtype=np.int32), np.zeros(8, np.int32)
    findings = program.kernel("read_constant")(8, 8, spirvkit.write_only(c), out, report=True)
    assert _what(findings) == [("access", "read from write-only memory", "OpLoad", 8)]
    assert findings[0].space == "constant" and (out == c + 1).all()


def test_writing_part_of_a_vector_or_struct_is_not_a_read(program):
    out = np.full((4, 4), 7, np.int32)
    assert program.kernel("set_component")(4, 4, spirvkit.write_only(out), report=True) == []
    assert (out[:, 0] == 42).all() and (out[:, 1:] == 7).all()
    out[:] = 7
    assert program.kernel("set_component_in_synced_helper")(4, 4, spirvkit.write_only(out), report=True) == []
    assert (out[:, 0] == 42).all() and (out[:, 1:] == 7).all()
    findings = program.kernel("swap_components")(4, 4, spirvkit.write_only(out), report=True)
    assert [(f.kind, f.what) for f in findings] == [("access", "read from write-only memory")]
    assert _at(findings[0]) == _line("out[i].x = out[i].y") and (out[:, 0] == 7).all()
    vin = np.arange(16, dtype=np.float32).reshape(4, 4)
    a, b, c = (np.full((4, 4), 1.0, np.float32) for _ in range(3))
    c[:] = vin
    findings = program.kernel("swizzles")(4, 4, vin, *(spirvkit.write_only(x) for x in (a, b, c)), report=True)
    assert [(f.what, f.argument) for f in findings] == [("read from write-only memory", "argument 3 ('c', __global)")]
    assert (a == [1, 42, 7, 1]).all() and (b == vin[:, ::-1]).all() and (c == vin[:, ::-1]).all()
    pairs = np.zeros(8, np.int32)
    assert program.kernel("set_member")(4, 4, spirvkit.write_only(pairs), report=True) == []
    assert (pairs.view(np.float32)[1::2] == 1.5).all() and not pairs[0::2].any()


# ----- read-only (declared) ------------------------------------------------------------------

def test_a_write_to_a_declared_read_only_buffer_in_a_helper_loop_is_skipped(program):
    ro, out = np.arange(8, dtype=np.int32), np.zeros(8, np.int32)
    assert ro.flags.writeable                       # the declaration, not the array, makes it read-only
    findings = program.kernel("write_in_helper_loop")(8, 4, spirvkit.read_only(ro), out, report=True)
    assert _what(findings) == [("access", "write to read-only memory", "OpStore", 3)]
    assert _at(findings[0]) == _line("void put(") and findings[0].global_id == (1, 0, 0)
    assert (ro == np.arange(8)).all() and (out == np.arange(8)).all()
    # the clean twin: the same buffer undeclared, written
    assert program.kernel("write_in_helper_loop")(8, 4, ro, out, checks="access", report=True) == []
    assert list(ro[:3]) == [99, 99, 99]


def test_a_declared_read_only_atomic_is_skipped(program):
    counter, out = np.zeros(1, np.int32), np.zeros(4, np.int32)
    findings = program.kernel("atomic_on")(4, 4, spirvkit.read_only(counter), out, report=True)
    assert _what(findings) == [("access", "write to read-only memory", "OpAtomicIIncrement", 4)]
    assert counter[0] == 0


# ----- launches unaffected ----------------------------------------------------------------------

def test_unchecked_launches_ignore_the_declarations(program):
    a, out = np.arange(8, dtype=np.int32), np.ones(8, np.int32)
    k = program.kernel("accumulate")
    assert k(8, 4, spirvkit.read_only(a), spirvkit.write_only(out), unchecked=True) is None
    assert (out == 1 + a).all()
    ro = np.arange(8, dtype=np.int32)
    assert program.kernel("write_in_helper_loop")(8, 4, spirvkit.read_only(ro), out, unchecked=True) is None
    assert list(ro[:3]) == [99, 99, 99]             # not checked: done (the memory is writeable)


def test_default_launches_without_declarations_are_unaffected():
    k = spirvkit.Program(spirvkit.compile_cl(SOURCE, ["-g"], filename="access_host.cl")).kernel("accumulate")
    a, out = np.arange(8, dtype=np.int32), np.ones(8, np.int32)
    assert k(8, 4, a, out) is None and (out == 1 + a).all()
    assert k(8, 4, a, out, report=True) == [] and (out == 1 + 2 * a).all()
    assert {mode for mode, _size, _images in k._variants} == {"checked"}   # bounds only: no check compiled in
    k(8, 4, a, spirvkit.write_only(out), report=True)
    assert {mode for mode, _size, _images in k._variants} == {"checked", "checked+access"}


@pytest.mark.parametrize("bad, message", [
    (lambda: spirvkit.write_only([1, 2]), "numpy array"),
    (lambda: spirvkit.read_only(None), "numpy array"),
    (lambda: spirvkit.write_only(np.frombuffer(bytes(8), np.int32)), "read-only"),
    (lambda: spirvkit.read_only(spirvkit.write_only(np.zeros(2))), "already declared write_only"),
])
def test_bad_declarations_are_refused(bad, message):
    with pytest.raises(KernelArgumentError, match=message):
        bad()


def test_a_declaration_for_a_non_buffer_argument_is_refused():
    p = spirvkit.Program(spirvkit.compile_cl("kernel void k(local int *t, int n, global int *o) { o[0] = n; }"))
    with pytest.raises(KernelArgumentError, match="declares the access of buffer arguments only"):
        p.kernel("k")(1, 1, spirvkit.write_only(np.zeros(4, np.int32)), 1, np.zeros(1, np.int32))
    with pytest.raises(KernelArgumentError, match="declares the access of buffer arguments only"):
        p.kernel("k")(1, 1, spirvkit.LocalMemory(16), spirvkit.read_only(np.zeros(1, np.int32)),
                      np.zeros(1, np.int32))


def test_declarations_repr():
    assert repr(spirvkit.write_only(np.zeros((2, 3), np.float32))) == \
        "spirvkit.write_only(<float32 array of shape (2, 3)>)"


# ----- misaligned accesses: reported, and done -------------------------------------------------

def _misaligned(findings, opname, count):
    assert _what(findings) == [("pointers", "misaligned access", opname, count)]
    return findings[0]


def test_a_misaligned_global_load_is_done(program):
    raw = np.arange(40, dtype=np.uint8)
    out = np.zeros(4, np.int32)
    f = _misaligned(program.kernel("load_global")(4, 4, raw.view(np.int32), out, checks="all", report=True),
                    "OpLoad", 4)
    assert f.offset == 2 and f.size == 4 and "it was done" in f.message
    assert (out == np.frombuffer(raw[2:18].tobytes(), np.int32)).all()


def test_a_misaligned_load_raises_after_the_launch_ran(program):
    raw = np.full(8, 42, np.uint8)                   # Oclgrind's alignment/unaligned, in short
    out = np.zeros(1, np.int32)
    with pytest.raises(KernelCheckError) as info:
        program.kernel("load_global")(1, 1, raw.view(np.int32), out, checks="pointers")
    assert [f.what for f in info.value.findings] == ["misaligned access"]
    assert out[0] == 0x2A2A2A2A


def test_a_misaligned_global_store_is_done(program):
    p = np.zeros(8, np.int32)
    _misaligned(program.kernel("store_global")(4, 4, p, checks="pointers", report=True), "OpStore", 4)
    raw = p.view(np.uint8)
    for i in range(4):
        assert int.from_bytes(raw[1 + 8 * i: 5 + 8 * i].tobytes(), "little") == 0x11223344 + i


def test_misaligned_vector_accesses_are_done(program):
    src = np.arange(40, dtype=np.float32)
    out = np.zeros((4, 4), np.float32)
    _misaligned(program.kernel("load_vector")(4, 4, src, out, checks="all", report=True), "OpLoad", 4)
    assert (out.ravel() == np.arange(1, 17)).all()
    p = np.zeros(20, np.float32)
    _misaligned(program.kernel("store_vector")(4, 4, p, checks="pointers", report=True), "OpStore", 4)
    expected = np.zeros(20, np.float32)
    for i in range(4):
        expected[3 + 4 * i: 5 + 4 * i] = (1.5, 2.5)
    assert (p == expected).all()


def test_misaligned_local_accesses_are_done(program):
    out = np.zeros(8, np.int32)
    findings = program.kernel("local_both")(8, 8, out, checks="all", report=True)
    assert _what(findings) == [("pointers", "misaligned access", "OpLoad", 8),
                               ("pointers", "misaligned access", "OpStore", 1)]
    assert {f.space for f in findings} == {"local"}
    assert (out == 0x01020304).all()


def test_misaligned_private_accesses_are_done(program):
    out = np.zeros(4, np.int32)
    findings = program.kernel("private_both")(4, 4, out, checks="pointers", report=True)
    assert _what(findings) == [("pointers", "misaligned access", "OpLoad", 4),
                               ("pointers", "misaligned access", "OpStore", 4)]
    assert (out == 0x0A0B0C0D + np.arange(4)).all()


def test_a_misaligned_constant_load_is_done(program):
    table = np.arange(12, dtype=np.int32)
    out = np.zeros(4, np.int32)
    f = _misaligned(program.kernel("constant_load")(4, 4, table, out, checks="all", report=True), "OpLoad", 4)
    assert f.space == "constant"
    assert (out == np.frombuffer(table.view(np.uint8)[1:17].tobytes(), np.int32)).all()


def test_a_misaligned_atomic_is_reported_and_not_done(program):
    p = np.zeros(4, np.int32)
    f = _misaligned(program.kernel("atomic_misaligned")(4, 4, p, checks="pointers", report=True),
                    "OpAtomicIAdd", 4)
    assert "not done" in f.message and not p.any()


def test_aligned_twin_and_launches_without_the_check(program):
    src, out = np.arange(12, dtype=np.int32), np.zeros(4, np.int32)
    assert program.kernel("aligned_twin")(4, 4, src, out, checks="all", report=True) == []
    assert (out == np.arange(1, 5)).all()
    raw = np.arange(40, dtype=np.uint8)
    expected = np.frombuffer(raw[2:18].tobytes(), np.int32)
    for options in (dict(), dict(unchecked=True), dict(checks="bounds")):   # no pointers check: done too
        out[:] = 0
        assert program.kernel("load_global")(4, 4, raw.view(np.int32), out, **options) is None
        assert (out == expected).all()


def test_cli_ro_and_wo_declare_buffers(tmp_path):
    # `spirvkit run ... --arg ro:SPEC --arg wo:SPEC`: the CLI's read_only()/write_only(); a
    # declaration turns the access check on, and its findings are printed clang-style.
    from jit.test_checks_framework import _cli

    (tmp_path / "k.cl").write_text("kernel void k(global const int *in, global int *out) {\n"
                                   "  int i = get_global_id(0);\n  out[i] += in[i];\n}\n")
    assert _cli("cc", "-g", "k.cl", "-o", "k.spv", cwd=tmp_path).returncode == 0
    r = _cli("run", "k.spv", "--global", "4", "-a", "ro:range:4", "-a", "wo:zeros:4", "--out", "o", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == ("k.cl:3:3: error: read from write-only memory in kernel 'k', "
                                        "work-item (0, 0, 0) [check: access]")
    assert np.load(tmp_path / "o" / "1_out.npy").tolist() == [0, 1, 2, 3]   # the read was done
    r = _cli("run", "k.spv", "--global", "4", "-a", "ro:range:4", "-a", "zeros:4", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = _cli("run", "k.spv", "--global", "4", "-a", "ro:range:4", "-a", "wo:zeros:4", "--unchecked", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = _cli("run", "k.spv", "--global", "4", "-a", "wo:7", "-a", "zeros:4", cwd=tmp_path)
    assert r.returncode != 0 and "--arg 1 (in)" in r.stderr and "Traceback" not in r.stderr
