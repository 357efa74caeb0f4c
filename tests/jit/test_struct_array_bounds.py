"""An array inside a struct, an array of structs or a multi-dimensional array is bounded by the
array itself, not only by the variable that holds it (jit/array_bounds.py; issue 18, "bounds,
finer").

Each kernel of tests/data/array_bounds/struct_arrays.cl runs with indexes in range (checked,
unchecked and the expected value agree, from ``spirvkit cc``'s SPIR-V and from clang-15 +
llvm-spirv-15's at -O0 and -O2, the committed fixtures) and, for the faulting ones, with an index
that leaves its array but not the variable (the struct's padding, the next member, the next
row): a located KernelFault in private and in __local memory, through a helper function, in a
loop, under an atomic, and through a group guard. The clean_* kernels walk structs as C allows
(bytes through a char pointer, pointer arithmetic from a member, one past an array, whole-struct
copies) and must not fault.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spirvkit
from spirvkit.jit import access_guard

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "array_bounds"
SOURCE = FIXTURES / "struct_arrays.cl"   # struct_arrays.spv, struct_arrays_O2.spv: README.md there

# kernel: (global = local size, indexes in range, expected out, indexes out of the array,
#          (faulting work-item, byte offset in the variable, access size))
FAULTS = {
    "member_write": (1, (1,), [16], (2,), (0, 6, 1)),                  # s.b[2]: padding
    "member_read": (1, (0,), [2], (-1,), (0, 3, 1)),                   # s.b[-1]: s.a's last byte
    "array_of_structs": (1, (3, 2), [32], (1, 3), (0, 32, 4)),        # ps[1].v[3]: ps[2].x
    "matrix": (1, (2, 3), [11], (0, 4), (0, 16, 4)),                  # m[0][4]: m[1][0]
    "through_helper": (1, (1,), [17], (3,), (0, 7, 1)),                # s->b[3] in put()
    "in_a_loop": (1, (3,), [9], (4,), (0, 16, 4)),                     # ps[0].v[3]: ps[1].x
    "local_hist": (8, (0,), [1] * 8, (1,), (7, 32, 4)),                # atomic_inc(&h.hist[8])
    "local_rows": (8, (0,), list(range(12, 20)), (1,), (7, 64, 4)),    # tile[1][8]: tile[2][0]
    "local_struct_of_arrays": (6, (0,), [3] * 6, (1,), (5, 12, 2)),    # t.a[6]: t.b[0]
}
CLEAN = {
    "clean_char_walk": (1, [28]),
    "clean_member_pointer_walk": (1, [41]),
    "clean_one_past": (1, [13]),
    "clean_whole_copies": (4, [13] * 4),
    "clean_edges": (1, [113]),
    "clean_cast_walk": (1, [6]),
}
LOCAL = {"local_hist", "local_rows", "local_struct_of_arrays"}


@pytest.fixture(scope="module")
def programs():
    cc = spirvkit.compile_cl(SOURCE.read_text(), "-g -cl-std=CL2.0", filename=SOURCE.name)
    return {"cc": spirvkit.Program(cc),
            "clang-O0": spirvkit.Program((FIXTURES / "struct_arrays.spv").read_bytes()),
            "clang-O2": spirvkit.Program((FIXTURES / "struct_arrays_O2.spv").read_bytes())}


def _run(program, name, size, ints, **kw):
    out = np.full(8, -1, np.int32)
    result = program.kernel(name)(size, size, out, *[np.int32(v) for v in ints], **kw)
    return out[:size].tolist(), result


@pytest.mark.parametrize("compiler", ["cc", "clang-O0", "clang-O2"])
@pytest.mark.parametrize("name", sorted(FAULTS) + sorted(CLEAN))
def test_in_range_checked_and_unchecked_agree(programs, compiler, name):
    if name in FAULTS:
        size, good, expected, _, _ = FAULTS[name]
    else:
        (size, expected), good = CLEAN[name], (0,)
    checked, _ = _run(programs[compiler], name, size, good)
    unchecked, _ = _run(programs[compiler], name, size, good, unchecked=True)
    assert checked == unchecked == expected


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_index_out_of_its_array_faults_located(programs, name):
    size, _, _, bad, (item, offset, nbytes) = FAULTS[name]
    with pytest.raises(spirvkit.KernelFault) as info:
        _run(programs["cc"], name, size, bad)
    fault = info.value
    assert fault.kernel == name and fault.global_id == (item, 0, 0)
    assert (fault.offset, fault.size) == (offset, nbytes)      # inside the variable ...
    text = str(fault)
    assert "outside the array it indexes" in text              # ... but not inside the array
    assert ("a __local variable" if name in LOCAL else "a private variable") in text
    assert "struct_arrays.cl:" in text                         # the source line (-g)


@pytest.mark.parametrize("name", ["member_write", "local_rows", "through_helper"])
def test_reported_as_a_bounds_finding_with_the_other_checks(programs, name):
    size, _, _, bad, (item, offset, _) = FAULTS[name]
    _, findings = _run(programs["cc"], name, size, bad, checks="all", report=True)
    assert [(f.kind, f.global_id, f.offset) for f in findings] == [("bounds", (item, 0, 0), offset)]
    assert findings[0].location.startswith("struct_arrays.cl:")


def test_the_variable_still_bounds_every_index(programs):
    # What leaves the variable faults as before, from every compiler's SPIR-V: s.b[12] (byte
    # 16) is past the 12-byte struct.
    for program in programs.values():
        with pytest.raises(spirvkit.KernelFault) as info:
            _run(program, "member_read", 1, (12,))
        assert info.value.offset == 16 and "outside the array" not in str(info.value)


@pytest.mark.parametrize("compiler", ["clang-O0", "clang-O2"])
def test_llvm_gep_indexes_keep_the_allocations_bounds(programs, compiler):
    # llvm-spirv writes every LLVM GEP as OpInBoundsPtrAccessChain, whose array indexes LLVM
    # does not bound (clang -O2 folds the legitimate walk of clean_cast_walk into one): an index
    # out of its array but inside the variable is no fault there (array_bounds.py).
    for name in ("member_write", "array_of_structs", "local_rows"):
        size, _, _, bad, _ = FAULTS[name]
        _run(programs[compiler], name, size, bad)


@pytest.fixture
def fresh_optimised_builds(monkeypatch):
    """Optimised builds (the tier with group guards), compiled anew: no kernel cache."""
    from spirvkit.jit import cache

    monkeypatch.setenv("SPIRVKIT_JIT", "optimized")
    monkeypatch.setenv("SPIRVKIT_CACHE", "0")
    with cache._lock:
        cache._memory.clear()
    yield
    with cache._lock:
        cache._memory.clear()


@pytest.mark.parametrize("name", ["local_rows", "local_struct_of_arrays"])
def test_a_group_guard_proves_the_array_index_too(fresh_optimised_builds, monkeypatch, name):
    # t.a[lid + i], tile[1][lid + i]: affine in the local id, so the group guard covers the
    # access and its group runs without the access's test; the guard must then prove the index
    # within its array, or an index past the array but inside the variable goes unseen: it does
    # when the guard is denied the array's bounds.
    size, _, _, bad, (item, offset, _) = FAULTS[name]
    program = spirvkit.Program(spirvkit.compile_cl(SOURCE.read_text(), "-cl-std=CL2.0"))
    with pytest.raises(spirvkit.KernelFault) as info:
        _run(program, name, size, bad)
    assert (info.value.global_id, info.value.offset) == ((item, 0, 0), offset)
    monkeypatch.setattr(access_guard, "bounded_indexes", lambda ml, inst: [])
    from spirvkit.jit import cache
    with cache._lock:
        cache._memory.clear()
    program = spirvkit.Program(spirvkit.compile_cl(SOURCE.read_text(), "-cl-std=CL2.0"))
    _run(program, name, size, bad)      # (no fault: the guard proved only the variable's bounds)


def test_the_struct_hack_through_a_generic_pointer_keeps_the_buffers_bounds():
    # A struct ending in a one-element array that the host allocated longer, reached through a
    # generic pointer (a helper function's parameter): the buffer bounds it, not the array.
    # A last member of two elements is still bounded by its array.
    source = """
    typedef struct { int n; int data[1]; } Hdr;
    typedef struct { int n; int data[2]; } Two;
    int get(Hdr *h, int i) { return h->data[i]; }
    int get2(Two *h, int i) { return h->data[i]; }
    kernel void hack(global int *buf, global int *out, int i) { out[0] = get((global Hdr *)buf, i); }
    kernel void two(global int *out, int i) {
      Two t = {1, {2, 3}};
      out[0] = get2(&t, i);
    }"""
    program = spirvkit.Program(spirvkit.compile_cl(source, "-cl-std=CL2.0"))
    out = np.zeros(1, np.int32)
    program.kernel("hack")(1, 1, np.arange(8, dtype=np.int32), out, np.int32(5))
    assert out[0] == 6
    with pytest.raises(spirvkit.KernelFault) as info:
        program.kernel("hack")(1, 1, np.arange(8, dtype=np.int32), out, np.int32(7))
    assert info.value.offset == 32 and "outside the array" not in str(info.value)
    program.kernel("two")(1, 1, out, np.int32(1))
    assert out[0] == 3
    with pytest.raises(spirvkit.KernelFault) as info:
        program.kernel("two")(1, 1, out, np.int32(-1))
    assert info.value.offset == 0 and "outside the array it indexes" in str(info.value)
