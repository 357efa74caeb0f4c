"""Friendly id names, derived exactly as spirv-dis derives them (SPIRV-Tools' FriendlyNameMapper).

OpName wins, then BuiltIn decorations, then names made from type and constant definitions
(``%uint``, ``%v4float``, ``%_ptr_Function_uint``, ``%uint_0``, ``%float_n1_5`` ...); anything
else keeps its number. Characters outside ``[A-Za-z0-9_]`` become ``_`` and clashes get a
``_<n>`` suffix.
"""

from __future__ import annotations

import re

from ..binary import Instruction
from ..grammar import Grammar
from .numbers import format_number

_INVALID = re.compile(rb"[^A-Za-z0-9_]")
_VALID = re.compile(r"[A-Za-z0-9_]+\Z")

# Names spirv-dis gives variables decorated with a BuiltIn, by the BuiltIn's grammar name. This is
# SPIRV-Tools' own naming convention (GLSL spellings for the GLSL built-ins), not grammar data.
_BUILTIN_NAMES = {
    "Position": "gl_Position",
    "PointSize": "gl_PointSize",
    "ClipDistance": "gl_ClipDistance",
    "CullDistance": "gl_CullDistance",
    "VertexId": "gl_VertexID",
    "InstanceId": "gl_InstanceID",
    "PrimitiveId": "gl_PrimitiveID",
    "InvocationId": "gl_InvocationID",
    "Layer": "gl_Layer",
    "ViewportIndex": "gl_ViewportIndex",
    "TessLevelOuter": "gl_TessLevelOuter",
    "TessLevelInner": "gl_TessLevelInner",
    "TessCoord": "gl_TessCoord",
    "PatchVertices": "gl_PatchVertices",
    "FragCoord": "gl_FragCoord",
    "PointCoord": "gl_PointCoord",
    "FrontFacing": "gl_FrontFacing",
    "SampleId": "gl_SampleID",
    "SamplePosition": "gl_SamplePosition",
    "SampleMask": "gl_SampleMask",
    "FragDepth": "gl_FragDepth",
    "HelperInvocation": "gl_HelperInvocation",
    "NumWorkgroups": "gl_NumWorkGroups",
    "WorkgroupSize": "gl_WorkGroupSize",
    "WorkgroupId": "gl_WorkGroupID",
    "LocalInvocationId": "gl_LocalInvocationID",
    "GlobalInvocationId": "gl_GlobalInvocationID",
    "LocalInvocationIndex": "gl_LocalInvocationIndex",
    "WorkDim": "WorkDim",
    "GlobalSize": "GlobalSize",
    "EnqueuedWorkgroupSize": "EnqueuedWorkgroupSize",
    "GlobalOffset": "GlobalOffset",
    "GlobalLinearId": "GlobalLinearId",
    "SubgroupSize": "SubgroupSize",
    "SubgroupMaxSize": "SubgroupMaxSize",
    "NumSubgroups": "NumSubgroups",
    "NumEnqueuedSubgroups": "NumEnqueuedSubgroups",
    "SubgroupId": "SubgroupId",
    "SubgroupLocalInvocationId": "SubgroupLocalInvocationId",
    "VertexIndex": "gl_VertexIndex",
    "InstanceIndex": "gl_InstanceIndex",
    "SubgroupEqMaskKHR": "SubgroupEqMaskKHR",
    "SubgroupGeMaskKHR": "SubgroupGeMaskKHR",
    "SubgroupGtMaskKHR": "SubgroupGtMaskKHR",
    "SubgroupLeMaskKHR": "SubgroupLeMaskKHR",
    "SubgroupLtMaskKHR": "SubgroupLtMaskKHR",
}

_INT_ROOTS = {8: "char", 16: "short", 32: "int", 64: "long"}
_FLOAT_NAMES = {16: "half", 32: "float", 64: "double"}
_ENCODING_NAMES = {"BFloat16KHR": "bfloat16", "Float8E4M3EXT": "fp8e4m3", "Float8E5M2EXT": "fp8e5m2"}


def sanitize(name: str) -> str:
    if not name:
        return "_"
    return _INVALID.sub(b"_", name.encode("utf-8", "surrogateescape")).decode("ascii")


