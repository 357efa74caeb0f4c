"""Image instructions (SPIR-V 3.32.10), the operand-type rules every environment shares: the
image operand's type, result types of reads, samples, fetches and queries, coordinate types,
OpSampledImage and OpImage; and the Image Operands mask (SPIR-V 3.14): which instruction takes
which operand, each operand's type, and the image shapes (Dim, MS) an operand needs. (The OpenCL
and Vulkan image rules are in ``opencl``/``vulkan``.)"""

from __future__ import annotations

from . import opcodes as op

SEC = "SPIR-V 3.32.10"

_SAMPLING = frozenset(d.opcode for d in op._g.instructions.values()
                      if d.klass == "Image" and ("Sample" in d.opname or "Gather" in d.opname)
                      and "Footprint" not in d.opname and "Weighted" not in d.opname and "Box" not in d.opname
                      and "Block" not in d.opname and d.opname != "OpSampledImage")
# Depth-comparison samples return a scalar (the gathers among them a vector of four).
_DREF = frozenset(d.opcode for d in op._g.instructions.values()
                  if d.klass == "Image" and "Dref" in d.opname and "Gather" not in d.opname)
_SPARSE = frozenset(d.opcode for d in op._g.instructions.values() if d.klass == "Image" and "Sparse" in d.opname)


def _err(ctx, inst, message, rule="image.operand-type") -> None:
    ctx.error(rule, SEC, f"{message}", inst)


def _image_of(ctx, value, sampled: bool):
    """The OpTypeImage behind an image (or, with ``sampled``, a sampled-image) operand."""
    t = ctx.type_inst(ctx.type_of(value))
    if t is None:
        return None
    if sampled:
        if t.opcode != op.TypeSampledImage:
            return None
        t = ctx.type_inst(t.words[2])
    return t if t is not None and t.opcode == op.TypeImage else None


def _scalar_or_vec4(ctx, t, sparse) -> bool:
    if sparse:
        st = ctx.type_inst(t)
        if st is None or st.opcode != op.TypeStruct or len(st.words) != 4:
            return False
        t = st.words[3]
    return ctx.type_opcode(ctx.component_type(t)) in (op.TypeInt, op.TypeFloat)


def _sample(ctx, inst) -> None:
    w = inst.words
    name = inst.opname[2:]
    if _image_of(ctx, w[3], sampled=True) is None:
        _err(ctx, inst, f"Expected Sampled Image to be of type OpTypeSampledImage: {name}")
        return
    sparse = inst.opcode in _SPARSE
    rtype = w[1]
    if inst.opcode in _DREF:
        ok = ctx.type_opcode(rtype) in (op.TypeInt, op.TypeFloat) if not sparse else _scalar_or_vec4(ctx, rtype, True)
        if not ok:
            _err(ctx, inst, f"Expected Result Type to be int or float scalar type: {name}", "image.result-type")
            return
    elif not _scalar_or_vec4(ctx, rtype, sparse):
        _err(ctx, inst, f"Expected Result Type to be int or float vector type: {name}", "image.result-type")
        return
    coord = ctx.type_of(w[4])
    if not ctx.is_float_scalar_or_vector(coord) and not (ctx.is_kernel and ctx.is_int_scalar_or_vector(coord)):
        _err(ctx, inst, f"Expected Coordinate to be float scalar or vector: {name}")


def _read_fetch(ctx, inst) -> None:
    w = inst.words
    name = inst.opname[2:]
    if _image_of(ctx, w[3], sampled=False) is None:
        _err(ctx, inst, f"Expected Image to be of type OpTypeImage: {name}")
        return
    if not _scalar_or_vec4(ctx, w[1], inst.opcode in _SPARSE):
        _err(ctx, inst, f"Expected Result Type to be int or float vector type: {name}", "image.result-type")
        return
    if inst.opcode not in _FETCHES and not _storage_image_access(ctx, inst, _image_of(ctx, w[3], sampled=False)):
        return
    if inst.opcode in _FETCHES:
        # "Its Dim operand cannot be Cube, and its Sampled operand must be 1." (OpImageFetch)
        image = _image_of(ctx, w[3], sampled=False)
        if image.words[3] == op.DIM.Cube:
            _err(ctx, inst, f"Image 'Dim' cannot be Cube: {name}")
            return
        if image.words[7] != 1:
            _err(ctx, inst, f"Expected Image 'Sampled' parameter to be 1: {name}")
            return
    if inst.opcode == op.ImageRead and ctx.env.api != "universal" and ctx.dimension(w[1]) != 4:
        image = _image_of(ctx, w[3], sampled=False)
        depth_scalar = ctx.env.is_opencl and image.words[4] == 1 and ctx.dimension(w[1]) == 1
        if not depth_scalar:  # OpenCL depth images read a scalar
            _err(ctx, inst, "Expected Result Type to have 4 components", "image.result-type")
            return
    if not ctx.is_int_scalar_or_vector(ctx.type_of(w[4])) and not ctx.is_float_scalar_or_vector(ctx.type_of(w[4])):
        _err(ctx, inst, f"Expected Coordinate to be int scalar or vector: {name}")


