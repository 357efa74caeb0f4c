"""Blocks (OpenCL C 2.0 §6.12), lowered as clang-15 + llvm-spirv-15 lower them, so that the
executor runs either compiler's output the same way.

A block literal ``^(P...){…}`` becomes

* an *invoke function* ``__<function>_block_invoke[_N]`` whose first parameter is the literal as a
  Generic ``uchar *`` and whose other parameters are the block's; it casts that pointer to the
  literal's own struct and reads each captured variable from it at each use;
* the *literal*: a ``CPacked`` struct ``{uint size, uint align, Generic uchar *invoke, captures…}``
  laid out by clang's rule (captures sorted by decreasing alignment, a gap after the 16-byte
  header filled or padded; CGBlocks.cpp computeBlockInfo). The invoke field is a null pointer
  (SPIR-V has no function pointers: llvm-spirv writes null). A literal that captures nothing is a
  constant program-scope variable (``__block_literal_global``); one that captures is a
  Function-storage variable filled where the literal is evaluated (captures are by value, taken
  then). Either is cast to a Generic ``struct.__opencl_block_literal_generic *``, the value of a
  block.

Every block is statically known (§6.12: block variables are const and initialised, no block is
selected by ``?:``, returned, passed or stored elsewhere), so a call ``b(x)`` is an
``OpFunctionCall`` of b's invoke function with b's value as the literal pointer.

A block variable at program scope (``int (^__constant b)(int) = ^(int x){…};``, which captures
nothing) is, as clang emits it, its literal ``__block_literal_global`` and the invoke function
``b_block_invoke``; every use of ``b`` names that literal (clang's unused pointer variable ``b``
is not emitted). A ``static`` block variable in a function is an ordinary one whose literal may
capture nothing (clang: its initializer must be a compile-time constant).
"""

from __future__ import annotations

from . import ast
from .codegen_expr import LVal, Val
from .flow import MAYBE, NEVER, fall_through
from .sema import (BLOCKS_DISABLED, Scope, SemaError, Symbol, adjust_parameter, check_implicit, is_null_constant,
                   not_supported)
from .types import UCHAR as _UCHAR
from .types import VOID, Block, Function

HEADER_SIZE, HEADER_ALIGN = 16, 8  # uint size, uint align, Generic uchar *invoke


class BlockInfo:
    """A compiled block literal: its type, invoke function and the literal's layout."""

    def __init__(self, btype: Block, invoke: int, size: int, align: int, name: str, captures: int = 0):
        self.type, self.invoke, self.size, self.align, self.name = btype, invoke, size, align, name
        self.captures = captures
        self.kernel = None  # the wrapper kernel that enqueues it (enqueue.py), made on first use


class ProgramBlock:
    """The value of a program-scope block variable: its literal's CrossWorkgroup variable."""

    def __init__(self, info: BlockInfo, literal: int):
        self.info, self.literal = info, literal


class _Context:
    """The block literal being compiled: where its body's scopes start (``boundary``: the scope
    around the literal; names found at or above it are outside the block), the literal
    parameter cast to the literal's struct, the captures in order of first use and the
    instructions whose operands wait for the layout."""

    def __init__(self, parent, boundary: Scope, node):
        self.parent, self.boundary, self.node = parent, boundary, node
        self.captures: list = []          # Symbols, in order of first use
        self.uses: list = []              # (OpInBoundsPtrAccessChain words, index in captures)
        self.cast = None                  # the OpBitcast of the literal parameter (its type waits)
        self.literal = None               # that cast's result id
        self.result = None                # the result type: written, or the first return's
        self.written = False
        self.result_node = None


def _low_bit(n: int) -> int:
    return n & -n


