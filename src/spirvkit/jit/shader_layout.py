"""Explicit memory layouts of shader buffers (StorageBuffer, Uniform, PushConstant): the Offset,
ArrayStride, MatrixStride and RowMajor decorations a shader compiler wrote (std140, std430,
scalar ...), which are not the C layout the TypeTable gives LLVM types."""

from __future__ import annotations

from ..errors import NotSupportedError
from ..spirv.module import Module
from .types import SpvType


def is_matrix(t: SpvType) -> bool:
    return t.kind == "array" and t.name == "OpTypeMatrix"


class ExplicitLayout:
    """Offsets, strides and sizes of types in explicitly laid out memory (from the module's
    Offset, ArrayStride, MatrixStride and RowMajor decorations), and whether they equal the
    natural layout. ``mat``: the (MatrixStride, RowMajor) of the struct member a matrix (or an
    array of matrices) is in: a matrix's layout is its member's, not its type's."""

    def __init__(self, module: Module, types):
        self.module, self.types = module, types
        self._natural: dict[tuple, bool] = {}

    def member_offset(self, t: SpvType, index: int) -> int:
        for d in self.module.decorations(t.id, index):
            if d.name == "Offset":
                return d.operands[0]
        return self.types.member_offset(t, index)

    def matrix_layout(self, t: SpvType, index: int) -> tuple[int, bool] | None:
        """(MatrixStride, RowMajor) of struct member ``index``, None without a MatrixStride."""
        stride, row_major = None, False
        for d in self.module.decorations(t.id, index):
            if d.name == "MatrixStride":
                stride = d.operands[0]
            elif d.name == "RowMajor":
                row_major = True
        return (stride, row_major) if stride is not None else None

    def stride(self, t: SpvType) -> int:
        for d in self.module.decorations(t.id):
            if d.name == "ArrayStride":
                return d.operands[0]
        return self.types.size(t.elem)

    def matrix(self, t: SpvType, mat) -> tuple[int, bool]:
        return mat if mat is not None else (self.types.size(t.elem), False)

    def size(self, t: SpvType, mat=None) -> int:
        """Bytes the type occupies (a runtime array: none)."""
        if t.kind in ("int", "float"):
            return t.width // 8
        if t.kind == "pointer":     # a PhysicalStorageBuffer address (the only storable pointer)
            return 8
        if t.kind == "vector":
            return t.count * t.elem.width // 8
        if is_matrix(t):
            stride, row_major = self.matrix(t, mat)
            return (t.elem.count if row_major else t.count) * stride
        if t.kind == "array":
            return t.count * self.stride(t)
        if t.kind == "struct":
            return max((self.member_offset(t, i) + self.size(m, self.matrix_layout(t, i))
                        for i, m in enumerate(t.members)), default=0)
        raise NotSupportedError(f"a {t.kind} {t.name}".rstrip() + " in a buffer (explicitly laid out memory)")

    def natural(self, t: SpvType, mat=None) -> bool:
        """Whether the explicit layout of ``t`` is LLVM's (a plain load or store then does)."""
        key = (t.id, mat)
        found = self._natural.get(key)
        if found is None:
            if t.kind in ("int", "float", "pointer"):
                found = True
            elif t.kind == "vector":
                found = t.count != 3       # LLVM's <3 x T> takes 4 components' room
            elif is_matrix(t):
                stride, row_major = self.matrix(t, mat)
                found = not row_major and stride == self.types.size(t.elem) and self.natural(t.elem)
            elif t.kind == "array":
                found = t.count > 0 and self.stride(t) == self.types.size(t.elem) and self.natural(t.elem, mat)
            elif t.kind == "struct":
                found = all(self.member_offset(t, i) == self.types.member_offset(t, i) and
                            self.natural(m, self.matrix_layout(t, i))
                            for i, m in enumerate(t.members)) and self.size(t) == self.types.size(t)
            else:
                found = False
            self._natural[key] = found
        return found
