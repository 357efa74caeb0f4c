"""OpenCL C AST → SPIR-V (Kernel execution model, Physical64, OpenCL memory model).

The generator walks the tree once, typing and emitting together (codegen_expr.py holds the
expressions, builtins_lower.py the built-in calls). Locals are Function-storage OpVariables in
the entry block (no mem2reg: the executor's LLVM pipeline promotes them). Control flow is
unstructured, which the OpenCL environment allows; blocks are laid out in the order they are
started, so each follows its dominator as spirv-val requires.

Every semantic error is a :class:`SemaError`; the generator records it and goes on with the
next statement (or declaration), so one compilation reports all errors, as clang does.
"""

from __future__ import annotations

from ..errors import SpirvkitError
from ..spirv.builder import ModuleBuilder
from . import ast
from .builtins_groups import GroupsMixin
from .builtins_non_uniform import NonUniformMixin
from .images import ImagesMixin
from .pipes import PipesMixin
from .blocks import BlocksMixin
from .enqueue import EnqueueMixin
from .builtins_lower import BuiltinsMixin
from .codegen_expr import ExpressionsMixin, LVal, Val
from .codegen_init import InitializersMixin
from .flow import MAYBE, NEVER, fall_through
from .kernel_arg_quals import type_qualifiers
from .sema import Scope, SemaError, Symbol, TypeResolver, check_implicit, not_supported
from .source import Diagnostic, Note, expansion_location, located_diagnostic
from .types import (ACCESS_QUALIFIER, BOOL, INT, STORAGE_CLASS, VOID, Array, Atomic, Block, CType, DeviceEventType,
                    EventType, Function, Image, PipeType, Pointer, QueueType, Record, ReserveIdType, SamplerType,
                    Scalar, Vector, folded_int, type_from_name, unqualified_name)

# Enumerators clang's opencl-c-base.h declares (values as clang gives them).
PREDEFINED_ENUMS = {
    "memory_order_relaxed": 0, "memory_order_acquire": 2, "memory_order_release": 3,
    "memory_order_acq_rel": 4, "memory_order_seq_cst": 5, "memory_scope_work_item": 0,
    "memory_scope_work_group": 1, "memory_scope_device": 2, "memory_scope_all_svm_devices": 3,
    "memory_scope_all_devices": 3, "memory_scope_sub_group": 4,
}
KERNEL_ARG_BANNED = {"size_t", "ptrdiff_t", "intptr_t", "uintptr_t"}


class FuncInfo:
    def __init__(self, name, ctype, fid, node, is_kernel):
        self.name, self.type, self.id, self.node, self.is_kernel = name, ctype, fid, node, is_kernel
        self.defined = False
        self.calls: list[tuple[str, object]] = []  # (callee, call node) for the recursion check
        # A kernel called from a kernel (§1.7: an ordinary call) is also emitted as a plain
        # function with this id: SPIR-V forbids calling an entry point.
        self.callable_id: int | None = None
        self.fdef = None
        self.cloned = False
        self.fp16 = False  # cl_khr_fp16 enabled where the definition starts


class ErrorLimitReached(Exception):
    """Code generation stops: ``-ferror-limit`` errors have been reported (clang's "too many
    errors emitted, stopping now")."""


