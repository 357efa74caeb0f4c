"""Composite instructions (SPIR-V 3.32.12): dynamic vector extract/insert, OpVectorShuffle,
OpCompositeConstruct/Extract/Insert, OpCopyObject and OpTranspose."""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.12"
_SCALARS = frozenset({op.TypeInt, op.TypeFloat, op.TypeBool})


def _n(inst) -> str:
    return inst.opname[2:]


def _err(ctx, inst, message, rule="composite.operand-type") -> None:
    ctx.error(rule, SEC, message, inst)


def _extract_dynamic(ctx, inst) -> None:
    rtype = inst.words[1]
    if ctx.type_opcode(rtype) not in _SCALARS:
        _err(ctx, inst, "Expected Result Type to be a scalar type: VectorExtractDynamic", "composite.result-type")
        return
    vtype = ctx.type_of(inst.words[3])
    if ctx.type_opcode(vtype) != op.TypeVector:
        _err(ctx, inst, "Expected Vector type to be OpTypeVector: VectorExtractDynamic")
    elif ctx.component_type(vtype) != rtype:
        _err(ctx, inst, "Expected Vector component type to be equal to Result Type: VectorExtractDynamic")
    elif not ctx.is_int_scalar(ctx.type_of(inst.words[4])):
        _err(ctx, inst, "Expected Index to be int scalar: VectorExtractDynamic")


def _insert_dynamic(ctx, inst) -> None:
    rtype = inst.words[1]
    if ctx.type_opcode(rtype) != op.TypeVector:
        _err(ctx, inst, "Expected Result Type to be OpTypeVector: VectorInsertDynamic", "composite.result-type")
    elif ctx.type_of(inst.words[3]) != rtype:
        _err(ctx, inst, "Expected Vector type to be equal to Result Type: VectorInsertDynamic")
    elif ctx.type_of(inst.words[4]) != ctx.component_type(rtype):
        _err(ctx, inst, "Expected Component type to be equal to Result Type component type: VectorInsertDynamic")
    elif not ctx.is_int_scalar(ctx.type_of(inst.words[5])):
        _err(ctx, inst, "Expected Index to be int scalar: VectorInsertDynamic")


def _shuffle(ctx, inst) -> None:
    w = inst.words
    rtype = w[1]
    if ctx.type_opcode(rtype) != op.TypeVector:
        _err(ctx, inst, f"Result Type of OpVectorShuffle must be OpTypeVector. Found Op"
                        f"{_opname(ctx, rtype)}.", "composite.result-type")
        return
    comps = w[5:]
    if len(comps) != ctx.dimension(rtype):
        _err(ctx, inst, f"OpVectorShuffle component literals count does not match Result Type <id> "
                        f"{ctx.name(rtype)}s vector component count.")
        return
    sizes = 0
    for which, v in (("1", w[3]), ("2", w[4])):
        t = ctx.type_of(v)
        if ctx.type_opcode(t) != op.TypeVector:
            _err(ctx, inst, f"The type of Vector {which} must be OpTypeVector.")
            return
        if ctx.component_type(t) != ctx.component_type(rtype):
            _err(ctx, inst, f"The Component Type of Vector {which} must be the same as ResultType.")
            return
        sizes += ctx.dimension(t)
    for c in comps:
        if c != 0xFFFFFFFF and c >= sizes:
            _err(ctx, inst, f"Component index {c} is out of bounds for combined (Vector1 + Vector2) size of {sizes}.")
            return


def _opname(ctx, t) -> str:
    ti = ctx.type_inst(t)
    return ctx.grammar.instruction(ti.opcode).opname[2:] if ti is not None else "?"


def _construct(ctx, inst) -> None:
    rtype = inst.words[1]
    t = ctx.type_inst(rtype)
    parts = inst.words[3:]
    if t is None or t.opcode not in (op.TypeVector, op.TypeMatrix, op.TypeArray, op.TypeStruct):
        if t is None or t.opcode not in _COOP:
            _err(ctx, inst, "Expected Result Type to be a composite type: CompositeConstruct", "composite.result-type")
        return
    if t.opcode == op.TypeVector:
        comp, total = t.words[2], 0
        for p in parts:
            pt = ctx.type_of(p)
            if pt == comp:
                total += 1
            elif ctx.type_opcode(pt) == op.TypeVector and ctx.component_type(pt) == comp:
                total += ctx.dimension(pt)
            else:
                _err(ctx, inst, "Expected Constituents to be scalars or vectors of the same type as Result Type "
                                "components: CompositeConstruct")
                return
        if total != t.words[3]:
            _err(ctx, inst, "Expected total number of given components to be equal to the size of Result Type "
                            "vector: CompositeConstruct")
        return
    if t.opcode == op.TypeMatrix:
        if len(parts) != t.words[3]:
            _err(ctx, inst, "Expected total number of Constituents to be equal to the number of columns of Result "
                            "Type matrix: CompositeConstruct")
        elif any(ctx.type_of(p) != t.words[2] for p in parts):
            _err(ctx, inst, "Expected Constituent type to be equal to the column type Result Type matrix: "
                            "CompositeConstruct")
        return
    if t.opcode == op.TypeArray:
        length = ctx.constant_value(t.words[3])
        if length is not None and len(parts) != length:
            _err(ctx, inst, "Expected total number of Constituents to be equal to the number of elements of Result "
                            "Type array: CompositeConstruct")
        elif any(ctx.type_of(p) != t.words[2] for p in parts):
            _err(ctx, inst, "Expected Constituent type to be equal to the column type Result Type array: "
                            "CompositeConstruct")
        return
    members = t.words[2:]
    if len(parts) != len(members):
        _err(ctx, inst, "Expected total number of Constituents to be equal to the number of members of Result Type "
                        "struct: CompositeConstruct")
    elif any(ctx.type_of(p) != m for p, m in zip(parts, members)):
        _err(ctx, inst, "Expected Constituent type to be equal to the corresponding member type of Result Type "
                        "struct: CompositeConstruct")


