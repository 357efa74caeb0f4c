"""Kernel.get_arg_info(i, TYPE_QUALIFIER): the values pyopencl 2026.1 gives on PoCL 3.1 for the
same source (built there with -cl-kernel-arg-info; recorded here by hand, the suite never loads
an OpenCL driver), and KERNEL_ARG_INFO_NOT_AVAILABLE for a program made from SPIR-V."""

import pytest

import spirvkit
import spirvkit.cl as cl

SOURCE = """
typedef const int cint;
typedef global float *restrict rptr;
kernel void k(global const float *restrict a, volatile global int *b, constant int *c, const int n,
              global float *restrict d, local const int *l, global const volatile int *e) { }
kernel void k2(global cint *a, rptr b, global int *const c, global int4 *v, int x) { }
kernel void k3(read_only image2d_t img, sampler_t smp, global const int * const p, const float f,
               global volatile float4 *q) { }
"""

POCL = {"k": [3, 4, 1, 0, 2, 1, 5], "k2": [1, 2, 0, 0, 0], "k3": [0, 0, 1, 0, 4]}


@pytest.mark.parametrize("name", sorted(POCL))
def test_type_qualifiers_as_pocl_gives_them(ctx, name):
    prg = cl.Program(ctx, SOURCE).build(options=["-cl-kernel-arg-info"])
    kernel = getattr(prg, name)
    assert [kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_QUALIFIER) for i in range(kernel.num_args)] == POCL[name]


def test_pipe_parameter_and_macros(ctx):
    source = ("#define RO const\n"
              "kernel void p(read_only pipe int in, global RO int *a) { }\n")
    kernel = cl.Program(ctx, source).build(options="-cl-std=CL2.0").p
    assert kernel.get_arg_info(0, cl.kernel_arg_info.TYPE_QUALIFIER) == cl.kernel_arg_type_qualifier.PIPE
    assert kernel.get_arg_info(1, cl.kernel_arg_info.TYPE_QUALIFIER) == cl.kernel_arg_type_qualifier.CONST


def test_not_available_for_spirv(ctx):
    il = spirvkit.compile_cl("kernel void k(global const int *a) { }")
    kernel = cl.Program(ctx, il).build().k
    with pytest.raises(cl.RuntimeError) as info:
        kernel.get_arg_info(0, cl.kernel_arg_info.TYPE_QUALIFIER)
    assert info.value.code == cl.status_code.KERNEL_ARG_INFO_NOT_AVAILABLE
