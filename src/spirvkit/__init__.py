"""spirvkit: the SPIR-V compute stack in Python.

Assemble, disassemble and inspect SPIR-V modules (SPIRV-Tools-compatible text format)::

    import spirvkit
    binary = spirvkit.assemble(text, target_env="opencl2.2")
    module = spirvkit.Module.from_bytes(binary)
    print(spirvkit.disassemble(binary))
"""

from __future__ import annotations

from .errors import AssemblyError, BinaryError, NotSupportedError, SpirvError, SpirvkitError
from .spirv.binary import Instruction, Operand
from .spirv.grammar import load_grammar
from .spirv.module import Module
from .spirv.text.assembler import assemble
from .spirv.text.disassembler import disassemble

__version__ = "0.1.0"

__all__ = [
    "AssemblyError",
    "BinaryError",
    "Instruction",
    "Module",
    "NotSupportedError",
    "Operand",
    "SpirvError",
    "SpirvkitError",
    "__version__",
    "assemble",
    "disassemble",
    "load_grammar",
]
