"""Device-side enqueue (OpenCL C 2.0 §6.13.17), lowered as clang-15 + llvm-spirv-15 lower it:

* ``queue_t`` is ``OpTypeQueue``, ``clk_event_t`` ``OpTypeDeviceEvent``, ``ndrange_t`` the struct
  ``{uint workDimension, size_t globalWorkOffset[3], globalWorkSize[3], localWorkSize[3]}``
  (``struct.ndrange_t``) that ``OpBuildNDRange`` makes (ndrange_1D's sizes as ``size_t``
  scalars, ndrange_2D/3D's as ``size_t[2]``/``[3]`` arrays; a size not given is 0);
* ``enqueue_kernel`` is ``OpEnqueueKernel`` whose Invoke is a *wrapper kernel*
  ``__<function>_block_invoke[_N]_kernel`` — an entry point taking the block literal as a Generic
  ``uchar *`` (and a Workgroup ``uchar *`` per ``local void *`` parameter of the block) that calls
  the block's invoke function — with the literal as Param, its size and the alignment of the
  generic literal struct (8, as llvm-spirv computes it), the NDRange
  and events by pointer (a null Generic pointer for ``0``), and a pointer to each local size
  (as ``size_t``, in a Function array);
* ``get_kernel_*`` take the same Invoke/Param/size/alignment operands; ``enqueue_marker`` and the
  event functions are their one instruction each.
"""

from __future__ import annotations

from . import ast
from .codegen_expr import Val
from .sema import SemaError, check_implicit, conversion_message, is_null_constant, is_null_pointer_constant
from .types import (BOOL, CLK_EVENT_T, INT, NDRANGE_T, QUEUE_T, SIZE_T, STORAGE_CLASS, UCHAR, UINT, VOID, Array,
                    Block, DeviceEventType, Pointer, QueueType)

# (The handle types and ndrange_t are in types.py.) ParamAlign: the generic literal's alignment.
GENERIC_LITERAL_ALIGN = 8
ENQUEUE_BUILTINS = frozenset({
    "get_default_queue", "ndrange_1D", "ndrange_2D", "ndrange_3D", "enqueue_kernel", "enqueue_marker",
    "retain_event", "release_event", "create_user_event", "set_user_event_status", "is_valid_event",
    "capture_event_profiling_info", "get_kernel_work_group_size", "get_kernel_preferred_work_group_size_multiple",
    "get_kernel_sub_group_count_for_ndrange", "get_kernel_max_sub_group_size_for_ndrange"})
_KERNEL_QUERIES = {"get_kernel_work_group_size": "OpGetKernelWorkGroupSize",
                   "get_kernel_preferred_work_group_size_multiple": "OpGetKernelPreferredWorkGroupSizeMultiple",
                   "get_kernel_sub_group_count_for_ndrange": "OpGetKernelNDrangeSubGroupCount",
                   "get_kernel_max_sub_group_size_for_ndrange": "OpGetKernelNDrangeMaxSubGroupSize"}


def _arithmetic(t) -> bool:
    """A scalar that converts to ndrange_1D's ``size_t`` parameters (clang: a float too)."""
    return t.is_scalar and (t.is_integer or t.is_float)