def _write(ctx, inst) -> None:
    w = inst.words
    image = _image_of(ctx, w[1], sampled=False)
    if image is None:
        _err(ctx, inst, "Expected Image to be of type OpTypeImage: ImageWrite")
        return
    if not _storage_image_access(ctx, inst, image):
        return
    texel = ctx.type_of(w[3])
    if ctx.type_opcode(ctx.component_type(texel)) not in (op.TypeInt, op.TypeFloat):
        _err(ctx, inst, "Expected Texel to be int or float vector or scalar: ImageWrite")


def _query(ctx, inst) -> None:
    w = inst.words
    name = inst.opname[2:]
    if not ctx.is_int_scalar_or_vector(w[1]):
        _err(ctx, inst, f"Expected Result Type to be int scalar or vector type: {name}", "image.result-type")
        return
    if _image_of(ctx, w[3], sampled=False) is None and _image_of(ctx, w[3], sampled=True) is None:
        _err(ctx, inst, f"Expected Image to be of type OpTypeImage: {name}")


def _query_format_order(ctx, inst) -> None:
    """OpImageQueryFormat / OpImageQueryOrder: "Result Type must be a scalar integer type. Image
    must be an object whose type is OpTypeImage." """
    w = inst.words
    if not ctx.is_int_scalar(w[1]):
        _err(ctx, inst, "Expected Result Type to be int scalar type", "image.result-type")
        return
    if _image_of(ctx, w[3], sampled=False) is None:
        _err(ctx, inst, "Expected operand to be of type OpTypeImage")


def _query_lod(ctx, inst) -> None:
    """OpImageQueryLod: a two-component float vector result; "Coordinate must be a scalar or vector
    of floating-point type or integer type ... Unless the Kernel capability is being used, it must
    be floating point." """
    w = inst.words
    if not (ctx.is_float_vector(w[1]) and ctx.dimension(w[1]) == 2):
        _err(ctx, inst, "Expected Result Type to be float vector of size 2: ImageQueryLod", "image.result-type")
        return
    if _image_of(ctx, w[3], sampled=True) is None:
        _err(ctx, inst, "Expected Image operand to be of type OpTypeSampledImage: ImageQueryLod")
        return
    coord = ctx.type_of(w[4])
    if not ctx.is_float_scalar_or_vector(coord) and not (ctx.is_kernel and ctx.is_int_scalar_or_vector(coord)):
        _err(ctx, inst, "Expected Coordinate to be float scalar or vector: ImageQueryLod")


def _sampled_image(ctx, inst) -> None:
    w = inst.words
    rt = ctx.type_inst(w[1])
    if rt is None or rt.opcode != op.TypeSampledImage:
        _err(ctx, inst, "Expected Result Type to be OpTypeSampledImage: SampledImage", "image.result-type")
        return
    if ctx.type_of(w[3]) != rt.words[2]:
        _err(ctx, inst, "Expected Image to be of the same type as Result Type's image type: SampledImage")
        return
    if ctx.type_opcode(ctx.type_of(w[4])) != op.TypeSampler:
        _err(ctx, inst, "Expected Sampler to be of type OpTypeSampler: SampledImage")


def _image(ctx, inst) -> None:
    w = inst.words
    if ctx.type_opcode(w[1]) != op.TypeImage:
        _err(ctx, inst, "Expected Result Type to be OpTypeImage", "image.result-type")
        return
    t = ctx.type_inst(ctx.type_of(w[3]))
    if t is None or t.opcode != op.TypeSampledImage or t.words[2] != w[1]:
        _err(ctx, inst, "Expected Sampled Image to be of type OpTypeSampledImage whose image type is Result Type")


_FETCHES = frozenset({op.ImageFetch, op.ImageSparseFetch})
_CHECKS = {op.SampledImage: _sampled_image, op.Image: _image, op.ImageWrite: _write, op.ImageQueryLod: _query_lod,
           op.ImageQueryFormat: _query_format_order, op.ImageQueryOrder: _query_format_order}
