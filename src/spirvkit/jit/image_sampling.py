"""Sampled image reads: the addressing and filter modes of the OpenCL SPIR-V environment, §7.

One LLVM function per (spatial dimensions, arrayed, float or integer result, format) and
module: ``sample(desc, sampler, c0, c1, c2) -> <4 x float | i32>``, the coordinates as floats
(the layer of an image array last). The sampler is an argument (sampler_t bits), so one
function serves every sampler; for a format the launch fixes (jit/image_launch.py) the function
is inlined, and with the sampler a constant there (a constant sampler, or a sampler argument the
launch fixes) LLVM folds the mode choices away.

The formulas are the spec's, in its order of float operations, per coordinate:

- CLAMP_TO_EDGE, CLAMP, NONE: ``u = s * size`` (normalized) or ``u = s``; nearest
  ``i = address_mode((int)floor(u))``; linear ``i0 = address_mode((int)floor(u - 0.5))``,
  ``i1 = address_mode((int)floor(u - 0.5) + 1)``, ``a = frac(u - 0.5)``;
- REPEAT: ``u = (s - floor(s)) * size``, then wrapped indices;
- MIRRORED_REPEAT: ``s' = fabs(s - 2 * rint(0.5 * s))``, ``u = s' * size``, then clamped;

and the 2^n texels blended as §7.2.1.2 writes the sum. Texels outside the image read as the
border colour (CLAMP, and NONE, where the spec leaves them undefined; CLAMP_TO_EDGE never leaves
the image). Choices where the spec says "undefined":

- REPEAT / MIRRORED_REPEAT with unnormalized coordinates (the API allows only normalized ones):
  the coordinate is normalized first (``s = u / size``);
- LINEAR filtering of an integer image (read_image{i,ui} take only NEAREST samplers): nearest;
- integer coordinates with a LINEAR sampler (they take only NEAREST ones): nearest (ops_image
  clears the sampler's LINEAR bit), the texel the coordinate names, as PoCL reads it;
- INF / NaN coordinates: NaN counts as 0, and every index is clamped into the 32-bit range
  before the float-to-int conversion, so no read leaves the image.

Vulkan shaders (shader_image.py) add, per function: a constant texel offset (ConstOffset:
Vulkan's integer wrapping, ``_axis_offset``), gathers of one component of the linear footprint,
and depth comparison of each texel before filtering; a mip level is the same function on the
level's descriptor block, and cubes are image_cube.py's subclass.
"""

from __future__ import annotations

from llvmlite import ir

from .abi import (SAMPLER_ADDRESS_SHIFT, SAMPLER_BORDER, SAMPLER_BORDER_OPAQUE, SAMPLER_BORDER_WHITE,
                  SAMPLER_COMPARE_SHIFT, SAMPLER_LINEAR, SAMPLER_NORMALIZED)
from .image_formats import F32, I32, I64, PTR, V4F, V4I, TexelFunctions, channel_type, descriptor_word
from .image_launch import FixedFormat
from .intrinsics import intrinsic

ADDRESS_NONE, CLAMP_TO_EDGE, CLAMP, REPEAT, MIRRORED_REPEAT = range(5)   # SPIR-V SamplerAddressingMode
_INDEX_LIMIT = float(1 << 30)


class SamplingFunctions:
    def __init__(self, module: ir.Module, texels: TexelFunctions):
        self.module = module
        self.texels = texels
        self.cache: dict[tuple, ir.Function] = {}

    def get(self, spatial: int, arrayed: bool, integer: bool, fmt: FixedFormat | None = None,
            offset: tuple | None = None, gather: int | None = None, dref: bool = False,
            cube: bool = False) -> ir.Function:
        """The sample function; Vulkan's extras (shader_image.py): a constant texel ``offset``
        (ConstOffset), or "dynamic" (the Offset operand: one more i32 argument per axis, last), ``gather`` of one component of the 2x2 footprint (OpImageGather),
        ``dref`` depth comparison (one more float argument, the reference), ``cube`` images
        (image_cube.py: the coordinates are a direction and the cube index)."""
        if cube:   # one function for cubes and cube arrays (a cube's index is 0)
            spatial, arrayed = 2, True
        key = (spatial, arrayed, integer, fmt, offset, gather, dref, cube)
        fn = self.cache.get(key)
        if fn is None:
            if cube:
                from .image_cube import CubeSampler
                maker = CubeSampler(self, 2, True, integer, fmt, None, gather, dref)
            else:
                maker = _Sampler(self, spatial, arrayed, integer, fmt, offset, gather, dref)
            fn = self.cache[key] = maker.build()
        return fn


