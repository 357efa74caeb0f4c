"""Lowering a SPIR-V module (one kernel and what it reaches) to an LLVM module.

``ModuleLowering`` owns everything module-wide: the type table, constants, program-scope and
work-group variables, the lowered functions and the fault-site table. The kernel entry code
(work-item loops, barriers, the work-group driver) is in :mod:`.kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from ..errors import NotSupportedError
from ..spirv.module import Function, Module
from ..spirv.names import DECORATION, OP
from . import ops_arith, ops_composite, ops_control, ops_convert, ops_memory, ops_atomic, ops_ext, ops_image  # noqa: F401 (register handlers)
from . import ops_pipe  # noqa: F401 (register handlers)
from . import ops_enqueue  # noqa: F401 (register handlers)
from .constants import CONSTANT_OPS, OP_SPEC_OP, OP_UNDEF, ConstantEvaluator, GlobalAddress
from .function import I64, PTR, BuiltinPtr, FunctionLowering, Ptr
from .runtime_ir import RuntimeFunctions
from .types import SpvType, TypeTable

OP_VARIABLE, OP_FUNCTION_CALL = OP.Variable, OP.FunctionCall


@dataclass
class Site:
    """Where a fault can happen: reported back to the user when one does."""

    kind: str              # 'load', 'store', 'atomic', 'copy'
    opname: str
    word_offset: int
    function: str
    line: str | None = None   # OpLine source location, when the module has one


@dataclass
class VariableLayout:
    """Program-scope (CrossWorkgroup) and work-group variables: offsets in their blocks."""

    globals_bytes: int = 0
    global_offsets: dict[int, int] = field(default_factory=dict)
    global_init: list[tuple[int, bytes]] = field(default_factory=list)
    # (byte offset, pointer size, offset in the block of the address that goes there)
    global_relocs: list[tuple[int, int, int]] = field(default_factory=list)
    local_bytes: int = 0
    local_offsets: dict[int, int] = field(default_factory=dict)


def builtin_variables(module: Module) -> dict[int, str]:
    """BuiltIn-decorated variables: id -> the BuiltIn's name."""
    from ..spirv.grammar import load_grammar

    grammar_builtins = load_grammar().operand_kinds["BuiltIn"].by_value
    found = {}
    for inst in module.section("annotations"):
        if inst.opcode == OP.Decorate and inst.words[2] == DECORATION.BuiltIn:
            found[inst.words[1]] = grammar_builtins[inst.words[3]].name
    return found


def functions_with_barriers(module: Module) -> set[int]:
    """Functions that execute a control barrier or a work-group collective, directly or through
    a call."""
    from .collectives import is_sync

    direct, calls = set(), {}
    for fn in module.functions:
        callees = set()
        for block in fn.blocks:
            for inst in block.instructions:
                if is_sync(inst):          # barriers and work-group collectives
                    direct.add(fn.id)
                elif inst.opcode == OP_FUNCTION_CALL:
                    callees.add(inst.words[3])
        calls[fn.id] = callees
    result, changed = set(direct), True
    while changed:
        changed = False
        for fid, callees in calls.items():
            if fid not in result and callees & result:
                result.add(fid)
                changed = True
    return result


