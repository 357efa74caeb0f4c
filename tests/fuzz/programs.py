"""The ``programs`` target: random OpenCL C kernels, generated (not mutated) so that nearly all
compile and run: integer and floating-point expressions without undefined behaviour (wrapping
arithmetic through unsigned types, guarded division, masked shifts and indexes, saturating
conversions), vectors and swizzles, structs, private arrays and pointers, loops, switches,
helper functions, local memory with barriers and atomics. Each kernel is compiled by cc, its
module validated, and run three ways: checked, unchecked, and checked again on the same program
(a later launch may use the optimised tier). The three outputs must be the same (a ``mismatch``
finding otherwise), as well as free of the usual findings.

The same generator, run against clang-15 + llvm-spirv-15 (both modules on spirvkit) and against
PoCL, is how the first campaign checked cc's code: every difference found was PoCL's (it returns 0
from a whole kernel that saturates an infinite or out-of-range constant)."""

from __future__ import annotations

import random

from . import clc

split, join = clc.split, clc.join   # the driver's shrinker deletes tokens, as for clc

TIMEOUT = 60.0
SUFFIX = ".cl"
N_ITEMS, LOCAL = 32, 8
OPTIONS = "-cl-std=CL2.0"


SCAL = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
BITS = {"char": 8, "uchar": 8, "short": 16, "ushort": 16, "int": 32, "uint": 32, "long": 64, "ulong": 64}
UNS = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong"}
NOUT = 8
MINS = {"char": "-128", "short": "-32768", "int": "(-2147483647-1)", "long": "(-9223372036854775807L-1)"}