class _Sampler:
    """Builds one sample function."""

    kind_name = "sample"
    coord_count = 3

    def __init__(self, owner: SamplingFunctions, spatial: int, arrayed: bool, integer: bool,
                 fmt: FixedFormat | None, offset: tuple | None = None, gather: int | None = None,
                 dref: bool = False):
        self.owner, self.spatial, self.arrayed, self.integer, self.fmt = owner, spatial, arrayed, integer, fmt
        self.offset, self.gather, self.dref = offset, gather, dref
        self.module = owner.module
        self.result = V4I if integer else V4F
        self.reference = None   # dref: the reference value, clamped for UNORM formats

    def call(self, name: str, ty, args):
        return self.b.call(intrinsic(self.module, name, ty, [a.type for a in args]), args)

    def build(self) -> ir.Function:
        array, kind = "_array" if self.arrayed else "", "int" if self.integer else "float"
        name = f"spirvkit.image.{self.kind_name}{self.spatial}d{array}_{kind}"
        if self.offset == "dynamic":
            name += ".offset"
        elif self.offset is not None:
            name += ".offset" + "_".join(str(v) for v in self.offset)
        if self.gather is not None:
            name += f".gather{self.gather}"
        if self.dref:
            name += ".dref"
        if self.fmt is not None:
            name += f".{self.fmt.tag}"
        dynamic = self.offset == "dynamic"   # the Offset operand: one i32 per axis, run-time values
        params = [PTR, I32, F32, F32, F32] + [F32] * (self.coord_count - 3) + [F32] * self.dref \
            + [I32] * (self.spatial * dynamic)
        fn = ir.Function(self.module, ir.FunctionType(self.result, params), name=name)
        fn.linkage = "internal"
        if self.fmt is not None:
            fn.attributes.add("alwaysinline")
        self.fn = fn
        desc, bits, *coords = fn.args
        if dynamic:
            coords, offsets = coords[:-self.spatial], coords[-self.spatial:]
        if self.dref:
            *coords, reference = coords
        self.desc, self.bits = desc, bits
        b = self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        if self.dref:
            self.reference = self._clamped_reference(reference)
        self.offset_values = [b.sitofp(v, F32) for v in offsets] if dynamic else \
            [ir.Constant(F32, float(v)) for v in self.offset or ()]
        mode = b.and_(b.lshr(bits, ir.Constant(I32, SAMPLER_ADDRESS_SHIFT)), ir.Constant(I32, 7))
        self.mode = mode
        self.normalized = b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, SAMPLER_NORMALIZED)), ir.Constant(I32, 0))
        linear = b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, SAMPLER_LINEAR)), ir.Constant(I32, 0))
        self.sizes = [descriptor_word(b, desc, "size", d) for d in range(3)]
        if self.gather is not None:
            b.ret(self._gathered(coords))
            return fn
        if self.integer:
            nearest = self._nearest(coords)
            b.ret(nearest)
            return fn
        with b.if_else(linear) as (then, otherwise):
            with then:
                filtered = self._linear(coords)
                linear_end = b.block
            with otherwise:
                nearest = self._nearest(coords)
                nearest_end = b.block
        phi = b.phi(self.result)
        phi.add_incoming(filtered, linear_end)
        phi.add_incoming(nearest, nearest_end)
        b.ret(phi)
        return fn

    # ----- coordinates ----------------------------------------------------------------------
    def _to_index(self, f: ir.Value) -> ir.Value:
        """(int)f of an integral float, NaN as 0 and clamped to +-2^30 (see the module doc)."""
        b = self.b
        f = b.select(b.fcmp_unordered("uno", f, f), ir.Constant(F32, 0.0), f)
        f = b.select(b.fcmp_ordered(">", f, ir.Constant(F32, _INDEX_LIMIT)), ir.Constant(F32, _INDEX_LIMIT), f)
        f = b.select(b.fcmp_ordered("<", f, ir.Constant(F32, -_INDEX_LIMIT)), ir.Constant(F32, -_INDEX_LIMIT), f)
        return b.fptosi(f, I64)

    def _clamp(self, v: ir.Value, lo: ir.Value, hi: ir.Value) -> ir.Value:
        b = self.b
        v = b.select(b.icmp_signed("<", v, lo), lo, v)
        return b.select(b.icmp_signed(">", v, hi), hi, v)

    def _axis(self, s: ir.Value, size: ir.Value, half: float, axis: int = 0) -> tuple[ir.Value, ir.Value, ir.Value]:
        """(i0, i1, a) of one coordinate: ``half`` is 0.5 for linear filtering, 0 for nearest
        (where i0 is the texel and the others are unused)."""
        b = self.b
        mode = self.mode
        fsize = b.sitofp(size, F32)
        floor = lambda v: self.call("llvm.floor", F32, [v])   # noqa: E731
        if self.offset is not None:
            return self._axis_offset(s, size, fsize, half, axis)
        # Clamp modes: u = s * size (normalized) or s.
        u_clamp = b.select(self.normalized, b.fmul(s, fsize), s)
        # Wrap modes take normalized coordinates.
        sn = b.select(self.normalized, s, b.fdiv(s, fsize))
        u_repeat = b.fmul(b.fsub(sn, floor(sn)), fsize)
        mirrored = b.fmul(ir.Constant(F32, 2.0), self.call("llvm.rint", F32, [b.fmul(ir.Constant(F32, 0.5), sn)]))
        u_mirror = b.fmul(self.call("llvm.fabs", F32, [b.fsub(sn, mirrored)]), fsize)
        is_repeat = b.icmp_unsigned("==", mode, ir.Constant(I32, REPEAT))
        is_mirror = b.icmp_unsigned("==", mode, ir.Constant(I32, MIRRORED_REPEAT))
        u = b.select(is_repeat, u_repeat, b.select(is_mirror, u_mirror, u_clamp))
        t = b.fsub(u, ir.Constant(F32, half)) if half else u
        f = floor(t)
        a = b.fsub(t, f)
        i = self._to_index(f)
        one, zero = ir.Constant(I64, 1), ir.Constant(I64, 0)
        last = b.sub(size, one)
        i_next = b.add(i, one)
        # CLAMP_TO_EDGE: [0, size - 1]; CLAMP and NONE: [-1, size] (outside: border colour).
        edge = b.icmp_unsigned("==", mode, ir.Constant(I32, CLAMP_TO_EDGE))
        lo = b.select(edge, zero, ir.Constant(I64, -1))
        hi = b.select(edge, last, size)
        i0_clamp, i1_clamp = self._clamp(i, lo, hi), self._clamp(i_next, lo, hi)
        # REPEAT: i0 < 0 -> i0 + size; i > size - 1 -> i - size.
        i0_rep = b.select(b.icmp_signed("<", i, zero), b.add(i, size), i)
        i0_rep = b.select(b.icmp_signed(">", i0_rep, last), b.sub(i0_rep, size), i0_rep)
        i1_rep = b.select(b.icmp_signed(">", i_next, last), b.sub(i_next, size), i_next)
        # MIRRORED_REPEAT: i0 = max(i, 0) (nearest: min(i, size - 1)); i1 = min(i + 1, size - 1).
        i0_mir, i1_mir = self._clamp(i, zero, last), self._clamp(i_next, zero, last)
        i0 = b.select(is_repeat, i0_rep, b.select(is_mirror, i0_mir, i0_clamp))
        i1 = b.select(is_repeat, i1_rep, b.select(is_mirror, i1_mir, i1_clamp))
        return i0, i1, a

    def _axis_offset(self, s, size, fsize, half: float, axis: int):
        """Vulkan's texel coordinates with a ConstOffset ("Unnormalized Texel Coordinate
        Operations", "Wrapping Operation"): u = s * size + offset (s unnormalized: + offset),
        i0 = floor(u - half), i1 = i0 + 1, each wrapped as an integer by the address mode:
        REPEAT i mod size; MIRRORED_REPEAT (size - 1) - mirror((i mod 2 size) - size);
        CLAMP_TO_EDGE clamp(i, 0, size - 1); CLAMP_TO_BORDER outside -> the border texel."""
        b = self.b
        u = b.select(self.normalized, b.fmul(s, fsize), s)
        u = b.fadd(u, self.offset_values[axis])
        t = b.fsub(u, ir.Constant(F32, half)) if half else u
        f = self.call("llvm.floor", F32, [t])
        a = b.fsub(t, f)
        i = self._to_index(f)
        one, zero = ir.Constant(I64, 1), ir.Constant(I64, 0)
        last = b.sub(size, one)
        is_repeat = b.icmp_unsigned("==", self.mode, ir.Constant(I32, REPEAT))
        is_mirror = b.icmp_unsigned("==", self.mode, ir.Constant(I32, MIRRORED_REPEAT))
        edge = b.icmp_unsigned("==", self.mode, ir.Constant(I32, CLAMP_TO_EDGE))

        def modulo(v, n):
            r = b.srem(v, n)
            return b.select(b.icmp_signed("<", r, zero), b.add(r, n), r)

        def wrap(v):
            repeat = modulo(v, size)
            m = modulo(v, b.add(size, size))
            mirror = b.select(b.icmp_signed("<", m, size), m, b.sub(b.add(size, last), m))
            lo = b.select(edge, zero, ir.Constant(I64, -1))
            hi = b.select(edge, last, size)
            return b.select(is_repeat, repeat, b.select(is_mirror, mirror, self._clamp(v, lo, hi)))

        return wrap(i), wrap(b.add(i, one)), a

    def _clamped_reference(self, reference: ir.Value) -> ir.Value:
        """Dref, clamped to [0, 1] for a UNORM format (Vulkan's "Depth Compare Operation")."""
        b = self.b
        kind = descriptor_word(b, self.desc, "channel_type", fmt=self.fmt)
        unorm = None
        for name in ("UnormInt8", "UnormInt16"):
            test = b.icmp_unsigned("==", kind, ir.Constant(I64, channel_type(name)))
            unorm = test if unorm is None else b.or_(unorm, test)
        lo = self.call("llvm.maxnum", F32, [reference, ir.Constant(F32, 0.0)])
        clamped = self.call("llvm.minnum", F32, [lo, ir.Constant(F32, 1.0)])
        return b.select(unorm, clamped, reference)

    def _compare(self, texel: ir.Value) -> ir.Value:
        """The depth comparison of a texel: 1.0 where ``reference op depth`` holds, else 0.0,
        splatted (the VkCompareOp's bits: 1 less, 2 equal, 4 greater; ALWAYS holds for NaN too)."""
        b = self.b
        depth = b.extract_element(texel, ir.Constant(I32, 0))
        ref = self.reference
        op = b.and_(b.lshr(self.bits, ir.Constant(I32, SAMPLER_COMPARE_SHIFT)), ir.Constant(I32, 7))
        holds = b.icmp_unsigned("==", op, ir.Constant(I32, 7))
        for bit, pred in ((1, "<"), (2, "=="), (4, ">")):
            passes = b.icmp_unsigned("!=", b.and_(op, ir.Constant(I32, bit)), ir.Constant(I32, 0))
            holds = b.or_(holds, b.and_(passes, b.fcmp_ordered(pred, ref, depth)))
        value = b.select(holds, ir.Constant(F32, 1.0), ir.Constant(F32, 0.0))
        return b.insert_element(ir.Constant(V4F, [ir.Constant(F32, 0.0)] * 3 + [ir.Constant(F32, 1.0)]), value,
                                ir.Constant(I32, 0))

    def _layer(self, coord: ir.Value) -> ir.Value:
        """OpenCL C 2.0 §6.13.14.3 (selecting an image from an image array):
        clamp(rint(coord), 0, layers - 1), unnormalized whatever the sampler."""
        layers = self.sizes[2]
        index = self._to_index(self.call("llvm.rint", F32, [coord]))
        return self._clamp(index, ir.Constant(I64, 0), self.b.sub(layers, ir.Constant(I64, 1)))

    # ----- texels ---------------------------------------------------------------------------
    def _texel(self, x, y, z) -> ir.Value:
        """The texel at (x, y, z), or the border colour outside the image."""
        b = self.b
        inside = None
        fetch = []
        for c, size in zip((x, y, z), self.sizes):
            ok = b.icmp_unsigned("<", c, size)
            inside = ok if inside is None else b.and_(inside, ok)
            fetch.append(b.select(ok, c, ir.Constant(I64, 0)))   # a read inside the image either way
        name = "load_int" if self.integer else "load_float"
        value = b.call(self.owner.texels.get(name, self.fmt), [self.desc, *fetch])
        value = b.select(inside, value, self._border())
        return self._compare(value) if self.dref else value

    def _border(self) -> ir.Value:
        """(0, 0, 0, 0), or (0, 0, 0, 1) for orders without alpha (OpenCL C 2.0 §6.13.14.3)."""
        b = self.b
        alpha = descriptor_word(b, self.desc, "border_alpha", fmt=self.fmt)
        elem = I32 if self.integer else F32
        a = b.trunc(alpha, I32) if self.integer else b.uitofp(alpha, F32)
        border = ir.Constant(self.result, [ir.Constant(elem, 0)] * 4)
        opencl = b.insert_element(border, a, ir.Constant(I32, 3))
        # A Vulkan sampler's own border colour (jit.abi.SAMPLER_BORDER*).
        one = ir.Constant(elem, 1 if self.integer else 1.0)
        zero = ir.Constant(elem, 0 if self.integer else 0.0)
        bits = self.bits

        def flag(mask):
            return b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, mask)), ir.Constant(I32, 0))

        white = b.select(flag(SAMPLER_BORDER_WHITE), one, zero)
        vulkan = border
        for k in range(3):
            vulkan = b.insert_element(vulkan, white, ir.Constant(I32, k))
        vulkan = b.insert_element(vulkan, b.select(flag(SAMPLER_BORDER_OPAQUE), one, zero), ir.Constant(I32, 3))
        return b.select(flag(SAMPLER_BORDER), vulkan, opencl)

    def _memory_coords(self, per_axis: list, layer) -> tuple:
        """(x, y, z) from the spatial indices and the layer (layers are the z of an array)."""
        zero = ir.Constant(I64, 0)
        x = per_axis[0]
        y = per_axis[1] if self.spatial >= 2 else zero
        z = per_axis[2] if self.spatial == 3 else (layer if self.arrayed else zero)
        return x, y, z

    def _nearest(self, coords) -> ir.Value:
        indices = [self._axis(coords[d], self.sizes[d], 0.0, d)[0] for d in range(self.spatial)]
        layer = self._layer(coords[self.spatial]) if self.arrayed else None
        return self._texel(*self._memory_coords(indices, layer))

    def _footprint(self, coords) -> list[tuple[ir.Value, ir.Value]]:
        """(weight, texel) of the 2^n texels linear filtering blends, the first coordinate
        varying fastest, the weight products left to right (the spec's order)."""
        b = self.b
        axes = [self._axis(coords[d], self.sizes[d], 0.5, d) for d in range(self.spatial)]
        layer = self._layer(coords[self.spatial]) if self.arrayed else None
        one = ir.Constant(F32, 1.0)
        out = []
        for corner in range(1 << self.spatial):
            bits = [(corner >> d) & 1 for d in range(self.spatial)]
            weight = None
            for d, bit in enumerate(bits):
                a = axes[d][2]
                w = a if bit else b.fsub(one, a)
                weight = w if weight is None else b.fmul(weight, w)
            indices = [axes[d][1] if bit else axes[d][0] for d, bit in enumerate(bits)]
            out.append((weight, self._texel(*self._memory_coords(indices, layer))))
        return out

    def _linear(self, coords) -> ir.Value:
        """§7.2.1.2: sum over the corners of prod(weights) * T, in the spec's term order."""
        b = self.b
        total = None
        for weight, texel in self._footprint(coords):
            splat = b.insert_element(ir.Constant(V4F, None), weight, ir.Constant(I32, 0))
            splat = b.shuffle_vector(splat, ir.Constant(V4F, None), ir.Constant(ir.VectorType(I32, 4), [0] * 4))
            term = b.fmul(splat, texel)
            total = term if total is None else b.fadd(total, term)
        return total

    def _gathered(self, coords) -> ir.Value:
        """OpImageGather / OpImageDrefGather (Vulkan's "Texel Gathering"): component
        ``gather`` of the linear footprint's four texels (i0, j1), (i1, j1), (i1, j0), (i0, j0);
        with Dref their comparison results."""
        b = self.b
        texels = [t for _, t in self._footprint(coords)]   # (i0,j0), (i1,j0), (i0,j1), (i1,j1)
        component = 0 if self.dref else self.gather
        out = ir.Constant(self.result, None)
        for k, corner in enumerate((2, 3, 1, 0)):
            value = b.extract_element(texels[corner], ir.Constant(I32, component))
            out = b.insert_element(out, value, ir.Constant(I32, k))
        return out
