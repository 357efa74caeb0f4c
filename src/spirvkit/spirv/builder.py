"""Programmatic construction of SPIR-V modules (used by the OpenCL C compiler and by tests).

A :class:`ModuleBuilder` keeps one word list per logical-layout section (SPIR-V 1.0 §2.4) and
assembles them in order at the end, so callers may declare a capability, a decoration or a type
at any time. Opcodes and enumerants are looked up by name in the Khronos grammar; types and
constants are de-duplicated (SPIR-V forbids two identical non-aggregate type declarations).

Operands are given as Python values: an ``int`` is one literal or id word, a ``str`` a literal
string, and a tuple/list is spliced in (several words: a 64-bit literal, a list of ids)::

    b = ModuleBuilder()
    b.capability("Kernel"); b.capability("Addresses")
    b.memory_model("Physical64", "OpenCL")
    f = b.function(b.type_void(), [], name="k")
    f.ret()
    module = b.to_module()
"""

from __future__ import annotations

import math
import struct

from .binary import encode_string
from .grammar import load_grammar
from .module import Module

MAGIC = 0x07230203
# Registered generator id of "Khronos LLVM/SPIR-V Translator" is 6; spirvkit has no registered
# id, so it writes 0 ("unknown") like hand-written modules.
GENERATOR = 0


class BuilderError(ValueError):
    """A builder call the grammar does not allow (unknown opcode or enumerant name)."""


_FLOAT_FORMATS = {64: ("<d", "<Q"), 32: ("<f", "<I"), 16: ("<e", "<H")}


def float_bits(value: float, width: int) -> int:
    """The IEEE bits of ``value`` rounded to a float of ``width`` bits (to nearest even; beyond
    the largest finite value, infinity, as C's conversions give)."""
    float_fmt, int_fmt = _FLOAT_FORMATS[width]
    value = float(value)
    try:
        packed = struct.pack(float_fmt, value)
    except OverflowError:  # rounds past the largest finite value of the narrower format
        packed = struct.pack(float_fmt, math.copysign(math.inf, value))
    return struct.unpack(int_fmt, packed)[0]


def round_float(value: float, width: int) -> float:
    """``value`` rounded to a float of ``width`` bits, as a Python float (inf on overflow)."""
    float_fmt, int_fmt = _FLOAT_FORMATS[width]
    return struct.unpack(float_fmt, struct.pack(int_fmt, float_bits(value, width)))[0]


def _flatten(operands) -> list[int]:
    words: list[int] = []
    for op in operands:
        if op is None:
            continue
        if isinstance(op, bool):
            words.append(int(op))
        elif isinstance(op, int):
            words.append(op & 0xFFFFFFFF)
        elif isinstance(op, str):
            words.extend(encode_string(op))
        elif isinstance(op, (tuple, list)):
            words.extend(_flatten(op))
        else:
            raise BuilderError(f"operand {op!r} is not an int, string or sequence")
    return words