class EnqueueMixin:
    uses_device_enqueue = False

    # -- types --------------------------------------------------------------------------------

    def enqueue_spv(self, t) -> int | None:
        b = self.b
        if isinstance(t, QueueType):
            return b._type(("queue",), "OpTypeQueue")  # (the builder has no helper for these two)
        if isinstance(t, DeviceEventType):
            return b._type(("device_event",), "OpTypeDeviceEvent")
        return None

    def ndrange_type(self) -> int:
        tid = self.spv(NDRANGE_T)
        self.b.name(tid, "struct.ndrange_t")
        return tid

    # -- calls ----------------------------------------------------------------------------------

    def enqueue_builtin(self, name: str, node):
        """clang's checks of the §6.13.17 built-ins (Sema's SemaOpenCLBuiltinEnqueueKernel and
        friends: "illegal call to ..." at the argument), then their instructions."""
        self.uses_device_enqueue = True
        if name == "enqueue_kernel":
            return self.enqueue_kernel(node)
        if name in _KERNEL_QUERIES:
            return self.kernel_query(name, node)
        if name.startswith("ndrange_"):
            return self.ndrange(name, node)
        expected = {"get_default_queue": 0, "create_user_event": 0, "retain_event": 1, "release_event": 1,
                    "is_valid_event": 1, "set_user_event_status": 2, "capture_event_profiling_info": 3,
                    "enqueue_marker": 4}[name]
        if len(node.args) != expected:
            few = len(node.args) < expected
            raise SemaError(f"too {'few' if few else 'many'} arguments to function call, expected {expected}, have "
                            f"{len(node.args)}", node if few else node.args[expected])
        args = [self.expr(a) for a in node.args]
        f = self.f
        if name == "get_default_queue":
            return Val(QUEUE_T, f.op("OpGetDefaultQueue", self.spv(QUEUE_T)))
        if name == "create_user_event":
            return Val(CLK_EVENT_T, f.op("OpCreateUserEvent", self.spv(CLK_EVENT_T)))
        if name == "enqueue_marker":
            queue = self._arg(args[0], QUEUE_T, node.args[0])
            count = self._arg(args[1], UINT, node.args[1])
            wait = self._event_pointer(args[2], node.args[2], const=True)
            ret = self._event_pointer(args[3], node.args[3])
            return Val(INT, f.op("OpEnqueueMarker", self.spv(UINT), queue, count, wait, ret))
        event = self._arg(args[0], CLK_EVENT_T, node.args[0])
        if name in ("retain_event", "release_event"):
            f.op("OpRetainEvent" if name == "retain_event" else "OpReleaseEvent", None, event)
            return Val(VOID, None)
        if name == "is_valid_event":
            return Val(BOOL, f.op("OpIsValidEvent", self.b.type_bool(), event))
        if name == "set_user_event_status":
            f.op("OpSetUserEventStatus", None, event, self._arg(args[1], INT, node.args[1]))
            return Val(VOID, None)
        # capture_event_profiling_info(clk_event_t, clk_profiling_info, __global void *value)
        info = self._arg(args[1], INT, node.args[1])
        check_implicit(args[2].type, Pointer(VOID, "global"), node.args[2], "passing", warn=self.warn)
        value = self.convert(args[2], Pointer(VOID, "global"), node.args[2])
        f.op("OpCaptureEventProfilingInfo", None, event, info,
             f.op("OpBitcast", self.ptr_type(UCHAR, "global"), value.id))
        return Val(VOID, None)

    def _arg(self, v, t, node) -> int:
        check_implicit(v.type, t, node, "passing", warn=self.warn)
        return self.convert(v, t, node).id

    def _event_pointer(self, v, node, const: bool = False, illegal: str | None = None) -> int:
        """A ``clk_event_t *`` operand as a Generic pointer (a null one for ``0``/NULL).
        ``illegal``: the built-in whose "expected 'clk_event_t *'" error applies (enqueue_kernel);
        else the conversion errors of a call."""
        generic = Pointer(CLK_EVENT_T, "generic", const)
        if is_null_constant(node) or (v.type.is_pointer and is_null_pointer_constant(node, v.type)):
            return self.b.constant_null(self.spv(generic))
        if not (v.type.is_pointer and isinstance(v.type.pointee, DeviceEventType)):
            if illegal is not None:
                raise SemaError(f"illegal call to '{illegal}', expected 'clk_event_t *' argument type", node)
            check_implicit(v.type, generic, node, "passing", warn=self.warn)
            raise SemaError(conversion_message("passing", v.type, generic), node)
        if v.type.space == "generic":
            return v.id
        return self.f.op("OpPtrCastToGeneric", self.spv(generic), v.id)

    def _ndrange_pointer(self, v, node, name: str) -> int:
        """The NDRange operand: a pointer to a Function copy of the ndrange_t (llvm-spirv's)."""
        if v.type is not NDRANGE_T:
            raise SemaError(f"illegal call to '{name}', expected 'ndrange_t' argument type", node)
        var = self.f.variable(self.b.type_pointer("Function", self.ndrange_type()))
        self.f.op("OpStore", None, var, v.id)
        return var

    def ndrange(self, name: str, node):
        dims = int(name[-2])
        args = [self.expr(a) for a in node.args]
        if not 1 <= len(args) <= 3 or any(
                not (_arithmetic(a.type) if dims == 1 else a.type.is_array or a.type.is_pointer)
                for a in args):
            raise SemaError(f"no matching function for call to '{name}'", node.func)
        values = []
        for a, n in zip(args, node.args):
            if dims == 1:
                values.append(self._arg(a, SIZE_T, n))
                continue
            if a.type.is_array:
                a = self.decay(a)
            if a.type.pointee != SIZE_T or a.type.space != "private":   # (clang's header: const size_t[N], private)
                raise SemaError(f"no matching function for call to '{name}'", node.func)
            sizes = Array(SIZE_T, dims)
            ptr = self.f.op("OpBitcast", self.b.type_pointer(STORAGE_CLASS[a.type.space], self.spv(sizes, True)), a.id)
            values.append(self.f.op("OpLoad", self.spv(sizes, True), ptr))
        zero = self.const(SIZE_T, 0).id if dims == 1 else self.b.constant_null(self.spv(Array(SIZE_T, dims), True))
        if len(values) == 1:
            gws, lws, gwo = values[0], zero, zero
        elif len(values) == 2:
            gws, lws, gwo = values[0], values[1], zero
        else:
            gwo, gws, lws = values
        return Val(NDRANGE_T, self.f.op("OpBuildNDRange", self.ndrange_type(), gws, lws, gwo))

    # -- blocks as kernels ----------------------------------------------------------------------

    def block_kernel(self, info) -> int:
        """The wrapper kernel of a block (an entry point: what OpEnqueueKernel launches)."""
        if info.kernel is not None:
            return info.kernel
        params = [self.ptr_type(UCHAR, "generic")] + [self.spv(p) for p in info.type.params]
        f = self.b.function(self.spv(VOID), params, name=info.name + "_kernel")
        f.op("OpFunctionCall", self.spv(info.type.result), info.invoke, f.params)
        f.ret()
        f.finish()
        info.kernel = f.id
        self.block_kernels.append((f.id, info.name + "_kernel"))
        return f.id

    def _block_operands(self, name, arg_node):
        """(BlockInfo, [Invoke, Param, ParamSize, ParamAlign]) of the block argument of an
        enqueue built-in."""
        if not self.block_callee(arg_node):  # (a block literal or a block variable)
            raise SemaError(f"illegal call to '{name}', expected block argument type", arg_node)
        v, info = self.block_value(arg_node)
        invoke = self.block_kernel(info)
        param = self.f.op("OpBitcast", self.ptr_type(UCHAR, "generic"), v.id)
        # ParamAlign is what llvm-spirv gives: the alignment of struct.__opencl_block_literal_generic
        # (8), not the literal's own (the header's align field), which can be larger.
        return info, [invoke, param, self.u32(info.size), self.u32(GENERIC_LITERAL_ALIGN)]

    def enqueue_kernel(self, node):
        args, callee = node.args, node.func
        if len(args) < 4:
            raise SemaError(f"too few arguments to function call, expected at least 4, have {len(args)}", callee)
        q = self.expr(args[0])
        if not isinstance(q.type, QueueType):
            raise SemaError("illegal call to 'enqueue_kernel', expected 'queue_t' argument type", args[0])
        flags = self.expr(args[1])
        if not (flags.type.is_scalar and flags.type.is_integer):
            raise SemaError("illegal call to 'enqueue_kernel', expected 'kernel_enqueue_flags_t' (i.e. uint) argument "
                            "type", args[1])
        nd = self.expr(args[2])
        if nd.type is not NDRANGE_T:
            raise SemaError("illegal call to 'enqueue_kernel', expected 'ndrange_t' argument type", args[2])
        if self.block_callee(args[3]):
            null = self.b.constant_null(self.spv(Pointer(CLK_EVENT_T, "generic")))
            events, block_at = None, 3
        else:
            if len(args) < 7:
                if len(args) == 4:
                    raise SemaError("illegal call to 'enqueue_kernel', expected block argument type", args[3])
                raise SemaError("illegal call to enqueue_kernel, incorrect argument types", callee)
            count = self.expr(args[3])
            if not (count.type.is_scalar and count.type.is_integer):
                raise SemaError("illegal call to enqueue_kernel, incorrect argument types", callee)
            wait = self._event_pointer(self.expr(args[4]), args[4], illegal="enqueue_kernel")
            ret = self._event_pointer(self.expr(args[5]), args[5], illegal="enqueue_kernel")
            events, block_at = [self.convert(count, UINT, args[3]).id, wait, ret], 6
            if not self.block_callee(args[6]):
                raise SemaError("illegal call to 'enqueue_kernel', expected block argument type", args[6])
        block_node, sizes = args[block_at], args[block_at + 1:]
        self._check_local_parameters(block_node, sizes, callee)
        size_values = []
        for size_node in sizes:
            v = self.expr(size_node)
            if not (v.type.is_scalar and v.type.is_integer):
                raise SemaError("illegal call to enqueue_kernel, parameter needs to be specified as integer type",
                                size_node)
            size_values.append((v, size_node))
        queue = q.id
        flag = self.convert(flags, UINT, args[1]).id
        nd_ptr = self._ndrange_pointer(nd, args[2], "enqueue_kernel")
        if events is None:
            events = [self.u32(0), null, null]
        info, block = self._block_operands("enqueue_kernel", block_node)
        return Val(INT, self.f.op("OpEnqueueKernel", self.spv(UINT), queue, flag, nd_ptr, *events, *block,
                                  *self._local_size_pointers(size_values)))

    def _check_local_parameters(self, block_node, sizes, callee) -> None:
        """clang's rules on an enqueued block's parameters: each a ``local void *``, one local size
        argument for each."""
        params = self.peek_block(block_node).params
        for k, p in enumerate(params):
            if not (p.is_pointer and p.space == "local" and p.pointee.is_void):  # (clang: at a literal's parameter)
                where = block_node
                if isinstance(block_node, ast.BlockLiteral):
                    where = block_node.type.params[k].type
                    while not isinstance(where, ast.BaseType):
                        where = getattr(where, "pointee", None) or getattr(where, "element", None) or where.result
                raise SemaError("blocks used in enqueue_kernel call are expected to have parameters of type 'local "
                                "void*'", where)
        if params and not sizes:
            raise SemaError("blocks with parameters are not accepted in this prototype of enqueue_kernel call",
                            block_node)
        if len(sizes) != len(params):
            raise SemaError("mismatch in number of block parameters and local size arguments passed", callee)

    def _local_size_pointers(self, size_values) -> list[int]:
        """The Local Size operands: the sizes stored as size_t in a Function array, a pointer to
        each element (llvm-spirv's form: one access chain for the store, another for the operand)."""
        if not size_values:
            return []
        array = self.f.variable(self.b.type_pointer("Function", self.spv(Array(SIZE_T, len(size_values)), True)))
        ulong_ptr = self.b.type_pointer("Function", self.spv(SIZE_T))
        for k, (v, size_node) in enumerate(size_values):
            slot = self.f.op("OpPtrAccessChain", ulong_ptr, array, self.u32(0), self.u32(k))
            self.f.op("OpStore", None, slot, self.convert(v, SIZE_T, size_node).id)
        return [self.f.op("OpPtrAccessChain", ulong_ptr, array, self.u32(0), self.u32(k))
                for k in range(len(size_values))]

    def peek_block(self, node):
        """The type of a block argument before it is compiled: a literal's written parameters
        (its result is not needed here), a block variable's type."""
        while isinstance(node, ast.Paren):
            node = node.expr
        if isinstance(node, ast.BlockLiteral):
            params, _ = self.block_params(node)
            return Block(VOID, tuple(params))
        sym = self.scope.lookup(node.name)
        return sym.type

    def kernel_query(self, name: str, node):
        args = node.args
        with_ndrange = "ndrange" in name
        expected = 2 if with_ndrange else 1
        if len(args) != expected:
            few = len(args) < expected
            raise SemaError(f"too {'few' if few else 'many'} arguments to function call, expected {expected}, have "
                            f"{len(args)}", node.func)
        operands = []
        if with_ndrange:
            nd = self.expr(args[0])
            if nd.type is not NDRANGE_T:
                raise SemaError(f"illegal call to '{name}', expected 'ndrange_t' argument type", args[0])
        _, block = self._block_operands(name, args[-1])
        if with_ndrange:
            operands.append(self._ndrange_pointer(nd, args[0], name))
        return Val(UINT, self.f.op(_KERNEL_QUERIES[name], self.spv(UINT), *operands, *block))
