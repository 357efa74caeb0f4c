"""Image instructions (SPIR-V 3.32.10), the operand-type rules every environment shares: the
image operand's type, result types of reads, samples, fetches and queries, coordinate types,
OpSampledImage and OpImage. (The OpenCL and Vulkan image rules are in ``opencl``/``vulkan``.)"""

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
    if _image_of(ctx, w[1], sampled=False) is None:
        _err(ctx, inst, "Expected Image to be of type OpTypeImage: ImageWrite")
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
_CHECKS = {op.SampledImage: _sampled_image, op.Image: _image, op.ImageWrite: _write, op.ImageQueryLod: _query_lod}
for _o in _SAMPLING:
    _CHECKS[_o] = _sample
for _n in ("ImageRead", "ImageFetch", "ImageSparseRead", "ImageSparseFetch"):
    _CHECKS[getattr(op, _n)] = _read_fetch
for _n in ("ImageQuerySize", "ImageQuerySizeLod", "ImageQueryLevels", "ImageQuerySamples"):
    _CHECKS[getattr(op, _n)] = _query


def check(ctx) -> None:
    checks = _CHECKS
    for inst in ctx.instructions_of(checks):
        checks[inst.opcode](ctx, inst)