class ModuleBuilder:
    """Builds one module. Section lists hold finished instructions as word lists."""

    SECTIONS = ("capabilities", "extensions", "ext_inst_imports", "memory_model", "entry_points",
                "execution_modes", "debug_strings", "debug_names", "annotations", "types_values",
                "functions")

    def __init__(self, version: tuple[int, int] = (1, 0)):
        self.grammar = load_grammar()
        self.version = version
        self.sections: dict[str, list[list[int]]] = {s: [] for s in self.SECTIONS}
        self._next_id = 1
        self._capabilities: set[str] = set()
        self._extensions: set[str] = set()
        self._imports: dict[str, int] = {}
        self._types: dict[tuple, int] = {}
        self._constants: dict[tuple, int] = {}
        self._strings: dict[str, int] = {}
        self.type_info: dict[int, tuple] = {}  # type id -> its key (kind, ...)

    # -- primitives -------------------------------------------------------------------------

    def fresh_id(self) -> int:
        i = self._next_id
        self._next_id += 1
        return i

    @property
    def bound(self) -> int:
        return self._next_id

    def opcode(self, name: str) -> int:
        desc = self.grammar.instruction_named(name)
        if desc is None:
            raise BuilderError(f"unknown opcode {name!r}")
        return desc.opcode

    def enum(self, kind: str, name: str | int) -> int:
        """The value of enumerant ``name`` of operand kind ``kind`` (a mask kind accepts
        ``"A|B"``)."""
        if isinstance(name, int):
            return name
        value = 0
        for part in name.split("|"):
            e = self.grammar.enumerant(kind, part.strip())
            if e is None:
                raise BuilderError(f"{kind} has no enumerant {part!r}")
            value |= e.value
        return value

    def instruction(self, name: str, *operands) -> list[int]:
        words = _flatten(operands)
        return [((len(words) + 1) << 16) | self.opcode(name), *words]

    def emit(self, section: str, name: str, *operands) -> None:
        self.sections[section].append(self.instruction(name, *operands))

    # -- module-level declarations ----------------------------------------------------------

    def capability(self, name: str) -> None:
        if name not in self._capabilities:
            self._capabilities.add(name)
            self.emit("capabilities", "OpCapability", self.enum("Capability", name))

    def has_capability(self, name: str) -> bool:
        return name in self._capabilities

    def extension(self, name: str) -> None:
        if name not in self._extensions:
            self._extensions.add(name)
            self.emit("extensions", "OpExtension", name)

    def ext_inst_import(self, name: str) -> int:
        if name not in self._imports:
            rid = self.fresh_id()
            self._imports[name] = rid
            self.emit("ext_inst_imports", "OpExtInstImport", rid, name)
        return self._imports[name]

    def ext_inst_number(self, set_name: str, inst: str) -> int:
        ext = self.grammar.ext_inst_set(set_name)
        desc = ext.by_name.get(inst) if ext else None
        if desc is None:
            raise BuilderError(f"{set_name} has no instruction {inst!r}")
        return desc.opcode

    def memory_model(self, addressing: str, memory: str) -> None:
        self.sections["memory_model"] = [self.instruction(
            "OpMemoryModel", self.enum("AddressingModel", addressing), self.enum("MemoryModel", memory))]

    def entry_point(self, model: str, function: int, name: str, interface=()) -> None:
        self.emit("entry_points", "OpEntryPoint", self.enum("ExecutionModel", model), function, name,
                  list(interface))

    def execution_mode(self, function: int, mode: str, *literals) -> None:
        self.emit("execution_modes", "OpExecutionMode", function, self.enum("ExecutionMode", mode),
                  *literals)

    def source(self, language: str, version: int) -> None:
        self.emit("debug_strings", "OpSource", self.enum("SourceLanguage", language), version)

    def string(self, text: str) -> int:
        if text not in self._strings:
            rid = self.fresh_id()
            self._strings[text] = rid
            self.emit("debug_strings", "OpString", rid, text)
        return self._strings[text]

    def name(self, target: int, text: str) -> None:
        self.emit("debug_names", "OpName", target, text)

    def member_name(self, struct_type: int, member: int, text: str) -> None:
        self.emit("debug_names", "OpMemberName", struct_type, member, text)

    def decorate(self, target: int, decoration: str, *operands) -> None:
        self.emit("annotations", "OpDecorate", target, self.enum("Decoration", decoration), *operands)

    def member_decorate(self, struct_type: int, member: int, decoration: str, *operands) -> None:
        self.emit("annotations", "OpMemberDecorate", struct_type, member,
                  self.enum("Decoration", decoration), *operands)

    # -- types ------------------------------------------------------------------------------

    def _type(self, key: tuple, opname: str, *operands) -> int:
        rid = self._types.get(key)
        if rid is None:
            rid = self.fresh_id()
            self._types[key] = rid
            self.type_info[rid] = key
            self.emit("types_values", opname, rid, *operands)
        return rid

    def type_void(self) -> int:
        return self._type(("void",), "OpTypeVoid")

    def type_bool(self) -> int:
        return self._type(("bool",), "OpTypeBool")

    def type_int(self, width: int, signed: bool = False) -> int:
        return self._type(("int", width, int(signed)), "OpTypeInt", width, int(signed))

    def type_float(self, width: int) -> int:
        return self._type(("float", width), "OpTypeFloat", width)

    def type_vector(self, element: int, count: int) -> int:
        return self._type(("vector", element, count), "OpTypeVector", element, count)

    def type_array(self, element: int, length: int) -> int:
        length_id = self.constant(self.type_int(32), length) if length < 2**32 else \
            self.constant(self.type_int(64), length)
        return self._type(("array", element, length), "OpTypeArray", element, length_id)

    def type_struct(self, members, unique: object = None) -> int:
        """A struct type; ``unique`` tells apart structs with equal members (distinct C
        struct tags get distinct SPIR-V types, so their names and layouts stay separate)."""
        return self._type(("struct", tuple(members), unique), "OpTypeStruct", list(members))

    def type_pointer(self, storage: str, pointee: int, forward: int | None = None) -> int:
        """``forward``: the id an OpTypeForwardPointer reserved for this type (a struct that
        points to itself is declared after that pointer's forward declaration)."""
        key = ("pointer", storage, pointee)
        if forward is not None and key not in self._types:
            self._types[key] = forward
            self.type_info[forward] = key
            self.emit("types_values", "OpTypePointer", forward, self.enum("StorageClass", storage), pointee)
        return self._type(key, "OpTypePointer", self.enum("StorageClass", storage), pointee)

    def forward_pointer(self, storage: str) -> int:
        """OpTypeForwardPointer: the id of a pointer type whose pointee is not declared yet
        (complete it with ``type_pointer(storage, pointee, forward=id)``)."""
        rid = self.fresh_id()
        self.emit("types_values", "OpTypeForwardPointer", rid, self.enum("StorageClass", storage))
        return rid

    def type_function(self, result: int, params=()) -> int:
        return self._type(("function", result, tuple(params)), "OpTypeFunction", result, list(params))

    def type_event(self) -> int:
        return self._type(("event",), "OpTypeEvent")

    def type_image(self, sampled_type: int, dim: str, depth: int, arrayed: int, ms: int, sampled: int,
                   image_format: str, access: str | None = None) -> int:
        """OpTypeImage; ``access`` (an AccessQualifier name) is the Kernel-only last operand."""
        operands = [sampled_type, self.enum("Dim", dim), depth, arrayed, ms, sampled,
                    self.enum("ImageFormat", image_format)]
        if access is not None:
            operands.append(self.enum("AccessQualifier", access))
        key = ("image", sampled_type, dim, depth, arrayed, ms, sampled, image_format, access)
        return self._type(key, "OpTypeImage", *operands)

    def type_sampler(self) -> int:
        return self._type(("sampler",), "OpTypeSampler")

    def type_pipe(self, access: str) -> int:
        """OpTypePipe; ``access``: an AccessQualifier name."""
        return self._type(("pipe", access), "OpTypePipe", self.enum("AccessQualifier", access))

    def type_reserve_id(self) -> int:
        return self._type(("reserve_id",), "OpTypeReserveId")

    def type_sampled_image(self, image_type: int) -> int:
        return self._type(("sampled_image", image_type), "OpTypeSampledImage", image_type)

    # -- constants --------------------------------------------------------------------------

    def _const(self, key: tuple, opname: str, type_id: int, *operands) -> int:
        rid = self._constants.get(key)
        if rid is None:
            rid = self.fresh_id()
            self._constants[key] = rid
            self.emit("types_values", opname, type_id, rid, *operands)
        return rid

    def constant(self, type_id: int, value) -> int:
        """A scalar OpConstant of an integer or float type (``value`` a Python int/float;
        integers wrap to the type's width)."""
        info = self.type_info[type_id]
        if info[0] == "bool":
            return self.constant_bool(bool(value))
        width = info[1]
        if info[0] == "float":
            bits = float_bits(value, width if width in (32, 64) else 16)
        else:
            bits = int(value) & ((1 << width) - 1)
        words = (bits & 0xFFFFFFFF, bits >> 32) if width == 64 else (bits,)
        return self._const(("const", type_id, bits), "OpConstant", type_id, words)

    def constant_bool(self, value: bool) -> int:
        t = self.type_bool()
        return self._const(("bool", value), "OpConstantTrue" if value else "OpConstantFalse", t)

    def constant_null(self, type_id: int) -> int:
        return self._const(("null", type_id), "OpConstantNull", type_id)

    def constant_composite(self, type_id: int, parts) -> int:
        return self._const(("composite", type_id, tuple(parts)), "OpConstantComposite", type_id,
                           list(parts))

    def constant_sampler(self, type_id: int, addressing: str, normalized: bool, filter_mode: str) -> int:
        """OpConstantSampler (a literal sampler: Kernel's LiteralSampler capability)."""
        return self._const(("sampler", type_id, addressing, bool(normalized), filter_mode), "OpConstantSampler",
                           type_id, self.enum("SamplerAddressingMode", addressing), int(bool(normalized)),
                           self.enum("SamplerFilterMode", filter_mode))

    def spec_constant_op(self, type_id: int, opname: str, *operands) -> int:
        """OpSpecConstantOp ``opname`` (without its ``Op``) over constant ``operands``: address
        constants of program-scope variables are access chains and casts of the OpVariable."""
        return self._const(("specop", type_id, opname, tuple(operands)), "OpSpecConstantOp", type_id,
                           self.opcode(f"Op{opname}"), list(operands))

    def undef(self, type_id: int) -> int:
        return self._const(("undef", type_id), "OpUndef", type_id)

    def global_variable(self, pointer_type: int, storage: str, initializer: int | None = None,
                        name: str | None = None) -> int:
        rid = self.fresh_id()
        self.emit("types_values", "OpVariable", pointer_type, rid, self.enum("StorageClass", storage),
                  initializer)
        if name:
            self.name(rid, name)
        return rid

    # -- functions --------------------------------------------------------------------------

    def function(self, result_type: int, param_types, control: str = "None",
                 name: str | None = None, id: int | None = None) -> "FunctionBuilder":
        """A new function; ``id``: one reserved earlier with :meth:`fresh_id` (calls may be
        emitted before the callee is built)."""
        return FunctionBuilder(self, result_type, list(param_types), control, name, id)

    # -- output -----------------------------------------------------------------------------

    def to_words(self) -> list[int]:
        words = [MAGIC, (self.version[0] << 16) | (self.version[1] << 8), GENERATOR, self.bound, 0]
        for section in self.SECTIONS:
            for inst in self.sections[section]:
                words.extend(inst)
        return words

    def to_bytes(self) -> bytes:
        return struct.pack(f"<{len(words := self.to_words())}I", *words)

    def to_module(self) -> Module:
        return Module.from_words(self.to_words())


