"""Matrix instructions (shaders): a matrix is an LLVM array of its column vectors (types.py), so
every product is column arithmetic on vectors, in the order SPIR-V defines (each result
component a sum over k in increasing k, with separate multiplies and adds: no contraction).
GLSL.std.450 Determinant and MatrixInverse (called from shader_glsl.py) are cofactor expansions,
in double for half and float matrices."""

from __future__ import annotations

from llvmlite import ir

from .function import I32, FunctionLowering, handles


def _columns(b: ir.IRBuilder, m: ir.Value) -> list[ir.Value]:
    return [b.extract_value(m, c) for c in range(m.type.count)]


def _matrix(b: ir.IRBuilder, llvm_t: ir.Type, columns: list[ir.Value]) -> ir.Value:
    value = ir.Constant(llvm_t, None)
    for c, column in enumerate(columns):
        value = b.insert_value(value, column, c)
    return value


def _lane(b: ir.IRBuilder, v: ir.Value, i: int) -> ir.Value:
    return b.extract_element(v, ir.Constant(I32, i))


def splat(b: ir.IRBuilder, s: ir.Value, like: ir.Type) -> ir.Value:
    """``s`` in every lane of vector type ``like`` (``s`` itself when ``like`` is a scalar)."""
    if not isinstance(like, ir.VectorType):
        return s
    v = ir.Constant(like, None)
    for i in range(like.count):
        v = b.insert_element(v, s, ir.Constant(I32, i))
    return v


def dot(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """The sum of the lane products, in lane order (the product of two scalars)."""
    product = b.fmul(x, y)
    if not isinstance(product.type, ir.VectorType):
        return product
    total = _lane(b, product, 0)
    for i in range(1, product.type.count):
        total = b.fadd(total, _lane(b, product, i))
    return total


def _times_vector(b: ir.IRBuilder, columns: list[ir.Value], v: ir.Value) -> ir.Value:
    """M * v: the sum of column k times v[k]."""
    total = b.fmul(columns[0], splat(b, _lane(b, v, 0), columns[0].type))
    for k in range(1, len(columns)):
        total = b.fadd(total, b.fmul(columns[k], splat(b, _lane(b, v, k), columns[k].type)))
    return total


@handles("OpTranspose")
def lower_transpose(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    columns = _columns(b, fl.value(w[3]))
    result_t = fl.type(w[1]).llvm
    rows = []
    for r in range(result_t.count):
        row = ir.Constant(result_t.element, None)
        for c, column in enumerate(columns):
            row = b.insert_element(row, _lane(b, column, r), ir.Constant(I32, c))
        rows.append(row)
    fl.set(w[2], _matrix(b, result_t, rows))


@handles("OpMatrixTimesScalar")
def lower_matrix_times_scalar(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    m, s = fl.value(w[3]), fl.value(w[4])
    columns = [b.fmul(c, splat(b, s, c.type)) for c in _columns(b, m)]
    fl.set(w[2], _matrix(b, m.type, columns))


@handles("OpVectorTimesMatrix")
def lower_vector_times_matrix(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    v, m = fl.value(w[3]), fl.value(w[4])
    result = ir.Constant(fl.type(w[1]).llvm, None)
    for c, column in enumerate(_columns(b, m)):
        result = b.insert_element(result, dot(b, v, column), ir.Constant(I32, c))
    fl.set(w[2], result)


@handles("OpMatrixTimesVector")
def lower_matrix_times_vector(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    fl.set(w[2], _times_vector(b, _columns(b, fl.value(w[3])), fl.value(w[4])))


@handles("OpMatrixTimesMatrix")
def lower_matrix_times_matrix(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    left = _columns(b, fl.value(w[3]))
    right = _columns(b, fl.value(w[4]))
    fl.set(w[2], _matrix(b, fl.type(w[1]).llvm, [_times_vector(b, left, column) for column in right]))


@handles("OpOuterProduct")
def lower_outer_product(fl: FunctionLowering, inst) -> None:
    w = inst.words
    b = fl.builder
    u, v = fl.value(w[3]), fl.value(w[4])
    columns = [b.fmul(u, splat(b, _lane(b, v, c), u.type)) for c in range(v.type.count)]
    fl.set(w[2], _matrix(b, fl.type(w[1]).llvm, columns))


def _entries(b: ir.IRBuilder, m: ir.Value) -> list[list[ir.Value]]:
    """a[r][c]: the scalar at row r, column c of a matrix value (an array of columns)."""
    columns = _columns(b, m)
    return [[_lane(b, column, r) for column in columns] for r in range(m.type.element.count)]


def _det(b: ir.IRBuilder, a: list[list[ir.Value]], rows: list[int], cols: list[int]) -> ir.Value:
    """The determinant of the sub-matrix of ``a`` on ``rows`` x ``cols``: cofactor expansion
    along its first row (n <= 4, so at most 4 * 3 * 2 products per determinant)."""
    if len(rows) == 1:
        return a[rows[0]][cols[0]]
    if len(rows) == 2:
        (r0, r1), (c0, c1) = rows, cols
        return b.fsub(b.fmul(a[r0][c0], a[r1][c1]), b.fmul(a[r0][c1], a[r1][c0]))
    total = None
    for k, c in enumerate(cols):
        term = b.fmul(a[rows[0]][c], _det(b, a, rows[1:], cols[:k] + cols[k + 1:]))
        total = term if total is None else (b.fsub(total, term) if k % 2 else b.fadd(total, term))
    return total


def _widened(b: ir.IRBuilder, m: ir.Value) -> list[list[ir.Value]]:
    """The entries of a half or float matrix as doubles (a double matrix's as they are): the
    cofactor sums cancel, and in double a float matrix's determinant and inverse come out
    nearly correctly rounded, where the float formula loses tens of ulps on ill-conditioned
    matrices (Vulkan inherits their bound from the formula: more accurate is allowed; the
    CTS's float32 inverse tolerances need it)."""
    a = _entries(b, m)
    if isinstance(m.type.element.element, ir.DoubleType):
        return a
    return [[b.fpext(x, ir.DoubleType()) for x in row] for row in a]


def _narrowed(b: ir.IRBuilder, x: ir.Value, t: ir.Type) -> ir.Value:
    return x if x.type == t else b.fptrunc(x, t)


def determinant(b: ir.IRBuilder, m: ir.Value) -> ir.Value:
    """GLSL.std.450 Determinant of a square matrix."""
    n = m.type.count
    return _narrowed(b, _det(b, _widened(b, m), list(range(n)), list(range(n))), m.type.element.element)


def inverse(b: ir.IRBuilder, m: ir.Value) -> ir.Value:
    """GLSL.std.450 MatrixInverse: the adjugate over the determinant (undefined, as GLSL says,
    for a singular matrix: here inf/NaN entries). Entry (r, c) of the inverse is the cofactor
    of entry (c, r) divided by the determinant."""
    n = m.type.count
    a = _widened(b, m)
    det = _det(b, a, list(range(n)), list(range(n)))
    columns = []
    for c in range(n):
        column = ir.Constant(m.type.element, None)
        for r in range(n):
            minor = _det(b, a, [i for i in range(n) if i != c], [j for j in range(n) if j != r])
            cofactor = b.fneg(minor) if (r + c) % 2 else minor
            entry = _narrowed(b, b.fdiv(cofactor, det), m.type.element.element)
            column = b.insert_element(column, entry, ir.Constant(I32, r))
        columns.append(column)
    return _matrix(b, m.type, columns)