for _o in _SAMPLING:
    _CHECKS[_o] = _sample
for _n in ("ImageRead", "ImageFetch", "ImageSparseRead", "ImageSparseFetch"):
    _CHECKS[getattr(op, _n)] = _read_fetch
for _n in ("ImageQuerySize", "ImageQuerySizeLod", "ImageQueryLevels", "ImageQuerySamples"):
    _CHECKS[getattr(op, _n)] = _query


# -- Image Operands (SPIR-V 3.14) -------------------------------------------------------------------

SEC_OPERANDS = "SPIR-V 3.14"
_BIAS, _LOD, _GRAD, _CONST_OFFSET, _OFFSET, _CONST_OFFSETS, _SAMPLE, _MIN_LOD = (
    0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80)
_MAKE_AVAILABLE, _MAKE_VISIBLE, _NON_PRIVATE, _SIGN_EXTEND, _ZERO_EXTEND = 0x100, 0x200, 0x400, 0x1000, 0x2000
_IMAGE_OPS = {d.opcode: d.opname for d in op._g.instructions.values() if d.klass == "Image"}
_IMPLICIT_LOD = frozenset(o for o, n in _IMAGE_OPS.items() if n.endswith("ImplicitLod"))
_EXPLICIT_LOD = frozenset(o for o, n in _IMAGE_OPS.items() if n.endswith("ExplicitLod"))
_GATHERS = frozenset(getattr(op, n) for n in ("ImageGather", "ImageDrefGather", "ImageSparseGather",
                                             "ImageSparseDrefGather"))
_READS = frozenset({op.ImageRead, op.ImageSparseRead})
# Where the image is: the Sampled Image of samples and gathers, the Image of reads and fetches,
# OpImageWrite's first operand.
_IMAGE_WORD = {**{o: (3, True) for o in _SAMPLING}, **{o: (3, False) for o in (*_FETCHES, *_READS)},
               op.ImageWrite: (1, False)}

_PROJ = frozenset(o for o, n in _IMAGE_OPS.items() if "Proj" in n)
_CUBE_AS_LAYERS = frozenset({op.ImageRead, op.ImageWrite, op.ImageSparseRead})
_QUERY_SIZE = frozenset({op.ImageQuerySize, op.ImageQuerySizeLod})


def _coordinate_size(ctx, inst) -> None:
    """"Coordinate ... contains (u[, v] ... [, array layer]) as needed by the definition of
    Sampled Image" (SPIR-V 3.32.10): at least the image's plane components, one more for an arrayed
    image and for a projective sample (the q); a Cube read or write addresses (u, v, face)."""
    word, sampled = _IMAGE_WORD[inst.opcode]
    image = _image_of(ctx, inst.words[word], sampled)
    coord_word = 2 if inst.opcode == op.ImageWrite else 4
    if image is None or len(image.words) < 6 or coord_word >= len(inst.words):
        return
    coord = ctx.type_of(inst.words[coord_word])
    if not (ctx.is_int_scalar_or_vector(coord) or ctx.is_float_scalar_or_vector(coord)):
        return
    dim = image.words[3]
    if dim == op.DIM.Cube and inst.opcode in _CUBE_AS_LAYERS:
        need = 3
    else:
        need = _plane_size(dim) + image.words[5] + (1 if inst.opcode in _PROJ else 0)
    have = ctx.dimension(coord)
    if have < need:
        _err(ctx, inst, f"Expected Coordinate to have at least {need} components, but given only {have}")


def _query_size_components(ctx, inst) -> None:
    """OpImageQuerySize(Lod): "The number of components must be: 1 for the 1D and Buffer
    dimensionalities, 2 for the 2D, Cube, and Rect dimensionalities, 3 for the 3D dimensionality,
    plus 1 more if the image type is arrayed." (SPIR-V 3.32.10)"""
    image = _image_of(ctx, inst.words[3], False) or _image_of(ctx, inst.words[3], True)
    if image is None or len(image.words) < 6:
        return
    name = op.DIM.name(image.words[3])
    plane = {"1D": 1, "Buffer": 1, "2D": 2, "Cube": 2, "Rect": 2, "3D": 3}.get(name)
    if plane is None:
        return
    need, have = plane + image.words[5], ctx.dimension(inst.words[1])
    if have != need:
        _err(ctx, inst, f"Result Type has {have} components, but {need} expected", "image.result-type")


