"""Code generation: small kernels compiled with spirvkit.compile_cl, validated by spirv-val and
run on the executor, one language rule each (the vector and conversion rules of the spec, its
§6 traps, control flow, memory spaces, built-in lowering)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from peers import spirv_tool

import spirvkit
from spirvkit.spirv.builder import ModuleBuilder


def validate(binary: bytes, tmp_path, env="opencl2.2") -> None:
    path = tmp_path / "m.spv"
    path.write_bytes(binary)
    r = subprocess.run([spirv_tool("spirv-val"), "--target-env", env, str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def run_ints(body: str, n_out: int = 8, dtype=np.int32, options="-cl-std=CL2.0", tmp_path=None):
    ctype = {np.int32: "int", np.float32: "float", np.int64: "long", np.uint32: "uint"}[dtype]
    source = f"kernel void k(global {ctype} *o) {{ {body} }}"
    binary = spirvkit.compile_cl(source, options)
    if tmp_path is not None:
        validate(binary, tmp_path)
    out = np.zeros(n_out, dtype)
    spirvkit.Program(binary).kernel("k")(1, None, out)
    return out.tolist()


def test_vector_relational_results_are_minus_one(tmp_path):
    assert run_ints("int4 c = (int4)(1, 5, 3, 0) < (int4)(2, 2, 3, 1); o[0] = c.x; o[1] = c.y; o[2] = c.z; "
                    "o[3] = c.w; o[4] = 1 < 2; o[5] = !(int2)(0, 3).x;", tmp_path=tmp_path)[:6] == [-1, 0, 0, -1, 1, 1]


def test_shift_counts_are_taken_modulo_the_width(tmp_path):
    assert run_ints("int s = 33; o[0] = 1 << s; uchar4 c = (uchar4)(1) << (uchar4)(9); o[1] = c.x; "
                    "o[2] = -16 >> 2;", tmp_path=tmp_path)[:3] == [2, 2, -4]


def test_vector_condition_selects_on_the_msb(tmp_path):
    assert run_ints("int4 m = (int4)(-1, 0, 1, 0x80000000); int4 r = m ? (int4)(10) : (int4)(20); "
                    "o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = r.w;", tmp_path=tmp_path)[:4] == [10, 20, 20, 10]


def test_swizzles_and_lvalue_swizzles(tmp_path):
    got = run_ints("int8 v = (int8)(0, 1, 2, 3, 4, 5, 6, 7); v.s73 = (int2)(70, 30); int4 h = v.hi; "
                   "int2 e = v.odd.lo; o[0] = v.s7; o[1] = v.s3; o[2] = h.x; o[3] = e.y; o[4] = v.even.s1; "
                   "int3 t = (int3)(1, 2, 3); o[5] = t.hi.x; o[6] = vec_step(t); o[7] = sizeof(t);",
                   tmp_path=tmp_path)
    assert got == [70, 30, 4, 30, 2, 3, 4, 16]


def test_scalar_widening_and_literals(tmp_path):
    got = run_ints("float4 f = (float4)(1.5f) * 2; o[0] = f.w; short8 s = (short8)(3) + (char)2; o[1] = s.s5; "
                   "uint u = 0xFFFFFFFF; o[2] = u > 0; long l = -1; o[3] = l < 0u;", tmp_path=tmp_path)
    assert got[:4] == [3.0, 5, 1, 1]


def test_conversions_round_and_saturate(tmp_path):
    got = run_ints("o[0] = convert_int_sat(3e10f); o[1] = convert_int_rtn(-1.5f); o[2] = convert_int(-1.7f); "
                   "o[3] = convert_uchar_sat(300); o[4] = convert_char_sat(-300); o[5] = convert_int_sat(NAN); "
                   "o[6] = convert_int_rte(2.5f); o[7] = as_int(1.0f);", tmp_path=tmp_path)
    assert got == [2**31 - 1, -2, -1, 255, -128, 0, 2, 0x3F800000]


def test_control_flow_switch_goto_loops(tmp_path):
    got = run_ints("int s = 0; for (int i = 0; i < 10; i++) { if (i == 7) break; if (i & 1) continue; s += i; } "
                   "o[0] = s; int j = 0; do { j += 3; } while (j < 10); o[1] = j; "
                   "switch (j) { case 12: o[2] = 1; case 13: o[2] += 2; break; default: o[2] = 9; } "
                   "int n = 0; again: n++; if (n < 5) goto again; o[3] = n; "
                   "o[4] = (j > 100 && o[100] == 0) || j == 12;", tmp_path=tmp_path)
    assert got[:5] == [12, 12, 3, 5, 1]


def test_structs_arrays_and_initialisers(tmp_path):
    source = """
    typedef struct { int a; float b[3]; char c; } S;
    constant int table[] = {1, 2, 3, [6] = 7};
    int twice(S s) { return s.a * 2; }
    kernel void k(global int *o) {
        S s = {.b = {1, 2, 3}, .a = 4};
        int arr[4] = {1, 2};
        o[0] = twice(s); o[1] = s.b[2]; o[2] = arr[1] + arr[3]; o[3] = sizeof(S);
        o[4] = table[6]; o[5] = sizeof(table) / sizeof(table[0]);
        S *p = &s; p->c = 'x'; o[6] = s.c; o[7] = __builtin_offsetof(S, c);
    }"""
    binary = spirvkit.compile_cl(source, "-cl-std=CL2.0")
    validate(binary, tmp_path)
    out = np.zeros(8, np.int32)
    spirvkit.Program(binary).kernel("k")(1, None, out)
    assert out.tolist() == [8, 3, 2, 20, 7, 7, ord("x"), 16]


def test_local_memory_barrier_and_atomics(tmp_path):
    source = """
    kernel void k(global int *o, global int *counter) {
        local int buf[64];
        int l = get_local_id(0);
        buf[l] = l;
        barrier(CLK_LOCAL_MEM_FENCE);
        o[get_global_id(0)] = buf[63 - l];
        atomic_add(counter, 1);
        atomic_fetch_add_explicit((volatile global atomic_int *)counter + 1, 2, memory_order_relaxed,
                                  memory_scope_device);
    }"""
    binary = spirvkit.compile_cl(source, "-cl-std=CL2.0")
    validate(binary, tmp_path)
    out, counter = np.zeros(128, np.int32), np.zeros(2, np.int32)
    spirvkit.Program(binary).kernel("k")(128, 64, out, counter)
    assert out[:64].tolist() == list(range(63, -1, -1)) and counter.tolist() == [128, 256]


def test_generic_pointers_cl20(tmp_path):
    source = """
    int get(int *p) { return *p + 1; }
    kernel void k(global int *o) { local int x; x = 5; int y = 7; o[0] = get(&x) + get(&y) + get(o + 1); }"""
    binary = spirvkit.compile_cl(source, "-cl-std=CL2.0")
    validate(binary, tmp_path)
    out = np.array([0, 10], np.int32)
    spirvkit.Program(binary).kernel("k")(1, 1, out)
    assert out[0] == 6 + 8 + 11


def test_kernel_attributes_become_execution_modes():
    binary = spirvkit.compile_cl("__attribute__((reqd_work_group_size(8, 2, 1))) "
                                 "__attribute__((vec_type_hint(float4))) kernel void k(global int *o) {}")
    text = spirvkit.disassemble(binary)
    assert "OpExecutionMode %k LocalSize 8 2 1" in text
    assert "VecTypeHint" in text
    assert 'OpString "kernel_arg_type.k.int*,"' in text
    assert "OpMemoryModel Physical64 OpenCL" in text


def test_work_item_builtins_are_input_variables():
    text = spirvkit.disassemble(spirvkit.compile_cl("kernel void k(global long *o) { o[0] = get_global_id(0); }"))
    assert "OpDecorate %__spirv_BuiltInGlobalInvocationId BuiltIn GlobalInvocationId" in text


@pytest.mark.parametrize("version", ["1.0", "1.1", "1.2", "1.3", "1.4"])
def test_spirv_versions(version, tmp_path):
    binary = spirvkit.compile_cl("kernel void k(global int *o) { o[get_global_id(0)] = 1; }",
                                 f"--spirv-version {version}")
    module = spirvkit.Module.from_bytes(binary)
    assert module.version == tuple(int(x) for x in version.split("."))
    validate(binary, tmp_path, env=f"spv{version}")


def test_program_accepts_source_text_and_cl_paths(tmp_path):
    src = "kernel void twice(global float *a) { a[get_global_id(0)] *= 2; }"
    a = np.arange(4, dtype=np.float32)
    spirvkit.Program(src).kernel("twice")(4, None, a)
    path = tmp_path / "twice.cl"
    path.write_text(src)
    spirvkit.Program(str(path)).kernel("twice")(4, None, a)
    assert a.tolist() == [0, 4, 8, 12]


def test_builder_deduplicates_types_and_constants():
    b = ModuleBuilder()
    assert b.type_int(32) == b.type_int(32)
    assert b.constant(b.type_int(32), 5) == b.constant(b.type_int(32), 5)
    assert b.type_pointer("CrossWorkgroup", b.type_float(32)) == b.type_pointer("CrossWorkgroup", b.type_float(32))
    b.capability("Kernel")
    b.capability("Addresses")
    b.memory_model("Physical64", "OpenCL")
    f = b.function(b.type_void(), [], name="k")
    f.ret()
    f.finish()
    b.entry_point("Kernel", f.id, "k")
    module = b.to_module()
    assert [e.name for e in module.entry_points] == ["k"]
