"""Kernel parameter type qualifiers as clang's ``kernel_arg_type_qual`` metadata spells them:
what clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_QUALIFIER) reports, and what llvm-spirv (with
--preserve-ocl-kernel-arg-type-metadata-through-string) keeps in
``OpString "kernel_arg_type_qual.<kernel>.<q1>,<q2>,"``, which codegen writes the same way.

A pointer gets "restrict", "const" and "volatile", in that order, space-separated: restrict for a
restrict pointer, const for a pointer to const or to ``__constant``, volatile for a pointer to
volatile; a pipe gets "pipe"; anything else (a by-value parameter, or a const pointer itself)
gets "". Typedefs are followed (``typedef const int cint; global cint *p`` is const)."""

from __future__ import annotations

from typing import Callable

from . import ast


def _resolve(t, typedef: Callable, quals: tuple = ()) -> tuple:
    """The type node with typedef names replaced, and the qualifiers gathered on the way."""
    seen = set()
    while isinstance(t, ast.BaseType) and t.typedef_name is not None and t.typedef_name not in seen:
        target = typedef(t.typedef_name)
        if target is None:
            break
        seen.add(t.typedef_name)
        quals += tuple(t.qualifiers or ()) + ((t.address_space,) if t.address_space else ())
        t = target
    return t, quals


def type_qualifiers(node, typedef: Callable) -> str:
    """The qualifiers of a parameter of AST type ``node``; ``typedef(name)`` is the AST type a
    file-scope typedef name stands for (None for any other name)."""
    t, outer = _resolve(node, typedef)
    if isinstance(t, ast.BaseType) and ("pipe" in (t.qualifiers or ()) or "pipe" in outer):
        return "pipe"
    if not isinstance(t, ast.PointerType):
        return ""
    words = ["restrict"] if "restrict" in tuple(t.qualifiers or ()) + outer else []
    pointee, quals = _resolve(t.pointee, typedef)
    if isinstance(pointee, (ast.BaseType, ast.PointerType)):
        quals += tuple(pointee.qualifiers or ())
    space = getattr(pointee, "address_space", None) or getattr(t, "address_space", None)
    if "const" in quals or space == "constant" or "constant" in quals:
        words.append("const")
    if "volatile" in quals:
        words.append("volatile")
    return " ".join(words)