class BlockBuilder:
    def __init__(self, label: int):
        self.label = label
        self.words: list[list[int]] = []
        self.terminated = False


class FunctionBuilder:
    """One function: parameters, then blocks in the order they are started. Function-storage
    variables are collected separately and placed at the top of the entry block (SPIR-V
    requires them there)."""

    TERMINATORS = frozenset({"OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn",
                             "OpReturnValue", "OpKill", "OpUnreachable"})

    def __init__(self, module: ModuleBuilder, result_type: int, param_types: list[int], control: str,
                 name: str | None, fid: int | None = None):
        self.module = module
        self.id = fid if fid is not None else module.fresh_id()
        self.result_type = result_type
        self.type_id = module.type_function(result_type, param_types)
        self.control = module.enum("FunctionControl", control)
        self.params = []
        for t in param_types:
            self.params.append(module.fresh_id())
        self.param_types = param_types
        self.variables: list[list[int]] = []
        self.blocks: list[BlockBuilder] = []
        self.current: BlockBuilder | None = None
        if name:
            module.name(self.id, name)
        self.start_block(self.new_label())

    def new_label(self) -> int:
        return self.module.fresh_id()

    def start_block(self, label: int) -> BlockBuilder:
        block = BlockBuilder(label)
        self.blocks.append(block)
        self.current = block
        return block

    @property
    def terminated(self) -> bool:
        return self.current is None or self.current.terminated

    def op(self, name: str, result_type: int | None, *operands) -> int | None:
        """Append an instruction to the current block; returns its result id (or None when
        the opcode has no result). ``result_type`` None for opcodes without a type."""
        desc = self.module.grammar.instruction_named(name)
        if desc is None:
            raise BuilderError(f"unknown opcode {name!r}")
        rid = self.module.fresh_id() if desc.has_result else None
        head = []
        if desc.has_type:
            head.append(result_type)
        if rid is not None:
            head.append(rid)
        if self.current is None or self.current.terminated:
            # Code after a return/break: give it an (unreachable) block of its own.
            self.start_block(self.new_label())
        self.current.words.append(self.module.instruction(name, *head, *operands))
        if name in self.TERMINATORS:
            self.current.terminated = True
        return rid

    def variable(self, pointer_type: int, initializer: int | None = None) -> int:
        rid = self.module.fresh_id()
        self.variables.append(self.module.instruction(
            "OpVariable", pointer_type, rid, self.module.enum("StorageClass", "Function"), initializer))
        return rid

    def branch(self, label: int) -> None:
        if not self.terminated:
            self.op("OpBranch", None, label)

    def ret(self, value: int | None = None) -> None:
        if value is None:
            self.op("OpReturn", None)
        else:
            self.op("OpReturnValue", None, value)

    def finish(self) -> None:
        """Close the function and append it to the module."""
        m = self.module
        out = [m.instruction("OpFunction", self.result_type, self.id, self.control, self.type_id)]
        for pid, t in zip(self.params, self.param_types):
            out.append(m.instruction("OpFunctionParameter", t, pid))
        for i, block in enumerate(self.blocks):
            out.append(m.instruction("OpLabel", block.label))
            if i == 0:
                out.extend(self.variables)
            out.extend(block.words)
            if not block.terminated:
                out.append(m.instruction("OpUnreachable"))
        out.append(m.instruction("OpFunctionEnd"))
        m.sections["functions"].extend(out)
