"""OpenCL.std printf through the executor (SPIR-V assembly kernels): the OpenCL C 6.13.13
conversions, vector specifiers and length modifiers, the return value, malformed calls, the output
order (global linear id, then program order), the printf buffer's overflow, the Python-side
capture API, and printf in barrier kernels (barriers in the kernel and in called functions), with several threads."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from jit.asm_kernel import ld, program, simple, st

import spirvkit
from spirvkit.jit.printf_format import parse_format

MODES = pytest.mark.parametrize("unchecked", [False, True], ids=["checked", "unchecked"])
STD = '%std = OpExtInstImport "OpenCL.std"'


def cstring(name: str, text: str) -> str:
    """Module-level lines defining %name, a UniformConstant char array holding text + NUL."""
    data = text.encode() + b"\0"
    elems = " ".join(f"%uchar_{c}" for c in data)
    return (f"%arr_{name} = OpTypeArray %uchar %ulong_{len(data)}\n"
            f"%pUC_arr_{name} = OpTypePointer UniformConstant %arr_{name}\n"
            f"%init_{name} = OpConstantComposite %arr_{name} {elems}\n"
            f"%{name} = OpVariable %pUC_arr_{name} UniformConstant %init_{name}\n")


def cptr(name: str) -> str:
    """%name_p: a pointer to the first char of cstring %name."""
    return f"%{name}_p = OpInBoundsPtrAccessChain %pUC_uchar %{name} %ulong_0 %ulong_0\n"


def printf_kernel(strings: dict, body: str, params=(("r", "pCW_uint"),), types: str = "", **kw):
    decls = "".join(cstring(n, t) for n, t in strings.items())
    ptrs = "".join(cptr(n) for n in strings)
    return simple(list(params), ptrs + body, types=decls + types, imports=STD, **kw)


@MODES
def test_scalar_conversions(unchecked):
    fmt = "%d|%5.2f|%-4x|%#o|%c|%s|%e|%g|%a|%%|%+i|% d|%08.3f|%X|%u|%.3s|%G|%E|%p\n"
    types = "%dbl_pi = OpConstant %double 3.14159\n%dbl_e = OpConstant %double 1234.5\n" \
            "%dbl_g = OpConstant %double 0.0001\n%dbl_1 = OpConstant %double 1\n" \
            "%dbl_m = OpConstant %double -2.5\n%dbl_big = OpConstant %double 1e20\n" \
            "%dbl_small = OpConstant %double 1.5e-7\n%nullp = OpConstantNull %pCW_uint\n"
    body = ("%ret = OpExtInst %uint %std printf %fmt_p %uint_m42 %dbl_pi %uint_255 %uint_8 %uint_65 %s_p %dbl_e "
            "%dbl_g %dbl_1 %uint_7 %uint_5 %dbl_m %uint_0xbeef %uint_m1 %s_p %dbl_big %dbl_small %nullp\n"
            + st("r", "gid", "uint", "ret"))
    k = printf_kernel({"fmt": fmt, "s": "hello"}, body, types=types)
    r = np.full(1, 7, np.uint32)
    out = []
    k(1, None, r, unchecked=unchecked, printf=out)
    assert r[0] == 0
    assert out == ["-42| 3.14|ff  |010|A|hello|1.234500e+03|0.0001|0x1p+0|%|+7| 5|-002.500|BEEF|4294967295|hel"
                   "|1E+20|1.500000E-07|(nil)\n"]


@MODES
def test_vectors_and_length_modifiers(unchecked):
    fmt = "f4 = %2.2v4hlf|uc = %#v4hhx|%v2hd|%v3ld|%v2hf|%v8hhu|%hhd %hd %hhu %ld %lu|%v2hlg|%v2le\n"
    types = ("%f4 = OpConstantComposite %v4float %float_1 %float_2 %float_3 %float_4\n"
             "%uc4 = OpConstantComposite %v4uchar %uchar_0xfa %uchar_0xfb %uchar_0xfc %uchar_0xfd\n"
             "%s2 = OpConstantComposite %v2ushort %ushort_m5 %ushort_32767\n"
             "%l3 = OpConstantComposite %v3ulong %ulong_m1 %ulong_0x7fffffffffffffff %ulong_9\n"
             "%h2 = OpConstantComposite %v2half %half_0p5 %half_m2\n"
             "%u8 = OpConstantComposite %v8uchar %uchar_0 %uchar_1 %uchar_2 %uchar_3 %uchar_255 %uchar_128 %uchar_6 "
             "%uchar_7\n"
             "%g2 = OpConstantComposite %v2uint %uint_1 %uint_2\n"
             "%fg2 = OpConstantComposite %v2float %float_0p25 %float_100000000\n"
             "%d2 = OpConstantComposite %v2double %double_1 %double_m3\n")
    body = ("%ret = OpExtInst %uint %std printf %fmt_p %f4 %uc4 %s2 %l3 %h2 %u8 %uint_300 %uint_70000 %uint_m1 "
            "%ulong_m1 %ulong_m1 %fg2 %d2\n" + st("r", "gid", "uint", "ret"))
    k = printf_kernel({"fmt": fmt}, body, types=types)
    r = np.full(1, 7, np.uint32)
    out = []
    k(1, None, r, unchecked=unchecked, printf=out)
    assert r[0] == 0
    assert out == ["f4 = 1.00,2.00,3.00,4.00|uc = 0xfa,0xfb,0xfc,0xfd|-5,32767|-1,9223372036854775807,9|"
                   "0.500000,-2.000000|0,1,2,3,255,128,6,7|44 4464 255 -1 18446744073709551615|0.25,1e+08|"
                   "1.000000e+00,-3.000000e+00\n"]


@pytest.mark.parametrize("fmt,args", [
    ("%v4d\n", "%v4uint_c"),        # a vector specifier needs a length modifier
    ("%v4hd\n", "%v4uint_c"),       # short4 conversion, int4 argument
    ("%v2hlf\n", "%v4uint_c"),      # wrong kind and size
    ("%lld\n", "%ulong_1"),         # ll is reserved
    ("%*d\n", "%uint_1 %uint_2"),   # no * width in OpenCL C
    ("%d %d\n", "%uint_1"),         # too few arguments
    ("%d\n", "%double_1"),          # a double for %d
    ("%f\n", "%uint_1"),            # an int for %f
    ("%s\n", "%r"),                 # %s with a global buffer (not a literal string)
    ("%n\n", "%uint_1"),            # %n is reserved
    ("%q\n", "%uint_1"),            # no such conversion
    ("%5%\n", ""),                  # the complete specification must be %%
    ("%hlf\n", "%double_1"),        # hl only with a vector specifier
    ("%v5hld\n", "%v4uint_c"),      # no 5-component vectors
    ("%10000000d\n", "%uint_1"),    # an absurd field width
])
def test_malformed_calls_return_minus_one_and_print_nothing(fmt, args):
    types = "%v4uint_c = OpConstantComposite %v4uint %uint_1 %uint_2 %uint_3 %uint_4\n"
    body = (f"%ret = OpExtInst %uint %std printf %fmt_p {args}\n".replace(" \n", "\n")
            + "%okr = OpExtInst %uint %std printf %ok_p\n"
            + st("r", "gid", "uint", "ret") + "%gid1 = OpIAdd %ulong %gid %ulong_1\n" + st("r", "gid1", "uint", "okr"))
    k = printf_kernel({"fmt": fmt, "ok": "fine\n"}, body, types=types)
    r = np.full(2, 7, np.uint32)
    out = []
    k(1, None, r, printf=out)
    assert r.tolist() == [0xFFFFFFFF, 0]
    assert out == ["fine\n"]


def test_excess_arguments_are_ignored():
    k = printf_kernel({"fmt": "%d\n"}, "%ret = OpExtInst %uint %std printf %fmt_p %uint_5 %uint_6 %double_1\n"
                      + st("r", "gid", "uint", "ret"))
    r = np.full(1, 7, np.uint32)
    out = []
    k(1, None, r, printf=out)
    assert r[0] == 0 and out == ["5\n"]


def test_parse_format_pieces():
    pieces = parse_format(b"a%%b%-+ #07.3v4hlfc%s")
    assert pieces[0] == "a" and pieces[1] == "%" and pieces[2] == "b"
    conv = pieces[3]
    assert (conv.flags, conv.width, conv.precision, conv.vector, conv.length, conv.conversion) == \
        ("-+ #0", "7", "3", 4, "hl", "f")
    assert pieces[4] == "c" and pieces[5].conversion == "s"
    assert parse_format(b"%.f")[0].precision == ""
    assert parse_format(b"trailing %") is None


ORDER_BODY = """
%lid3 = OpLoad %v3ulong %LocalInvocationId Aligned 32
%lid = OpCompositeExtract %ulong %lid3 0
%r1 = OpExtInst %uint %std printf %a_p %gid %lid
%r2 = OpExtInst %uint %std printf %b_p %gid
"""


@MODES
def test_output_is_in_work_item_order_then_program_order(unchecked):
    k = printf_kernel({"a": "first %lu (local %lu)\n", "b": "second %lu\n"}, ORDER_BODY)
    n, local = 1000, 8
    out = []
    k(n, local, np.zeros(1, np.uint32), unchecked=unchecked, printf=out)
    expected = []
    for g in range(n):
        expected += [f"first {g} (local {g % local})\n", f"second {g}\n"]
    assert out == expected


def test_two_dimensional_order_and_offset():
    body = """