def _plane_size(dim: int) -> int:
    """Components of (u[, v][, w]) for an image Dim: the size offsets and gradients have."""
    name = op.DIM.name(dim)
    return {"1D": 1, "Buffer": 1, "3D": 3, "Cube": 3}.get(name, 2)


def _operand_ids(ctx, inst, index, mask) -> dict[int, list[int]] | None:
    """The ids following the mask, by mask bit (bits in increasing order, each with the number
    of operands the grammar gives it); None if the words do not match the mask."""
    kind = ctx.grammar.operand_kinds["ImageOperands"]
    words = inst.words
    pos = inst.operands[index].offset + 1
    out = {}
    bit = 1
    while bit <= mask:
        if mask & bit:
            e = kind.by_value.get(bit)
            n = len(e.parameters) if e is not None else 0
            if pos + n > len(words):
                return None
            out[bit] = words[pos:pos + n]
            pos += n
        bit <<= 1
    return out


def _image_operands(ctx, inst) -> None:
    index = next((i for i, o in enumerate(inst.operands) if o.kind == "ImageOperands"), None)
    if index is None:
        return
    where = _IMAGE_WORD.get(inst.opcode)
    if where is None:
        return
    opc = inst.opcode
    name = inst.opname[2:]
    mask = inst.words[inst.operands[index].offset]

    def fail(message):
        ctx.error("image.operands", SEC_OPERANDS, f"{message}: {name}", inst)

    if mask == 0:
        fail("Image Operands must have at least one bit set (None is invalid)")
        return
    ids = _operand_ids(ctx, inst, index, mask)
    image = _image_of(ctx, inst.words[where[0]], sampled=where[1])
    if ids is None or image is None:
        return  # malformed operands and image types are reported by the decoder and _CHECKS
    dim, ms = image.words[3], image.words[6]
    opencl_lod = ctx.env.is_opencl and opc in (*_READS, op.ImageWrite)  # cl_khr_mipmap_image(_writes)
    amd_gather = opc in _GATHERS and "SPV_AMD_texture_gather_bias_lod" in ctx.extensions
    if opc in _EXPLICIT_LOD and not mask & (_LOD | _GRAD):
        fail("Image Operands must include Lod or Grad: at least one operand setting the level of detail must be "
             "present")
        return
    if mask & _BIAS:
        if opc not in _IMPLICIT_LOD and not amd_gather:
            return fail("Image Operand Bias can only be used with implicit-lod instructions")
        if not ctx.is_float_scalar(ctx.type_of(ids[_BIAS][0])):
            return fail("Expected Image Operand Bias to be a floating-point type scalar")
        if not _lod_shape_ok(dim, ms):
            return fail("Image Operand Bias requires an image with Dim 1D, 2D, 3D or Cube and MS 0")
    if mask & _LOD:
        fetch = opc in _FETCHES or opencl_lod
        if opc not in _EXPLICIT_LOD and not fetch and not amd_gather:
            return fail("Image Operand Lod can only be used with explicit-lod instructions and OpImageFetch")
        if mask & _GRAD:
            return fail("Image Operand bits Lod and Grad cannot be set at the same time")
        lod = ctx.type_of(ids[_LOD][0])
        if fetch and not ctx.is_int_scalar(lod):
            return fail("Expected Image Operand Lod to be an integer type scalar when used with a fetch or read")
        if not fetch and not ctx.is_float_scalar(lod):
            return fail("Expected Image Operand Lod to be a floating-point type scalar when used with a sampling "
                        "operation")
        if not _lod_shape_ok(dim, ms):
            return fail("Image Operand Lod requires an image with Dim 1D, 2D, 3D or Cube and MS 0")
    if mask & _GRAD:
        if opc not in _EXPLICIT_LOD:
            return fail("Image Operand Grad can only be used with explicit-lod instructions")
        size = _plane_size(dim)
        for d in ids[_GRAD]:
            t = ctx.type_of(d)
            if not ctx.is_float_scalar_or_vector(t):
                return fail("Expected both Image Operand Grad ids to be floating-point scalars or vectors")
            if ctx.dimension(t) != size:
                return fail(f"Expected Image Operand Grad dx and dy to have {size} components, but given "
                            f"{ctx.dimension(t)}")
        if ms:
            return fail("Image Operand Grad requires an image with MS 0")
    for bit, label in ((_CONST_OFFSET, "ConstOffset"), (_OFFSET, "Offset")):
        if not mask & bit:
            continue
        value = ids[bit][0]
        t = ctx.type_of(value)
        if dim == op.DIM.Cube:
            return fail(f"Image Operand {label} cannot be used with Cube Image 'Dim'")
        if bit == _CONST_OFFSET and not ctx.is_constant_instruction(value):
            return fail("Expected Image Operand ConstOffset to be an <id> of a constant instruction")
        if not ctx.is_int_scalar_or_vector(t):
            return fail(f"Expected Image Operand {label} to be an integer scalar or vector")
        if ctx.dimension(t) != _plane_size(dim):
            return fail(f"Expected Image Operand {label} to have {_plane_size(dim)} components, but given "
                        f"{ctx.dimension(t)}")
    if mask & _CONST_OFFSETS:
        if opc not in _GATHERS:
            return fail("Image Operand ConstOffsets can only be used with OpImageGather and OpImageDrefGather")
        if dim == op.DIM.Cube:
            return fail("Image Operand ConstOffsets cannot be used with Cube Image 'Dim'")
        value = ids[_CONST_OFFSETS][0]
        if not ctx.is_constant_instruction(value) or not _four_int_pairs(ctx, ctx.type_of(value)):
            return fail("Expected Image Operand ConstOffsets to be an <id> of a constant array of four vectors of "
                        "two integer components")
    if mask & _SAMPLE:
        if opc not in (*_FETCHES, *_READS, op.ImageWrite):
            return fail("Image Operand Sample can only be used with OpImageFetch, OpImageRead, OpImageWrite, "
                        "OpImageSparseFetch and OpImageSparseRead")
        if not ms:
            return fail("Image Operand Sample requires non-zero 'MS' parameter")
        if not ctx.is_int_scalar(ctx.type_of(ids[_SAMPLE][0])):
            return fail("Expected Image Operand Sample to be an integer type scalar")
    if mask & _MIN_LOD:
        if opc not in _IMPLICIT_LOD and not mask & _GRAD:
            return fail("Image Operand MinLod can only be used with implicit-lod instructions or together with "
                        "Image Operand Grad")
        if not ctx.is_float_scalar(ctx.type_of(ids[_MIN_LOD][0])):
            return fail("Expected Image Operand MinLod to be a floating-point type scalar")
        if not _lod_shape_ok(dim, ms):
            return fail("Image Operand MinLod requires an image with Dim 1D, 2D, 3D or Cube and MS 0")
    if mask & _MAKE_AVAILABLE and (opc != op.ImageWrite or not mask & _NON_PRIVATE):
        return fail("Image Operand MakeTexelAvailable can only be used with OpImageWrite, together with "
                    "NonPrivateTexel")
    if mask & _MAKE_VISIBLE and (opc == op.ImageWrite or not mask & _NON_PRIVATE):
        return fail("Image Operand MakeTexelVisible cannot be used with OpImageWrite, and needs NonPrivateTexel")
    if mask & _SIGN_EXTEND and mask & _ZERO_EXTEND:
        return fail("Image Operands SignExtend and ZeroExtend cannot both be set")