_COOP = frozenset(getattr(op, n) for n in ("TypeCooperativeMatrixKHR", "TypeCooperativeMatrixNV",
                                           "TypeCooperativeVectorNV") if hasattr(op, n))


def _walk(ctx, inst, composite_type, indexes):
    """The type reached by indexing ``composite_type`` with literal ``indexes`` (None after an
    error is reported)."""
    current = composite_type
    for i in indexes:
        t = ctx.type_inst(current)
        if t is None:
            return None
        if t.opcode in (op.TypeVector, op.TypeMatrix):
            if i >= t.words[3]:
                kind = "Vector" if t.opcode == op.TypeVector else "Matrix"
                _err(ctx, inst, f"{kind} access is out of bounds, {kind.lower()} size is {t.words[3]}, but access "
                                f"index is {i}", "composite.index")
                return None
            current = t.words[2]
        elif t.opcode == op.TypeArray:
            length = ctx.constant_value(t.words[3])
            if length is not None and i >= length:
                _err(ctx, inst, f"Array access is out of bounds, array size is {length}, but access index is {i}",
                     "composite.index")
                return None
            current = t.words[2]
        elif t.opcode == op.TypeRuntimeArray:
            current = t.words[2]
        elif t.opcode == op.TypeStruct:
            members = t.words[2:]
            if i >= len(members):
                _err(ctx, inst, f"Index is out of bounds, can not find index {i} in the structure <id> "
                                f"{ctx.name(current)}. This structure has {len(members)} members. Largest valid "
                                f"index is {len(members) - 1}.", "composite.index")
                return None
            current = members[i]
        elif t.opcode in _COOP:
            return False
        else:
            _err(ctx, inst, "Reached non-composite type while indexes still remain to be traversed.",
                 "composite.index")
            return None
    return current


def _extract(ctx, inst) -> None:
    w = inst.words
    limit = ctx.options.max_access_chain_indexes
    if len(w) - 4 > limit:
        ctx.error("limits.composite-indexes", "SPIR-V 2.17",
                  f"The number of indexes in OpCompositeExtract may not exceed {limit}. Found {len(w) - 4} indexes.",
                  inst)
        return
    reached = _walk(ctx, inst, ctx.type_of(w[3]), w[4:])
    if reached and reached != w[1]:
        _err(ctx, inst, f"Result type (Op{_opname(ctx, w[1])}) does not match the type that results from indexing "
                        f"into the composite (Op{_opname(ctx, reached)}).", "composite.result-type")


def _insert(ctx, inst) -> None:
    w = inst.words
    limit = ctx.options.max_access_chain_indexes
    if len(w) - 5 > limit:
        ctx.error("limits.composite-indexes", "SPIR-V 2.17",
                  f"The number of indexes in OpCompositeInsert may not exceed {limit}. Found {len(w) - 5} indexes.",
                  inst)
        return
    composite_type = ctx.type_of(w[4])
    if composite_type != w[1]:
        _err(ctx, inst, f"The Result Type must be the same as Composite type in OpCompositeInsert yielding Result Id "
                        f"{w[2]}.", "composite.result-type")
        return
    reached = _walk(ctx, inst, composite_type, w[5:])
    if reached and reached != ctx.type_of(w[3]):
        _err(ctx, inst, f"The Object type (Op{_opname(ctx, ctx.type_of(w[3]))}) does not match the type that results "
                        f"from indexing into the Composite (Op{_opname(ctx, reached)}).")


def _copy_object(ctx, inst) -> None:
    if ctx.type_of(inst.words[3]) != inst.words[1]:
        _err(ctx, inst, "Expected Result Type and Operand type to be the same: CopyObject")


def _transpose(ctx, inst) -> None:
    r = ctx.type_inst(inst.words[1])
    m = ctx.type_inst(ctx.type_of(inst.words[3]))
    if r is None or r.opcode != op.TypeMatrix:
        _err(ctx, inst, "Expected Result Type to be a matrix type: Transpose", "composite.result-type")
    elif m is None or m.opcode != op.TypeMatrix:
        _err(ctx, inst, "Expected Matrix to be of type OpTypeMatrix: Transpose")
    elif ctx.component_type(r.words[2]) != ctx.component_type(m.words[2]):
        _err(ctx, inst, "Expected component types of Matrix and Result Type to be identical: Transpose")
    elif r.words[3] != ctx.dimension(m.words[2]) or ctx.dimension(r.words[2]) != m.words[3]:
        _err(ctx, inst, "Expected number of columns and the column size of Matrix to be the reverse of those of "
                        "Result Type: Transpose")


_CHECKS = {
    op.VectorExtractDynamic: _extract_dynamic,
    op.VectorInsertDynamic: _insert_dynamic,
    op.VectorShuffle: _shuffle,
    op.CompositeConstruct: _construct,
    op.CompositeExtract: _extract,
    op.CompositeInsert: _insert,
    op.CopyObject: _copy_object,
    op.Transpose: _transpose,
}


def check(ctx) -> None:
    checks = _CHECKS
    for inst in ctx.instructions_of(checks):
        checks[inst.opcode](ctx, inst)
