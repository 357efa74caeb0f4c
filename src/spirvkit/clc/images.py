"""Images and samplers (OpenCL C 2.0 §6.12.14, §6.13.14): the declarations a sampler may have
and an image may not, constant samplers, and the image built-ins lowered as the OpenCL SPIR-V
environment expects them, in the shape clang-15 + llvm-spirv-15 give:

- a sampled read → OpSampledImage + OpImageSampleExplicitLod with Lod 0.0 (integer coordinates
  pass as they are); a depth image samples a float4 and keeps its first component;
- a sampler-less read → OpImageRead, a write → OpImageWrite;
- get_image_width/height/depth/dim/array_size → OpImageQuerySizeLod at Lod 0 (OpImageQuerySize
  for image1d_buffer_t, which has no levels), with the component picked out; array_size asks
  for ulong components as llvm-spirv does, since the result is a size_t;
- get_image_channel_data_type/order → OpImageQueryFormat/OpImageQueryOrder plus the first
  CLK_* value of the kind: SPIR-V numbers ImageChannelDataType and ImageChannelOrder from 0,
  OpenCL's CLK_SNORM_INT8 is 0x10D0 and CLK_R 0x10B0, in the same order (llvm-spirv adds them too).

A sampler is a kernel or function argument, or an OpConstantSampler made from a CLK_* integer
constant (program- or function-scope ``sampler_t`` constants, or a constant passed where a
sampler_t is expected). The overloads themselves are tabled in builtins.py (IMAGE_FAMILIES).
"""

from __future__ import annotations

from ..spirv.builder import FunctionBuilder
from .codegen_expr import Val, expr_start
from .sema import SemaError, Symbol, conversion_message
from .types import FLOAT, INT, SAMPLER_T, SIZE_T, UINT, ULONG, VOID, Vector, vector_of

CHANNEL_DATA_TYPE_BASE, CHANNEL_ORDER_BASE = 0x10D0, 0x10B0  # CLK_SNORM_INT8, CLK_R
# CLK_ADDRESS_* >> 1 (bits 1-3) and CLK_FILTER_* >> 4 (bits 4-5) → the SPIR-V enumerants.
ADDRESSING = {0: "None", 1: "ClampToEdge", 2: "Clamp", 3: "Repeat", 4: "RepeatMirrored"}
# No filter bits is taken as NEAREST: clang-15 accepts such a sampler for spir (its check is
# off there), and llvm-spirv-15 then writes filter mode 0xFFFFFFFF, which spirv-val refuses.
FILTER = {0: "Nearest", 1: "Nearest", 2: "Linear"}


def sampler_fields(value: int) -> tuple[str, bool, str]:
    """(addressing mode, normalized, filter mode) of a CLK_* sampler value (§6.13.14.1; bits
    above the filter's are not looked at, as llvm-spirv). Addressing bits above
    MIRRORED_REPEAT or both filter bits mean nothing: ValueError."""
    addressing = ADDRESSING.get((value >> 1) & 0x7)
    filter_mode = FILTER.get((value >> 4) & 0x3)
    if addressing is None or filter_mode is None:
        raise ValueError(value)
    return addressing, bool(value & 1), filter_mode