def _lod_shape_ok(dim, ms) -> bool:
    """Bias, Lod and MinLod: "This can only be used with an OpTypeImage that has a Dim operand of
    1D, 2D, 3D, or Cube, and the MS operand must be 0." (SPIR-V 3.14)"""
    return op.DIM.name(dim) in ("1D", "2D", "3D", "Cube") and ms == 0


def _four_int_pairs(ctx, t) -> bool:
    arr = ctx.type_inst(t)
    if arr is None or arr.opcode != op.TypeArray or ctx.constant_value(arr.words[3]) != 4:
        return False
    v = arr.words[2]
    return ctx.is_int_vector(v) and ctx.dimension(v) == 2


_OPERAND_USERS = tuple(_IMAGE_WORD)


def check(ctx) -> None:
    checks = _CHECKS
    for inst in ctx.instructions_of((op.TypeImage,)):
        _storage_image_multisample(ctx, inst)
    for inst in ctx.instructions_of(checks):
        before = len(ctx.diagnostics)
        checks[inst.opcode](ctx, inst)
        if len(ctx.diagnostics) == before:
            if inst.opcode in _IMAGE_WORD:
                _coordinate_size(ctx, inst)
            elif inst.opcode in _QUERY_SIZE:
                _query_size_components(ctx, inst)
    for inst in ctx.instructions_of(_OPERAND_USERS):
        _image_operands(ctx, inst)


# -- capabilities of storage images (SPIR-V 3.31, 3.32.10) -------------------------------------------

