"""Small runtime routines the lowered code calls, written in LLVM IR into each module.

They run inside the JIT'd code (no Python, no GIL): recording the first fault of a launch,
finding the region of a pointer whose provenance was lost, and classifying generic pointers.
"""

from __future__ import annotations

from llvmlite import ir

from .abi import ABORT_FAULT, CONTEXT, THREAD

I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()
REGION = ir.LiteralStructType([PTR, PTR])

# Storage classes a generic pointer can resolve to (OpGenericCastToPtrExplicit).
STORAGE_PRIVATE, STORAGE_LOCAL, STORAGE_GLOBAL = 0, 1, 2


def _word(b: ir.IRBuilder, base: ir.Value, index: int) -> ir.Value:
    return b.gep(base, [ir.Constant(I64, index)], source_etype=I64)


class RuntimeFunctions:
    def __init__(self, ml):
        self.ml = ml
        self.cache: dict[str, ir.Function] = {}

    def get(self, name: str) -> ir.Function:
        fn = self.cache.get(name)
        if fn is None:
            fn = getattr(self, "_" + name)()
            self.cache[name] = fn
        return fn

    def _function(self, name: str, ret: ir.Type, params: list[ir.Type]) -> tuple[ir.Function, ir.IRBuilder]:
        fn = ir.Function(self.ml.llvm, ir.FunctionType(ret, params), name=f"spirvkit.{name}")
        fn.linkage = "internal"
        return fn, ir.IRBuilder(fn.append_basic_block("entry"))

    def _fault(self) -> ir.Function:
        """fault(ctx, ts, lx, ly, lz, site, addr, base, end, size): the first fault of a launch
        wins the abort flag and records where it happened; later ones are dropped."""
        fn, b = self._function("fault", ir.VoidType(), [PTR, PTR, I64, I64, I64, I64, I64, I64, I64, I64])
        fn.attributes.add("noinline")
        fn.attributes.add("cold")
        ctx, ts, lx, ly, lz, site, addr, base, end, size = fn.args
        old = b.cmpxchg(_word(b, ctx, CONTEXT["abort"]), ir.Constant(I64, 0), ir.Constant(I64, ABORT_FAULT),
                        "seq_cst", "seq_cst")
        won = b.extract_value(old, 1)
        with b.if_then(won):
            b.store(site, _word(b, ctx, CONTEXT["fault_site"]))
            for d, local in enumerate((lx, ly, lz)):
                group = b.load(_word(b, ts, THREAD["group_id"] + d), typ=I64)
                size_d = b.load(_word(b, ctx, CONTEXT["enqueued_local_size"] + d), typ=I64)
                offset = b.load(_word(b, ctx, CONTEXT["global_offset"] + d), typ=I64)
                gid = b.add(b.add(b.mul(group, size_d), local), offset)
                b.store(gid, _word(b, ctx, CONTEXT["fault_global_id"] + d))
            for name, value in (("fault_address", addr), ("fault_base", base), ("fault_end", end),
                                ("fault_size", size)):
                b.store(value, _word(b, ctx, CONTEXT[name]))
        b.ret_void()
        return fn

    def _find_region(self) -> ir.Function:
        """find_region(ctx, ts, addr) -> {base, end}: the buffer a pointer points into, for a
        pointer that was loaded from memory or made from an integer. Not found: an empty
        region, so any access through it faults."""
        fn, b = self._function("find_region", REGION, [PTR, PTR, PTR])
        fn.attributes.add("noinline")
        # What it reads (the region table, the thread's local block) does not change while a
        # launch runs: calls with the same pointer may be merged and hoisted out of work-item
        # loops (a pointer loaded from an invariant block literal, jit/block_literal.py).
        fn.attributes.add("readnone")
        fn.attributes.add("nounwind")
        fn.attributes._known = fn.attributes._known | {"willreturn"}   # llvmlite does not know it
        fn.attributes.add("willreturn")
        ctx, ts, addr = fn.args
        a = b.ptrtoint(addr, I64)
        local_base = b.load(_word(b, ts, THREAD["local_base"]), typ=I64)
        local_end = b.add(local_base, b.load(_word(b, ts, THREAD["local_bytes"]), typ=I64))
        in_local = b.and_(b.icmp_unsigned(">=", a, local_base), b.icmp_unsigned("<=", a, local_end))
        found_local = fn.append_basic_block("local")
        search = fn.append_basic_block("search")
        b.cbranch(in_local, found_local, search)
        b.position_at_end(found_local)
        b.ret(_region(b, local_base, local_end))

        b.position_at_end(search)
        table = b.inttoptr(b.load(_word(b, ctx, CONTEXT["regions"]), typ=I64), PTR)
        count = b.load(_word(b, ctx, CONTEXT["region_count"]), typ=I64)
        loop = fn.append_basic_block("loop")
        body = fn.append_basic_block("body")
        hit = fn.append_basic_block("hit")
        miss = fn.append_basic_block("miss")
        entry = b.block
        b.branch(loop)
        b.position_at_end(loop)
        i = b.phi(I64)
        i.add_incoming(ir.Constant(I64, 0), entry)
        b.cbranch(b.icmp_unsigned("<", i, count), body, miss)
        b.position_at_end(body)
        base = b.load(b.gep(table, [b.mul(i, ir.Constant(I64, 2))], source_etype=I64), typ=I64)
        end = b.load(b.gep(table, [b.add(b.mul(i, ir.Constant(I64, 2)), ir.Constant(I64, 1))], source_etype=I64),
                     typ=I64)
        inside = b.and_(b.icmp_unsigned(">=", a, base), b.icmp_unsigned("<=", a, end))
        i.add_incoming(b.add(i, ir.Constant(I64, 1)), body)
        b.cbranch(inside, hit, loop)
        b.position_at_end(hit)
        b.ret(_region(b, base, end))
        b.position_at_end(miss)
        b.ret(_region(b, a, a))
        return fn

    def _storage_of(self) -> ir.Function:
        """storage_of(ctx, ts, addr) -> i32: where a generic pointer points (STORAGE_*)."""
        fn, b = self._function("storage_of", I32, [PTR, PTR, PTR])
        ctx, ts, addr = fn.args
        a = b.ptrtoint(addr, I64)
        local_base = b.load(_word(b, ts, THREAD["local_base"]), typ=I64)
        local_end = b.add(local_base, b.load(_word(b, ts, THREAD["local_bytes"]), typ=I64))
        in_local = b.and_(b.icmp_unsigned(">=", a, local_base), b.icmp_unsigned("<", a, local_end))
        region = b.call(self.get("find_region"), [ctx, ts, addr])
        base = b.ptrtoint(b.extract_value(region, 0), I64)
        end = b.ptrtoint(b.extract_value(region, 1), I64)
        in_global = b.icmp_unsigned("!=", base, end)
        storage = b.select(in_global, ir.Constant(I32, STORAGE_GLOBAL), ir.Constant(I32, STORAGE_PRIVATE))
        b.ret(b.select(in_local, ir.Constant(I32, STORAGE_LOCAL), storage))
        return fn


def _region(b: ir.IRBuilder, base: ir.Value, end: ir.Value) -> ir.Value:
    agg = ir.Constant(REGION, None)
    agg = b.insert_value(agg, b.inttoptr(base, PTR), 0)
    return b.insert_value(agg, b.inttoptr(end, PTR), 1)