def block_layout(captures) -> tuple[list, int, int]:
    """clang's layout of a literal (CGBlocks.cpp computeBlockInfo): ``captures`` as (type,
    size, align); returns (members, size, align), members as ("capture", k) or ("pad", n) in
    struct order after the three header fields."""
    chunks = sorted(enumerate(captures), key=lambda kc: -kc[1][2])  # stable: by decreasing alignment
    max_align = max([HEADER_ALIGN] + [c[2] for c in captures])
    members, size = [], HEADER_SIZE
    end_align = _low_bit(size)
    if chunks and end_align < max_align:
        # Fill the gap after the header with the things its end is aligned enough for, until
        # the most aligned one fits.
        i = 1
        while i < len(chunks) and end_align < chunks[i][1][2]:
            i += 1
        first = i
        while i < len(chunks):
            k, (_, csize, _) = chunks[i]
            members.append(("capture", k))
            size += csize
            end_align = _low_bit(size)
            i += 1
            if end_align >= max_align:
                break
        chunks = chunks[:first] + chunks[i:]
    if chunks and end_align < max_align:
        padded = (size + max_align - 1) // max_align * max_align
        members.append(("pad", padded - size))
        size = padded
        end_align = _low_bit(size)
    for k, (_, csize, calign) in chunks:
        if end_align < calign:
            members.append(("pad", calign - end_align))
            size += calign - end_align
            end_align = _low_bit(size)
        members.append(("capture", k))
        size += csize
        end_align = _low_bit(size)
    return members, size, max_align