class CodeGen(ExpressionsMixin, InitializersMixin, BuiltinsMixin, GroupsMixin, NonUniformMixin, ImagesMixin,
              PipesMixin, BlocksMixin, EnqueueMixin):
    def __init__(self, unit, *, cl_std: int = 120, version=(1, 0), single_precision_constants: bool = False,
                 debug: bool = False, fp64: bool = True, error_limit: int = 20, explicit_version: bool = False):
        self.unit = unit
        self.error_limit = error_limit  # -ferror-limit=N (0: no limit)
        self.debug = debug  # -g: an OpLine before each statement's code
        self.cl_std = cl_std
        self.fp64 = fp64  # cl_khr_fp64 supported (clang: -cl-ext=-cl_khr_fp64 takes double away)
        self.single_precision_constants = single_precision_constants
        self.b = ModuleBuilder(version)
        self._switch_labels: dict = {}   # id(case or default node) -> its block label
        self.version = version
        self.diagnostics = []
        self.warnings = []
        self.emitting_clone = False
        self.statement_start = None  # location of the expression statement being compiled
        self.globals = Scope()
        for name, value in PREDEFINED_ENUMS.items():
            self.globals.names[name] = Symbol(name, "enumconst", INT, value)
        self.types = TypeResolver(self)
        self.functions: dict[str, FuncInfo] = {}
        self.kernels: list[FuncInfo] = []
        self.builtin_vars: dict[str, int] = {}
        self.module_vars: list[int] = []
        self.uses_half_values = False
        self.uses_int64_atomics = False
        self.uses_groups = False  # OpGroup* collectives need the Groups capability
        # The GroupNonUniform* capabilities the cl_khr_subgroup_* built-ins used; they raise the
        # module to SPIR-V 1.3 unless --spirv-version chose the version (builtins_non_uniform.py).
        self.non_uniform_capabilities: set[str] = set()
        self.explicit_version = explicit_version
        # cl_khr_subgroups: its built-ins exist from OpenCL C 2.0 where the extension is supported
        # (the preprocessor's set after -cl-ext edits; a unit built by hand has them all).
        exts = unit.supported_extensions
        self.subgroups = cl_std >= 200 and (exts is None or "cl_khr_subgroups" in exts)
        self.f = None  # the FunctionBuilder being filled
        self.fn_info = None
        self.scope = self.globals
        # A function's statement state (reset per function definition; a program-scope block
        # literal is compiled before any, blocks.program_block_literal).
        self.fn_scope = None
        self.loops: list[tuple[int, int | None]] = []
        self.labels: dict[str, int] = {}
        self.gotos, self.placed_labels, self.known_conditions = {}, set(), {}
        self.contract_off = False
        # half values need cl_khr_fp16 (§1.1.1, §1.9 #12), enabled by its pragma from where the
        # pragma is onward (until "disable", or "all : disable"), as in clang: the generator
        # walks declarations and statements in source order and applies each pragma it meets.
        self.fp16 = False
        self.ext = self.b.ext_inst_import("OpenCL.std")
        # Blocks (blocks.py): the literal each block variable holds (by its OpVariable), the
        # invoke functions named per function, the pointers to captured copies (read-only).
        self.block_vars: dict = {}
        self.block_counts: dict[str, int] = {}
        self.captured_ptrs: set[int] = set()
        self.block_kernels: list[tuple[int, str]] = []  # enqueued blocks' wrapper kernels (enqueue.py)

    # -- errors -----------------------------------------------------------------------------

    def is_half_valued(self, t) -> bool:
        """Whether ``t`` holds half values that cl_khr_fp16 must be enabled for."""
        while t.is_array:
            t = t.elem
        return not self.fp16 and (t.is_scalar or t.is_vector) and t.element.kind == "float" and t.element.bits == 16

    def check_half_variable(self, t, node, parameter: bool = False) -> None:
        if self.is_half_valued(t):
            raise SemaError(f"declaring function parameter of type '{t}' is not allowed; did you forget * ?"
                            if parameter else f"declaring variable of type '{t}' is not allowed", node)

    def check_signature(self, t: Function, decl, is_kernel: bool) -> None:
        """The rules on a function's declarator, for declarations and definitions alike (clang's
        errors): no half result or parameters without cl_khr_fp16 (the stray space before ';' is
        clang's), no address-space qualified parameters; a kernel returns void, is not static,
        and its parameters follow §1.9 (check_kernel_param)."""
        if self.is_half_valued(t.result):
            raise SemaError(f"declaring function return value of type '{t.result}' is not allowed ; did you "
                            "forget * ?", decl)
        written = getattr(getattr(decl, "type", None), "result", None)
        if t.result.is_pipe and getattr(written, "access", None) is not None:   # clang: at the qualifier
            raise SemaError(f"'{written.access}' attribute only applies to parameters and typedefs", written)
        if t.result.is_opaque:  # §6.12.14 (the trailing space is clang's)
            raise SemaError(f"declaring function return value of type '{t.result}' is not allowed ", decl)
        if not is_kernel:
            for attr in decl.attributes or ():
                name = attr.name.strip("_")
                if name in ("reqd_work_group_size", "work_group_size_hint", "vec_type_hint"):
                    raise SemaError(f"attribute '{name}' can only be applied to an OpenCL kernel function", decl)
        if is_kernel:
            if t.result != VOID:
                raise SemaError("kernel must have void return type", decl)
            if "static" in decl.storage:
                raise SemaError("kernel functions cannot be declared static", decl)
        fnode = decl.type
        while isinstance(fnode, ast.PointerType):
            fnode = fnode.pointee
        if not isinstance(fnode, ast.FunctionType):
            return
        for p, pt in zip(fnode.params, t.params):
            self.check_half_variable(pt, p, parameter=True)
            _, q = self.types.declarator(p.type, self.globals)
            if q["space"] not in (None, "private"):
                raise SemaError("parameter may not be qualified with an address space", p)
            if is_kernel:
                self.check_kernel_param(p, pt)

    def warn(self, message: str, node, option: str | None = None) -> None:
        """A warning (compile_cl applies -w and -Werror to these)."""
        if self.emitting_clone:  # the callable copy of a kernel repeats the kernel's warnings
            return
        self.warnings.append(located_diagnostic("warning", message, getattr(node, "loc", None),
                                                getattr(node, "expansion", None), option))

    def error(self, exc: SemaError) -> None:
        node = exc.node
        loc = getattr(node, "loc", None)
        d = located_diagnostic("error", exc.message, loc, getattr(node, "expansion", None),
                               getattr(exc, "option", None))
        for text, where in getattr(exc, "notes", ()):
            if getattr(where, "loc", None) is not None:
                d.notes.append(Note(text, expansion_location(where.loc, getattr(where, "expansion", None))))
        if getattr(exc, "fixit", None) is not None and getattr(node, "expansion", None) is None:
            d.fixit = exc.fixit
        self.diagnostics.append(d)
        if self.error_limit and len(self.diagnostics) >= self.error_limit:
            self.diagnostics.append(Diagnostic("fatal error", "too many errors emitted, stopping now", None,
                                               option="-ferror-limit="))
            raise ErrorLimitReached

    # -- SPIR-V types -----------------------------------------------------------------------

    def spv(self, t: CType, mem: bool = False) -> int:
        """The SPIR-V type id of a C type; ``mem``: its in-memory form (bool is a byte there)."""
        b = self.b
        if isinstance(t, Scalar):
            if t.kind == "void":
                return b.type_void()
            if t.kind == "bool":
                return b.type_int(8) if mem else b.type_bool()
            if t.kind == "float":
                return b.type_float(t.bits)
            return b.type_int(t.bits)
        if isinstance(t, Vector):
            return b.type_vector(self.spv(t.elem), t.n)
        if isinstance(t, Pointer):
            pointee = t.pointee
            pending = getattr(pointee, "_spv_pending", None)
            if pending is not None and pending[0] is b:
                # A pointer to a struct being declared (a list or tree node's link): forward-declared.
                storage = STORAGE_CLASS[t.space]
                if storage not in pending[1]:
                    pending[1][storage] = b.forward_pointer(storage)
                return pending[1][storage]
            inner = b.type_int(8) if (pointee.is_void or pointee.is_function) else self.spv(pointee, True)
            return b.type_pointer(STORAGE_CLASS[t.space], inner)
        if isinstance(t, Array):
            return b.type_array(self.spv(t.elem, True), t.length or 1)
        if isinstance(t, Record):
            return self.record_type(t)
        if isinstance(t, EventType):
            return b.type_event()
        if isinstance(t, Atomic):
            return self.spv(t.value, mem)
        if isinstance(t, Image):  # the OpenCL environment's form: void sampled type, Sampled 0, Unknown format
            g = t.geometry
            return b.type_image(b.type_void(), g.dim, g.depth, g.arrayed, 0, 0, "Unknown", ACCESS_QUALIFIER[t.access])
        if isinstance(t, SamplerType):
            return b.type_sampler()
        if isinstance(t, PipeType):
            return b.type_pipe(ACCESS_QUALIFIER[t.access])
        if isinstance(t, ReserveIdType):
            return b.type_reserve_id()
        if isinstance(t, Block):  # a Generic pointer to the literal (blocks.py)
            return self.block_value_type()
        if isinstance(t, (QueueType, DeviceEventType)):
            return self.enqueue_spv(t)
        raise SemaError(f"type '{t}' cannot be used here")

    def record_type(self, rec: Record) -> int:
        if not rec.complete:
            raise SemaError(f"incomplete type '{rec}'")
        cache = getattr(rec, "_spv", None)
        if cache is not None and cache[0] is self.b:
            return cache[1]
        if rec.kind == "union":
            # A union is its largest-aligned member padded to the union's size (as clang
            # lays it out); members are reached by pointer casts.
            members = [self.b.type_array(self.b.type_int(8), rec.size)] if rec.size else []
            if rec.align > 1 and rec.size % rec.align == 0 and rec.size:
                word = {2: 16, 4: 32, 8: 64}.get(min(rec.align, 8), 8)
                members = [self.b.type_array(self.b.type_int(word), rec.size * 8 // word)]
        else:
            rec._spv_pending = (self.b, {})
            try:
                members = [self.spv(ft, True) for _, ft, _ in rec.fields]
            finally:
                forward = rec._spv_pending[1]
                rec._spv_pending = None
        tid = self.b.type_struct(members, unique=id(rec))
        rec._spv = (self.b, tid)
        if rec.kind != "union":
            for storage, pid in forward.items():
                self.b.type_pointer(storage, tid, forward=pid)
        if rec.name:
            self.b.name(tid, f"struct.{rec.name}" if rec.kind == "struct" else f"union.{rec.name}")
        if rec.packed:
            # Kernel modules have no Offset decorations: the consumer lays structs out as C
            # does; CPacked says "no padding".
            self.b.decorate(tid, "CPacked")
        return tid

    def ptr_type(self, pointee: CType, space: str) -> int:
        return self.spv(Pointer(pointee, space))

    # -- constants --------------------------------------------------------------------------

    def const(self, t: CType, value) -> Val:
        if t.is_vector:
            part = self.b.constant(self.spv(t.elem), value)
            return Val(t, self.b.constant_composite(self.spv(t), [part] * t.n), value)
        if t == BOOL:
            return Val(t, self.b.constant_bool(bool(value)), bool(value))
        if t.is_pointer:
            return Val(t, self.b.constant_null(self.spv(t)), 0)
        if t.is_float:
            value = float(value)
        else:
            value = folded_int(value)
            bits = t.bits
            value &= (1 << bits) - 1
            if t.signed and value >> (bits - 1):
                value -= 1 << bits
        return Val(t, self.b.constant(self.spv(t), value), value)

    def u32(self, value: int) -> int:
        return self.b.constant(self.b.type_int(32), value)

    # -- the translation unit ---------------------------------------------------------------

    def compile(self) -> None:
        try:
            self.compile_declarations()
        except ErrorLimitReached:
            pass

    def compile_declarations(self) -> None:
        for decl in self.unit.decls:
            try:
                if isinstance(decl, ast.FunctionDef):
                    self.function_definition(decl)
                elif isinstance(decl, ast.Decl):
                    self.global_declaration(decl)
                elif isinstance(decl, ast.StaticAssert):
                    self.static_assert(decl, self.globals)
                elif isinstance(decl, ast.Pragma):
                    self.stmt_Pragma(decl)
            except SemaError as exc:
                self.error(exc)
            except RecursionError:
                # Expressions nested past what the code generator's recursion can hold (the
                # parser's bracket and statement limits do not cover operator chains such as
                # 20,000 unary minuses): located at the declaration, which gets no code.
                self.error(SemaError("expression nesting too deep for the compiler", decl))
            except (SpirvkitError, ErrorLimitReached):
                raise
            except Exception as exc:  # a compiler bug: a located error, never a traceback
                self.error(SemaError(f"internal compiler error ({type(exc).__name__}: {exc}); please "
                                     "report this", decl))
        self.emit_called_kernels()
        self.check_recursion()
        self.finish_module()

    def emit_called_kernels(self) -> None:
        """The plain-function copies of kernels that kernels call (calls may add more)."""
        while True:
            todo = [i for i in self.functions.values() if i.callable_id and i.fdef is not None and not i.cloned]
            if not todo:
                return
            for info in todo:
                info.cloned = True
                try:
                    self.function_definition(info.fdef, clone=True)
                except SemaError:
                    pass  # its errors were reported when the kernel itself was compiled

    def static_assert(self, node, scope) -> None:
        if not self.const_int(node.cond, scope):
            msg = node.message.value if node.message is not None else b""
            msg = msg.decode("utf-8", "replace") if isinstance(msg, bytes) else msg
            raise SemaError(f"static assertion failed{': ' + msg if msg else ''}", node)

    def decl_type(self, decl, scope):
        try:
            return self.types.declarator(decl.type, scope)
        except SemaError as exc:
            if getattr(exc, "pipe_array", None) is not None and isinstance(decl.type, ast.ArrayType) and \
                    "typedef" not in decl.storage:
                raise self.pipe_array_variable(decl, exc.pipe_array, scope) from None
            if getattr(exc, "at_name", False) and decl.name is not None:
                exc.node = decl
            raise

    @staticmethod
    def define_typedef(scope, decl, t, q: dict) -> None:
        old = scope.names.get(decl.name)
        if old is not None and old.node is not decl:  # C11 allows only an identical redefinition
            if old.kind != "typedef":
                raise SemaError(f"redefinition of '{decl.name}' as different kind of symbol", decl)
            if old.type != t:
                raise SemaError(f"typedef redefinition with different types ('{t}' vs '{old.type}')", decl)
        # the typedef's own qualifiers (`typedef __local int lint;`) qualify what it declares
        scope.names[decl.name] = Symbol(decl.name, "typedef", t, value=q, node=decl)
        if t.is_record and not t.name and getattr(t, "typedef_name", None) is None:
            t.typedef_name = decl.name  # C: "the typedef name for linkage purposes"; clang prints it

    def global_declaration(self, decl) -> None:
        if _declares_printf(decl):
            return  # the built-in's own prototype (§1.9 #5 lets printf be variadic): calls use the built-in
        t, q = self.decl_type(decl, self.globals)
        if "typedef" in decl.storage:
            self.define_typedef(self.globals, decl, t, q)
            return
        if decl.name is None:
            return  # "struct S {...};": the tag is declared by the type resolution
        if t.is_block:
            self.check_block_declaration(decl, program_scope=True)
            self.program_block_variable(decl, t)
            return
        if t.is_function:
            self.check_signature(t, decl, "kernel" in decl.funcspecs)
            self.declare_function(decl.name, t, decl, "kernel" in decl.funcspecs)
            return
        old = self.globals.names.get(decl.name)
        if old is not None and old.node is not decl:
            previous = [("previous definition is here", old.node)]
            if old.kind != "var":
                raise SemaError(f"redefinition of '{decl.name}' as different kind of symbol", decl, notes=previous)
            if old.node is not None and old.node.init is not None and decl.init is not None:
                raise SemaError(f"redefinition of '{decl.name}'", decl, notes=previous)
        self.check_half_variable(t, decl)
        if t.is_opaque:
            self.opaque_declaration(decl, t, q, self.globals, program_scope=True)
            return
        if isinstance(_innermost(t), EventType):  # §1.9 #16
            raise SemaError(f"the '{_innermost(t)}' type cannot be used to declare a program scope variable", decl)
        if isinstance(_innermost(t), DeviceEventType):  # §6.13.17 (as event_t, with the space)
            raise SemaError(f"the '__global {_innermost(t)}' type cannot be used to declare a program scope variable",
                            decl)
        if isinstance(_innermost(t), QueueType):  # (clang-15 accepts it)
            raise not_supported("a program-scope 'queue_t' variable", decl)
        if isinstance(_innermost(t), ReserveIdType):  # §6.13.16 (clang names its address space here)
            raise SemaError(f"the '__global {_innermost(t)}' type cannot be used to declare a program scope "
                            "variable", decl)
        space = q["space"] or ("global" if self.cl_std >= 200 else "private")
        if not (space == "constant" or (space == "global" and self.cl_std >= 200)):
            raise SemaError(f"{'extern' if 'extern' in decl.storage else 'program scope'} variable must reside in "
                            f"{'global or constant' if self.cl_std >= 200 else 'constant'} address space", decl)
        if t == VOID or (t.is_record and not t.complete):   # (clang names the address space)
            raise SemaError(f"variable has incomplete type '__{space} {t}'", decl)
        if space == "constant" and decl.init is None and "extern" not in decl.storage:
            raise SemaError("variable in constant address space must be initialized", decl)
        if t.is_array and t.length is None and isinstance(decl.init, (ast.InitList, ast.StringLiteral)):
            t = Array(t.elem, self.init_length(decl.init, t))
        if t.is_atomic and decl.init is not None:
            self.check_atomic_init(t, space, decl.init)
        init = self.constant_initializer(decl.init, t, self.globals) if decl.init is not None else None
        if init is None and space == "global":
            init = self.b.constant_null(self.spv(t, True))
        var = self.b.global_variable(self.ptr_type(t, space), STORAGE_CLASS[space], init, decl.name)
        self.module_vars.append(var)
        self.b.decorate(var, "Alignment", max(t.align, 1))
        if space == "constant":
            self.b.decorate(var, "Constant")
        self.globals.names[decl.name] = Symbol(decl.name, "var", t, var, space, decl,
                                               const=q["const"] or space == "constant")

    @staticmethod
    def check_atomic_init(t, space, init) -> None:
        """§6.13.11.1: an atomic object is initialised (with ATOMIC_VAR_INIT) only in the global
        address space — program scope or static; clang's errors, at the initialiser."""
        if isinstance(init, ast.InitList):
            spelled = f"__{space} {t}" if space != "private" else str(t)
            raise SemaError(f"illegal initializer type '{spelled}'", init)
        if space != "global":
            from .codegen_expr import expr_start
            raise SemaError("atomic variable can be initialized to a variable only in global address space",
                            expr_start(init))

    def declare_function(self, name, t: Function, node, is_kernel) -> FuncInfo:
        overloadable = any(a.name in ("overloadable", "__overloadable__") for a in node.attributes or ())
        old = self.globals.names.get(name)
        # clang's __attribute__((overloadable)): one name, a function per parameter list (calls
        # choose among them as among the built-ins' overloads); at most one of them may be
        # declared without the attribute, and it keeps the plain name.
        key = f"{name}({', '.join(str(p) for p in t.params)})" if overloadable else name
        if overloadable and old is not None and old.kind == "func":
            self.globals.names[name] = Symbol(name, "overloads", old.type, [old.value], node=old.node)
        elif overloadable and old is None:
            self.globals.names[name] = Symbol(name, "overloads", t, [], node=node)
        info = self.functions.get(key)
        if info is None:
            info = FuncInfo(key, t, self.b.fresh_id(), node, is_kernel)
            self.functions[key] = info
            sym = self.globals.names.get(name)
            if sym is not None and sym.kind == "overloads":
                sym.value.append(info)
            else:
                self.globals.names[name] = Symbol(name, "func", t, info, node=node)
        elif info.type != t:
            raise SemaError(f"conflicting types for '{name}'", node)
        if name == "main":  # §1.9 #20
            raise SemaError(f"{'kernel' if is_kernel else 'function'} cannot be called 'main'", node)
        return info

    # -- functions --------------------------------------------------------------------------

    def function_definition(self, fd, clone: bool = False) -> None:
        decl = fd.decl
        scope = Scope(self.globals)
        ftype, _ = self.decl_type(decl, self.globals)
        fnode = decl.type
        while isinstance(fnode, ast.PointerType):
            fnode = fnode.pointee
        if clone:  # the callable copy of a kernel: no entry point, arguments passed plainly
            info, is_kernel = self.functions[decl.name], False
            fid = info.callable_id
            saved_diagnostics, self.diagnostics = self.diagnostics, []
            self.emitting_clone = True
            saved_fp16, self.fp16 = self.fp16, info.fp16  # the pragma state where it was written
        else:
            is_kernel = "kernel" in decl.funcspecs
            info = self.declare_function(decl.name, ftype, decl, is_kernel)
            if info.defined:
                raise SemaError(f"redefinition of '{decl.name}'", decl)
            info.defined = True
            info.is_kernel = is_kernel
            info.fdef = fd
            info.fp16 = self.fp16
            fid = info.id
        try:
            self.function_body(fd, decl, ftype, fnode, info, fid, scope, is_kernel)
        finally:
            if clone:
                self.diagnostics = saved_diagnostics
                self.emitting_clone = False
                self.fp16 = saved_fp16

    def function_body(self, fd, decl, ftype, fnode, info, fid, scope, is_kernel) -> None:
        self.check_signature(ftype, decl, "kernel" in decl.funcspecs)  # (a kernel's callable copy too)
        param_nodes = fnode.params if isinstance(fnode, ast.FunctionType) else []
        if len(param_nodes) == 1 and param_nodes[0].name is None and ftype.params == ():
            param_nodes = []
        param_types = []
        byval = []
        for p, pt in zip(param_nodes, ftype.params):
            if pt.is_record and not pt.complete:
                raise SemaError(f"variable has incomplete type '{pt}'", p)
            if pt.is_record and is_kernel:
                param_types.append(self.ptr_type(pt, "private"))
                byval.append(True)
            else:
                param_types.append(self.spv(pt))
                byval.append(False)
        self.f = self.b.function(self.spv(ftype.result), param_types, name=decl.name, id=fid)
        self.fn_info = info
        self.scope = self.fn_scope = scope  # the kernel's outermost scope (§1.5 local/constant)
        self.labels = {}
        self.gotos, self.placed_labels = {}, set()
        self.known_conditions = {}  # id(statement) -> a condition's value known at compile time
        self.loops = []
        for p, pt, pid, bv in zip(param_nodes, ftype.params, self.f.params, byval):
            if p.name:
                self.b.name(pid, p.name)
            if pt.is_opaque:
                var = pid  # an image or sampler is a value, never stored (codegen_expr.lvalue)
            elif bv:
                self.b.decorate(pid, "FuncParamAttr", self.b.enum("FunctionParameterAttribute", "ByVal"))
                var = pid
            else:
                var = self.f.variable(self.ptr_type(pt, "private"))
                self.store(LVal(pt, var, "private"), Val(pt, pid))
            if p.name:
                if p.name in scope.names:
                    raise SemaError(f"redefinition of parameter '{p.name}'", p)
                _, q = self.types.declarator(p.type, self.globals)
                scope.names[p.name] = Symbol(p.name, "var", pt, var, "private", p, const=q["const"])
        if is_kernel:
            self.kernel_metadata(info, decl, ftype, param_nodes)
        self.statement_list(fd.body.items)
        for name, node in self.gotos.items():
            if name not in self.placed_labels:
                self.error(SemaError(f"use of undeclared label '{name}'", node))
        self.check_return_type(fd, ftype)
        if not self.f.terminated:
            if ftype.result == VOID:
                self.f.ret()
            else:
                self.f.ret(self.b.undef(self.spv(ftype.result)))
        self.f.finish()
        self.f = None
        self.scope = self.globals

    def check_return_type(self, fd, ftype) -> None:
        """clang's -Wreturn-type: the end of a non-void function is reachable. As in clang, not
        after an error (the control flow of a broken body means little)."""
        if ftype.result == VOID or self.diagnostics or fd.body.end is None:
            return
        verdict = fall_through(fd.body, self.known_conditions)
        if verdict == NEVER:
            return
        message = "non-void function does not return a value"
        self.warn(message + (" in all control paths" if verdict == MAYBE else ""), fd.body.end, "-Wreturn-type")

    def flow_condition(self, node):
        """A condition's truth value when known at compile time, else None (clang's CFG
        tryEvaluateBool: constant folding, and ``x || 1`` / ``x && 0`` decided by one side)."""
        while isinstance(node, ast.Paren):
            node = node.expr
        if isinstance(node, ast.BinaryOp) and node.op in ("&&", "||"):
            lhs, rhs = self.flow_condition(node.lhs), self.flow_condition(node.rhs)
            decisive = node.op == "||"
            if lhs is not None:
                if lhs == decisive:
                    return lhs
                return None if rhs is None else rhs
            return rhs if rhs == decisive else None
        value = self.flow_constant(node)
        return None if value is None else bool(value)

    def flow_constant(self, node):
        """The value of a constant expression, or None; never reports anything."""
        if self.f is None:
            return None
        errors, warnings = len(self.diagnostics), len(self.warnings)
        try:
            return self.const_eval(node, self.scope)
        except (SemaError, SpirvkitError, AttributeError, TypeError, ValueError):
            return None
        finally:
            del self.diagnostics[errors:], self.warnings[warnings:]

    def check_kernel_param(self, p, t: CType) -> None:
        """§1.9 #1, #11, #16 as clang checks them (Sema's getOpenCLKernelParameterType): a
        pointer's pointee is global, constant or local, also through a pointer to a pointer
        (which §1.9 forbids in every version; clang-15 allows it from 2.0 on); no bool, size_t,
        ptrdiff_t, intptr_t, uintptr_t or event_t, nor a struct or union holding one (at any
        depth, arrays included) or holding a pointer."""
        if isinstance(t, DeviceEventType):  # (clang-15 accepts it; the SPIR-V environment has no such argument)
            raise not_supported("a 'clk_event_t' kernel parameter", p)
        kind = _kernel_param_kind(t)
        if kind == "space":
            raise SemaError("pointer arguments to kernel functions must reside in '__global', "
                            "'__constant' or '__local' address space", p)
        if kind == "pointer to pointer":
            raise SemaError("kernel parameter cannot be declared as a pointer to a pointer", p)
        if kind == "invalid":
            raise SemaError(f"'{_written_type(p, t)}' cannot be used as the type of a kernel parameter", p)
        if kind == "record":
            todo, seen = [t], set()
            while todo:
                rec = todo.pop()
                if id(rec) in seen:
                    continue
                seen.add(id(rec))
                for _, ft, _ in rec.fields or ():
                    while ft.is_array:
                        ft = ft.elem
                    field_kind = _kernel_param_kind(ft)
                    if field_kind == "record":
                        todo.append(ft)
                    elif field_kind in ("pointer", "space", "pointer to pointer"):
                        raise SemaError(f"{t.kind} kernel parameters may not contain pointers", p)
                    elif field_kind == "invalid":
                        raise SemaError(f"'{_written_type(p, t)}' cannot be used as the type of a kernel "
                                        "parameter", p)

    def _typedef_node(self, name: str):
        """The AST type a file-scope typedef name stands for (None: no such typedef)."""
        sym = self.globals.names.get(name)
        return sym.node.type if sym is not None and sym.kind == "typedef" else None

    def kernel_metadata(self, info, decl, ftype, params) -> None:
        self.kernels.append(info)
        fid = info.id
        types = "".join(unqualified_name(t) + "," for t in ftype.params)
        self.b.string(f"kernel_arg_type.{decl.name}.{types}")
        quals = "".join(type_qualifiers(p.type, self._typedef_node) + "," for p in params)
        self.b.string(f"kernel_arg_type_qual.{decl.name}.{quals}")
        applied: dict[str, list[int]] = {}
        for attr in decl.attributes or ():
            name = attr.name.strip("_")
            args = attr.args or []
            if name in ("reqd_work_group_size", "work_group_size_hint"):
                vals = [self.const_int(a, self.globals) for a in args]
                if len(vals) != 3:
                    raise SemaError(f"'{attr.name}' attribute requires exactly 3 arguments", attr)
                if any(v <= 0 for v in vals):
                    raise SemaError(f"'{attr.name}' attribute must be greater than 0", attr)
                if name in applied:   # clang keeps the first (one execution mode per entry point)
                    if applied[name] != vals:
                        self.warn(f"attribute '{name}' is already applied with different arguments", attr,
                                  "-Wignored-attributes")
                    continue
                applied[name] = vals
                self.b.execution_mode(fid, "LocalSize" if name == "reqd_work_group_size" else "LocalSizeHint",
                                      *vals)
            elif name == "vec_type_hint":
                hint = args[0] if args else None
                t = None
                if isinstance(hint, ast.TypeName):
                    t, _ = self.types.declarator(hint.type, self.globals)
                elif isinstance(hint, ast.Identifier):
                    t = type_from_name(hint.name)
                if t is None or not (t.is_vector or t.is_scalar) or t.is_void or t.element.kind == "bool":
                    raise SemaError("a non-vector or non-vectorizable scalar type is an invalid argument to "
                                    "attribute 'vec_type_hint'", attr)
                elem = t.element
                code = {8: 0, 16: 1, 32: 2, 64: 3}[elem.bits] if elem.kind == "int" else \
                    {16: 4, 32: 5, 64: 6}[elem.bits]
                self.b.execution_mode(fid, "VecTypeHint", (t.width << 16) | code)
        if self.contract_off:
            self.b.execution_mode(fid, "ContractionOff")

    # -- statements -------------------------------------------------------------------------

    def statement_list(self, items) -> None:
        for item in items:
            try:
                self.statement(item)
            except SemaError as exc:
                self.error(exc)

    def statement(self, s) -> None:
        kind = type(s).__name__
        loc = s.loc
        if self.debug and loc is not None and not self.f.terminated and kind not in ("Compound", "NullStmt"):
            self.f.op("OpLine", None, self.b.string(loc.file), loc.line, loc.col)
        handler = getattr(self, "stmt_" + kind, None)
        if handler is None:
            raise not_supported(f"statement '{kind}'", s)
        handler(s)

    def stmt_Compound(self, s) -> None:
        saved = self.scope
        self.scope = Scope(saved)
        try:
            self.statement_list(s.items)
        finally:
            self.scope = saved

    def stmt_NullStmt(self, s) -> None:
        pass

    def stmt_Pragma(self, s) -> None:
        if s.kind == "fp_contract":
            self.contract_off = s.value == "OFF"
        elif s.kind == "extension" and (s.name == "cl_khr_fp16" or (s.name == "all" and not s.value)):
            self.fp16 = bool(s.value)

    def stmt_StaticAssert(self, s) -> None:
        self.static_assert(s, self.scope)

    def stmt_ExprStmt(self, s) -> None:
        # An undeclared name that starts a statement is corrected more strictly (clang's typo
        # correction at a statement start is not its delayed one in expressions).
        self.statement_start = s.loc
        self.expr(s.expr, discard=True)

    def stmt_DeclStmt(self, s) -> None:
        for d in s.decls:
            if isinstance(d, ast.StaticAssert):  # the parser reads it where declarations go
                self.static_assert(d, self.scope)
            else:
                self.local_declaration(d)

    def stmt_If(self, s) -> None:
        self.known_conditions[id(s)] = self.flow_condition(s.cond)
        c = self.cond(s.cond)
        then_l, end_l = self.f.new_label(), self.f.new_label()
        else_l = self.f.new_label() if s.else_ is not None else end_l
        self.f.op("OpBranchConditional", None, c, then_l, else_l)
        self.f.start_block(then_l)
        self.statement(s.then)
        self.f.branch(end_l)
        if s.else_ is not None:
            self.f.start_block(else_l)
            self.statement(s.else_)
            self.f.branch(end_l)
        self.f.start_block(end_l)

    def _loop(self, cond, body, step, test_first: bool) -> None:
        f = self.f
        head, body_l, cont, end = f.new_label(), f.new_label(), f.new_label(), f.new_label()
        f.branch(head if test_first else body_l)
        if test_first:
            f.start_block(head)
            if cond is not None:
                f.op("OpBranchConditional", None, self.cond(cond), body_l, end)
            else:
                f.branch(body_l)
        self.loops.append((end, cont))
        f.start_block(body_l)
        try:
            self.statement(body)
        finally:
            self.loops.pop()
        f.branch(cont)
        f.start_block(cont)
        if test_first:
            if step is not None:
                self.expr(step, discard=True)
            f.branch(head)
        else:
            f.op("OpBranchConditional", None, self.cond(cond), body_l, end)
        f.start_block(end)

    def stmt_While(self, s) -> None:
        self.known_conditions[id(s)] = self.flow_condition(s.cond)
        self._loop(s.cond, s.body, None, True)

    def stmt_DoWhile(self, s) -> None:
        self._loop(s.cond, s.body, None, False)
        self.known_conditions[id(s)] = self.flow_condition(s.cond)

    def stmt_For(self, s) -> None:
        saved = self.scope
        self.scope = Scope(saved)
        try:
            if isinstance(s.init, ast.DeclStmt):
                self.stmt_DeclStmt(s.init)
            elif isinstance(s.init, list):
                for d in s.init:
                    self.local_declaration(d)
            elif s.init is not None:
                self.expr(s.init, discard=True)
            if s.cond is not None:
                self.known_conditions[id(s)] = self.flow_condition(s.cond)
            self._loop(s.cond, s.body, s.step, True)
        finally:
            self.scope = saved

    def stmt_Break(self, s) -> None:
        if not self.loops:
            raise SemaError("'break' statement not in loop or switch statement", s)
        self.f.branch(self.loops[-1][0])

    def stmt_Continue(self, s) -> None:
        conts = [c for _, c in self.loops if c is not None]
        if not conts:
            raise SemaError("'continue' statement not in loop statement", s)
        self.f.branch(conts[-1])

    def stmt_Return(self, s) -> None:
        if self.block_ctx is not None:
            self.block_return(s)
            return
        rt = self.fn_info.type.result
        if s.value is None:
            if rt != VOID:
                raise SemaError(f"non-void function '{self.fn_info.name}' should return a value", s, "-Wreturn-type")
            self.f.ret()
            return
        v = self.expr(s.value)
        if rt == VOID:
            if v.type != VOID:
                raise SemaError(f"void function '{self.fn_info.name}' should not return a value", s, "-Wreturn-type")
            self.f.ret()
            return
        check_implicit(v.type, rt, s.value, "returning", warn=self.warn)
        self.f.ret(self.convert(v, rt, s.value).id)

    def _label(self, name) -> int:
        if name not in self.labels:
            self.labels[name] = self.f.new_label()
        return self.labels[name]

    def stmt_Goto(self, s) -> None:
        self.gotos.setdefault(s.label, s)
        self.f.branch(self._label(s.label))

    def stmt_Label(self, s) -> None:
        if s.name in self.placed_labels:
            raise SemaError(f"redefinition of label '{s.name}'", s)
        self.placed_labels.add(s.name)
        label = self._label(s.name)
        self.f.branch(label)
        self.f.start_block(label)
        if s.body is not None:
            self.statement(s.body)

    def stmt_Switch(self, s) -> None:
        self.known_conditions[id(s)] = self.flow_constant(s.cond)
        sel = self.expr(s.cond)
        atomic = self.is_atomic_operand(sel, s.cond)
        if not (sel.type.is_scalar and sel.type.is_integer) or atomic:  # clang: at the 'switch'
            spelled = self.operand_spelling(sel, s.cond) if atomic else sel.type
            raise SemaError(f"statement requires expression of integer type ('{spelled}' invalid)", s)
        from .types import promote
        st = promote(sel.type)
        sel = self.convert(sel, st, s.cond)
        cases, default = [], None
        stack = [s.body]
        labels = {}
        while stack:  # the case labels of this switch (not of nested ones)
            n = stack.pop()
            if isinstance(n, ast.Switch):
                continue
            if isinstance(n, ast.Case):
                # As clang, the value converted to the (promoted) condition's type: 9223372036854775807L
                # in a switch on int is -1, so it may duplicate another case.
                value = self.const_int(n.value, self.scope) & ((1 << st.bits) - 1)
                if st.signed and value >> (st.bits - 1):
                    value -= 1 << st.bits
                self.known_conditions[id(n)] = value
                labels[id(n)] = self.f.new_label()
                cases.append((value, labels[id(n)], n))
            elif isinstance(n, ast.Default):
                if default is not None:
                    raise SemaError("multiple default labels in one switch", n)
                default = labels[id(n)] = self.f.new_label()
            if isinstance(n, ast.Node) and type(n).__name__ in ast.STATEMENT_KINDS:
                stack.extend(reversed([c for _, c in n.children()]))
        seen = set()
        for v, _, n in cases:
            if v in seen:
                raise SemaError(f"duplicate case value '{v}'", n.value)
            seen.add(v)
        cases = [(v, lab) for v, lab, _ in cases]
        end = self.f.new_label()
        targets = []
        for v, lab in cases:
            v &= (1 << st.bits) - 1
            targets += [v & 0xFFFFFFFF, v >> 32, lab] if st.bits == 64 else [v, lab]
        self.f.op("OpSwitch", None, sel.id, default or end, targets)
        self._switch_labels.update(labels)
        self.loops.append((end, None))
        try:
            self.statement(s.body)
        finally:
            self.loops.pop()
        self.f.branch(end)
        self.f.start_block(end)

    def _case_block(self, s) -> None:
        label = self._switch_labels.get(id(s))
        if label is None:
            raise SemaError(f"'{'case' if isinstance(s, ast.Case) else 'default'}' statement not in "
                            "switch statement", s)
        self.f.branch(label)
        self.f.start_block(label)
        if s.body is not None:
            self.statement(s.body)

    stmt_Case = _case_block
    stmt_Default = _case_block

    # -- local declarations -----------------------------------------------------------------

    def local_declaration(self, d) -> None:
        if _declares_printf(d):
            return
        t, q = self.decl_type(d, self.scope)
        if "typedef" in d.storage:
            self.define_typedef(self.scope, d, t, q)
            return
        if d.name is None:
            return
        if t.is_function:
            self.check_signature(t, d, "kernel" in d.funcspecs)
            self.declare_function(d.name, t, d, "kernel" in d.funcspecs)
            return
        if any(a.name.strip("_") == "blocks" for a in d.attributes or ()):  # `__block int x` (§6.12.5)
            self.error(SemaError("the __block storage type is not permitted", d))   # (declared still, as clang)
        if t.is_block:
            self.check_block_declaration(d, program_scope=False)
            self.block_variable(d, t)
            return
        if d.name in self.scope.names and self.scope.names[d.name].kind == "var":
            raise SemaError(f"redefinition of '{d.name}'", d)
        if t.is_array and t.length is None:
            if d.init is None:
                raise SemaError("definition of variable with array type needs an explicit size or an "
                                "initializer", d)
            t = Array(t.elem, self.init_length(d.init, t))
        if t.is_record and not t.complete:
            raise SemaError(f"variable has incomplete type '{t}'", d)
        if t == VOID:
            raise SemaError("variable has incomplete type 'void'", d)
        self.check_half_variable(t, d)
        if t.is_opaque:
            self.opaque_declaration(d, t, q, self.scope, program_scope=False)
            return
        # The address-space rules of clang's Sema (CheckVariableDeclarationType) with its errors,
        # in its order; auto/register were reported by the parser.
        written = q["space"]
        static, extern = "static" in d.storage, "extern" in d.storage
        if isinstance(t, EventType) and written not in (None, "private"):  # §1.9 #16, at the declaration's start
            raise SemaError("the event_t type can only be used with __private address space qualifier", d.type)
        if static and self.cl_std < 200:  # OpenCL C 1.2 §6.8: static only at program scope
            raise SemaError("variables in function scope cannot be declared static", d)
        if static or extern:
            space = written or ("global" if self.cl_std >= 200 else "private")
            if not (space == "constant" or (space == "global" and self.cl_std >= 200)):
                raise SemaError(f"{'extern' if extern else 'static local'} variable must reside in "
                                f"{'global or constant' if self.cl_std >= 200 else 'constant'} address space", d)
        else:
            space = written or "private"
            if space == "global":
                raise SemaError("function scope variable cannot be declared in global address space", d)
            if space in ("local", "constant"):
                if not self.fn_info.is_kernel:
                    raise SemaError(f"non-kernel function variable cannot be declared in {space} address space", d)
                if self.scope is not self.fn_scope:
                    raise SemaError(f"variables in the {space} address space can only be declared in the "
                                    "outermost scope of a kernel function", d)
            elif space != "private":
                raise SemaError("automatic variable qualified with an invalid address space", d)
        if extern and d.init is not None:
            raise SemaError("'extern' variable cannot have an initializer", d)
        if t.is_atomic and d.init is not None and space != "local":  # ('__local' ones: below)
            self.check_atomic_init(t, space, d.init)
        if space == "local":
            if d.init is not None:
                raise SemaError("'__local' variable cannot have an initializer", d)
            var = self.b.global_variable(self.ptr_type(t, "local"), "Workgroup", None, d.name)
            self.b.decorate(var, "Alignment", max(t.align, 1))
            self.module_vars.append(var)
        elif space in ("constant", "global"):
            if space == "constant" and d.init is None and not extern:
                raise SemaError("variable in constant address space must be initialized", d)
            init = self.constant_initializer(d.init, t, self.scope) if d.init is not None else \
                self.b.constant_null(self.spv(t, True))
            var = self.b.global_variable(self.ptr_type(t, space), STORAGE_CLASS[space], init, d.name)
            self.b.decorate(var, "Alignment", max(t.align, 1))
            if space == "constant":
                self.b.decorate(var, "Constant")
            self.module_vars.append(var)
            self.scope.names[d.name] = Symbol(d.name, "var", t, var, space, d, const=q["const"] or space == "constant")
            return
        else:
            var = self.f.variable(self.ptr_type(t, "private"))
            self.b.name(var, d.name)
        sym = Symbol(d.name, "var", t, var, space, d, const=q["const"])
        self.scope.names[d.name] = sym
        if d.init is not None:
            self.initialize(LVal(t, var, space), d.init, d)

    # -- module finish ----------------------------------------------------------------------

    def check_recursion(self) -> None:
        graph = {n: [c for c, _ in info.calls] for n, info in self.functions.items()}
        state: dict[str, int] = {}

        def visit(n, path):
            state[n] = 1
            for callee, node in self.functions[n].calls:
                if callee not in graph:
                    continue
                if state.get(callee) == 1:
                    raise SemaError(f"recursive call to '{callee}' is not allowed in OpenCL C", node)
                if state.get(callee) is None:
                    visit(callee, path + [callee])
            state[n] = 2

        for n in graph:
            if state.get(n) is None:
                try:
                    visit(n, [n])
                except SemaError as exc:
                    self.error(exc)
                    return
        for name, info in self.functions.items():
            for callee, node in info.calls:
                target = self.functions.get(callee)
                if target is not None and not target.defined:
                    self.error(SemaError(f"function '{callee}' is declared but never defined "
                                         "(not supported yet: linking)", node))
                    return

    def finish_module(self) -> None:
        b = self.b
        b.memory_model("Physical64", "OpenCL")
        interface = list(self.builtin_vars.values())
        if self.version >= (1, 4):
            interface += self.module_vars
        for info in self.kernels:
            b.entry_point("Kernel", info.id, info.name, interface)
        for fid, name in self.block_kernels:  # what OpEnqueueKernel launches (enqueue.py)
            b.entry_point("Kernel", fid, name, interface)
        b.source("OpenCL_C", {100: 100000, 110: 110000, 120: 120000, 200: 200000, 300: 300000}.get(
            self.cl_std, 120000))
        for cap in ("Addresses", "Linkage", "Kernel", "Int64"):
            b.capability(cap)
        for key in list(b.type_info.values()):
            if key[0] == "int" and key[1] in (8, 16):
                b.capability("Int8" if key[1] == 8 else "Int16")
            elif key[0] == "float" and key[1] == 64:
                b.capability("Float64")
            elif key[0] == "float" and key[1] == 16:
                b.capability("Float16" if self.uses_half_values else "Float16Buffer")
            elif key[0] == "vector" and key[2] in (8, 16):
                b.capability("Vector16")
            elif key[0] == "pointer" and key[1] == "Generic":
                b.capability("GenericPointer")
        if self.uses_int64_atomics:
            b.capability("Int64Atomics")
        if self.uses_device_enqueue or any(key[0] in ("queue", "device_event") for key in b.type_info.values()):
            b.capability("DeviceEnqueue")
        if self.uses_groups:
            b.capability("Groups")
        for cap in ("GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformArithmetic", "GroupNonUniformBallot",
                    "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative"):
            if cap in self.non_uniform_capabilities:
                b.capability(cap)
        for key in list(b.type_info.values()):  # images: the capabilities llvm-spirv-15 declares
            if key[0] == "image":
                b.capability("ImageBasic")
                if key[-1] == "ReadWrite":
                    b.capability("ImageReadWrite")
                if key[2] in ("1D", "Buffer"):
                    b.capability("Sampled1D" if key[2] == "1D" else "SampledBuffer")
        if self.uses_literal_sampler and self.drop_unused_samplers():
            # The OpenCL environment has LiteralSampler only with ImageBasic (spirv-val rejects it
            # alone): a kernel that passes a constant sampler to its own functions but reads no
            # image (buffer "images" of an image-processing library) still needs image support.
            b.capability("ImageBasic")
            b.capability("LiteralSampler")
        if any(key[0] in ("pipe", "reserve_id") for key in b.type_info.values()):
            b.capability("Pipes")

    def drop_unused_samplers(self) -> bool:
        """Removes the OpConstantSamplers no function uses (a header's program-scope samplers
        in a kernel that reads no image: clang emits nothing for them, and their LiteralSampler
        capability needs image support); True if some remain."""
        b = self.b
        opcode = b.opcode("OpConstantSampler")
        used = {w for inst in b.sections["functions"] for w in inst[1:]}
        kept = [inst for inst in b.sections["types_values"]
                if (inst[0] & 0xFFFF) != opcode or inst[2] in used]
        b.sections["types_values"] = kept
        return any((inst[0] & 0xFFFF) == opcode for inst in kept)


def _kernel_param_kind(t: CType) -> str:
    """clang's classification of a kernel parameter type: "pointer" (valid), "space" (a
    pointer into private or generic memory), "pointer to pointer", "invalid", "record" (check
    the fields) or "valid"."""
    if t.is_pointer:
        if t.space not in ("global", "local", "constant"):
            return "space"
        if t.pointee.is_pointer:
            inner = _kernel_param_kind(t.pointee)
            return inner if inner in ("space", "invalid") else "pointer to pointer"
        return "pointer"
    if t == BOOL or unqualified_name(t) in KERNEL_ARG_BANNED or isinstance(t, (EventType, ReserveIdType)):
        return "invalid"
    if t.is_record:
        return "record"
    return "valid"


def _written_type(p, t: CType) -> str:
    """The parameter's type as written (a typedef keeps its name, as clang prints it), without
    clang's address-space and 'aka' decorations."""
    from .ast_dump import base_type_to_str
    node = p.type
    if isinstance(node, ast.BaseType):
        words = [w for w in base_type_to_str(node).split() if w not in ("__private", "__read_only")]
        if words:
            return " ".join(words)
    return unqualified_name(t)


def _innermost(t: CType) -> CType:
    """The element type of an array (of arrays)."""
    while t.is_array:
        t = t.elem
    return t


def _declares_printf(decl) -> bool:
    """A prototype of printf (``int printf(constant char *, ...)``), which clang accepts."""
    return (decl.name == "printf" and "typedef" not in decl.storage and isinstance(decl.type, ast.FunctionType)
            and decl.type.variadic)
