"""Kernel argument type qualifiers (clang's kernel_arg_type_qual metadata): cc writes them as the
``kernel_arg_type_qual.<kernel>.`` OpString llvm-spirv keeps, and the host API reads them
(api.ArgInfo.type_qualifiers; spirvkit.cl's CL_KERNEL_ARG_TYPE_QUALIFIER is made from them, and
tests/cl/test_cl_arg_type_qualifier.py checks those against PoCL's).

CLANG is what clang-15 + llvm-spirv-15 put in the module for SOURCE, made with:
  clang-15 -cl-std=CL2.0 -cl-kernel-arg-info -target spir64 -O0 -emit-llvm -c t.cl -o t.bc
  llvm-spirv-15 --spirv-max-version=1.2 --preserve-ocl-kernel-arg-type-metadata-through-string t.bc -o t.spv
  spirvkit dis t.spv | grep kernel_arg_type_qual
"""

from __future__ import annotations

import spirvkit

SOURCE = """
typedef volatile int vint;
typedef global const int *cptr;
kernel void m(constant float *a, global vint *b, cptr c, global int *restrict const d, global const int *volatile e,
              local volatile const int *f, global char *g, uint h) { }
kernel void n(private int x, global const float4 *restrict v) { }
kernel void w(write_only pipe float out, global volatile uint *restrict r) { }
"""

CLANG = {
    "m": "const,volatile,const,restrict,const,const volatile,,,",
    "n": ",restrict const,",
    "w": "pipe,restrict volatile,",
}


def test_cc_writes_what_clang_and_llvm_spirv_write():
    text = spirvkit.disassemble(spirvkit.compile_cl(SOURCE, "-cl-std=CL2.0"))
    for name, quals in CLANG.items():
        assert f'OpString "kernel_arg_type_qual.{name}.{quals}"' in text


def test_arg_info_gives_them():
    program = spirvkit.Program(spirvkit.compile_cl(SOURCE, "-cl-std=CL2.0"))
    for name, quals in CLANG.items():
        assert [a.type_qualifiers for a in program.kernel(name).args] == quals.split(",")[:-1]


def test_a_module_without_them_gives_none():
    text = spirvkit.disassemble(spirvkit.compile_cl("kernel void k(global const int *a) { }"))
    text = "\n".join(line for line in text.splitlines() if "kernel_arg_type_qual" not in line)
    program = spirvkit.Program(spirvkit.assemble(text))
    assert program.kernel("k").args[0].type_qualifiers is None
