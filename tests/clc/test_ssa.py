"""Promotion of private variables to SSA values (spirvkit.clc.ssa, run by compile_cl unless
``-cl-opt-disable``): the shape of the SPIR-V (variables gone, phis where the control flow
merges), spirv-val's acceptance, and results on the executor equal to the -O0 module's."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from peers import spirv_tool

import spirvkit
from spirvkit.clc.ssa import promote_private_variables
from spirvkit.spirv.builder import ModuleBuilder
from spirvkit.spirv.module import Module

KERNELS = Path(__file__).resolve().parent.parent / "data" / "kernels"
OP_VARIABLE, OP_LOAD, OP_STORE, OP_PHI, OP_UNDEF, OP_LINE, OP_TYPE_POINTER = 59, 61, 62, 245, 1, 8, 32
FUNCTION = 7  # StorageClass Function
VALUE_TYPES = {"OpTypeBool", "OpTypeInt", "OpTypeFloat", "OpTypeVector", "OpTypePointer"}


def compile_module(source: str, options: str = "", tmp_path=None) -> Module:
    binary = spirvkit.compile_cl(source, "-cl-std=CL2.0 " + options)
    if tmp_path is not None:
        validate(binary, tmp_path)
    return Module.from_bytes(binary)


def validate(binary: bytes, tmp_path, env: str = "opencl2.2") -> None:
    path = tmp_path / "m.spv"
    path.write_bytes(binary)
    r = subprocess.run([spirv_tool("spirv-val"), "--target-env", env, str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def instructions(module: Module, opcode: int) -> list:
    return [i for f in module.functions for b in f.blocks for i in b.instructions if i.opcode == opcode]


def variables(module: Module) -> list[str]:
    """The names of the Function-storage variables (``%<id>`` when unnamed)."""
    return [module.name(i.words[2]) or f"%{i.words[2]}" for i in instructions(module, OP_VARIABLE)
            if i.words[3] == FUNCTION]


def phi_blocks(module: Module) -> list[int]:
    return [b.id for f in module.functions for b in f.blocks for i in b.instructions if i.opcode == OP_PHI]


def run_both(source: str, kernel: str, global_size, *args) -> list:
    """Run ``kernel`` compiled with and without -cl-opt-disable; the outputs (numpy arguments,
    copied per run) must agree. Returns the promoted module's outputs."""
    outputs = []
    for options in ("-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        spirvkit.Program(spirvkit.compile_cl(source, options)).kernel(kernel)(global_size, None, *copies)
        outputs.append([a.tolist() for a in copies if isinstance(a, np.ndarray)])
    assert outputs[0] == outputs[1]
    return outputs[0]


# -- shapes ------------------------------------------------------------------------------------

STRAIGHT = """
kernel void k(global const int *x, global int *o) {
    size_t i = get_global_id(0);
    int a = x[i];
    int b = a * 2;
    b += 3;
    o[i] = b;
}
"""


def test_straight_line_code_has_no_variables_loads_or_phis(tmp_path):
    m = compile_module(STRAIGHT, tmp_path=tmp_path)
    assert variables(m) == []
    assert phi_blocks(m) == []
    # The only loads left read the built-in variable and the buffer.
    assert len(instructions(m, OP_LOAD)) == 2
    assert run_both(STRAIGHT, "k", 4, np.arange(4, dtype=np.int32), np.zeros(4, np.int32))[1] == [3, 5, 7, 9]


def test_removed_variables_lose_their_names():
    m = compile_module(STRAIGHT)
    names = {m.name(i.words[1]) for i in m.section("debug") if i.opcode == 5}   # OpName
    assert {"k", "x", "o"} <= names
    assert not {"a", "b", "i"} & names


IF_ELSE = """
kernel void k(global const int *x, global int *o) {
    size_t i = get_global_id(0);
    int r;
    if (x[i] > 2) r = 10; else r = 20;
    o[i] = r + 1;
}
"""


def test_if_else_merges_with_one_phi(tmp_path):
    m = compile_module(IF_ELSE, tmp_path=tmp_path)
    assert variables(m) == []
    (phi,) = instructions(m, OP_PHI)
    assert len(phi.words) == 3 + 2 * 2   # one (value, parent) pair per predecessor
    assert run_both(IF_ELSE, "k", 5, np.arange(5, dtype=np.int32), np.zeros(5, np.int32))[1] == [21, 21, 21, 11, 11]


LOOP = """
kernel void k(global int *o, int n) {
    int s = 0;
    for (int j = 0; j < n; j++) {
        if (j & 1) continue;
        s += j;
    }
    o[get_global_id(0)] = s;
}
"""


def test_loop_variables_get_phis_at_the_header_with_a_back_edge(tmp_path):
    m = compile_module(LOOP, tmp_path=tmp_path)
    assert variables(m) == []
    (fn,) = m.functions
    order = {b.id: i for i, b in enumerate(fn.blocks)}
    header_phis = [i for b in fn.blocks for i in b.instructions if i.opcode == OP_PHI
                   and any(order[p] > order[b.id] for p in i.words[4::2])]
    assert len(header_phis) == 2   # s and j: each has an operand along the back edge
    assert run_both(LOOP, "k", 1, np.zeros(1, np.int32), np.int32(10))[0] == [0 + 2 + 4 + 6 + 8]


SWITCH = """
kernel void k(global const int *x, global int *o) {
    size_t i = get_global_id(0);
    int r = 100;
    switch (x[i]) {
    case 0: r = 1;
    case 1: r += 2; break;
    case 5: r = 50; break;
    default: r = -r;
    }
    o[i] = r;
}
"""


def test_switch_with_fall_through(tmp_path):
    m = compile_module(SWITCH, tmp_path=tmp_path)
    assert variables(m) == []
    assert instructions(m, OP_PHI)
    got = run_both(SWITCH, "k", 4, np.array([0, 1, 5, 7], np.int32), np.zeros(4, np.int32))[1]
    assert got == [3, 102, 50, -100]


EARLY_RETURN = """
int f(int v) {
    int acc = 0;
    for (int t = 0; ; t++) {
        if (t == v) return acc;
        acc += t;
        if (acc > 20) break;
    }
    return -acc;
}
kernel void k(global const int *x, global int *o) {
    size_t i = get_global_id(0);
    int v = x[i];
    if (v < 0) { o[i] = -1; return; }
    o[i] = f(v);
    return;
    o[i] = 99;   /* unreachable */
}
"""


def test_early_return_break_and_unreachable_code(tmp_path):
    m = compile_module(EARLY_RETURN, tmp_path=tmp_path)
    assert variables(m) == []
    got = run_both(EARLY_RETURN, "k", 5, np.array([-3, 0, 3, 6, 9], np.int32), np.zeros(5, np.int32))[1]
    assert got == [-1, 0, 3, 15, -21]


ADDRESS_TAKEN = """
void bump(int *p) { *p += 1; }
kernel void k(global int *o) {
    int t = 5;
    int u = 7;
    int *p = &u;
    *p = 8;
    bump(&t);
    int w = 1;
    o[0] = t + u + w;
}
"""


def test_variables_whose_address_is_taken_stay_in_memory(tmp_path):
    m = compile_module(ADDRESS_TAKEN, tmp_path=tmp_path)
    assert sorted(variables(m)) == ["t", "u"]   # p, w, and bump's parameter copy are promoted
    assert run_both(ADDRESS_TAKEN, "k", 1, np.zeros(1, np.int32))[0] == [6 + 8 + 1]


LOAD_BEFORE_STORE = """
kernel void k(global int *o, int n) {
    int u;
    int last;
    for (int j = 0; j < n; j++) {
        if (j > 0) o[j] = last;
        last = j * 3;
    }
    o[0] = 1;
    if (n < 0) o[1] = u;   /* read before any store: undefined */
}
"""


def test_a_load_before_any_store_reads_undef(tmp_path):
    m = compile_module(LOAD_BEFORE_STORE, tmp_path=tmp_path)
    assert variables(m) == []
    undef_ids = {i.words[2] for i in m.section("types_values") if i.opcode == OP_UNDEF}
    assert undef_ids   # u's load, and last's value on the loop's first entry
    got = run_both(LOAD_BEFORE_STORE, "k", 1, np.zeros(4, np.int32), np.int32(4))[0]
    assert got == [1, 0, 3, 6]


POINTERS = """
kernel void k(global int *a, global int *b, global int *o, int n) {
    size_t i = get_global_id(0);
    global int *p = (i & 1) ? a : b;
    global int *q = o;
    for (int j = 0; j < n; j++) q++;
    q[i] = p[i] + 100;
}
"""


def test_pointer_variables_become_pointer_values(tmp_path):
    m = compile_module(POINTERS, tmp_path=tmp_path)
    assert variables(m) == []
    pointer_types = {i.words[1] for i in m.section("types_values") if i.opcode == OP_TYPE_POINTER}
    assert any(phi.words[1] in pointer_types for phi in instructions(m, OP_PHI))
    a, b = np.arange(4, dtype=np.int32), np.arange(10, 14, dtype=np.int32)
    got = run_both(POINTERS, "k", 4, a, b, np.zeros(6, np.int32), np.int32(2))[2]
    assert got == [0, 0, 110, 101, 112, 103]


VECTORS = """
kernel void k(global float4 *o, int n) {
    float4 v = (float4)(1.0f);
    float2 w = (float2)(0.5f, 2.0f);
    for (int j = 0; j < n; j++) {
        v.x += 1.0f;
        v.yz = v.yz * w;
    }
    o[0] = v;
}
"""


def test_vector_variables_and_lvalue_swizzles(tmp_path):
    m = compile_module(VECTORS, tmp_path=tmp_path)
    assert variables(m) == []
    assert run_both(VECTORS, "k", 1, np.zeros(4, np.float32), np.int32(3))[0] == [4.0, 0.125, 8.0, 1.0]


SHORT_CIRCUIT = """
kernel void k(global const int *x, global int *o) {
    size_t i = get_global_id(0);
    int v = x[i];
    int c = 0;
    while (c < 5 && (v & 1 || c < 2)) c++;
    o[i] = v > 1 ? c : -c;
}
"""


def test_phis_of_the_code_generator_see_the_promoted_values(tmp_path):
    m = compile_module(SHORT_CIRCUIT, tmp_path=tmp_path)
    assert variables(m) == []
    assert run_both(SHORT_CIRCUIT, "k", 4, np.arange(4, dtype=np.int32), np.zeros(4, np.int32))[1] == [-2, -5, 2, 5]


BARRIER = """
kernel void k(global int *o, local int *tmp) {
    int l = get_local_id(0);
    int acc = l * 2;
    tmp[l] = acc;
    for (int step = 1; step < 4; step <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        int other = tmp[(l + step) % 4];
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += other;
        tmp[l] = acc;
    }
    o[get_global_id(0)] = acc;
}
"""


def test_values_live_across_barriers():
    out = [np.zeros(8, np.int32)]
    for options in ("-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"):
        o = np.zeros(8, np.int32)
        spirvkit.Program(spirvkit.compile_cl(BARRIER, options)).kernel("k")(8, 4, o, spirvkit.LocalMemory(16))
        out.append(o)
    assert out[1].tolist() == out[2].tolist() == [12] * 8


# -- options -----------------------------------------------------------------------------------

def test_cl_opt_disable_keeps_the_variables(tmp_path):
    m = compile_module(LOOP, "-cl-opt-disable", tmp_path=tmp_path)
    assert {"s", "j"} <= set(variables(m))
    assert len(variables(m)) == 4      # s, j and the copies of the parameters o and n
    assert phi_blocks(m) == []


def test_debug_lines_stay_and_the_module_validates(tmp_path):
    m = compile_module(EARLY_RETURN, "-g", tmp_path=tmp_path)
    assert variables(m) == []
    assert instructions(m, OP_LINE)
    m = compile_module(SWITCH, "-g", tmp_path=tmp_path)
    assert variables(m) == []


# -- the corpus --------------------------------------------------------------------------------

def _address_taken(module: Module, fn, var: int) -> bool:
    for b in fn.blocks:
        for inst in b.instructions:
            if inst.opcode == OP_LOAD and inst.words[3] == var:
                continue
            if inst.opcode == OP_STORE and inst.words[1] == var and inst.words[2] != var:
                continue
            if var in inst.id_operands():
                return True
    return False


def test_corpus_scalar_variables_all_promoted():
    """Every Function variable of a scalar, vector or pointer type left in the corpus's modules
    has its address used other than by a load or store; and the count drops (949 -> 16 when
    this test was written: arrays, structs, an event, and variables passed by address)."""
    before = after = 0
    for path in sorted(KERNELS.glob("*.cl")):
        source = path.read_text(encoding="utf-8")
        before += len(variables(Module.from_bytes(spirvkit.compile_cl(source, "-cl-std=CL2.0 -cl-opt-disable"))))
        m = Module.from_bytes(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
        for fn in m.functions:
            for inst in fn.blocks[0].instructions if fn.blocks else ():
                if inst.opcode != OP_VARIABLE:
                    continue
                after += 1
                pointee = m.definition(m.definition(inst.words[1]).words[3])
                if pointee.opname in VALUE_TYPES:
                    assert _address_taken(m, fn, inst.words[2]), f"{path.name}: {m.name(inst.words[2])}"
    assert before > 900
    assert after * 20 < before


@pytest.mark.parametrize("stem", ["cf_loops", "cf_switch", "workitem_nd", "barrier_shapes", "vec4"])
def test_typical_kernels_keep_no_variables(stem):
    m = Module.from_bytes(spirvkit.compile_cl((KERNELS / f"{stem}.cl").read_text(encoding="utf-8"),
                                              "-cl-std=CL2.0"))
    assert variables(m) == []


# -- the pass on hand-built modules (what the code generator does not emit) --------------------

def _kernel_with_variable(decoration=None, volatile=False, initializer=False):
    """``k(global int *o)``: a Function variable ``v`` (optionally decorated, with a volatile
    load, or with an initializer) stored 5 (unless initialized) and copied to ``o[0]``."""
    b = ModuleBuilder()
    b.capability("Addresses")
    b.capability("Kernel")
    b.memory_model("Physical64", "OpenCL")
    i32 = b.type_int(32)
    f = b.function(b.type_void(), [b.type_pointer("CrossWorkgroup", i32)], name="k")
    five = b.constant(i32, 5)
    v = f.variable(b.type_pointer("Function", i32), five if initializer else None)
    b.name(v, "v")
    if decoration:
        b.decorate(v, *decoration)
    if not initializer:
        f.op("OpStore", None, v, five)
    loaded = f.op("OpLoad", i32, v, *((b.enum("MemoryAccess", "Volatile"),) if volatile else ()))
    f.op("OpStore", None, f.params[0], loaded)
    f.ret()
    f.finish()
    b.entry_point("Kernel", f.id, "k")
    return b


@pytest.mark.parametrize("kind", ["plain", "initializer", "Alignment"])
def test_builder_variables_are_promoted(kind, tmp_path):
    b = _kernel_with_variable(decoration=("Alignment", 4) if kind == "Alignment" else None,
                              initializer=kind == "initializer")
    stats = promote_private_variables(b)
    assert (stats.promoted, stats.kept, stats.loads, stats.stores) == (1, 0, 1, 0 if kind == "initializer" else 1)
    validate(b.to_bytes(), tmp_path)
    m = b.to_module()
    assert variables(m) == [] and m.section("annotations") == []
    assert "v" not in {m.name(i.words[1]) for i in m.section("debug")}
    o = np.zeros(1, np.int32)
    spirvkit.Program(b.to_bytes()).kernel("k")(1, None, o)
    assert o[0] == 5


@pytest.mark.parametrize("kind", ["Volatile", "Aliased", "volatile load"])
def test_volatile_or_aliased_variables_stay(kind, tmp_path):
    b = _kernel_with_variable(decoration=None if kind == "volatile load" else (kind,), volatile=kind == "volatile load")
    before = b.to_bytes()
    stats = promote_private_variables(b)
    assert (stats.promoted, stats.kept) == (0, 1)
    assert b.to_bytes() == before


IRREDUCIBLE = """
kernel void k(global int *o, int n) {
    int i = 0, s = 0;
    if (n > 2) goto inside;
top:
    s += 1;
inside:
    s += 10;
    i++;
    if (i < n) goto top;
    o[0] = s;
    o[1] = i;
}
"""


@pytest.mark.parametrize("n, expected", [(4, [43, 4]), (1, [11, 1])])
def test_goto_into_a_loop(n, expected, tmp_path):
    m = compile_module(IRREDUCIBLE, tmp_path=tmp_path)
    assert variables(m) == []
    assert run_both(IRREDUCIBLE, "k", 1, np.zeros(2, np.int32), np.int32(n))[0] == expected
