"""The hand-written records of the module model and the grammar (spirv/records.py) behave as the
dataclasses they replaced (issue 19: ``dataclasses`` is not imported at start-up): the same
repr, equality by fields for the module's records (identity for the grammar's), unhashable
module records, and ``replace``."""

from __future__ import annotations

import dataclasses

import pytest

from spirvkit.spirv.binary import Instruction
from spirvkit.spirv.grammar import load_grammar
from spirvkit.spirv.module import Block, Decoration, EntryPoint, Function, Module


def _as_dataclass(record_class):
    """The dataclass the record class used to be (same fields, in the same order)."""
    return dataclasses.make_dataclass(record_class.__name__, list(record_class._fields))


LABEL = Instruction(248, [(2 << 16) | 248, 7], ())
RETURN = Instruction(253, [(1 << 16) | 253], ())


@pytest.mark.parametrize("record", [
    Block(LABEL),
    Block(LABEL, [RETURN]),
    Function(LABEL, blocks=[Block(LABEL, [RETURN])]),
    EntryPoint("Kernel", 5, "main", [1, 2], LABEL),
    Decoration("Alignment", [4], LABEL),
    Decoration("Offset", [0], LABEL, member=2),
])
def test_module_records_print_and_compare_as_dataclasses(record):
    fields = {name: getattr(record, name) for name in record._fields}
    twin = _as_dataclass(type(record))(**fields)
    assert repr(record) == repr(twin)
    assert record == type(record)(**fields) and record is not type(record)(**fields)
    with pytest.raises(TypeError):
        hash(record)
    changed = record.replace(**{record._fields[0]: RETURN})
    assert getattr(changed, record._fields[0]) is RETURN
    assert all(getattr(changed, name) is getattr(record, name) for name in record._fields[1:])
    assert changed != record and record != twin   # another class is never equal
    with pytest.raises(TypeError, match="no field"):
        record.replace(no_such_field=1)


def test_list_fields_default_to_a_fresh_list():
    a, b = Block(LABEL), Block(LABEL)
    a.instructions.append(RETURN)
    assert b.instructions == [] and Function(LABEL).blocks == [] and Function(LABEL).parameters == []


def test_grammar_records_compare_by_identity_and_specs_by_value():
    g = load_grammar()
    desc = g.instruction_named("OpIAdd")
    copy = desc.__class__.__new__(desc.__class__)
    for name in desc._fields:
        setattr(copy, name, getattr(desc, name))
    assert desc == desc and desc != copy and len({desc, copy}) == 2   # identity, hashable
    spec = desc.operands[0]
    assert spec == type(spec)("IdResultType") and hash(spec) == hash(type(spec)("IdResultType"))
    assert repr(spec) == "OperandSpec(kind='IdResultType', quantifier='', name='')"
    assert repr(desc).startswith("InstructionDesc(capabilities=") and "opname='OpIAdd'" in repr(desc)
    kind = g.operand_kinds["Capability"]
    assert repr(kind).startswith("OperandKind(name='Capability', category='ValueEnum', enumerants=(Enumerant(")


def test_a_decoded_module_gives_its_records():
    from pathlib import Path

    vadd = Path(__file__).resolve().parents[2] / "benchmarks" / "kernels" / "vadd.spv"
    module = Module.from_bytes(vadd.read_bytes())
    (entry,) = module.entry_points
    assert isinstance(entry, EntryPoint) and entry.name == "vadd" and entry.execution_model == "Kernel"
