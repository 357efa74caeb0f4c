"""spirv.names: opcodes and enumerant values by name, as the grammar gives them."""

from __future__ import annotations

import pytest

from spirvkit.spirv.grammar import load_grammar
from spirvkit.spirv.names import EXEC_MODE, FUNC_PARAM_ATTR, GROUP_OPERATION, OP, SCOPE, Enumerants


def test_opcodes_are_the_grammars():
    g = load_grammar()
    for desc in list(g.instructions.values())[::25]:
        assert getattr(OP, desc.opname[2:]) == desc.opcode
    assert (OP.ConstantNull, OP.String, OP.ExecutionMode) == (46, 7, 16)   # the spec's table 3.52


def test_enumerants_are_the_grammars():
    assert (EXEC_MODE.LocalSize, SCOPE.Subgroup, GROUP_OPERATION.ClusteredReduce, FUNC_PARAM_ATTR.NoWrite) == \
        (17, 3, 3, 6)
    for kind in ("StorageClass", "Decoration", "BuiltIn"):
        table = Enumerants(kind)
        for e in load_grammar().operand_kinds[kind].enumerants[::7]:
            assert getattr(table, e.name) == e.value
            assert table.name(e.value) in {x.name for x in load_grammar().operand_kinds[kind].enumerants
                                           if x.value == e.value}
    assert GROUP_OPERATION.name(12345) == "12345"


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="no instruction OpNoSuchThing"):
        OP.NoSuchThing
    with pytest.raises(AttributeError, match="no Scope Galaxy"):
        SCOPE.Galaxy
