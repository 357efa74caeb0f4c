"""The state every rule family reads: the module, its definitions and types, the declared
capabilities and extensions, the target env, and the diagnostics collected so far."""

from __future__ import annotations

from ..spirv.binary import Instruction
from ..spirv.grammar import ID_KINDS
from ..spirv.grammar import load_grammar
from ..spirv.module import Module
from .diagnostics import Diagnostic, InstructionPrinter, StopValidation
from .env import TargetEnv
from .options import ValidatorOptions
from . import opcodes as op

_SCALAR_NUMERIC = frozenset({op.TypeInt, op.TypeFloat})


class ValidationContext:
    def __init__(self, module: Module, env: TargetEnv, options: ValidatorOptions, max_errors: int | None):
        self.module = module
        self.insts: list[Instruction] = module.instructions
        self.env = env
        self.options = options
        self.max_errors = max_errors
        self.grammar = load_grammar()
        self.diagnostics: list[Diagnostic] = []
        self.printer = InstructionPrinter(module)
        self.version = module.version
        # Filled by the driver's indexing pass (see validator.index_module).
        self.defs: dict[int, Instruction] = {}
        self.def_pos: dict[int, int] = {}
        self.capabilities: set[str] = set()
        self.declared_capabilities: set[str] = set()
        self.extensions: set[str] = set()
        self.ext_imports: dict[int, str] = {}
        self.addressing_model: int | None = None
        self.memory_model: int | None = None
        self.over_bound: Instruction | None = None  # first instruction with a result id >= the bound
        self.result_ids: list[int | None] = []  # per instruction index
        # Filled by layout: function of each instruction index, the functions.
        self.functions = []
        self.function_of_id: dict[int, int] = {}  # function-local id -> function index
        # Filled by ids: the interface variables (global OpVariables; before SPIR-V 1.4 only Input and
        # Output ones) each function uses, directly or through module-scope users (OpSpecConstantOp
        # access chains); None until ids has run.
        self.interface_uses: dict[int, set[int]] | None = None
        self.block_of_id: dict[int, int] = {}  # id defined in a block -> label id of the block
        self.entry_points = []
        self.execution_models_of: dict[int, set[int]] = {}  # function id -> execution models
        self.decorations: dict[int, list[tuple[int, list[int], Instruction, int | None]]] = {}
        self._facts: dict = {}
        # Per operand layout (the operand tuples decoded instructions share): the id operands.
        self._id_slots: dict[int, tuple] = {}
        self._layouts: list = []  # keeps the keyed tuples alive, so their id() stays unique
        self._positions: dict[int, list[int]] | None = None  # opcode -> instruction indexes

    # -- diagnostics -----------------------------------------------------------------------------

    def error(self, rule: str, section: str, message: str, inst: Instruction | None = None) -> None:
        self.diagnostics.append(
            Diagnostic(rule, section, message, inst.offset if inst is not None else None, self.printer(inst))
        )
        if self.max_errors is not None and len(self.diagnostics) >= self.max_errors:
            raise StopValidation

    def name(self, id_: int) -> str:
        """An id as spirv-val prints it in messages: '<id>[%friendly]' (quotes included)."""
        return f"'{id_}[{self.printer.name(id_)}]'"

    # -- operand layouts -------------------------------------------------------------------------

    def id_slots(self, inst: Instruction) -> tuple:
        """(operand index, word offset, is the result type) of every id an instruction references,
        its result id excluded; computed once per operand layout."""
        ops = inst.operands
        slots = self._id_slots.get(id(ops))
        if slots is None:
            slots = tuple((i, o.offset, o.kind == "IdResultType") for i, o in enumerate(ops)
                          if o.kind in ID_KINDS and o.kind != "IdResult")
            self._id_slots[id(ops)] = slots
            self._layouts.append(ops)
        return slots

    def id_operands(self, inst: Instruction) -> list[int]:
        """The ids an instruction references (its result id excluded), as Instruction.id_operands."""
        w = inst.words
        return [w[s[1]] for s in self.id_slots(inst)]

    def instructions_of(self, opcodes) -> list[Instruction]:
        """The instructions with one of ``opcodes``, in module order (an opcode index built once,
        so a family that checks a few opcodes does not scan the whole module)."""
        index = self._positions
        if index is None:
            index = self._positions = {}
            for pos, inst in enumerate(self.insts):
                lst = index.get(inst.opcode)
                if lst is None:
                    index[inst.opcode] = [pos]
                else:
                    lst.append(pos)
        positions = []
        found = 0
        for o in opcodes:
            lst = index.get(o)
            if lst:
                positions.extend(lst)
                found += 1
        if found > 1:
            positions.sort()
        insts = self.insts
        return [insts[p] for p in positions]

    # -- enumerants ------------------------------------------------------------------------------

    def enum_name(self, kind: str, value: int) -> str:
        e = self.grammar.operand_kinds[kind].by_value.get(value)
        return e.name if e else str(value)

    def has_capability(self, name: str) -> bool:
        return name in self.capabilities

    @property
    def is_shader(self) -> bool:
        return "Shader" in self.capabilities

    @property
    def is_kernel(self) -> bool:
        return "Kernel" in self.capabilities

    # -- definitions and types -------------------------------------------------------------------

    def def_opcode(self, id_: int) -> int | None:
        d = self.defs.get(id_)
        return d.opcode if d is not None else None

    def type_of(self, id_: int) -> int | None:
        """The type id of value ``id_`` (None if it has none or is undefined)."""
        d = self.defs.get(id_)
        if d is None:
            return None
        ops = d.operands
        if ops and ops[0].kind == "IdResultType":
            return d.words[1]
        return None

    def type_inst(self, type_id: int | None) -> Instruction | None:
        if type_id is None:
            return None
        d = self.defs.get(type_id)
        if d is None or d.opcode not in op.TYPE_OPCODES:
            return None
        return d

    def is_type(self, id_: int) -> bool:
        d = self.defs.get(id_)
        return d is not None and d.opcode in op.TYPE_OPCODES

    def type_opcode(self, type_id: int | None) -> int | None:
        t = self.type_inst(type_id)
        return t.opcode if t is not None else None

    def facts(self, type_id):
        """(opcode, component type id, component opcode, dimension, component width, signedness)
        of a type, cached: the instruction families ask these questions for every instruction."""
        cache = self._facts
        f = cache.get(type_id)
        if f is None:
            t = self.type_inst(type_id)
            if t is None:
                f = (None, None, None, 1, 0, 0)
            else:
                comp = t.words[2] if t.opcode == op.TypeVector else type_id
                ct = self.type_inst(comp)
                copc = ct.opcode if ct is not None else None
                width = ct.words[2] if copc in _SCALAR_NUMERIC else 0
                signed = ct.words[3] if copc == op.TypeInt and len(ct.words) > 3 else 0
                dim = t.words[3] if t.opcode == op.TypeVector else 1
                f = (t.opcode, comp, copc, dim, width, signed)
            cache[type_id] = f
        return f

    def component_type(self, type_id: int | None) -> int | None:
        """A vector's component type; a scalar type itself."""
        return self.facts(type_id)[1]

    def dimension(self, type_id: int | None) -> int:
        return self.facts(type_id)[3]

    def bit_width(self, type_id: int | None) -> int:
        """Width of a scalar numeric type or of a vector's components (0 otherwise)."""
        return self.facts(type_id)[4]

    def is_int_scalar(self, t) -> bool:
        return self.facts(t)[0] == op.TypeInt

    def is_float_scalar(self, t) -> bool:
        return self.facts(t)[0] == op.TypeFloat

    def is_bool_scalar(self, t) -> bool:
        return self.facts(t)[0] == op.TypeBool

    def is_int_vector(self, t) -> bool:
        f = self.facts(t)
        return f[0] == op.TypeVector and f[2] == op.TypeInt

    def is_float_vector(self, t) -> bool:
        f = self.facts(t)
        return f[0] == op.TypeVector and f[2] == op.TypeFloat

    def is_bool_vector(self, t) -> bool:
        f = self.facts(t)
        return f[0] == op.TypeVector and f[2] == op.TypeBool

    def is_int_scalar_or_vector(self, t) -> bool:
        f = self.facts(t)
        return f[2] == op.TypeInt and f[0] in (op.TypeInt, op.TypeVector)

    def is_float_scalar_or_vector(self, t) -> bool:
        f = self.facts(t)
        return f[2] == op.TypeFloat and f[0] in (op.TypeFloat, op.TypeVector)

    def is_bool_scalar_or_vector(self, t) -> bool:
        f = self.facts(t)
        return f[2] == op.TypeBool and f[0] in (op.TypeBool, op.TypeVector)

    def is_unsigned_int_scalar(self, t) -> bool:
        f = self.facts(t)
        return f[0] == op.TypeInt and f[5] == 0

    def is_pointer(self, t) -> bool:
        ti = self.type_inst(t)
        return ti is not None and ti.opcode in (op.TypePointer, op.TypeUntypedPointerKHR)

    def pointer_info(self, t) -> tuple[int, int | None] | None:
        """(storage class, pointee type id or None for untyped) of a pointer type."""
        ti = self.type_inst(t)
        if ti is None:
            return None
        if ti.opcode == op.TypePointer:
            return ti.words[2], ti.words[3]
        if ti.opcode == op.TypeUntypedPointerKHR:
            return ti.words[2], None
        return None

    def is_numeric_or_bool_scalar_or_vector(self, t) -> bool:
        c = self.component_type(t)
        return self.type_opcode(c) in (op.TypeInt, op.TypeFloat, op.TypeBool)

    def constant_value(self, id_: int) -> int | None:
        """The value of a scalar integer OpConstant (None for anything else, spec constants
        included)."""
        d = self.defs.get(id_)
        if d is None or d.opcode != op.Constant or len(d.operands) < 3:
            return None
        if not self.is_int_scalar(d.words[1]):
            return None
        return d.value(2)

    def is_constant_instruction(self, id_: int) -> bool:
        return self.def_opcode(id_) in op.CONSTANT_OPCODES

    def type_name(self, type_id: int | None) -> str:
        return self.name(type_id) if type_id is not None else "<none>"

    # -- decorations -----------------------------------------------------------------------------

    def decorations_of(self, id_: int, member: int | None = None):
        """(decoration value, operand words, instruction) of ``id_`` (through groups)."""
        return [(d, w, i) for d, w, i, m in self.decorations.get(id_, ()) if m == member]

    def decoration_literal(self, id_: int, decoration: int, member: int | None = None) -> int | None:
        """The first literal of ``id_``'s ``decoration`` (0 when it has none); None if undecorated."""
        for d, words, _i in self.decorations_of(id_, member):
            if d == decoration:
                return words[0] if words else 0
        return None

    def has_decoration(self, id_: int, decoration: int, member: int | None = None) -> bool:
        return any(d == decoration and m == member for d, _w, _i, m in self.decorations.get(id_, ()))

    def any_member_has(self, id_: int, decoration: int) -> bool:
        return any(d == decoration and m is not None for d, _w, _i, m in self.decorations.get(id_, ()))