def _storage_image_multisample(ctx, inst) -> None:
    """StorageImageMultisample: "Uses multi-sample images for non-sampled images" (SPIR-V 3.31) --
    an OpTypeImage with MS 1 and Sampled 2 (not SubpassData) needs it."""
    w = inst.words
    if len(w) > 7 and w[6] == 1 and w[7] == 2 and w[3] != getattr(op.DIM, "SubpassData", -1) \
            and ctx.is_shader and not ctx.has_capability("StorageImageMultisample"):
        ctx.error("image.capability", "SPIR-V 3.31",
                  "Capability StorageImageMultisample is required when using multisampled storage image", inst)


_STORAGE_DIM_CAPABILITY = {getattr(op.DIM, "1D"): "Image1D", op.DIM.Rect: "ImageRect", op.DIM.Buffer: "ImageBuffer"}


def _storage_image_access(ctx, inst, image) -> bool:
    """OpImageRead / OpImageWrite: "If the Sampled operand is 2, then some dimensions require a
    capability; e.g., one of Image1D, ImageRect, ImageBuffer, ImageCubeArray" (SPIR-V 3.32.10)."""
    w = image.words
    if len(w) < 8 or w[7] != 2:
        return True
    dim, arrayed = w[3], w[5]
    need = _STORAGE_DIM_CAPABILITY.get(dim)
    if dim == op.DIM.Cube and arrayed == 1:
        need = "ImageCubeArray"
    if need is not None and not ctx.has_capability(need):
        ctx.error("image.capability", SEC, f"Capability {need} is required to access storage image", inst)
        return False
    return True


# -- OpImageTexelPointer (SPIR-V 3.32.8) ---------------------------------------------------------------

_TEXEL_COORDS = {"1D": 1, "Buffer": 1, "2D": 2, "Rect": 2, "3D": 3, "Cube": 3}


def _texel_pointer(ctx, inst) -> None:
    """ "Result Type must be an OpTypePointer whose Storage Class operand is Image. Its Type operand
    must be a scalar numerical type or OpTypeVoid. Image must have a type of OpTypePointer with Type
    OpTypeImage. The Sampled Type of the type of Image must be the same as the Type pointed to by
    Result Type. The Dim operand of Type cannot be SubpassData. ... Coordinate must be a scalar or
    vector of integer type. It must have the number of components specified below" (SPIR-V 3.32.8
    OpImageTexelPointer)."""
    w = inst.words
    if len(w) < 6:
        return
    sec = "SPIR-V 3.32.8"

    def fail(message):
        ctx.error("image.texel-pointer", sec, message, inst)

    t = ctx.type_inst(w[1])
    if t is None or t.opcode != op.TypePointer:
        fail("Expected Result Type to be a pointer")
        return
    if t.words[2] != op.SC.Image:
        fail("Expected Result Type to be a pointer whose Storage Class operand is Image")
        return
    pointee = t.words[3]
    if ctx.type_opcode(pointee) not in (op.TypeInt, op.TypeFloat, op.TypeVoid):
        fail("Expected Result Type to be a pointer whose Type operand must be a scalar numerical type or "
             "OpTypeVoid")
        return
    info = ctx.pointer_info(ctx.type_of(w[3]))
    image = ctx.type_inst(info[1]) if info is not None and info[1] is not None else None
    if image is None or image.opcode != op.TypeImage:
        fail("Expected Image to be OpTypePointer with Type OpTypeImage")
        return
    if ctx.type_opcode(pointee) != op.TypeVoid and image.words[2] != pointee:
        fail("Expected Image 'Sampled Type' to be the same as the Type pointed to by Result Type")
        return
    dim_name = op.DIM.name(image.words[3])
    if dim_name == "SubpassData":
        fail("Image Dim SubpassData cannot be used with OpImageTexelPointer")
        return
    coord = ctx.type_of(w[4])
    if not ctx.is_int_scalar_or_vector(coord):
        fail("Expected Coordinate to be integer scalar or vector")
        return
    expected = _TEXEL_COORDS.get(dim_name)
    if expected is not None and not (dim_name == "Cube" and image.words[5] == 1):
        expected += image.words[5]
        if ctx.dimension(coord) != expected:
            fail(f"Expected Coordinate to have {expected} components, but given {ctx.dimension(coord)}")
            return
    if not ctx.is_int_scalar(ctx.type_of(w[5])):
        fail("Expected Sample to be integer scalar")


_CHECKS[op.ImageTexelPointer] = _texel_pointer
