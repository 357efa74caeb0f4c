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

import sys
import types

from ._lazy import lazy_exports
from ._version import __version__
from .errors import (
    AssemblyError,
    BinaryError,
    ExecutionError,
    KernelArgumentError,
    KernelCheckError,
    KernelFault,
    KernelInterrupted,
    KernelTimeout,
    LimitError,
    NotSupportedError,
    SpirvError,
    SpirvkitError,
)

# The rest of the API is imported at first use (PEP 562), so that ``import spirvkit`` and the
# commands that only read or write SPIR-V (``spirvkit dis``, ``as``, ``val``) never import numpy,
# llvmlite or the JIT: name -> the module that defines it.
_LAZY = {
    "ArgInfo": ".api",
    "Kernel": ".api",
    "LocalMemory": ".api",
    "Program": ".api",
    "uninitialized": ".runtime.args",
    "read_only": ".runtime.args",
    "write_only": ".runtime.args",
    "compile_cl": ".clc.compiler",
    "Image": ".runtime.images",
    "Sampler": ".runtime.images",
    "Pipe": ".runtime.pipes",
    "DeviceQueue": ".runtime.queue_arg",
    "supported_image_formats": ".runtime.images",
    "device_limits": ".runtime.limits",
    "PrintfBufferFull": ".runtime.printf",
    "PrintfCapture": ".runtime.printf",
    "capture_printf": ".runtime.printf",
    "Instruction": ".spirv.binary",
    "Operand": ".spirv.binary",
    "load_grammar": ".spirv.grammar",
    "Module": ".spirv.module",
    "assemble": ".spirv.text.assembler",
    "disassemble": ".spirv.text.disassembler",
    "Diagnostic": ".validate",
    "ValidatorOptions": ".validate",
}

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers assume True)
if TYPE_CHECKING:
    from .api import ArgInfo, Kernel, LocalMemory, Program
    from .clc.compiler import compile_cl
    from .runtime.args import read_only, uninitialized, write_only
    from .runtime.images import Image, Sampler, supported_image_formats
    from .runtime.limits import device_limits
    from .runtime.pipes import Pipe
    from .runtime.queue_arg import DeviceQueue
    from .runtime.printf import PrintfBufferFull, PrintfCapture, capture_printf
    from .spirv.binary import Instruction, Operand
    from .spirv.grammar import load_grammar
    from .spirv.module import Module
    from .spirv.text.assembler import assemble
    from .spirv.text.disassembler import disassemble
    from .validate import Diagnostic, ValidatorOptions, validate


class _Package(types.ModuleType):
    """``spirvkit.validate`` is the function ``validate``, though ``spirvkit.validate`` is also a
    subpackage: importing the subpackage (``from spirvkit.validate import ...``, which the
    import system follows by binding the subpackage as an attribute of its parent) must not
    replace the function. A data descriptor on the module's class keeps the name for it."""

    @property
    def validate(self):
        override = self.__dict__.get("_validate_override")
        if override is not None:
            return override
        from .validate import validate

        return validate

    @validate.setter
    def validate(self, value):
        if isinstance(value, types.ModuleType) and value.__name__ == __name__ + ".validate":
            return  # the import system binding the subpackage: the name stays the function
        self.__dict__["_validate_override"] = value  # e.g. a test's monkeypatch

    @validate.deleter
    def validate(self):
        self.__dict__.pop("_validate_override", None)


sys.modules[__name__].__class__ = _Package

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
    "KernelCheckError",
    "KernelFault",
    "KernelInterrupted",
    "KernelTimeout",
    "LimitError",
    "LocalMemory",
    "Module",
    "NotSupportedError",
    "Operand",
    "Pipe",
    "DeviceQueue",
    "PrintfBufferFull",
    "PrintfCapture",
    "capture_printf",
    "Program",
    "Sampler",
    "SpirvError",
    "SpirvkitError",
    "ValidatorOptions",
    "uninitialized",
    "read_only",
    "write_only",
    "__version__",
    "assemble",
    "compile_cl",
    "device_limits",
    "disassemble",
    "load_grammar",
    "supported_image_formats",
    "validate",
]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)
