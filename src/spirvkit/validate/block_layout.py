"""Explicit layout of Shader interface blocks (SPIR-V 2.16.2 S4-S7; Vulkan "Offset and Stride
Assignment", digest-vulkan-env.md 3a): Block/BufferBlock structs used by Uniform, StorageBuffer,
PushConstant and PhysicalStorageBuffer variables need Offset on every member, ArrayStride on
arrays, MatrixStride on matrices; offsets and strides follow the std140 (Uniform + Block) or
std430 (the others) alignment rules, with Vulkan 1.1's relaxed vector rule from vulkan1.1 on;
members do not overlap and nothing sits in the padding of a struct or array."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 2.16.2"
D = op.DEC
_BLOCK_CLASSES = frozenset({op.SC.Uniform, op.SC.StorageBuffer, op.SC.PushConstant, op.SC.PhysicalStorageBuffer})


class _Fail(Exception):
    pass


def check(ctx) -> None:
    if not ctx.is_shader:
        return
    done = set()
    for inst in ctx.instructions_of((op.Variable, op.TypePointer)):
        if inst.opcode == op.Variable:
            info = ctx.pointer_info(inst.words[1])
            if info is None:
                continue
            sc, pointee = info
        else:
            sc, pointee = inst.words[2], inst.words[3]
            if sc != op.SC.PhysicalStorageBuffer:
                continue
        if sc not in _BLOCK_CLASSES or pointee is None:
            continue
        struct = _strip_arrays(ctx, pointee)
        if struct is None or (struct, sc) in done:
            continue
        done.add((struct, sc))
        block = ctx.has_decoration(struct, D.Block)
        buffer_block = ctx.has_decoration(struct, D.BufferBlock)
        if not (block or buffer_block):
            continue
        std140 = sc == op.SC.Uniform and block
        kind = "Block" if block else "BufferBlock"
        rules = "uniform buffer" if std140 else "storage buffer"
        prefix = (f"Structure id {struct} decorated as {kind} for variable in {op.SC.name(sc)} storage class must "
                  f"follow standard {rules} layout rules: ")
        checker = _Layout(ctx, std140, ctx.env.is_vulkan and ctx.env.api_version >= (1, 1), prefix, inst)
        try:
            checker.require_explicit(struct, kind, set())
            if ctx.env.is_vulkan:  # SPIRV-Tools applies the std140/std430 offset rules in Vulkan envs only
                checker.check_struct(struct)
        except _Fail:
            return


def _strip_arrays(ctx, t):
    ti = ctx.type_inst(t)
    while ti is not None and ti.opcode in (op.TypeArray, op.TypeRuntimeArray):
        ti = ctx.type_inst(ti.words[2])
    if ti is None or ti.opcode != op.TypeStruct:
        return None
    return ti.words[1]


def _align(value, alignment):
    return (value + alignment - 1) // alignment * alignment if alignment else value


class _Layout:
    def __init__(self, ctx, std140, relaxed, prefix, where):
        self.ctx = ctx
        self.std140 = std140
        self.relaxed = relaxed
        self.prefix = prefix
        self.where = where

    def fail(self, message, rule="layout.block-offsets"):
        self.ctx.error(rule, SEC, message, self.where)
        raise _Fail

    def decoration(self, id_, dec, member=None):
        return self.ctx.decoration_literal(id_, dec, member)

    # -- required decorations (S4-S6) ---------------------------------------------------------

    def require_explicit(self, struct, kind, seen):
        if struct in seen:
            return
        seen.add(struct)
        t = self.ctx.type_inst(struct)
        for i, m in enumerate(t.words[2:]):
            if self.decoration(struct, D.Offset, i) is None:
                self.fail(f"Structure id {struct} decorated as {kind} must be explicitly laid out with Offset "
                          f"decorations.", "layout.block-offset-required")
            self.require_member(struct, i, m, kind, seen)

    def require_member(self, struct, i, m, kind, seen):
        mt = self.ctx.type_inst(m)
        while mt is not None and mt.opcode in (op.TypeArray, op.TypeRuntimeArray):
            if self.decoration(mt.words[1], D.ArrayStride) is None:
                self.fail(f"Structure id {struct} decorated as {kind} must be explicitly laid out with ArrayStride "
                          f"decorations.", "layout.block-array-stride-required")
            mt = self.ctx.type_inst(mt.words[2])
        if mt is None:
            return
        if mt.opcode == op.TypeMatrix and self.decoration(struct, D.MatrixStride, i) is None:
            self.fail(f"Structure id {struct} decorated as {kind} must be explicitly laid out with MatrixStride "
                      f"decorations.", "layout.block-matrix-stride-required")
        if mt.opcode == op.TypeMatrix and self.decoration(struct, D.RowMajor, i) is None \
                and self.decoration(struct, D.ColMajor, i) is None:
            self.fail(f"Structure id {struct} decorated as {kind} must be explicitly laid out with RowMajor or "
                      f"ColMajor decorations.", "layout.block-matrix-stride-required")
        if mt.opcode == op.TypeStruct:
            self.require_explicit(mt.words[1], kind, seen)

    # -- sizes and alignments --------------------------------------------------------------------

    def scalar_alignment(self, t):
        ti = self.ctx.type_inst(t)
        if ti.opcode in (op.TypeInt, op.TypeFloat):
            return ti.words[2] // 8
        if ti.opcode in (op.TypeVector, op.TypeMatrix, op.TypeArray, op.TypeRuntimeArray):
            return self.scalar_alignment(ti.words[2])
        if ti.opcode == op.TypeStruct:
            return max((self.scalar_alignment(m) for m in ti.words[2:]), default=1)
        return 8 if ti.opcode == op.TypePointer else 4

    def base_alignment(self, t, row_major=False):
        ti = self.ctx.type_inst(t)
        opc = ti.opcode
        if opc in (op.TypeInt, op.TypeFloat):
            return ti.words[2] // 8
        if opc == op.TypeBool:
            return 4
        if opc == op.TypeVector:
            n = ti.words[3]
            return self.scalar_alignment(ti.words[2]) * (4 if n == 3 else n)
        if opc == op.TypeMatrix:
            if row_major:
                n = ti.words[3]
                a = self.scalar_alignment(ti.words[2]) * (4 if n == 3 else n)
            else:
                a = self.base_alignment(ti.words[2])
            return _align(a, 16) if self.std140 else a
        if opc in (op.TypeArray, op.TypeRuntimeArray):
            a = self.base_alignment(ti.words[2], row_major)
            return _align(a, 16) if self.std140 else a
        if opc == op.TypeStruct:
            sid = ti.words[1]
            a = 1
            for i, m in enumerate(ti.words[2:]):
                a = max(a, self.base_alignment(m, self.decoration(sid, D.RowMajor, i) is not None))
            return _align(a, 16) if self.std140 else a
        if opc == op.TypePointer:
            return 8
        return 1

    def size(self, t, matrix_stride=0, row_major=False):
        ti = self.ctx.type_inst(t)
        opc = ti.opcode
        if opc in (op.TypeInt, op.TypeFloat):
            return ti.words[2] // 8
        if opc == op.TypeBool:
            return 4
        if opc == op.TypeVector:
            return ti.words[3] * self.size(ti.words[2])
        if opc == op.TypeMatrix:
            col = self.ctx.type_inst(ti.words[2])
            if row_major:
                return (col.words[3] - 1) * matrix_stride + ti.words[3] * self.size(col.words[2])
            return (ti.words[3] - 1) * matrix_stride + self.size(ti.words[2])
        if opc == op.TypeArray:
            n = max(1, self.ctx.constant_value(ti.words[3]) or 1)
            stride = self.decoration(ti.words[1], D.ArrayStride) or 0
            return (n - 1) * stride + self.size(ti.words[2], matrix_stride, row_major)
        if opc == op.TypeRuntimeArray:
            return 0
        if opc == op.TypeStruct:
            sid = ti.words[1]
            end = 0
            for i, m in enumerate(ti.words[2:]):
                off = self.decoration(sid, D.Offset, i) or 0
                end = max(end, off + self.size(m, self.decoration(sid, D.MatrixStride, i) or 0,
                                               self.decoration(sid, D.RowMajor, i) is not None))
            return end
        if opc == op.TypePointer:
            return 8
        return 0

    # -- offsets (S7 and the std140/std430 rules) ------------------------------------------------

    def check_struct(self, sid, depth=0):
        if depth > 32:
            return
        t = self.ctx.type_inst(sid)
        members = []
        for i, m in enumerate(t.words[2:]):
            members.append((self.decoration(sid, D.Offset, i) or 0, i, m))
        members.sort()
        next_valid = 0
        for offset, i, m in members:
            mt = self.ctx.type_inst(m)
            row_major = self.decoration(sid, D.RowMajor, i) is not None
            stride = self.decoration(sid, D.MatrixStride, i) or 0
            alignment = self.base_alignment(m, row_major)
            size = self.size(m, stride, row_major)
            where = f"{self.prefix}member {i} "
            if self.relaxed and mt.opcode == op.TypeVector:
                scalar = self.scalar_alignment(mt.words[2])
                if offset % scalar:
                    self.fail(f"{where}at offset {offset} is not aligned to scalar element size {scalar}")
                first, last = offset, offset + size - 1
                if (size <= 16 and first >> 4 != last >> 4) or (size > 16 and first % 16):
                    self.fail(f"{where}is an improperly straddling vector at offset {offset}")
            elif offset % alignment:
                self.fail(f"{where}at offset {offset} is not aligned to {alignment}")
            if offset < next_valid:
                self.fail(f"{where}at offset {offset} overlaps previous member ending at offset {next_valid - 1}")
            if mt.opcode == op.TypeStruct:
                self.check_struct(m, depth + 1)
            if mt.opcode == op.TypeMatrix and stride % alignment:
                self.fail(f"{where}is a matrix with stride {stride} not satisfying alignment to {alignment}")
            self.check_arrays(mt, where, alignment, row_major, stride, depth)
            next_valid = offset + size
            if mt.opcode in (op.TypeArray, op.TypeStruct):
                next_valid = _align(next_valid, alignment)

    def check_arrays(self, mt, where, alignment, row_major, matrix_stride, depth):
        array_alignment = alignment
        while mt is not None and mt.opcode in (op.TypeArray, op.TypeRuntimeArray):
            stride = self.decoration(mt.words[1], D.ArrayStride) or 0
            if stride == 0:
                self.fail(f"{where}contains an array with stride 0")
            if stride % array_alignment:
                self.fail(f"{where}contains an array with stride {stride} not satisfying alignment to {alignment}")
            element = self.ctx.type_inst(mt.words[2])
            if element is not None and element.opcode == op.TypeStruct:
                self.check_struct(element.words[1], depth + 1)
            mt = element
            if mt is None:
                return
            array_alignment = self.base_alignment(mt.words[1], row_major)
            element_size = self.size(mt.words[1], matrix_stride, row_major)
            if element_size > stride:
                self.fail(f"{where}contains an array with stride {stride}, but with an element size of {element_size}")