class ModuleLowering:
    def __init__(self, module: Module, target_data, triple: str, checked: bool,
                 spec_values: dict | None = None, report_faults: bool = False,
                 local_size: tuple[int, int, int] | None = None, function_attributes: tuple[str, ...] = (),
                 guards: bool = True, compact: bool = False):
        self.module = module
        self.function_attributes = function_attributes
        # Compiled for one local size that every group has (a uniform NDRange): the sizes are
        # constants, so work-item loops have known trip counts and local ids known ranges.
        self.local_size = tuple(local_size) if local_size else None
        self.checked = checked
        self.report_faults = report_faults   # call the fault recorder (else: raise a flag)
        self.guards = guards                  # group guards for checked loops (see lower_kernel)
        self.compact = compact                # regions called, not inlined (see lower_kernel)
        self.types = TypeTable(module, target_data, spec_values)
        self.constants = ConstantEvaluator(module, self.types, spec_values)
        self.llvm = ir.Module(name="spirvkit")
        self.llvm.triple = triple
        self.llvm.data_layout = str(target_data)
        self.sites: list[Site] = []
        self.functions: dict[int, ir.Function] = {}
        self.spv_functions = {f.id: f for f in module.functions}
        self.builtins = builtin_variables(module)
        self.layout = self._variable_layout()
        self._globals: dict[int, ir.GlobalVariable] = {}
        self.constant_names: dict[str, str] = {}   # LLVM symbol -> the variable's name
        self.rt = RuntimeFunctions(self)
        # Work-item loops are parallel loops: OpenCL forbids one work-item to depend on another's
        # plain memory accesses between barriers (that would be a data race), as PoCL also
        # tells LLVM. Every plain load and store of the kernel joins this access group, and
        # the work-item loops declare it parallel, so the vectoriser needs no alias checks.
        self.access_group = self.llvm.add_metadata([])
        self.parallel_loop_ids: list = []
        self.lines = self._line_table()
        self.barrier_functions = functions_with_barriers(module)
        self.printf_sites: list[dict] = []   # printf calls: format and argument kinds (opencl_printf.py)
        self.image_functions = None           # texel and sampling routines (ops_image.py), on first use
        self.image_launch = None              # formats and samplers fixed by a launch (image_launch.py)
        self.shader = None                    # a GLCompute shader's hooks (shader_memory.ShaderLowering)
        self.check_passes = None              # checks beyond bounds (check_passes.CheckPasses)

    def fixed_word(self, name: str, index: int) -> ir.Constant | None:
        """A launch-state word this compilation fixes (the local size), else None."""
        if self.local_size is not None and name in ("local_size", "enqueued_local_size"):
            return ir.Constant(I64, self.local_size[index])
        return None

    # ----- module facts ---------------------------------------------------------------------
    def _variable_layout(self) -> VariableLayout:
        layout = VariableLayout()
        in_block = self._addressed_constants()
        for inst in self.module.section("types_values"):
            if inst.opcode != OP_VARIABLE:
                continue
            var_id = inst.words[2]
            ptr_t = self.types[inst.words[1]]
            storage = ptr_t.storage
            pointee = ptr_t.elem
            if storage == "CrossWorkgroup" or var_id in in_block:
                size, align = self.types.size(pointee), max(self.types.align(pointee), 16)
                at = _align(layout.globals_bytes, align)
                layout.global_offsets[var_id] = at
                layout.globals_bytes = at + size
                if len(inst.words) > 4:
                    value = self.constants.value(inst.words[4])
                    relocations: list = []
                    layout.global_init.append((at, self.constants.to_bytes(value, pointee, relocations)))
                    layout.global_relocs += [(at + off, size, var, offset) for off, size, var, offset in relocations]
            elif storage == "Workgroup":
                size, align = self.types.size(pointee), max(self.types.align(pointee), 16)
                at = _align(layout.local_bytes, align)
                layout.local_offsets[var_id] = at
                layout.local_bytes = at + size
        # Addresses of program-scope variables: as offsets in the block, now that all are placed.
        layout.global_relocs = [(at, size, layout.global_offsets[var] + offset)
                                for at, size, var, offset in layout.global_relocs]
        layout.globals_bytes = _align(layout.globals_bytes, 16)
        layout.local_bytes = _align(layout.local_bytes, 64)
        return layout

    def _addressed_constants(self) -> set[int]:
        """The __constant (UniformConstant) variables an address constant involves: initialised
        with an address (``constant int *constant p = tbl + 1;``) or addressed by one
        (``constant int *p = &tbl[2];``). They live in the program's globals block, so that the
        relocations reach them and every kernel sees one copy."""
        uniform = {i.words[2] for i in self.module.section("types_values")
                   if i.opcode == OP_VARIABLE and self.types[i.words[1]].storage == "UniformConstant"}
        found: set[int] = set()
        for inst in self.module.section("types_values"):
            if inst.opcode != OP_VARIABLE or len(inst.words) <= 4:
                continue
            targets = self._address_operands(inst.words[4], set())
            found |= targets & uniform
            if targets and inst.words[2] in uniform:
                found.add(inst.words[2])
        return found

    def _address_operands(self, value_id: int, seen: set[int]) -> set[int]:
        """The variables whose addresses constant ``value_id`` is made of."""
        if value_id in seen:
            return set()
        seen.add(value_id)
        inst = self.module.definition(value_id)
        if inst is None:
            return set()
        if inst.opcode == OP_VARIABLE:
            return {value_id}
        if inst.opcode in (OP.ConstantComposite, OP.SpecConstantComposite):
            parts = inst.words[3:]
        elif inst.opcode == OP_SPEC_OP and self.types[inst.words[1]].kind == "pointer":
            parts = inst.words[4:5]   # access chains and casts: the base pointer
        else:
            return set()
        out: set[int] = set()
        for part in parts:
            out |= self._address_operands(part, seen)
        return out

    def _line_table(self) -> dict[int, str]:
        """Word offset of each instruction -> 'file:line:col' of the OpLine in force."""
        table: dict[int, str] = {}
        strings = {i.words[1]: i.value(1) for i in self.module.section("debug") if i.opcode == OP.String}
        current = None
        for fn in self.module.functions:
            for block in fn.blocks:
                current = None
                for inst in block.instructions:
                    if inst.opcode == OP.Line:
                        current = f"{strings.get(inst.words[1], '?')}:{inst.words[2]}:{inst.words[3]}"
                    elif inst.opcode == OP.NoLine:
                        current = None
                    elif current:
                        table[inst.offset] = current
        return table

    # ----- sites ----------------------------------------------------------------------------
    def site(self, inst, kind: str, fn: Function) -> int:
        origin = getattr(inst, "origin", None)   # a callee's instruction inlined (inline_sync.py)
        if origin is not None:
            inst, fn = origin[0], self.spv_functions.get(origin[1], fn)
        self.sites.append(Site(kind, inst.opname, inst.offset, self.module.name(fn.id) or f"%{fn.id}",
                               self.lines.get(inst.offset)))
        return len(self.sites) - 1

    def parallel_loop(self, keep_rolled: bool = False):
        """Metadata for a work-item loop's back edge (see access_group). ``keep_rolled``: LLVM
        must not unroll the loop (see kernel.py's innermost loop)."""
        inner = self.llvm.add_metadata([ir.MetaDataString(self.llvm, "llvm.loop.parallel_accesses"), self.access_group])
        nodes = [inner]
        if keep_rolled:
            nodes.append(self.llvm.add_metadata([ir.MetaDataString(self.llvm, "llvm.loop.unroll.disable")]))
        loop_id = self.llvm.add_metadata(nodes)
        self.parallel_loop_ids.append((loop_id, nodes))
        return loop_id

    def llvm_text(self) -> str:
        """The module as text, with the distinct metadata llvmlite cannot spell."""
        for attr in self.function_attributes:      # target tuning, e.g. "prefer-vector-width"
            for fn in self.llvm.functions:
                if fn.blocks:
                    fn.attributes._known = fn.attributes._known | {attr}   # llvmlite has no key=value form
                    fn.attributes.add(attr)
        text = str(self.llvm)
        text = text.replace(f"!{self.access_group.name} = !{{  }}", f"!{self.access_group.name} = distinct !{{}}")
        for loop_id, nodes in self.parallel_loop_ids:
            names = ", ".join(f"!{n.name}" for n in nodes)
            text = text.replace(f"!{loop_id.name} = !{{ {names} }}",
                                f"!{loop_id.name} = distinct !{{ !{loop_id.name}, {names} }}")
        return text

    def storage_name(self, value: int) -> str:
        from ..spirv.grammar import load_grammar

        enumerant = load_grammar().operand_kinds["StorageClass"].by_value.get(value)
        return enumerant.name if enumerant else str(value)

    def runtime(self, name: str) -> ir.Function:
        return self.rt.get(name)

    # ----- module-level values --------------------------------------------------------------
    def global_value(self, value_id: int, fl: FunctionLowering):
        """Constants, module-scope variables: lowered on first use in each function."""
        inst = self.module.definition(value_id)
        if inst is None:
            raise NotSupportedError(f"a use of %{value_id} before its definition")
        op = inst.opcode
        if op in CONSTANT_OPS:
            t = self.types[inst.words[1]]
            if op == OP.ConstantSampler:
                value = ops_image.constant_sampler(inst)
            elif t.kind == "pointer" and op == OP_SPEC_OP:   # an address constant (&arr[3])
                value = self._address_constant(self.constants.value(value_id), fl)
            elif t.kind == "pointer":   # OpConstantNull / OpUndef pointer
                null = ir.Constant(PTR, None)
                value = Ptr(null, null, null) if self.checked else Ptr(null)
            else:
                value = self.constants.llvm(value_id, t) if op != OP_UNDEF else ir.Constant(t.llvm, None)
            fl.set(value_id, value)
            return value
        if op == OP_VARIABLE:
            value = self._module_variable(inst, fl)
            fl.set(value_id, value)
            return value
        raise NotSupportedError(f"a use of %{value_id} ({inst.opname}) outside its function")

    def _address_constant(self, value, fl: FunctionLowering) -> Ptr:
        """A pointer-typed OpSpecConstantOp used in code: its variable's address plus the offset,
        within the variable's region."""
        if not isinstance(value, GlobalAddress):
            null = ir.Constant(PTR, None)
            return Ptr(null, null, null) if self.checked else Ptr(null)
        var = fl.get(value.var_id)
        if not value.offset:
            return var
        b = fl.builder_at_entry()
        return var.moved(b.gep(var.addr, [ir.Constant(I64, value.offset)], source_etype=ir.IntType(8)))

    def _module_variable(self, inst, fl: FunctionLowering):
        var_id = inst.words[2]
        ptr_t = self.types[inst.words[1]]
        storage, pointee = ptr_t.storage, ptr_t.elem
        b = fl.builder_at_entry()
        if self.shader is not None:   # buffers bound by (set, binding), push constants
            resource = self.shader.module_variable(fl, inst, storage)
            if resource is not None:
                return resource
        if storage == "Input":
            if var_id not in self.builtins:
                raise NotSupportedError("an Input variable that is not a BuiltIn")
            return BuiltinPtr(self.builtins[var_id])
        size = ir.Constant(I64, self.types.size(pointee))
        if storage == "CrossWorkgroup" or var_id in self.layout.global_offsets:
            base = fl.context_word("globals", builder=b, typ=PTR)
            addr = b.gep(base, [ir.Constant(I64, self.layout.global_offsets[var_id])], source_etype=ir.IntType(8))
        elif storage == "Workgroup":
            base = fl.thread_word("local_base", builder=b, typ=PTR)
            addr = b.gep(base, [ir.Constant(I64, self.layout.local_offsets[var_id])], source_etype=ir.IntType(8))
        elif storage == "UniformConstant":
            if len(inst.words) <= 4:
                raise NotSupportedError("a UniformConstant variable without an initializer (images, samplers)")
            addr = self._constant_global(inst, pointee)
        else:
            raise NotSupportedError(f"module-scope {storage} variables")
        if not self.checked:
            return Ptr(addr)
        end = b.gep(addr, [size], source_etype=ir.IntType(8))
        return Ptr(addr, addr, end)

    def _constant_global(self, inst, pointee: SpvType) -> ir.GlobalVariable:
        var_id = inst.words[2]
        gv = self._globals.get(var_id)
        if gv is None:
            gv = ir.GlobalVariable(self.llvm, pointee.llvm, name=f"const{var_id}")
            gv.global_constant = True   # external linkage: the runtime looks its address up
            self.constant_names[gv.name] = self.module.name(var_id) or f"%{var_id}"
            gv.initializer = self.constants.llvm(inst.words[4], pointee)
            gv.align = max(self.types.align(pointee), 16)
            self._globals[var_id] = gv
        return gv

    # ----- functions ------------------------------------------------------------------------
    def hidden_types(self) -> list[ir.Type]:
        return [PTR, PTR, I64, I64, I64, PTR]

    def signature(self, fn_type: SpvType, extra=()) -> list[ir.Type]:
        """The LLVM parameter types of a lowered function or work-item body: the hidden ones,
        ``extra`` (a body's own: records, flags ...), then the SPIR-V parameters flattened."""
        params = list(self.hidden_types()) + list(extra)
        for p in fn_type.params:
            params.extend(self.param_types(p))
        return params

    def param_types(self, spv_type: SpvType) -> list[ir.Type]:
        if spv_type.kind == "pointer":
            return [PTR, PTR, PTR] if self.checked else [PTR]
        return [spv_type.llvm]

    def return_type(self, spv_type: SpvType) -> ir.Type:
        if spv_type.kind == "pointer":
            return ir.LiteralStructType([PTR, PTR, PTR]) if self.checked else PTR
        return spv_type.llvm

    def function(self, fn_id: int) -> ir.Function:
        """The LLVM function for a SPIR-V function, lowered on first request."""
        llvm_fn = self.functions.get(fn_id)
        if llvm_fn is not None:
            return llvm_fn
        spv_fn = self.spv_functions.get(fn_id)
        if spv_fn is None:
            raise NotSupportedError(f"a call to %{fn_id}, which is not a function defined in the module")
        if not spv_fn.blocks:
            raise NotSupportedError(f"a call to imported function %{fn_id} (linkage)")
        fn_type = self.types[spv_fn.function_type]
        fnty = ir.FunctionType(self.return_type(fn_type.ret), self.signature(fn_type))
        llvm_fn = ir.Function(self.llvm, fnty, name=f"spv{fn_id}")
        llvm_fn.linkage = "internal"
        mark_launch_state(llvm_fn)
        self.functions[fn_id] = llvm_fn
        args = list(llvm_fn.args)
        hidden, rest = args[:6], args[6:]
        params = self.split_params(fn_type.params, rest)
        fl = FunctionLowering(self, spv_fn, llvm_fn, hidden, params)
        entry = llvm_fn.append_basic_block("entry")
        fl.alloca_builder = ir.IRBuilder(entry)
        fl.bind_params()
        fl.lower_body(entry, entry)
        return llvm_fn

    def split_params(self, param_types: list[SpvType], values: list[ir.Value]) -> list:
        out, i = [], 0
        for p in param_types:
            if p.kind == "pointer":
                if self.checked:
                    out.append(Ptr(values[i], values[i + 1], values[i + 2]))
                    i += 3
                else:
                    out.append(Ptr(values[i]))
                    i += 1
            else:
                out.append(values[i])
                i += 1
        return out


def mark_launch_state(fn: ir.Function) -> None:
    """The launch context and thread state (the first two parameters) are never reached
    through the kernel's own pointers: saying so lets LLVM hoist the NDRange reads out of the
    work-item loops and vectorise them."""
    from .abi import CONTEXT, THREAD

    for arg, words in zip(fn.args[:2], (CONTEXT["_words"], THREAD["_words"])):
        arg.add_attribute("noalias")
        # Dereferenceable: the thread state's fault flag can then live in a register across
        # the work-item loop (LICM promotes the conditional store), keeping it vectorisable.
        arg.attributes.dereferenceable = words * 8
        arg.attributes.align = 8


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a
