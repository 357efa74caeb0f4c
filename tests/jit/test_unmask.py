"""Masked vector loads and stores versioned on their mask (jit/unmask.py, issue 19): a guarded
streaming kernel (``if (i < n) c[i] = a[i] + b[i]``) ran at half the speed of an unguarded one on
AVX-512, where LLVM if-converts the guard into masked loads and stores. The rewrite must keep
the module valid, keep the masked instruction for a partial mask, and give the same results."""

from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
import pytest

import spirvkit
from spirvkit.jit import target
from spirvkit.jit.compiler import lower_kernel
from spirvkit.jit.unmask import unmask

GUARDED = """
kernel void vadd(global const float *a, global const float *b, global float *c, const uint n) {
  size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
"""

# A vectorised loop as LLVM 22 prints it (alignment as a parameter attribute), with a masked
# load and a masked store, the block its own successor (the latch phis must follow the split).
LOOP = """
define void @f(ptr %a, ptr %c, i64 %n) {
entry:
  br label %vector.body

vector.body:
  %index = phi i64 [ 0, %entry ], [ %index.next, %vector.body ]
  %ind = insertelement <8 x i64> poison, i64 %index, i64 0
  %splat = shufflevector <8 x i64> %ind, <8 x i64> poison, <8 x i32> zeroinitializer
  %lanes = add <8 x i64> %splat, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %nsplat0 = insertelement <8 x i64> poison, i64 %n, i64 0
  %nsplat = shufflevector <8 x i64> %nsplat0, <8 x i64> poison, <8 x i32> zeroinitializer
  %mask = icmp ult <8 x i64> %lanes, %nsplat
  %pa = getelementptr float, ptr %a, i64 %index
  %v = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %pa, <8 x i1> %mask, <8 x float> poison), !noalias !0
  %w = fadd <8 x float> %v, %v
  %pc = getelementptr float, ptr %c, i64 %index
  call void @llvm.masked.store.v8f32.p0(<8 x float> %w, ptr align 4 %pc, <8 x i1> %mask)
  %index.next = add i64 %index, 8
  %done = icmp uge i64 %index.next, %n
  br i1 %done, label %exit, label %vector.body

exit:
  ret void
}

declare <8 x float> @llvm.masked.load.v8f32.p0(ptr, <8 x i1>, <8 x float>)
declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr, <8 x i1>)

!0 = !{!1}
!1 = distinct !{!1, !2}
!2 = distinct !{!2}
"""


def _parsed(text: str):
    mod = llvm.parse_assembly(text)
    mod.verify()
    return mod


def test_a_masked_loop_is_versioned_and_stays_valid():
    out = unmask(LOOP)
    _parsed(out)
    assert out.count("icmp eq i8 %spk.um") == 2          # one mask test per masked instruction
    assert "load <8 x float>, ptr %pa, align 4, !noalias !0" in out
    assert "store <8 x float> %w, ptr %pc, align 4" in out
    assert out.count("@llvm.masked.load.v8f32.p0(ptr align 4 %pa") == 1    # the partial-mask path
    # The loop's back edge now comes from the block after the last split.
    assert "[ %index.next, %spk.um2.join ]" in out


def test_the_older_form_with_an_alignment_operand_is_recognised():
    # LLVM before 21 passed the alignment as an i32 operand (llvmlite >= 0.44 may bring LLVM 15).
    old = LOOP.replace("(ptr align 4 %pa, <8 x i1>", "(ptr %pa, i32 4, <8 x i1>") \
              .replace("(<8 x float> %w, ptr align 4 %pc, <8 x i1>", "(<8 x float> %w, ptr %pc, i32 4, <8 x i1>")
    out = unmask(old)
    assert "load <8 x float>, ptr %pa, align 4" in out
    assert "store <8 x float> %w, ptr %pc, align 4" in out


def test_forms_not_recognised_are_left_alone():
    constant_mask = LOOP.replace("<8 x i1> %mask, <8 x float> poison", "<8 x i1> splat (i1 true), <8 x float> poison")
    out = unmask(constant_mask)
    _parsed(out)
    assert "%v = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %pa, <8 x i1> splat (i1 true)" in out
    assert out.count("icmp eq i8 %spk.um") == 1          # the store's mask only
    assert unmask("define void @g() {\n  ret void\n}\n") == "define void @g() {\n  ret void\n}\n"


def test_the_guarded_kernel_takes_the_plain_path_when_compiled():
    module = spirvkit.Program(spirvkit.compile_cl(GUARDED)).module
    mod = llvm.parse_assembly(lower_kernel(module, "vadd", False, local_size=(256, 1, 1))[0])
    target._optimise(mod, target.target_machine(), "optimized")
    text = str(mod)
    if "@llvm.masked.load" not in text:
        pytest.skip("LLVM did not if-convert the guard into masked loads on this CPU")
    out = unmask(text)
    assert "spk.um" in out
    _parsed(out)


@pytest.mark.parametrize("n", [1000, 4096, 4096 + 7])
@pytest.mark.parametrize("unchecked", [True, False])
def test_results_with_full_and_partial_masks(n, unchecked):
    rejected = target.stats["unmask-rejected"]
    k = spirvkit.Program(spirvkit.compile_cl(GUARDED)).kernel("vadd")
    k.compile(unchecked=unchecked, local_size=(256,), optimized=True)
    assert target.stats["unmask-rejected"] == rejected     # the rewrite gave a valid module
    rng = np.random.default_rng(n)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    size = (n + 255) // 256 * 256
    c = np.full(n, -1.0, np.float32)
    k((size,), (256,), a, b, c, np.uint32(n), unchecked=unchecked)
    np.testing.assert_array_equal(c, a + b)
