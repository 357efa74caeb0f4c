"""The OpenCL C type system: scalars, vectors, pointers with address spaces, arrays, records,
functions; sizes and alignments per 64-bit SPIR (spec §1.1: a 3-vector takes the room and
alignment of 4 elements), conversion ranks (§1.2.6) and type spelling as clang prints it.

Types are immutable values compared structurally. ``size_t`` and friends are ``ulong``/``long``
with a ``spelling`` that equality ignores: they convert like ulong but §1.9 bans them as kernel
arguments, so the name has to survive. The OpenCL C 2.0 atomic types are :class:`Atomic`
(clang's ``_Atomic(T)``): the value type's layout, none of its operators.
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field

ADDRESS_SPACES = ("private", "global", "local", "constant", "generic")
STORAGE_CLASS = {"private": "Function", "global": "CrossWorkgroup", "local": "Workgroup",
                 "constant": "UniformConstant", "generic": "Generic"}
VECTOR_WIDTHS = (2, 3, 4, 8, 16)


class CType:
    is_scalar = is_vector = is_pointer = is_array = is_record = is_function = is_void = False
    is_atomic = False
    # Images and samplers (§6.13.14): opaque handles that exist only as values — parameters,
    # constant samplers — never as objects in memory (is_opaque covers both).
    is_image = is_sampler = is_opaque = False
    is_pipe = False  # a pipe (§6.13.16) is opaque too: a parameter's value only
    is_block = False  # a block (§6.12): a pointer to its literal, called but never pointed to
    is_float = is_integer = is_bool = False
    kind = ""
    bits = 0
    signed = False

    @property
    def is_arithmetic(self) -> bool:
        return self.is_scalar and not self.is_void

    @property
    def element(self) -> "Scalar":
        """The element type of a vector, the type itself for a scalar."""
        return self  # type: ignore[return-value]

    @property
    def width(self) -> int:
        return 1


@dataclass(frozen=True, eq=False)
class Scalar(CType):
    kind: str  # "void", "bool", "int", "float"
    bits: int
    signed: bool = True
    spelling: str = field(default="", compare=False)

    is_scalar = True

    @property
    def is_void(self) -> bool:  # type: ignore[override]
        return self.kind == "void"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "bool")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    def key(self):
        return (self.kind, self.bits, self.signed if self.kind == "int" else True)

    def __eq__(self, other):
        return isinstance(other, Scalar) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __str__(self):
        if self.spelling:
            return self.spelling
        if self.kind == "void":
            return "void"
        if self.kind == "bool":
            return "bool"
        if self.kind == "float":
            return {16: "half", 32: "float", 64: "double"}[self.bits]
        name = {8: "char", 16: "short", 32: "int", 64: "long"}[self.bits]
        return name if self.signed else "u" + name

    @property
    def size(self) -> int:
        return 1 if self.kind == "bool" else max(self.bits // 8, 1)

    @property
    def align(self) -> int:
        return self.size

    def with_signed(self, signed: bool) -> "Scalar":
        return Scalar(self.kind, self.bits, signed)


VOID = Scalar("void", 0)
BOOL = Scalar("bool", 8, False)
CHAR, UCHAR = Scalar("int", 8, True), Scalar("int", 8, False)
SHORT, USHORT = Scalar("int", 16, True), Scalar("int", 16, False)
INT, UINT = Scalar("int", 32, True), Scalar("int", 32, False)
LONG, ULONG = Scalar("int", 64, True), Scalar("int", 64, False)
HALF, FLOAT, DOUBLE = Scalar("float", 16), Scalar("float", 32), Scalar("float", 64)
SIZE_T = Scalar("int", 64, False, "size_t")
PTRDIFF_T = Scalar("int", 64, True, "ptrdiff_t")
INTPTR_T = Scalar("int", 64, True, "intptr_t")
UINTPTR_T = Scalar("int", 64, False, "uintptr_t")

SCALAR_NAMES = {
    "bool": BOOL, "char": CHAR, "uchar": UCHAR, "short": SHORT, "ushort": USHORT, "int": INT,
    "uint": UINT, "long": LONG, "ulong": ULONG, "half": HALF, "float": FLOAT, "double": DOUBLE,
    "void": VOID,
}
# Element types that have vector forms (§1.1.2; halfn with cl_khr_fp16).
VECTOR_ELEMENTS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float",
                   "double", "half")
BUILTIN_TYPEDEFS = {"size_t": SIZE_T, "ptrdiff_t": PTRDIFF_T, "intptr_t": INTPTR_T,
                    "uintptr_t": UINTPTR_T}


@dataclass(frozen=True)
class Vector(CType):
    elem: Scalar
    n: int

    is_vector = True

    @property
    def element(self) -> Scalar:
        return self.elem

    @property
    def width(self) -> int:
        return self.n

    def __str__(self):
        return f"{self.elem.with_signed(self.elem.signed)}{self.n}"

    @property
    def size(self) -> int:
        return self.elem.size * (4 if self.n == 3 else self.n)

    @property
    def align(self) -> int:
        return self.size


@dataclass(frozen=True)
class Pointer(CType):
    pointee: CType
    space: str = "private"
    const: bool = False  # the pointee is const-qualified
    volatile: bool = False

    is_pointer = True
    size = 8
    align = 8

    def __eq__(self, other):
        return isinstance(other, Pointer) and (self.pointee, self.space) == (other.pointee, other.space)

    def __hash__(self):
        return hash((self.pointee, self.space))

    def __str__(self):
        quals = ("const " if self.const else "") + ("volatile " if self.volatile else "")
        space = "" if self.space == "private" else f"__{self.space} "
        inner = self.pointee
        if isinstance(inner, (Array, Function)):
            return f"{quals}{space}{inner} (*)"
        return f"{quals}{space}{inner} *"


@dataclass(frozen=True, eq=False)
class Atomic(CType):
    """An OpenCL C 2.0 atomic type (§6.13.11.6; clang's ``_Atomic(T)``): the layout and SPIR-V
    type of its value type, but no operators — the atomic built-ins use it through pointers,
    and reading one (lvalue conversion) gives the value type. Equality is the value type's, as
    in clang: ``atomic_flag`` is ``_Atomic(int)`` like ``atomic_int``, ``atomic_size_t`` is
    ``_Atomic(ulong)``; ``name`` is the typedef name diagnostics print."""

    value: Scalar
    name: str = field(default="", compare=False)

    is_atomic = True

    def __eq__(self, other):
        return isinstance(other, Atomic) and self.value == other.value

    def __hash__(self):
        return hash(("atomic", self.value))

    def __str__(self):
        return self.name or f"_Atomic({self.value})"

    @property
    def size(self) -> int:
        return self.value.size

    @property
    def align(self) -> int:
        return self.value.align


ATOMIC_TYPES = {name: Atomic(value, name) for name, value in (
    ("atomic_int", INT), ("atomic_uint", UINT), ("atomic_long", LONG), ("atomic_ulong", ULONG),
    ("atomic_float", FLOAT), ("atomic_double", DOUBLE), ("atomic_intptr_t", INTPTR_T),
    ("atomic_uintptr_t", UINTPTR_T), ("atomic_size_t", SIZE_T), ("atomic_ptrdiff_t", PTRDIFF_T),
    ("atomic_flag", INT))}


def atomic_name(value: Scalar) -> str:
    """The atomic_* typedef of a value type (clang prints the typedef the header declared)."""
    for name, t in ATOMIC_TYPES.items():
        if t.value == value and not name.endswith(("_t", "flag")):
            return name
    return f"_Atomic({value})"


@dataclass(frozen=True)
class Array(CType):
    elem: CType
    length: int | None  # None: incomplete (an unsized parameter or extern)

    is_array = True

    def __str__(self):
        return f"{self.elem}[{'' if self.length is None else self.length}]"

    @property
    def size(self) -> int:
        return self.elem.size * (self.length or 0)

    @property
    def align(self) -> int:
        return self.elem.align


class Record(CType):
    """A struct or union: identity is the declaration (two tags are two types)."""

    is_record = True

    def __init__(self, kind: str, name: str | None):
        self.kind = kind
        self.name = name
        self.fields: list[tuple[str, CType, int]] | None = None  # (name, type, offset)
        self.size = 0
        self.align = 1
        self.packed = False

    @property
    def complete(self) -> bool:
        return self.fields is not None

    def define(self, members: list[tuple[str, CType]], packed: bool = False, align: int = 0) -> None:
        """Lay the members out as C does (and 64-bit SPIR): each at its alignment, the size
        rounded up to the largest alignment; a union's members all at offset 0."""
        offset, biggest, fields = 0, 1, []
        for name, t in members:
            a = 1 if packed else t.align
            biggest = max(biggest, a)
            if self.kind == "union":
                fields.append((name, t, 0))
                offset = max(offset, t.size)
            else:
                offset = (offset + a - 1) // a * a
                fields.append((name, t, offset))
                offset += t.size
        biggest = max(biggest, align)
        self.fields = fields
        self.align = biggest
        self.size = (offset + biggest - 1) // biggest * biggest
        self.packed = packed

    def field(self, name: str):
        for i, (fname, t, off) in enumerate(self.fields or ()):
            if fname == name:
                return i, t, off
        return None

    def field_path(self, name: str):
        """The member steps [(index, type, offset), ...] that reach member ``name``: one for a
        member of this record, more through its unnamed struct and union members, whose members
        are the enclosing record's (C11 6.7.2.1p13, ``union { struct { float x, y; }; … }``);
        None if there is none."""
        found = self.field(name)
        if found is not None:
            return [found]
        for i, (fname, t, off) in enumerate(self.fields or ()):
            if fname is None and t.is_record and t.name is None and t.complete:
                inner = t.field_path(name)
                if inner is not None:
                    return [(i, t, off)] + inner
        return None

    def __str__(self):
        if self.name:
            return f"{self.kind} {self.name}"
        # An anonymous struct a typedef names is printed by that name, as clang does.
        return getattr(self, "typedef_name", None) or f"{self.kind} (anonymous)"


@dataclass(frozen=True)
class Function(CType):
    result: CType
    params: tuple
    variadic: bool = False

    is_function = True
    size = 1
    align = 1

    def __str__(self):
        ps = ", ".join(str(p) for p in self.params) + (", ..." if self.variadic else "")
        return f"{self.result} ({ps or 'void'})"


@dataclass(frozen=True)
class Block(CType):
    """A block type (OpenCL C 2.0 §6.12, clang's block pointer ``R (^)(P...)``): a value is a
    generic pointer to the block's literal (clang's ``struct.__opencl_block_literal_generic``).
    ``declared``: a type written in a declaration, which clang makes a const pointer to
    generic (``int (__generic ^const)(int)``; a literal's is ``int (^)(int)``); equality
    ignores it. (Spelled, as the project's other types, without clang's ``__private``.)"""

    result: CType
    params: tuple
    declared: bool = field(default=False, compare=False)

    is_block = True
    size = 8
    align = 8

    def __str__(self):
        ps = ", ".join(str(p) for p in self.params) or "void"
        result = str(self.result)
        return f"{result}{'' if result.endswith('*') else ' '}({'__generic ^const' if self.declared else '^'})({ps})"


@dataclass(frozen=True)
class EventType(CType):
    size = 8
    align = 8

    def __str__(self):
        return "event_t"


EVENT_T = EventType()


@dataclass(frozen=True)
class ImageGeometry:
    """What an image type is to SPIR-V and to its built-ins: the OpTypeImage Dim, Arrayed and
    Depth operands, the width of its coordinates (int/float, int2/float2 or int4/float4; the
    layer of an array is the last used one) and of its OpImageQuerySize result."""

    dim: str
    arrayed: int
    depth: int
    coords: int
    size: int


# OpenCL C 2.0 §6.12.14 image types (image2d_depth_t and image2d_array_depth_t: cl_khr_depth_images,
# core in 2.0); the msaa ones are cl_khr_gl_msaa_sharing, not supported.
IMAGE_GEOMETRY = {
    "image1d_t": ImageGeometry("1D", 0, 0, 1, 1),
    "image1d_buffer_t": ImageGeometry("Buffer", 0, 0, 1, 1),
    "image1d_array_t": ImageGeometry("1D", 1, 0, 2, 2),
    "image2d_t": ImageGeometry("2D", 0, 0, 2, 2),
    "image2d_array_t": ImageGeometry("2D", 1, 0, 4, 3),
    "image3d_t": ImageGeometry("3D", 0, 0, 4, 3),
    "image2d_depth_t": ImageGeometry("2D", 0, 1, 2, 2),
    "image2d_array_depth_t": ImageGeometry("2D", 1, 1, 4, 3),
}
ACCESS_QUALIFIER = {"read_only": "ReadOnly", "write_only": "WriteOnly", "read_write": "ReadWrite"}


@dataclass(frozen=True)
class Image(CType):
    """An image type with its access qualifier: as in clang, ``read_only image2d_t`` and
    ``write_only image2d_t`` are different types (read_only when none is written)."""

    name: str
    access: str = "read_only"

    is_image = is_opaque = True
    size = 8  # clang (spir64): sizeof of any image or sampler is 8
    align = 8

    @property
    def geometry(self) -> ImageGeometry:
        return IMAGE_GEOMETRY[self.name]

    def __str__(self):
        return f"__{self.access} {self.name}"


@dataclass(frozen=True)
class SamplerType(CType):
    is_sampler = is_opaque = True
    size = 8
    align = 8

    def __str__(self):
        return "sampler_t"


SAMPLER_T = SamplerType()


@dataclass(frozen=True)
class PipeType(CType):
    """A pipe (OpenCL C 2.0 §6.13.16): its packet type and access qualifier (read_only when
    none is written). Like an image, a value that only a parameter holds."""

    packet: CType
    access: str = "read_only"

    is_pipe = is_opaque = True
    size = 8
    align = 8

    def __str__(self):
        return f"{self.access} pipe {self.packet}"


@dataclass(frozen=True)
class ReserveIdType(CType):
    """reserve_id_t: a pipe reservation (§6.13.16.2); a value in private memory."""

    size = 8
    align = 8

    def __str__(self):
        return "reserve_id_t"


RESERVE_ID_T = ReserveIdType()


# -- device-side enqueue (OpenCL C 2.0 §6.13.17; clc/enqueue.py) --------------------------------

class _Handle(CType):
    """A device-side enqueue handle: a value of its own type, kept in private memory."""

    size = 8
    align = 8
    name = ""

    def __eq__(self, other):
        return type(other) is type(self)

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name


class QueueType(_Handle):
    name = "queue_t"
    null_from_zero = True  # CLK_NULL_QUEUE is 0: an integer constant 0 converts to the null queue


class DeviceEventType(_Handle):
    name = "clk_event_t"


QUEUE_T, CLK_EVENT_T = QueueType(), DeviceEventType()


def _ndrange_type() -> Record:
    rec = Record("struct", None)
    rec.typedef_name = "ndrange_t"
    sizes = Array(SIZE_T, 3)
    rec.define([("workDimension", UINT), ("globalWorkOffset", sizes), ("globalWorkSize", sizes),
                ("localWorkSize", sizes)])
    return rec


NDRANGE_T = _ndrange_type()
# (kernel_enqueue_flags_t and clk_profiling_info are int typedefs in clang's header)
ENQUEUE_TYPES = {"queue_t": QUEUE_T, "clk_event_t": CLK_EVENT_T, "ndrange_t": NDRANGE_T,
                 "kernel_enqueue_flags_t": INT, "clk_profiling_info": INT}


def folded_int(value) -> int:
    """A constant converted to an integer type when folding: an out-of-range or non-finite float
    is undefined behaviour (C99 6.3.1.4; clang warns with -Wliteral-conversion), folded to 0 for
    NaN and infinities; the caller wraps finite values to the type's width."""
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    return int(value)


def vector_of(elem: Scalar, n: int) -> CType:
    return elem if n == 1 else Vector(elem, n)


def type_from_name(name: str) -> CType | None:
    """``float4`` → Vector(float, 4); ``uint`` → UINT; None when the name is no built-in type."""
    if name in SCALAR_NAMES:
        return SCALAR_NAMES[name]
    if name in BUILTIN_TYPEDEFS:
        return BUILTIN_TYPEDEFS[name]
    for w in (16, 8, 4, 3, 2):
        suffix = str(w)
        if name.endswith(suffix) and name[: -len(suffix)] in VECTOR_ELEMENTS:
            return Vector(SCALAR_NAMES[name[: -len(suffix)]], w)
    return None


def rank(t: Scalar) -> tuple:
    """Conversion rank (§1.2.6): floats above integers, wider above narrower, unsigned above
    signed of the same width, bool lowest."""
    if t.kind == "float":
        return (2, t.bits, 0)
    if t.kind == "bool":
        return (0, 0, 0)
    return (1, t.bits, 0 if t.signed else 1)


def promote(t: Scalar) -> Scalar:
    """C99 integer promotion (scalars only: OpenCL vectors are not promoted)."""
    if t.kind == "bool" or (t.kind == "int" and t.bits < 32):
        return INT
    return t


def common_scalar(a: Scalar, b: Scalar) -> Scalar:
    """The C99 usual arithmetic conversions of two scalar types."""
    if a.is_float or b.is_float:
        return a if rank(a) >= rank(b) else b
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    u, s = (a, b) if not a.signed else (b, a)
    if u.bits >= s.bits:
        return u
    return s  # the signed type is wider and holds every unsigned value


def relational_result(t: CType) -> CType:
    """Relational operators on vectors give -1/0 in the signed integer vector of the same
    element width (§1.3); on scalars, int."""
    if t.is_vector:
        bits = t.element.bits if t.element.kind != "bool" else 8
        return Vector(Scalar("int", bits, True), t.width)
    return INT


def unqualified_name(t: CType) -> str:
    """The type as llvm-spirv spells it in ``kernel_arg_type`` (no qualifiers or spaces)."""
    if isinstance(t, Pointer):
        return unqualified_name(t.pointee) + "*"
    if isinstance(t, Scalar) and t.spelling:
        return t.spelling
    if isinstance(t, Record):
        return f"{t.kind} {t.name}" if t.name else t.kind
    if isinstance(t, Image):  # the access qualifier goes to kernel_arg_access_qual (and OpTypeImage)
        return t.name
    return str(t)