class BlocksMixin:
    block_ctx = None

    # -- types --------------------------------------------------------------------------------

    def generic_literal_type(self) -> int:
        """clang's ``struct.__opencl_block_literal_generic``: the header every literal starts with."""
        b = self.b
        tid = b.type_struct([b.type_int(32), b.type_int(32), self.ptr_type(_UCHAR, "generic")],
                            unique="__opencl_block_literal_generic")
        if getattr(self, "_generic_literal_named", None) != tid:   # (one OpName)
            b.name(tid, "struct.__opencl_block_literal_generic")
            self._generic_literal_named = tid
        return tid

    def block_value_type(self) -> int:
        return self.b.type_pointer("Generic", self.generic_literal_type())

    # -- declarations -------------------------------------------------------------------------

    def check_block_declaration(self, d, program_scope: bool) -> None:
        """§6.12.3/§6.12.5 on a declared block variable (clang's errors, at the name)."""
        if "extern" in d.storage:
            raise SemaError("invalid block variable declaration - using 'extern' storage class is disallowed", d)
        if d.init is None:
            raise SemaError("invalid block variable declaration - must be initialized", d)
        fnode = d.type
        while isinstance(fnode, ast.BlockPointerType):
            fnode = fnode.pointee
        for p in getattr(fnode, "params", ()):  # (the literal's own parameters are checked as it compiles)
            pt, _ = self.types.declarator(p.type, self.scope)
            self.check_half_variable(pt, p, parameter=True)

    def block_variable(self, d, t: Block) -> None:
        """A local block variable: a Function-storage pointer to its literal."""
        if self.scope.names.get(d.name) is not None and self.scope.names[d.name].kind == "var":
            raise SemaError(f"redefinition of '{d.name}'", d)
        obj = Block(t.result, t.params, declared=True)
        if is_null_constant(d.init):  # (clang-15 accepts a null block; calling it would fault)
            raise not_supported("a block variable initialized with a null pointer", d.init)
        var = self.f.variable(self.b.type_pointer("Function", self.block_value_type()))
        self.b.name(var, d.name)
        # In scope in its own initializer (C99 6.2.1p7), where a literal may not refer to it.
        self.scope.names[d.name] = Symbol(d.name, "var", obj, var, "private", d, const=True)
        try:
            v, info = self.block_value(d.init)
        except SemaError:
            del self.scope.names[d.name]  # (no literal to call: its uses say it is undeclared)
            raise
        self.check_block_initializer(d, obj, t, v)
        if "static" in d.storage and info.captures:
            raise SemaError("initializer element is not a compile-time constant", d.init)
        self.f.op("OpStore", None, var, v.id)
        self.block_vars[var] = info

    def check_block_initializer(self, d, obj: Block, t: Block, v) -> None:
        if not v.type.is_block:
            raise SemaError(f"initializing '{obj}' with an expression of incompatible type '{v.type}'", d)
        if v.type != t:
            raise SemaError(f"incompatible block pointer types initializing '{obj}' with an expression of type "
                            f"'{v.type}'", d)

    def program_block_variable(self, d, t: Block) -> None:
        """A block variable at program scope: initialised with a literal (compiled now, as
        ``<name>_block_invoke``; it can capture nothing) or another such variable."""
        old = self.globals.names.get(d.name)
        if old is not None and old.node is not d:
            raise SemaError(f"redefinition of '{d.name}'", d, notes=[("previous definition is here", old.node)])
        obj = Block(t.result, t.params, declared=True)
        if is_null_constant(d.init):  # (clang-15 accepts a null block; calling it would fault)
            raise not_supported("a block variable initialized with a null pointer", d.init)
        inner = d.init
        while isinstance(inner, ast.Paren):
            inner = inner.expr
        if isinstance(inner, ast.BlockLiteral):
            if self.cl_std < 200:
                raise SemaError(BLOCKS_DISABLED, inner)
            info, literal = self.program_block_literal(inner, d)
            value = ProgramBlock(info, literal)
        else:
            sym = self.globals.names.get(inner.name) if isinstance(inner, ast.Identifier) else None
            value = getattr(sym, "value", None)
            if not isinstance(value, ProgramBlock):
                raise not_supported("a program-scope block variable not initialized with a block literal or "
                                    "another program-scope block variable", d.init)
            info = value.info
        self.check_block_initializer(d, obj, t, Val(info.type, None))
        self.globals.names[d.name] = Symbol(d.name, "var", obj, value, "constant", d, const=True)
        self.block_vars[value] = info

    def program_block_literal(self, node, d):
        """(BlockInfo, literal variable) of a literal at program scope, compiled in a stand-in
        function context named for the variable (the invoke function's name, clang's)."""
        from .codegen import FuncInfo  # (codegen imports this module)

        saved = (self.fn_info, self.scope)
        self.fn_info = FuncInfo(d.name, Function(VOID, ()), 0, d, False)
        n = self.block_counts.get(None, 0) + 1   # (clang numbers program-scope ones across the unit)
        self.block_counts[None] = n
        try:
            ctx, info = self.compile_block_literal(node, f"{d.name}_block_invoke" + (f"_{n}" if n > 1 else ""))
        finally:
            self.fn_info, self.scope = saved
        return info, self.literal_global(ctx, info)

    def program_block_value(self, value: ProgramBlock) -> Val:
        """A program-scope block's value in the current function: its literal, Generic."""
        generic = self.b.type_pointer("CrossWorkgroup", self.generic_literal_type())
        cast = self.f.op("OpBitcast", generic, value.literal)
        return Val(value.info.type, self.f.op("OpPtrCastToGeneric", self.block_value_type(), cast))

    def block_value(self, node):
        """(Val, BlockInfo) of an expression that names a block: a literal or a block variable."""
        inner = node
        while isinstance(inner, ast.Paren):
            inner = inner.expr
        if isinstance(inner, ast.BlockLiteral):
            return self.block_literal(inner)
        v = self.expr(node)
        if not v.type.is_block:
            return v, None
        info = None
        if isinstance(inner, ast.Identifier):
            sym = self.scope.lookup(inner.name)
            info = self.block_vars.get(getattr(sym, "value", None))
        if info is None:
            raise not_supported("a block that is not a block literal or a block variable", node)
        return v, info

    # -- captures -----------------------------------------------------------------------------

    def captured(self, sym, node):
        """The lvalue a block body reads for variable ``sym``: the variable itself when the
        block declares it or it has static storage (program scope, static, function-scope
        __constant), else the literal's copy (an LVal in Generic memory, read-only); None: not
        a capture. As in clang, a kernel's __local variables are copied too."""
        if isinstance(sym.value, ProgramBlock):
            return self.program_block_value(sym.value)   # (not an lvalue: the literal's address)
        ctx = self.block_ctx
        if ctx is None or sym.kind != "var" or sym.space not in ("private", "local"):
            return None
        s = self.scope
        while s is not None and s is not ctx.boundary:
            if s.names.get(sym.name) is sym:
                return None  # declared in the block
            s = s.parent
        if self.globals.names.get(sym.name) is sym:
            return None
        if sym.type.is_block:  # §6.12.5
            raise SemaError("cannot refer to a block inside block", node)
        if sym.type.is_opaque:   # (clang-15 captures the handle)
            raise not_supported(f"a block capturing '{sym.type}'", node)
        if sym not in ctx.captures:
            ctx.captures.append(sym)
        k = ctx.captures.index(sym)
        ptr = self.f.op("OpInBoundsPtrAccessChain", self.ptr_type(sym.type, "generic"), ctx.literal,
                        self.u32(0), self.u32(0))
        ctx.uses.append((self.f.current.words[-1], k))
        self.captured_ptrs.add(ptr)
        return LVal(sym.type, ptr, "generic", const=True)

    # -- literals -----------------------------------------------------------------------------

    def expr_BlockLiteral(self, node):
        return self.block_literal(node)[0]

    def block_literal(self, node):
        """Compile a block literal: its invoke function now, then the literal here."""
        if self.cl_std < 200:
            raise SemaError(BLOCKS_DISABLED, node)
        if self.f is None:
            raise not_supported("a block literal at program scope", node)
        owner = getattr(self.fn_info.node, "name", None) or self.fn_info.name  # (an overload's own name)
        n = self.block_counts.get(owner, 0) + 1
        self.block_counts[owner] = n
        ctx, info = self.compile_block_literal(node, f"__{owner}_block_invoke" + (f"_{n}" if n > 1 else ""))
        return self.make_literal(ctx, info), info

    def compile_block_literal(self, node, name: str):
        """Compile the invoke function ``name`` of a literal; (_Context, BlockInfo)."""
        params, param_nodes = self.block_params(node)
        uchar_ptr = self.ptr_type(_UCHAR, "generic")
        ctx = _Context(self.block_ctx, self.scope, node)
        if node.type.result is not None:  # ^int (int x) {…}
            ctx.result, _ = self.types.declarator(node.type.result, self.scope)
            ctx.written = True
            if ctx.result.is_array or ctx.result.is_function or ctx.result.is_block or ctx.result.is_opaque:
                raise not_supported(f"a block literal returning '{ctx.result}'", node)
        saved = (self.f, self.scope, self.fn_scope, self.labels, self.gotos, self.placed_labels, self.loops,
                 self.block_ctx, self.known_conditions, self.fn_info)
        f = self.b.function(self.spv(VOID), [uchar_ptr] + [self.spv(p) for p in params], name=name)
        # The invoke function is a node of the call graph of its own (the recursion check): a
        # call of the block is a call of it, an enqueue of the block is no call.
        from .codegen import FuncInfo  # (codegen imports this module)
        self.fn_info = FuncInfo(name, Function(VOID, tuple(params)), f.id, self.fn_info.node, self.fn_info.is_kernel)
        self.fn_info.defined = True
        self.functions[name] = self.fn_info
        try:
            self.f, self.block_ctx = f, ctx
            self.scope = self.fn_scope = Scope(saved[1])
            self.labels, self.gotos, self.placed_labels, self.loops = {}, {}, set(), []
            self.known_conditions = {}
            ctx.literal = f.op("OpBitcast", uchar_ptr, f.params[0])  # its type: the literal's, below
            ctx.cast = f.current.words[-1]
            for p, pt, pid in zip(param_nodes, params, f.params[1:]):
                var = f.variable(self.ptr_type(pt, "private"))
                self.store(LVal(pt, var, "private"), Val(pt, pid))
                if p.name:
                    self.b.name(pid, p.name)
                    self.scope.names[p.name] = Symbol(p.name, "var", pt, var, "private", p)
            errors = len(self.diagnostics)
            self.statement_list(node.body.items)
            for label, where in self.gotos.items():
                if label not in self.placed_labels:
                    self.error(SemaError(f"use of undeclared label '{label}'", where))
            result = ctx.result or VOID
            if result != VOID and len(self.diagnostics) == errors and node.body.end is not None:
                verdict = fall_through(node.body, self.known_conditions)
                if verdict != NEVER:  # (an error for a block, where a function gets -Wreturn-type)
                    self.error(SemaError("non-void block does not return a value" +
                                         (" in all control paths" if verdict == MAYBE else ""), node.body.end))
            if not f.terminated:
                f.ret() if result == VOID else f.ret(self.b.undef(self.spv(result)))
            f.result_type = self.spv(result)
            f.type_id = self.b.type_function(f.result_type, f.param_types)
        finally:
            (self.f, self.scope, self.fn_scope, self.labels, self.gotos, self.placed_labels, self.loops,
             self.block_ctx, self.known_conditions, self.fn_info) = saved
        btype = Block(result, tuple(params))
        return ctx, self.finish_literal(ctx, f, btype, name)

    def block_params(self, node):
        """The parameter types of a literal (§6.12: no variadic literal, no block parameter)."""
        fnode = node.type
        if fnode.variadic:  # (clang: at the '^')
            raise SemaError("invalid prototype, variadic arguments are not allowed in OpenCL", node)
        nodes = list(fnode.params)
        if len(nodes) == 1 and nodes[0].name is None:
            t, _ = self.types.declarator(nodes[0].type, self.scope)
            if t == VOID:
                return [], []
        params = []
        for p in nodes:
            pt, _ = self.types.declarator(p.type, self.scope)
            if pt.is_block:
                raise SemaError(f"declaring function parameter of type '{pt}' is not allowed", p)
            if pt == VOID:
                raise SemaError("argument may not have 'void' type" if p.name else
                                "'void' must be the first and only parameter if specified", p)
            self.check_half_variable(pt, p, parameter=True)
            params.append(adjust_parameter(pt))
        return params, nodes

    def finish_literal(self, ctx, f, btype: Block, name: str) -> BlockInfo:
        """Lay the literal out, complete the invoke function's pending operands and emit it."""
        b = self.b
        caps = [(s.type, max(s.type.size, 1), max(s.type.align, 1)) for s in ctx.captures]
        layout, size, align = block_layout(caps)
        members = [b.type_int(32), b.type_int(32), self.ptr_type(_UCHAR, "generic")]
        index = {}
        for kind, what in layout:
            if kind == "capture":
                index[what] = len(members)
                members.append(self.spv(caps[what][0], True))
            else:
                members.append(b.type_array(b.type_int(8), what))
        struct = b.type_struct(members, unique=("block literal", id(ctx.node), b.bound))
        b.decorate(struct, "CPacked")
        ctx.struct, ctx.index = struct, index
        ctx.cast[1] = b.type_pointer("Generic", struct)
        for words, k in ctx.uses:
            words[5] = self.u32(index[k])
        f.finish()
        return BlockInfo(btype, f.id, size, align, name, len(ctx.captures))

    def make_literal(self, ctx, info: BlockInfo) -> Val:
        """The literal's value where the literal is evaluated: a Generic pointer to it."""
        b = self.b
        struct = ctx.struct
        header = self.literal_header(info)
        if not ctx.captures:
            var = self.literal_global(ctx, info)
            space = "CrossWorkgroup"
        else:
            var = self.f.variable(b.type_pointer("Function", struct))
            b.decorate(var, "Alignment", info.align)
            u32_ptr = b.type_pointer("Function", b.type_int(32))
            for k, value in enumerate(header):
                t = u32_ptr if k < 2 else b.type_pointer("Function", self.ptr_type(_UCHAR, "generic"))
                field = self.f.op("OpInBoundsPtrAccessChain", t, var, self.u32(0), self.u32(k))
                self.f.op("OpStore", None, field, value)
            for k, sym in enumerate(ctx.captures):  # in the order of first use, as clang
                field = self.f.op("OpInBoundsPtrAccessChain", self.ptr_type(sym.type, "private"), var,
                                  self.u32(0), self.u32(ctx.index[k]))
                src = self.variable_lvalue(sym, ctx.node)
                self.f.op("OpStore", None, field, self.f.op("OpLoad", self.spv(sym.type, True), src.ptr))
            space = "Function"
        generic = b.type_pointer(space, self.generic_literal_type())
        cast = self.f.op("OpBitcast", generic, var)
        return Val(info.type, self.f.op("OpPtrCastToGeneric", self.block_value_type(), cast))

    def literal_header(self, info: BlockInfo) -> list:
        return [self.u32(info.size), self.u32(info.align), self.b.constant_null(self.ptr_type(_UCHAR, "generic"))]

    def literal_global(self, ctx, info: BlockInfo) -> int:
        """A literal that captures nothing: a constant program-scope variable."""
        b = self.b
        init = b.constant_composite(ctx.struct, self.literal_header(info))
        n = self.block_counts.get("", 0)  # (clang's names: __block_literal_global, then .1, .2 …)
        self.block_counts[""] = n + 1
        var = b.global_variable(b.type_pointer("CrossWorkgroup", ctx.struct), "CrossWorkgroup", init,
                                "__block_literal_global" + (f".{n}" if n else ""))
        b.decorate(var, "Constant")
        b.decorate(var, "Alignment", info.align)
        self.module_vars.append(var)
        return var

    def variable_lvalue(self, sym, node) -> LVal:
        """Variable ``sym`` as the current function (or enclosing block) sees it."""
        lv = self.captured(sym, node)
        return lv if lv is not None else LVal(sym.type, sym.value, sym.space, const=sym.const)

    # -- calls and returns --------------------------------------------------------------------

    def block_callee(self, fn) -> bool:
        """Whether a call's callee is a block (a literal, or a name of a block variable)."""
        while isinstance(fn, ast.Paren):
            fn = fn.expr
        if isinstance(fn, ast.BlockLiteral):
            return True
        if isinstance(fn, ast.Identifier):
            sym = self.scope.lookup(fn.name)
            return sym is not None and sym.kind == "var" and sym.type.is_block
        return False

    def block_call(self, node) -> Val:
        v, info = self.block_value(node.func)
        bt = info.type
        if len(node.args) != len(bt.params):
            few = len(node.args) < len(bt.params)
            raise SemaError(f"too {'few' if few else 'many'} arguments to block call, expected {len(bt.params)}, "
                            f"have {len(node.args)}", node if few else node.args[len(bt.params)])
        args = [self.f.op("OpBitcast", self.ptr_type(_UCHAR, "generic"), v.id)]
        args += [self.call_argument(self.expr(a), pt, a) for a, pt in zip(node.args, bt.params)]
        self.fn_info.calls.append((info.name, node))
        rid = self.f.op("OpFunctionCall", self.spv(bt.result), info.invoke, args)
        return self.val(bt.result, rid)

    def block_return(self, s) -> None:
        """``return`` in a block literal: converted to the written result type, else the first
        one gives the literal's result type and the others must match it exactly (clang's rule)."""
        ctx = self.block_ctx
        v = self.expr(s.value) if s.value is not None else Val(VOID, None)
        if v.type.is_array:
            v = self.decay(v)
        if ctx.written:
            if ctx.result == VOID or v.type == VOID:
                if ctx.result != v.type:
                    raise SemaError("void block should not return a value" if ctx.result == VOID else
                                    "non-void block should return a value", s)
                self.f.ret()
                return
            check_implicit(v.type, ctx.result, s.value, "returning", warn=self.warn)
            self.f.ret(self.convert(v, ctx.result, s.value).id)
            return
        t = v.type.value if v.type.is_atomic else v.type  # (an atomic object's value is returned)
        if ctx.result is None:
            ctx.result = t
        elif ctx.result != t:
            raise SemaError(f"return type '{t}' must match previous return type '{ctx.result}' when block literal "
                            "has unspecified explicit return type", s)
        if t == VOID:
            self.f.ret()
        else:
            self.f.ret(v.id)