%g3 = OpLoad %v3ulong %GlobalInvocationId Aligned 32
%gx = OpCompositeExtract %ulong %g3 0
%gy = OpCompositeExtract %ulong %g3 1
%r1 = OpExtInst %uint %std printf %a_p %gx %gy
"""
    k = printf_kernel({"a": "(%lu,%lu)\n"}, body, gid=False)
    out = []
    k((5, 3), (1, 3), np.zeros(1, np.uint32), global_offset=(10, 20), printf=out)
    assert out == [f"({x + 10},{y + 20})\n" for y in range(3) for x in range(5)]


def test_capture_targets(capsys):
    k = printf_kernel({"a": "first %lu (local %lu)\n", "b": "second %lu\n"}, ORDER_BODY)
    r = np.zeros(1, np.uint32)
    expected = "first 0 (local 0)\nsecond 0\nfirst 1 (local 1)\nsecond 1\n"
    k(2, None, r)                                   # default: sys.stdout
    assert capsys.readouterr().out == expected
    with spirvkit.capture_printf() as cap:
        k(2, None, r)
        with spirvkit.capture_printf() as inner:
            k(1, None, r)
        k(1, None, r)
    assert cap.text == expected + "first 0 (local 0)\nsecond 0\n" and len(cap.calls) == 6
    assert inner.calls == ["first 0 (local 0)\n", "second 0\n"] and cap.dropped == 0
    buf = io.StringIO()
    k(2, None, r, printf=buf)
    assert buf.getvalue() == expected
    seen = []
    k(2, None, r, printf=seen.append)
    assert "".join(seen) == expected
    assert capsys.readouterr().out == ""
    with pytest.raises(TypeError, match="printf="):
        k(1, None, r, printf=42)


def test_buffer_overflow_returns_minus_one_and_warns(monkeypatch):
    # 16-byte header + 8-byte argument = 24 bytes a call; 100 calls, room for 10.
    monkeypatch.setenv("SPIRVKIT_PRINTF_BUFFER", str(24 * 10))
    k = printf_kernel({"a": "%lu\n"}, "%ret = OpExtInst %uint %std printf %a_p %gid\n" + st("r", "gid", "uint", "ret"))
    r = np.zeros(100, np.uint32)
    with spirvkit.capture_printf() as cap:
        with pytest.warns(spirvkit.PrintfBufferFull, match="90 printf call"):
            k(100, 10, r)
    assert len(cap.calls) == 10 and cap.dropped == 90
    assert (r == 0).sum() == 10 and (r == 0xFFFFFFFF).sum() == 90
    printed = sorted(int(c) for c in cap.calls)
    assert [int(v) for v in np.flatnonzero(r == 0)] == printed


BARRIER_BODY = """
%lid3 = OpLoad %v3ulong %LocalInvocationId Aligned 32
%lid = OpCompositeExtract %ulong %lid3 0
%r1 = OpExtInst %uint %std printf %a_p %gid
OpControlBarrier %uint_2 %uint_2 %uint_272
%r2 = OpExtInst %uint %std printf %b_p %gid %lid
OpControlBarrier %uint_2 %uint_2 %uint_272
%r3 = OpExtInst %uint %std printf %a_p %gid
"""


@MODES
def test_printf_in_barrier_kernel(unchecked):
    k = printf_kernel({"a": "item %lu\n", "b": "after barrier %lu/%lu\n"}, BARRIER_BODY)
    out = []
    k(48, 16, np.zeros(1, np.uint32), unchecked=unchecked, printf=out)
    expected = []
    for g in range(48):
        expected += [f"item {g}\n", f"after barrier {g}/{g % 16}\n", f"item {g}\n"]
    assert out == expected


@MODES
def test_printf_in_kernel_with_a_barrier_in_a_called_function(unchecked):
    """A barrier in a called function: the call is inlined and the kernel split into regions."""
    strings = {"a": "in helper %lu\n", "b": "back %lu\n"}
    decls = "".join(cstring(n, t) for n, t in strings.items())
    fns = """