def unsigned(t):
    return UNS.get(t, t)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.vars = []       # (name, type) in scope, scalar types only
        self.vvars = []      # (name, base, n) vectors
        self.n = 0
        self.funcs = []
        self.depth = 0
        self.in_helper = False

    def name(self, p="v"):
        self.n += 1
        return f"{p}{self.n}"

    def stype(self):
        return self.r.choice(SCAL)

    # -- expressions of scalar type t (always defined behaviour) --
    def expr(self, t, d=0):
        r = self.r
        if d > 3 or r.random() < 0.25:
            return self.leaf(t)
        k = r.randrange(19)
        u = unsigned(t) if BITS[t] >= 32 else "uint"   # sub-int types promote to int: wrap in uint
        a = lambda: self.expr(t, d + 1)  # noqa: E731
        if k == 0:   # wrapping arithmetic through unsigned
            op = r.choice("+-*")
            return f"(({t})(({u}){a()} {op} ({u}){a()}))"
        if k == 1:
            op = r.choice("&|^")
            return f"({a()} {op} {a()})"
        if k == 2:   # shifts: unsigned, amount masked (OpenCL masks anyway)
            op = r.choice(["<<", ">>"])
            return f"(({t})(({u}){a()} {op} ({self.expr('uint', d + 1)} & {BITS[t] - 1}u)))"
        if k == 3:   # safe div/mod (unsigned)
            op = r.choice("/%")
            return f"(({t})(({u}){a()} {op} (({u}){a()} | ({u})1)))"
        if k == 4:
            c = r.choice(["<", "<=", ">", ">=", "==", "!="])
            t2 = self.stype()
            return f"(({t})({self.expr(t2, d + 1)} {c} {self.expr(t2, d + 1)}))"
        if k == 5:
            return f"({self.cond(d + 1)} ? {a()} : {a()})"
        if k == 6:   # conversion from another type
            t2 = self.stype()
            return f"(({t}){self.expr(t2, d + 1)})"
        if k == 7:
            f = r.choice(["min", "max", "add_sat", "sub_sat", "hadd", "rhadd", "mul_hi", "rotate"])
            return f"{f}(({t}){a()}, ({t}){a()})"
        if k == 8:
            f = r.choice(["popcount", "clz", "abs", "ctz"])
            inner = f"{f}(({t}){a()})"
            return f"(({t}){inner})"
        if k == 9:
            f = r.choice(["abs_diff"])
            return f"(({t}){f}(({t}){a()}, ({t}){a()}))"
        if k == 10:
            lo, hi = sorted([r.randrange(-50, 50), r.randrange(-50, 50)]) if t in UNS else sorted(
                [r.randrange(0, 100), r.randrange(0, 100)])
            return f"clamp(({t}){a()}, ({t}){lo}, ({t}){hi})"
        if k == 11 and self.vvars:
            name, base, n = r.choice(self.vvars)
            return f"(({t}){name}.s{r.randrange(n):x})"
        if k == 12 and self.funcs:
            fn, pt = r.choice(self.funcs)
            return f"(({t}){fn}(({pt}){self.expr(pt, d + 1)}, ({pt}){self.expr(pt, d + 1)}))"
        if k == 14 and t in UNS:   # signed division/modulo with the UB cases guarded
            op = r.choice("/%")
            return (f"(({t})sdiv_{t}({a()}, {a()}, {op!r} == '/'))")
        if k == 15:
            b = r.choice(["int", "uint", "long", "ushort", "char", "ulong"])
            n = r.choice([2, 3, 4, 8, 16])
            return f"(({t})({self.vexpr(b, n, d + 1)}).s{r.randrange(n):x})"
        if k == 16 and self.vvars:
            name, base, n = r.choice(self.vvars)
            red = " ^ ".join(f"({t}){name}.s{i:x}" for i in range(n))
            return f"(({t})({red}))"
        if k == 17:   # float -> integer, saturated or not (plain conversion of an out-of-range value is UB)
            ft = r.choice(["float", "double"])
            return f"convert_{t}_sat{r.choice(['', '_rte', '_rtz', '_rtp', '_rtn'])}({self.fexpr(ft, d + 1)})"
        if k == 18:
            ft = r.choice(["float", "double"])
            return f"(({t}){self.fbits(ft, self.fexpr(ft, d + 1))})"
        if k == 13:
            op = r.choice(["!", "~", "-"])
            if op == "-":
                return f"(({t})(-({u}){a()}))"
            return f"(({t})({op}{a()}))"
        return self.leaf(t)

    def vexpr(self, b, n, d=0):
        """A vector expression of type b<n>, defined behaviour only."""
        r = self.r
        vt = f"{b}{n}"
        ub = unsigned(b)
        cands = [v for v in self.vvars if v[1] == b and v[2] == n]
        if d > 3 or r.random() < 0.2:
            if cands and r.random() < 0.6:
                return r.choice(cands)[0]
            if r.random() < 0.5:
                return f"(({vt})(({b}){self.expr(b, d + 2)}))"
            return f"(({vt})({', '.join(f'({b}){self.leaf(b)}' for _ in range(n))}))"
        k = r.randrange(10)
        v = lambda: self.vexpr(b, n, d + 1)  # noqa: E731
        if k == 0:
            op = r.choice("+-*")
            if b in UNS:
                return f"as_{vt}(as_{ub}{n}({v()}) {op} as_{ub}{n}({v()}))"
            return f"({v()} {op} {v()})"
        if k == 1:
            return f"({v()} {r.choice('&|^')} {v()})"
        if k == 2:
            return f"convert_{vt}({v()} {r.choice(['<', '>', '==', '!=', '<=', '>='])} {v()})"
        if k == 3:
            f = r.choice(["min", "max", "add_sat", "sub_sat", "hadd", "rhadd", "rotate", "mul_hi"])
            return f"{f}({v()}, {v()})"
        if k == 4:
            f = r.choice(["popcount", "clz", "ctz"])
            return f"{f}({v()})"
        if k == 5:   # from another element type, plain or saturated
            b2 = r.choice(SCAL)
            sat = r.choice(["", "_sat"])
            return f"convert_{vt}{sat}({self.vexpr(b2, n, d + 1)})"
        if k == 6:   # select with a signed mask of the same width
            sb = {8: "char", 16: "short", 32: "int", 64: "long"}[BITS[b]]
            return f"select({v()}, {v()}, {self.vexpr(sb, n, d + 1)})"
        if k == 7 and n in (2, 4, 8, 16):   # shuffle
            m = r.choice([2, 4, 8, 16])
            ut = {8: "uchar", 16: "ushort", 32: "uint", 64: "ulong"}[BITS[b]]
            mask = f"(({ut}{n})({', '.join(str(r.randrange(64)) for _ in range(n))}))"
            return f"shuffle({self.vexpr(b, m, d + 1)}, {mask})"
        if k == 8:   # shift, amount masked by the element width (OpenCL's rule)
            if b in UNS:
                return f"as_{vt}(as_{ub}{n}({v()}) {r.choice(['<<', '>>'])} as_{ub}{n}({v()}))"
            return f"({v()} {r.choice(['<<', '>>'])} {v()})"
        if k == 9 and n >= 4:   # a swizzle of a wider or narrower vector
            m = r.choice([2, 4, 8, 16])
            comps = "".join(f"{r.randrange(m):x}" for _ in range(n))
            return f"({self.vexpr(b, m, d + 1)}).s{comps}"
        return v()

    def fexpr(self, t, d=0):
        """A float/double expression built from correctly rounded operations."""
        r = self.r
        f = lambda: self.fexpr(t, d + 1)  # noqa: E731
        sfx = "f" if t == "float" else ""
        if d > 3 or r.random() < 0.25:
            k = r.randrange(4)
            if k == 0:
                return f"(({t})({self.expr(r.choice(SCAL), 3)}))"
            if k == 1:
                return r.choice(["0.0", "-0.0", "1.0", "0.5", "-2.5", "1e30", "-1e-30", "3.0e38", "65504.0",
                                 "0x1.fffffep+127", "0x1p-149", "1.5", "2147483648.0", "-2147483649.0",
                                 "4294967296.0", "9.2233720368547758e18", "0.1"]) + sfx if r.random() < 0.85 else \
                    f"(({t}){r.choice(['INFINITY', '-INFINITY', 'NAN', 'FLT_MAX', 'FLT_MIN', 'DBL_MIN'])})"
            if k == 2 and not self.in_helper:
                return f"as_{t}(({'uint' if t == 'float' else 'ulong'})in[(gid + {r.randrange(64)}u) & 63u])"
            return f"(({t})gid * 0.25{sfx})"
        k = r.randrange(12)
        if k < 3:
            return f"({f()} {r.choice('+-*/')} {f()})"
        if k == 3:
            return f"{r.choice(['floor', 'ceil', 'trunc', 'round', 'rint', 'fabs', 'sqrt'])}({f()})"
        if k == 4:
            return f"{r.choice(['copysign', 'fdim', 'nextafter'])}({f()}, {f()})"
        if k == 5:
            return f"fma({f()}, {f()}, {f()})"
        if k == 6:
            return f"({self.cond(d + 1)} ? {f()} : {f()})"
        if k == 7:   # integer -> float with a rounding mode
            it = r.choice(SCAL)
            return f"convert_{t}{r.choice(['', '_rte', '_rtz', '_rtp', '_rtn'])}(({it}){self.expr(it, d + 1)})"
        if k == 8:
            return f"ldexp({f()}, (int)({self.expr('int', d + 1)} & 0x3ff) - 512)"
        if k == 9:
            o = "double" if t == "float" else "float"
            return f"convert_{t}{r.choice(['', '_rte', '_rtz', '_rtp', '_rtn'])}(({o}){self.fexpr(o, d + 1)})"
        if k == 10:
            return f"(-({f()}))"
        return f"({t})({f()} {r.choice(['<', '>', '<=', '>=', '==', '!='])} {f()})"

    def fbits(self, t, e):
        """A float as integer bits, NaNs made canonical (their payload is not specified)."""
        it = "uint" if t == "float" else "ulong"
        return f"(ulong)(isnan({e}) ? ({it})0x7 : as_{it}({e}))"

    def cond(self, d):
        t = self.stype()
        c = self.r.choice(["<", "<=", ">", ">=", "==", "!="])
        return f"({self.expr(t, d)} {c} {self.expr(t, d)})"

    def leaf(self, t):
        r = self.r
        k = r.randrange(4)
        if k == 0 and self.vars:
            name, vt = r.choice(self.vars)
            return f"(({t}){name})"
        if k == 1 and not self.in_helper:
            return f"(({t})in[(gid + {r.randrange(64)}u) & 63u])"
        if k == 2:
            return f"(({t})gid)"
        v = r.choice([0, 1, 2, 3, 7, 127, 128, 255, 32767, 65535, 0x7fffffff, 0xffffffff, -1, -128, r.randrange(1 << 32)])
        return f"(({t}){v}{'L' if abs(v) > 0x7fffffff else ''})"

    # -- statements --
    def block(self, ind, n):
        saved = (list(self.vars), list(self.vvars))
        out = [self.stmt(ind) for _ in range(n)]
        self.vars, self.vvars = saved
        return "\n".join(out)

    def stmt(self, ind):
        r = self.r
        p = "    " * ind
        self.depth += 1
        try:
            k = r.randrange(10) if self.depth < 4 else r.randrange(3)
            if self.depth < 4 and r.random() < 0.3:
                k = 9
            if k in (0, 1):
                t = self.stype()
                nm = self.name()
                s = f"{p}{t} {nm} = {self.expr(t)};"
                self.vars.append((nm, t))
                return s
            writable = [v for v in self.vars if not v[0].startswith("i")]
            if k == 2 and writable:
                nm, t = r.choice(writable)
                op = r.choice(["=", "^=", "|=", "&="])
                return f"{p}{nm} {op} {self.expr(t)};"
            if k == 3:
                return f"{p}if {self.cond(0)} {{\n{self.block(ind + 1, r.randrange(1, 4))}\n{p}}} else {{\n{self.block(ind + 1, r.randrange(0, 3))}\n{p}}}"
            if k == 4:
                i = self.name("i")
                nt = r.randrange(1, 9)
                self.vars.append((i, "int"))
                body = self.block(ind + 1, r.randrange(1, 4))
                self.vars.pop()
                brk = f"\n{p}    if {self.cond(1)} break;" if r.random() < 0.3 else ""
                return f"{p}for (int {i} = 0; {i} < {nt}; {i}++) {{\n{body}{brk}\n{p}}}"
            if k == 5:
                n = r.choice([2, 4, 8, 16])
                b = r.choice(["int", "uint", "short", "uchar", "long"])
                nm = self.name("vec")
                comps = ", ".join(f"({b}){self.expr(b, 2)}" for _ in range(n))
                self.vvars.append((nm, b, n))
                s = f"{p}{b}{n} {nm} = ({b}{n})({comps});"
                if r.random() < 0.5:
                    op = r.choice(["+", "^", "&", "|", "*"])
                    s += f"\n{p}{nm} = {nm} {op} ({b}{n})(({b}){self.expr(b, 2)});"
                if r.random() < 0.3 and n >= 4:
                    s += f"\n{p}{nm}.s{r.randrange(n):x} = ({b}){self.expr(b, 2)};"
                return s
            if k == 6:
                arr = self.name("arr")
                t = self.stype()
                n = r.choice([4, 8, 16])
                idx = self.expr("uint", 2)
                return (f"{p}{t} {arr}[{n}];\n{p}for (int q = 0; q < {n}; q++) {arr}[q] = ({t})(q * {r.randrange(1, 9)} + gid);\n"
                        f"{p}{arr}[({idx}) & {n - 1}u] ^= {self.expr(t)};\n"
                        f"{p}acc ^= (ulong){arr}[({self.expr('uint', 2)}) & {n - 1}u];")
            if k == 7:
                sw = self.expr("uint", 2)
                cases = "".join(f"{p}  case {c}: acc += {self.expr('ulong', 2)}; {'break;' if r.random() < 0.7 else ''}\n"
                                for c in sorted(set(r.randrange(8) for _ in range(3))))
                return f"{p}switch (({sw}) & 7u) {{\n{cases}{p}  default: acc ^= 1;\n{p}}}"
            if k == 8:
                t = r.choice(["int", "uint", "long", "ulong"])
                nm = self.name()
                self.vars.append((nm, t))
                return f"{p}{t} {nm} = 0;\n{p}{{ {t} *ptr = &{nm}; *ptr = {self.expr(t)}; *ptr += ({t})1; }}"
            if k == 9 and r.random() < 0.85:
                return self.stmt2(ind)
            nm, t = (r.choice(self.vars) if self.vars else ("acc", "ulong"))
            return f"{p}acc = acc * 31ul + (ulong){nm};"
        finally:
            self.depth -= 1

    def stmt2(self, ind):
        r = self.r
        p = "    " * ind
        k = r.randrange(11)
        if k in (3, 4) and self.depth != 1:   # barriers only where every work-item arrives
            k = 9
        writable = [v for v in self.vars if not v[0].startswith("i")]
        if k == 0 and writable:    # compound assignment / inc / dec
            nm, t = r.choice(writable)
            u = unsigned(t) if BITS[t] >= 32 else "uint"
            op = r.choice(["+=", "-=", "*=", "<<=", ">>=", "++", "--", "pre++"])
            if op in ("++", "--", "pre++"):
                if t in UNS:     # signed overflow is UB: step through unsigned
                    return f"{p}{nm} = ({t})(({u}){nm} + 1u);"
                return f"{p}{nm}{op};" if op != "pre++" else f"{p}++{nm};"
            if op in ("<<=", ">>="):
                if t in UNS and op == "<<=":
                    return f"{p}{nm} = ({t})(({u}){nm} << ({self.expr('uint', 2)} & {BITS[t] - 1}u));"
                return f"{p}{nm} {op} ({self.expr('uint', 2)} & {BITS[t] - 1}u);"
            if t in UNS or BITS[t] < 32:
                return f"{p}{nm} = ({t})(({u}){nm} {op[0]} ({u}){self.expr(t, 2)});"
            return f"{p}{nm} {op} {self.expr(t, 2)};"
        if k == 1:   # a struct, copied, passed by value and by pointer
            nm = self.name("st")
            return (f"{p}struct S {nm} = {{ {self.expr('int', 2)}, {self.expr('uchar', 2)}, {{ {self.expr('long', 2)}, {self.expr('long', 2)}, 3 }}, (ushort4)({self.expr('ushort', 2)}) }};\n"
                    f"{p}struct S {nm}b = {nm};\n{p}{nm}b.c[{r.randrange(3)}] ^= (long){self.expr('uint', 2)};\n"
                    f"{p}sbump(&{nm}b, {self.expr('int', 2)});\n"
                    f"{p}acc += sfold({nm}) * 3ul + sfold({nm}b);")
        if k == 2:   # while / do-while with a bounded counter and continue
            c = self.name("w")
            n = r.randrange(1, 7)
            body = self.block(ind + 1, r.randrange(1, 3))
            if r.random() < 0.5:
                return f"{p}{{ int {c} = 0; while ({c} < {n}) {{ {c}++; if (({self.expr('uint', 2)} & 3u) == 0u) continue;\n{body}\n{p}}} }}"
            return f"{p}{{ int {c} = 0; do {{\n{body}\n{p}}} while (++{c} < {n}); }}"
        if k == 3:   # local memory, barrier, neighbour read
            t = r.choice(["int", "uint", "long", "ushort"])
            return (f"{p}{{ __local {t} *lm = (__local {t} *)lmem; size_t li = get_local_id(0), ls = get_local_size(0);\n"
                    f"{p}  barrier(CLK_LOCAL_MEM_FENCE);\n{p}  lm[li] = {self.expr(t, 2)};\n{p}  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    f"{p}  acc += (ulong)lm[(li + {r.randrange(1, 8)}) % ls];\n{p}  barrier(CLK_LOCAL_MEM_FENCE); }}")
        if k == 4:   # atomics whose final value is order-independent
            return (f"{p}{{ __local uint *la = (__local uint *)lmem; size_t li = get_local_id(0);\n"
                    f"{p}  barrier(CLK_LOCAL_MEM_FENCE);\n{p}  if (li == 0) la[0] = 0u;\n{p}  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    f"{p}  atomic_{r.choice(['add', 'or', 'xor', 'max', 'min', 'and'])}(&la[0], {self.expr('uint', 2)});\n"
                    f"{p}  barrier(CLK_LOCAL_MEM_FENCE);\n{p}  acc ^= (ulong)la[0];\n{p}  barrier(CLK_LOCAL_MEM_FENCE); }}")
        if k == 5:   # vload/vstore through private arrays
            n = r.choice([2, 3, 4, 8])
            b = r.choice(["int", "uchar", "short", "ulong"])
            nm = self.name("pa")
            return (f"{p}{{ {b} {nm}[{2 * n + 1}]; for (int q = 0; q < {2 * n + 1}; q++) {nm}[q] = ({b})(q + gid);\n"
                    f"{p}  {b}{n} t = vload{n}(1, {nm} + {r.randrange(2)}) ^ ({b}{n})(({b}){self.expr(b, 2)});\n"
                    f"{p}  vstore{n}(t, 0, {nm} + 1);\n{p}  for (int q = 0; q < {2 * n + 1}; q++) acc = acc * 3ul + (ulong){nm}[q]; }}")
        if k == 6 and self.vvars:   # swizzle lvalue
            name, b, n = r.choice(self.vvars)
            m = r.choice([x for x in (1, 2, 4) if x <= n])
            comps = "".join(f"{i:x}" for i in r.sample(range(n), m))
            rhs = f"({b}){self.expr(b, 2)}" if m == 1 else f"({b}{m})(({b}){self.expr(b, 2)})"
            return f"{p}{name}.s{comps} = {rhs};"
        if k == 7:   # pointer walk over a private array
            nm = self.name("pw")
            t = r.choice(["int", "uchar", "long"])
            return (f"{p}{{ {t} {nm}[8]; for (int q = 0; q < 8; q++) {nm}[q] = ({t})(q * 5 + gid);\n"
                    f"{p}  {t} *pp = {nm} + ({self.expr('uint', 2)} & 3u); pp[1] += ({t})3; *(pp + 2) = ({t})({self.expr(t, 2)} & 0x7f);\n"
                    f"{p}  acc += (ulong)(pp - {nm}) + (ulong){nm}[{r.randrange(8)}] + (ulong)pp[3]; }}")
        if k == 8:   # global memory round trip through out (own slot only)
            return (f"{p}out[gid * {NOUT}u + {r.randrange(NOUT)}u] = {self.expr('ulong', 2)};\n"
                    f"{p}acc += out[gid * {NOUT}u + {r.randrange(NOUT)}u];")
        if k == 9:   # comma, sizeof, logical operators
            return f"{p}acc += (ulong)(({self.cond(2)} && {self.cond(2)}) || !{self.cond(2)}) + sizeof({self.stype()}) + ({self.expr('int', 2)}, 1ul);"
        if k == 10:  # convert with rounding mode and saturation from scalars
            t = r.choice(SCAL)
            t2 = r.choice(SCAL)
            return f"{p}acc += (ulong)convert_{t}_sat(({t2}){self.expr(t2, 2)});"
        return f"{p}acc ^= 5ul;"

    def helper(self):
        t = self.r.choice(["int", "uint", "long", "short", "uchar"])
        fn = self.name("f")
        saved = self.vars, self.vvars, self.funcs
        self.vars = [("a", t), ("b", t)]
        self.vvars = []
        self.in_helper = True
        body = self.expr(t)
        self.in_helper = False
        self.vars, self.vvars, self.funcs = saved
        self.funcs.append((fn, t))
        return f"{t} {fn}({t} a, {t} b) {{ uint gid = 0; (void)gid; return {body}; }}"

    def kernel(self):
        helpers = [self.helper() for _ in range(self.r.randrange(0, 3))]
        self.vars = []
        body = self.block(1, self.r.randrange(3, 10))
        outs = []
        for k in range(NOUT):
            if self.vars and self.r.random() < 0.7:
                nm, t = self.r.choice(self.vars)
                outs.append(f"    out[gid * {NOUT}u + {k}u] = (ulong){nm} ^ (acc << {k});")
            else:
                outs.append(f"    out[gid * {NOUT}u + {k}u] = (ulong)({self.expr('ulong')}) + acc;")
        sdiv = "".join(
            f"{t} sdiv_{t}({t} a, {t} b, int div) {{ if (b == 0 || (a == ({t}){MINS[t]} && b == -1)) return a; return div ? a / b : a % b; }}\n"
            for t in UNS)
        struct = ("struct S { int a; uchar b; long c[3]; ushort4 d; };\n"
                  "ulong sfold(struct S s) { return (ulong)s.a * 7ul + s.b + (ulong)s.c[0] + (ulong)s.c[1] * 5ul + (ulong)s.c[2] + s.d.s0 + s.d.s3; }\n"
                  "void sbump(struct S *s, int k) { s->a = (int)((uint)s->a + (uint)k); s->b += 1; s->c[2] = s->c[0] ^ s->c[1]; s->d.s1 = (ushort)k; }\n")
        prag = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n"
        return (prag + sdiv + struct + "\n".join(helpers) + "\n"
                "__kernel void k(__global const ulong *in, __global ulong *out, __local ulong *lmem) {\n"
                "    uint gid = get_global_id(0);\n    ulong acc = 0;\n"
                f"{body}\n" + "\n".join(outs) + "\n}\n")