class FriendlyNames:
    """Maps ids to the names spirv-dis prints for them."""

    def __init__(self, instructions: list[Instruction], grammar: Grammar):
        self.grammar = grammar
        self.names: dict[int, str] = {}
        self.used: set[str] = set()
        self.next_suffix: dict[str, int] = {}
        builtins = grammar.operand_kinds["BuiltIn"]
        self._builtin_by_value = {}
        for enum_name, suggested in _BUILTIN_NAMES.items():
            e = builtins.by_name.get(enum_name)
            if e is not None:
                self._builtin_by_value.setdefault(e.value, suggested)
        for inst in instructions:
            self._visit(inst)

    def __call__(self, id: int) -> str:
        name = self.names.get(id)
        return name if name is not None else str(id)

    def _save(self, id: int, suggested: str) -> None:
        if id in self.names:
            return
        name = suggested if _VALID.match(suggested) else sanitize(suggested)
        if name in self.used:
            # Used names only grow, so the search for a free suffix can resume where the last
            # one for this base stopped (spirv-dis restarts at 0: same names, quadratic time).
            base = name + "_"
            index = self.next_suffix.get(base, 0)
            while f"{base}{index}" in self.used:
                index += 1
            self.next_suffix[base] = index + 1
            name = f"{base}{index}"
        self.used.add(name)
        self.names[id] = name

    def _enum(self, kind: str, value: int, fallback: str) -> str:
        e = self.grammar.operand_kinds[kind].by_value.get(value)
        return e.name if e else f"{fallback}{value}"

    def _visit(self, inst: Instruction) -> None:
        op = inst.opcode
        w = inst.words
        rid = inst.result_id
        if op == 5:  # OpName
            self._save(w[1], inst.value(1))
        elif op == 71:  # OpDecorate ... BuiltIn
            if len(w) > 3 and w[2] == 11:
                suggested = self._builtin_by_value.get(w[3])
                if suggested is not None:
                    self._save(w[1], suggested)
        elif op == 19:
            self._save(rid, "void")
        elif op == 20:
            self._save(rid, "bool")
        elif op == 21:
            width, signed = w[2], w[3]
            root = _INT_ROOTS.get(width)
            prefix = ""
            if root is None:
                root, prefix = str(width), "i"
            if signed == 0:
                prefix = "u"
            self._save(rid, prefix + root)
        elif op == 22:
            encoding = None
            if len(w) > 3:
                e = self.grammar.operand_kinds["FPEncoding"].by_value.get(w[3])
                encoding = _ENCODING_NAMES.get(e.name) if e else None
            self._save(rid, encoding or _FLOAT_NAMES.get(w[2], f"fp{w[2]}"))
        elif op == 23:
            self._save(rid, f"v{w[3]}{self(w[2])}")
        elif op == 24:
            self._save(rid, f"mat{w[3]}{self(w[2])}")
        elif op == 28:
            self._save(rid, f"_arr_{self(w[2])}_{self(w[3])}")
        elif op == 29:
            self._save(rid, f"_runtimearr_{self(w[2])}")
        elif op == 32:
            self._save(rid, f"_ptr_{self._enum('StorageClass', w[2], 'StorageClass')}_{self(w[3])}")
        elif op == 4417:  # OpTypeUntypedPointerKHR
            self._save(rid, f"_ptr_{self._enum('StorageClass', w[2], 'StorageClass')}")
        elif op == 38:
            self._save(rid, "Pipe" + self._enum("AccessQualifier", w[2], "StorageClass"))
        elif op == 34:
            self._save(rid, "Event")
        elif op == 35:
            self._save(rid, "DeviceEvent")
        elif op == 36:
            self._save(rid, "ReserveId")
        elif op == 37:
            self._save(rid, "Queue")
        elif op == 31:
            self._save(rid, "Opaque_" + sanitize(inst.value(1)))
        elif op == 322:
            self._save(rid, "PipeStorage")
        elif op == 327:
            self._save(rid, "NamedBarrier")
        elif op == 30:
            self._save(rid, f"_struct_{rid}")
        elif op == 41:
            self._save(rid, "true")
        elif op == 42:
            self._save(rid, "false")
        elif op == 43 and len(inst.operands) > 2:
            number = inst.operands[2]
            text = format_number(inst.value(2), number.number or "u32").replace("-", "n")
            self._save(rid, f"{self(w[1])}_{text}")
        elif rid is not None and rid not in self.names:
            self._save(rid, str(rid))
