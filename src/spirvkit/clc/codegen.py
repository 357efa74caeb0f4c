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
from .builtins_lower import BuiltinsMixin
from .codegen_expr import ExpressionsMixin, LVal, Val
from .codegen_init import InitializersMixin
from .sema import Scope, SemaError, Symbol, TypeResolver, check_implicit, not_supported
from .source import located_diagnostic
from .types import (BOOL, INT, STORAGE_CLASS, VOID, Array, CType, EventType, Function, Pointer,
                    Record, Scalar, Vector, type_from_name, unqualified_name)

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


class CodeGen(ExpressionsMixin, InitializersMixin, BuiltinsMixin, GroupsMixin):
    def __init__(self, unit, *, cl_std: int = 120, version=(1, 0), single_precision_constants: bool = False,
                 debug: bool = False):
        self.unit = unit
        self.debug = debug  # -g: an OpLine before each statement's code
        self.cl_std = cl_std
        self.single_precision_constants = single_precision_constants
        self.b = ModuleBuilder(version)
        self.version = version
        self.diagnostics = []
        self.warnings = []
        self.emitting_clone = False
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
        self.f = None  # the FunctionBuilder being filled
        self.fn_info = None
        self.scope = self.globals
        self.loops: list[tuple[int, int | None]] = []
        self.labels: dict[str, int] = {}
        self.contract_off = False
        # half values need cl_khr_fp16 (§1.1.1, §1.9 #12). Enabled anywhere counts as enabled
        # everywhere: the pragma's scope is not tracked per position.
        self.fp16 = any(e.name in ("cl_khr_fp16", "all") and e.enabled for e in unit.extensions or ())
        self.ext = self.b.ext_inst_import("OpenCL.std")

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

    def warn(self, message: str, node, option: str | None = None) -> None:
        """A warning (compile_cl applies -w and -Werror to these)."""
        if self.emitting_clone:  # the callable copy of a kernel repeats the kernel's warnings
            return
        self.warnings.append(located_diagnostic("warning", message, getattr(node, "loc", None),
                                                getattr(node, "expansion", None), option))

    def error(self, exc: SemaError) -> None:
        node = exc.node
        loc = getattr(node, "loc", None)
        self.diagnostics.append(located_diagnostic("error", exc.message, loc, getattr(node, "expansion", None)))

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
            inner = b.type_int(8) if (pointee.is_void or pointee.is_function) else self.spv(pointee, True)
            return b.type_pointer(STORAGE_CLASS[t.space], inner)
        if isinstance(t, Array):
            return b.type_array(self.spv(t.elem, True), t.length or 1)
        if isinstance(t, Record):
            return self.record_type(t)
        if isinstance(t, EventType):
            return b.type_event()
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
            members = [self.spv(ft, True) for _, ft, _ in rec.fields]
        tid = self.b.type_struct(members, unique=id(rec))
        rec._spv = (self.b, tid)
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
            value = int(value)
            bits = t.bits
            value &= (1 << bits) - 1
            if t.signed and value >> (bits - 1):
                value -= 1 << bits
        return Val(t, self.b.constant(self.spv(t), value), value)

    def u32(self, value: int) -> int:
        return self.b.constant(self.b.type_int(32), value)

    # -- the translation unit ---------------------------------------------------------------

    def compile(self) -> None:
        for decl in self.unit.decls:
            try:
                if isinstance(decl, ast.FunctionDef):
                    self.function_definition(decl)
                elif isinstance(decl, ast.Decl):
                    self.global_declaration(decl)
                elif isinstance(decl, ast.StaticAssert):
                    self.static_assert(decl, self.globals)
                elif isinstance(decl, ast.Pragma):
                    if decl.kind == "fp_contract":
                        self.contract_off = decl.value == "OFF"
            except SemaError as exc:
                self.error(exc)
            except (SpirvkitError, RecursionError):
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
        t, quals = self.types.declarator(decl.type, scope)
        return t, quals

    @staticmethod
    def define_typedef(scope, decl, t) -> None:
        old = scope.names.get(decl.name)
        if old is not None and old.node is not decl:  # C11 allows only an identical redefinition
            if old.kind != "typedef":
                raise SemaError(f"redefinition of '{decl.name}' as different kind of symbol", decl)
            if old.type != t:
                raise SemaError(f"typedef redefinition with different types ('{t}' vs '{old.type}')", decl)
        scope.names[decl.name] = Symbol(decl.name, "typedef", t, node=decl)

    def global_declaration(self, decl) -> None:
        t, q = self.decl_type(decl, self.globals)
        if "typedef" in decl.storage:
            self.define_typedef(self.globals, decl, t)
            return
        if decl.name is None:
            return  # "struct S {...};": the tag is declared by the type resolution
        if t.is_function:
            self.declare_function(decl.name, t, decl, "kernel" in decl.funcspecs)
            return
        self.check_half_variable(t, decl)
        space = q["space"] or "global"
        if space in ("local", "private"):
            raise SemaError(f"program scope variable must reside in {'global or ' if self.cl_std >= 200 else ''}"
                            "constant address space", decl)
        if space == "global" and self.cl_std < 200:
            raise SemaError("program scope variable must reside in constant address space", decl)
        if space == "constant" and decl.init is None and "extern" not in decl.storage:
            raise SemaError("variable in constant address space must be initialized", decl)
        if t.is_array and t.length is None and isinstance(decl.init, (ast.InitList, ast.StringLiteral)):
            t = Array(t.elem, self.init_length(decl.init, t))
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

    def declare_function(self, name, t: Function, node, is_kernel) -> FuncInfo:
        info = self.functions.get(name)
        if info is None:
            info = FuncInfo(name, t, self.b.fresh_id(), node, is_kernel)
            self.functions[name] = info
            self.globals.names[name] = Symbol(name, "func", t, info, node=node)
        elif info.type != t:
            raise SemaError(f"conflicting types for '{name}'", node)
        if name == "main":
            raise SemaError("'main' cannot be a function name in OpenCL", node)
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
        else:
            is_kernel = "kernel" in decl.funcspecs
            info = self.declare_function(decl.name, ftype, decl, is_kernel)
            if info.defined:
                raise SemaError(f"redefinition of '{decl.name}'", decl)
            info.defined = True
            info.is_kernel = is_kernel
            info.fdef = fd
            fid = info.id
        try:
            self.function_body(fd, decl, ftype, fnode, info, fid, scope, is_kernel)
        finally:
            if clone:
                self.diagnostics = saved_diagnostics
                self.emitting_clone = False

    def function_body(self, fd, decl, ftype, fnode, info, fid, scope, is_kernel) -> None:
        if is_kernel:
            if ftype.result != VOID:
                raise SemaError("kernel must have void return type", decl)
            if "static" in decl.storage:
                raise SemaError("kernel functions cannot be declared static", decl)
        param_nodes = fnode.params if isinstance(fnode, ast.FunctionType) else []
        if len(param_nodes) == 1 and param_nodes[0].name is None and ftype.params == ():
            param_nodes = []
        param_types = []
        byval = []
        for p, pt in zip(param_nodes, ftype.params):
            self.check_half_variable(pt, p, parameter=True)
            if is_kernel:
                self.check_kernel_param(p, pt)
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
        self.loops = []
        for p, pt, pid, bv in zip(param_nodes, ftype.params, self.f.params, byval):
            if p.name:
                self.b.name(pid, p.name)
            if bv:
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
        if not self.f.terminated:
            if ftype.result == VOID:
                self.f.ret()
            else:
                self.f.ret(self.b.undef(self.spv(ftype.result)))
        self.f.finish()
        self.f = None
        self.scope = self.globals

    def check_kernel_param(self, p, t: CType) -> None:
        if t.is_pointer:
            if t.pointee.is_pointer:
                raise SemaError("kernel parameter cannot be declared as a pointer to a pointer", p)
            if t.space not in ("global", "local", "constant"):
                raise SemaError("pointer arguments to kernel functions must reside in '__global', "
                                "'__constant' or '__local' address space", p)
            return
        spelled = unqualified_name(t)
        if t == BOOL or spelled in KERNEL_ARG_BANNED or isinstance(t, EventType):
            raise SemaError(f"'{spelled}' cannot be used as the type of a kernel parameter", p)
        if t.is_record:
            for _, ft, _ in t.fields or ():
                if ft == BOOL or unqualified_name(ft) in KERNEL_ARG_BANNED or ft.is_pointer:
                    raise SemaError(f"'{spelled}' cannot be used as the type of a kernel parameter", p)

    def kernel_metadata(self, info, decl, ftype, params) -> None:
        self.kernels.append(info)
        fid = info.id
        types = "".join(unqualified_name(t) + "," for t in ftype.params)
        self.b.string(f"kernel_arg_type.{decl.name}.{types}")
        for attr in decl.attributes or ():
            name = attr.name.strip("_")
            args = attr.args or []
            if name in ("reqd_work_group_size", "work_group_size_hint"):
                vals = [self.const_int(a, self.globals) for a in args]
                if len(vals) != 3:
                    raise SemaError(f"'{attr.name}' attribute requires exactly 3 arguments", attr)
                if any(v <= 0 for v in vals):
                    raise SemaError(f"'{attr.name}' attribute must be greater than 0", attr)
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

    def stmt_StaticAssert(self, s) -> None:
        self.static_assert(s, self.scope)

    def stmt_ExprStmt(self, s) -> None:
        self.expr(s.expr, discard=True)

    def stmt_DeclStmt(self, s) -> None:
        for d in s.decls:
            if isinstance(d, ast.StaticAssert):  # the parser reads it where declarations go
                self.static_assert(d, self.scope)
            else:
                self.local_declaration(d)

    def stmt_If(self, s) -> None:
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
        self._loop(s.cond, s.body, None, True)

    def stmt_DoWhile(self, s) -> None:
        self._loop(s.cond, s.body, None, False)

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
        rt = self.fn_info.type.result
        if s.value is None:
            if rt != VOID:
                raise SemaError(f"non-void function '{self.fn_info.name}' should return a value", s)
            self.f.ret()
            return
        v = self.expr(s.value)
        if rt == VOID:
            if v.type != VOID:
                raise SemaError(f"void function '{self.fn_info.name}' should not return a value", s)
            self.f.ret()
            return
        check_implicit(v.type, rt, s.value, "returning")
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
        sel = self.expr(s.cond)
        if not (sel.type.is_scalar and sel.type.is_integer):
            raise SemaError(f"statement requires expression of integer type ('{sel.type}' invalid)", s.cond)
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
                value = self.const_int(n.value, self.scope)
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
        self._switch_labels = getattr(self, "_switch_labels", {})
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
        t, q = self.decl_type(d, self.scope)
        if "typedef" in d.storage:
            self.define_typedef(self.scope, d, t)
            return
        if d.name is None:
            return
        if t.is_function:
            self.declare_function(d.name, t, d, "kernel" in d.funcspecs)
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
        for sc in ("auto", "register"):  # §1.8: typedef, extern and static only
            if sc in d.storage:
                raise SemaError(f"OpenCL C version {self.cl_std // 100}.{self.cl_std % 100 // 10} does not "
                                f"support the '{sc}' storage class specifier", d)
        if "extern" in d.storage and d.init is not None:
            raise SemaError("'extern' variable cannot have an initializer", d)
        space = q["space"] or "private"
        static = "static" in d.storage or "extern" in d.storage
        if space == "global" and not static:
            raise SemaError("function scope variable cannot be declared in global address space", d)
        if space in ("local", "constant") and self.fn_info.is_kernel and self.scope is not self.fn_scope:
            raise SemaError(f"variables in the {space} address space can only be declared in the outermost "
                            "scope of a kernel function", d)
        if space == "local":
            if not self.fn_info.is_kernel:
                raise SemaError("non-kernel function variable cannot be declared in local address space", d)
            if d.init is not None:
                raise SemaError("'__local' variable cannot have an initializer", d)
            var = self.b.global_variable(self.ptr_type(t, "local"), "Workgroup", None, d.name)
            self.b.decorate(var, "Alignment", max(t.align, 1))
            self.module_vars.append(var)
        elif space in ("constant", "global") or static:
            if space == "private":
                space = "global" if self.cl_std >= 200 else "constant"
                if self.cl_std < 200 and not q["const"]:
                    raise SemaError("static local variable must reside in constant address space", d)
            if space == "global" and self.cl_std < 200:
                raise SemaError("function scope variable cannot be declared in global address space", d)
            if space == "constant" and d.init is None:
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
        elif space == "private":
            var = self.f.variable(self.ptr_type(t, "private"))
            self.b.name(var, d.name)
        else:
            raise SemaError(f"variable cannot be declared in the {space} address space here", d)
        sym = Symbol(d.name, "var", t, var, space, d, const=q["const"])
        self.scope.names[d.name] = sym
        if d.init is not None:
            self.initialize(LVal(t, var, space), d.init)

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
        if self.uses_groups:
            b.capability("Groups")