%helper = OpFunction %void None %fn_helper
%hg = OpFunctionParameter %ulong
%helper_entry = OpLabel
%ha_p = OpInBoundsPtrAccessChain %pUC_uchar %a %ulong_0 %ulong_0
%h1 = OpExtInst %uint %std printf %ha_p %hg
OpControlBarrier %uint_2 %uint_2 %uint_272
%h2 = OpExtInst %uint %std printf %ha_p %hg
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn_main
%r = OpFunctionParameter %pCW_uint
%main_entry = OpLabel
%gid3 = OpLoad %v3ulong %GlobalInvocationId Aligned 32
%gid = OpCompositeExtract %ulong %gid3 0
%c = OpFunctionCall %void %helper %gid
%mb_p = OpInBoundsPtrAccessChain %pUC_uchar %b %ulong_0 %ulong_0
%m1 = OpExtInst %uint %std printf %mb_p %gid
OpReturn
OpFunctionEnd
"""
    types = decls + "%fn_helper = OpTypeFunction %void %ulong\n%fn_main = OpTypeFunction %void %pCW_uint"
    k = program(fns, types=types, imports=STD).kernel("main")
    out = []
    k(24, 8, np.zeros(1, np.uint32), unchecked=unchecked, printf=out)
    expected = []
    for g in range(24):
        expected += [f"in helper {g}\n", f"in helper {g}\n", f"back {g}\n"]
    assert out == expected


def test_output_before_a_fault_is_printed_once():
    body = ("%r1 = OpExtInst %uint %std printf %a_p %gid\n" + ld("x", "uint", "r", "gid")
            + st("r", "gid", "uint", "x"))
    k = printf_kernel({"a": "before %lu\n"}, body)
    out = []
    with pytest.raises(spirvkit.KernelFault):
        k(8, 4, np.zeros(6, np.uint32), printf=out)   # items 6 and 7 fault
    # Items 0-7 all printed (the faulting group's printf runs before the faulting access), each
    # once: the re-run that locates the fault does not print again.
    assert sorted(out) == sorted(set(out))
    assert {f"before {g}\n" for g in range(4)} <= set(out)


def test_non_literal_format_is_rejected():
    body = "%ret = OpExtInst %uint %std printf %r\n"
    k = simple([("r", "pCW_uchar")], body, imports=STD, validate=False)   # spirv-val rejects it too
    with pytest.raises(spirvkit.NotSupportedError, match="string literal in the constant address space"):
        k(1, None, np.zeros(4, np.uint8))


def test_format_with_offset_and_non_ascii():
    # A pointer into the middle of the literal (constant indices); UTF-8 text passes through.
    strings = {"fmt": "skip:µ=%d\n"}
    body = ("%mid = OpInBoundsPtrAccessChain %pUC_uchar %fmt %ulong_0 %ulong_5\n"
            "%ret = OpExtInst %uint %std printf %mid %uint_3\n%c = OpExtInst %uint %std printf %fmt_p %uint_255\n")
    k = printf_kernel(strings, body)
    out = []
    k(1, None, np.zeros(1, np.uint32), printf=out)
    assert out == ["µ=3\n", "skip:µ=255\n"]


def test_many_threads_many_calls():
    """Many groups on every worker thread append concurrently; nothing is lost or torn."""
    k = printf_kernel({"a": "%lu:%lu\n"}, "%sq = OpIMul %ulong %gid %gid\n%r1 = OpExtInst %uint %std printf %a_p %gid %sq\n")
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        k(20000, 7, np.zeros(1, np.uint32), printf=out)
    assert out == [f"{g}:{g * g}\n" for g in range(20000)]