def corpus() -> list:
    return []


def mutate(rng, corpus) -> str:
    return f"//OPTIONS {OPTIONS}\n" + Gen(rng.randrange(1 << 62)).kernel()


def _inputs():
    import numpy as np

    rng = np.random.default_rng(1)
    data = rng.integers(0, 1 << 63, 64, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, 64, dtype=np.uint64)
    data[:8] = [0, 1, 2, 0xFFFFFFFF, 0x80000000, 0xFFFFFFFFFFFFFFFF, 127, 128]
    return data


def execute(text: str) -> tuple[str, str]:
    import numpy as np

    import spirvkit

    from .clc import validation_env

    source = text.partition("\n")[2] if text.startswith("//OPTIONS ") else text
    binary = spirvkit.compile_cl(source, OPTIONS)
    problems = spirvkit.validate(binary, **validation_env(OPTIONS))
    if problems:
        return "invalid-output", f"{problems[0]}"[:300]
    data = _inputs()
    outputs = []
    for unchecked, again in ((False, False), (True, False), (False, True)):
        program = spirvkit.Program(binary)
        kernel = program.kernel("k")
        for _ in range(2 if again else 1):
            out = np.zeros(N_ITEMS * NOUT, np.uint64)
            kernel(N_ITEMS, LOCAL, data, out, spirvkit.LocalMemory(LOCAL * 8), unchecked=unchecked, timeout=20)
        outputs.append(out)
    for name, out in zip(("unchecked", "a second checked launch"), outputs[1:]):
        if not np.array_equal(out, outputs[0]):
            at = int(np.nonzero(out != outputs[0])[0][0])
            return "mismatch", (f"{name} differs from the checked launch at out[{at}]: {int(out[at]):#x} "
                                f"!= {int(outputs[0][at]):#x}")
    return "ok", ""