class ImagesMixin:
    """Mixed into CodeGen beside BuiltinsMixin: the declarations send images and samplers here,
    ``lower_overload`` the image_* kinds of IMAGE_FAMILIES; ``convert`` asks
    ``constant_sampler`` for an integer → sampler_t."""

    uses_literal_sampler = False

    # -- declarations -----------------------------------------------------------------------

    def opaque_declaration(self, decl, t, q, scope, program_scope: bool) -> None:
        """An image or sampler declared other than as a parameter (§6.12.14), with clang-15's
        errors in its order. Images may not be; a sampler may, as a constant: at program scope
        const or __constant, in a function private (clang accepts a non-const one there). It is
        no object but the OpConstantSampler its CLK_* initializer makes (OpUndef without one,
        as clang + llvm-spirv give), as llvm-spirv emits it: the name stands for that value."""
        written = q["space"]
        if q["access"] is not None:  # at the declaration's first token (clang: at the qualifier, and
            # spelled as written; the parser keeps neither, so '__read_only' reads 'read_only' here)
            raise SemaError(f"'{q['access']}' attribute only applies to parameters and typedefs", decl.type)
        if t.is_image or t.is_pipe:
            space = written or ("global" if program_scope and self.cl_std >= 200 else "private")
            spelled = f"__{space} {t}" if space != "private" else str(t)
            alias = getattr(decl.type, "typedef_name", None)
            if alias:   # clang names the typedef, then what it stands for
                spelled = f"{alias}' (aka '{spelled}')"
                raise SemaError(f"type '{spelled} can only be used as a function parameter in OpenCL", decl)
            raise SemaError(f"type '{spelled}' can only be used as a function parameter in OpenCL", decl)
        if written in ("global", "local"):
            raise SemaError("sampler type cannot be used with the __local and __global address space qualifiers",
                            decl)
        if program_scope and not (q["const"] or written == "constant"):
            raise SemaError("global sampler requires a const or constant address space qualifier", decl)
        if decl.init is None:
            if written == "constant" and "extern" not in decl.storage:
                raise SemaError("variable in constant address space must be initialized", decl)
            sid = self.b.undef(self.spv(SAMPLER_T))
        else:
            target = " ".join((["const"] if q["const"] else []) + ([f"__{written}"] if written not in (None, "private")
                                                                   else []) + ["sampler_t"])
            sid = self.sampler_initializer(decl.init, target, decl).id
        scope.names[decl.name] = Symbol(decl.name, "var", SAMPLER_T, sid, written or "private", decl, const=True)

    def sampler_initializer(self, init, target: str, where):
        """The sampler a declaration's initializer gives: a sampler, or an integer constant
        (CLK_* flags). At program scope it is evaluated in a scratch function: only constants
        come out of it, and a sampler's are module-level."""
        saved = self.f
        if saved is None:
            self.f = FunctionBuilder(self.b, self.b.type_void(), [], "None", None)
        try:
            v = self.expr(init)
        finally:
            self.f = saved
        if v.type.is_sampler:
            return v
        if v.type.is_scalar and v.type.is_integer:
            return self.constant_sampler(v, init)
        raise SemaError(conversion_message("initializing", v.type, target), where)


    # -- samplers ---------------------------------------------------------------------------

    def constant_sampler(self, v, node):
        """The OpConstantSampler for an integer constant expression ``v`` (a Val)."""
        node = expr_start(node)
        if v.value is None:
            # clang-15 accepts this in Sema, then fails in CodeGen ("could not emit constant value").
            raise SemaError("sampler_t initializer is not a compile-time constant (a sampler is made from "
                            "CLK_* flags)", node)
        try:
            addressing, normalized, filter_mode = sampler_fields(int(v.value))
        except ValueError:
            raise SemaError(f"sampler initializer 0x{int(v.value) & 0xFFFFFFFF:X} is not a valid combination of "
                            "CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_* and CLK_FILTER_* flags", node) from None
        self.uses_literal_sampler = True
        sid = self.b.constant_sampler(self.spv(SAMPLER_T), addressing, normalized, filter_mode)
        return Val(SAMPLER_T, sid)

    # -- built-ins --------------------------------------------------------------------------

    def lower_image(self, ov, args, node):
        image = ov.data
        kind = ov.lower
        if kind == "image_sample":
            img, smp, coord = args
            sampled = self.f.op("OpSampledImage", self.b.type_sampled_image(self.spv(image)), img.id, smp.id)
            texel = ov.result if ov.result.is_vector else Vector(ov.result, 4)  # a depth image: float4's .x
            rid = self.f.op("OpImageSampleExplicitLod", self.spv(texel), sampled, coord.id,
                            self.b.enum("ImageOperands", "Lod"), self.const(FLOAT, 0.0).id)
            if texel != ov.result:
                rid = self.op("OpCompositeExtract", ov.result, rid, 0)
            return self.val(ov.result, rid)
        if kind == "image_read":
            return self.val(ov.result, self.op("OpImageRead", ov.result, args[0].id, args[1].id))
        if kind == "image_write":
            self.f.op("OpImageWrite", None, args[0].id, args[1].id, args[2].id)
            return self.val(VOID, None)
        return self.image_query(ov.name[len("get_image_"):], image, args[0].id, ov.result)

    def image_size(self, image, iid: int, elem=UINT) -> int:
        """OpImageQuerySize(Lod): the image's size, one ``elem`` component per dimension."""
        g = image.geometry
        t = self.spv(vector_of(elem, g.size))
        if g.dim == "Buffer":
            return self.f.op("OpImageQuerySize", t, iid)
        return self.f.op("OpImageQuerySizeLod", t, iid, self.u32(0))

    def image_query(self, what: str, image, iid: int, result):
        g = image.geometry
        if what in ("channel_data_type", "channel_order"):
            opname, base = (("OpImageQueryFormat", CHANNEL_DATA_TYPE_BASE) if what == "channel_data_type" else
                            ("OpImageQueryOrder", CHANNEL_ORDER_BASE))
            raw = self.f.op(opname, self.spv(UINT), iid)
            return self.val(INT, self.op("OpIAdd", INT, raw, self.const(INT, base).id))
        if what == "dim":
            size = self.image_size(image, iid)
            if g.size == result.width:  # image2d_t and image2d_depth_t: the int2 itself
                return self.val(result, size)
            # int2 of an array's (w, h, layers); int4 (w, h, d, 0) of a 3D image
            other = self.b.constant_null(self.spv(Vector(UINT, 3))) if result.width == 4 else \
                self.b.undef(self.spv(Vector(UINT, 3)))
            return self.val(result, self.op("OpVectorShuffle", result, size, other, list(range(result.width))))
        if what == "array_size":
            size = self.image_size(image, iid, ULONG)
            return self.val(SIZE_T, self.op("OpCompositeExtract", ULONG, size, g.size - 1))
        component = {"width": 0, "height": 1, "depth": 2}[what]
        size = self.image_size(image, iid)
        if g.size == 1:
            return self.val(INT, size)
        return self.val(INT, self.op("OpCompositeExtract", INT, size, component))


__all__ = ["ImagesMixin", "sampler_fields"]
