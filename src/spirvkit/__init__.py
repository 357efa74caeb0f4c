"""spirvkit: the SPIR-V compute stack in Python.

Assemble, disassemble and inspect SPIR-V modules (SPIRV-Tools-compatible text format), and
run OpenCL kernels on the CPU::

    import spirvkit
    binary = spirvkit.assemble(text, target_env="opencl2.2")
    module = spirvkit.Module.from_bytes(binary)
    print(spirvkit.disassemble(binary))
    problems = spirvkit.validate(binary, target_env="opencl2.2")   # [] when valid

    k = spirvkit.Program(binary).kernel("vadd")
    k(n, None, a, b, c)          # numpy arrays in, results in c
"""

from __future__ import annotations

__version__ = "0.1.0"  # before the imports: the kernel cache keys on it

from .api import ArgInfo, Kernel, LocalMemory, Program
from .clc.compiler import compile_cl
from .errors import (
    AssemblyError,
    BinaryError,
    ExecutionError,
    KernelArgumentError,
    KernelFault,
    KernelInterrupted,
    KernelTimeout,
    LimitError,
    NotSupportedError,
    SpirvError,
    SpirvkitError,
)
from .runtime.images import Image, Sampler, supported_image_formats
from .runtime.printf import PrintfBufferFull, PrintfCapture, capture_printf
from .spirv.binary import Instruction, Operand
from .spirv.grammar import load_grammar
from .spirv.module import Module
from .spirv.text.assembler import assemble
from .spirv.text.disassembler import disassemble
from .validate import Diagnostic, ValidatorOptions
# Binds the name ``validate`` to the function: ``import spirvkit; spirvkit.validate(binary)``. The
# subpackage stays importable by its full name (``from spirvkit.validate import ...`` goes
# through sys.modules, not through this attribute).
from .validate import validate

__all__ = [
    "ArgInfo",
    "AssemblyError",
    "BinaryError",
    "Diagnostic",
    "ExecutionError",
    "Image",
    "Instruction",
    "Kernel",
    "KernelArgumentError",
    "KernelFault",
    "KernelInterrupted",
    "KernelTimeout",
    "LimitError",
    "LocalMemory",
    "Module",
    "NotSupportedError",
    "Operand",
    "PrintfBufferFull",
    "PrintfCapture",
    "capture_printf",
    "Program",
    "Sampler",
    "SpirvError",
    "SpirvkitError",
    "ValidatorOptions",
    "__version__",
    "assemble",
    "compile_cl",
    "disassemble",
    "load_grammar",
    "supported_image_formats",
    "validate",
]
