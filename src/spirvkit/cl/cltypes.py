"""OpenCL C's scalar and vector types as numpy dtypes, as ``pyopencl.cltypes`` names them:
``cltypes.float4`` (fields ``s0``..``s3``, titled ``x``..``w``; 3-vectors padded to 4),
``make_float4(1, 2, 3, 4)``, ``filled_int2(7)``, ``zeros_uchar16()``, ``ones_double3()``."""

from __future__ import annotations

import builtins

import numpy as np

char, uchar, short, ushort = np.int8, np.uint8, np.int16, np.uint16
int, uint, long, ulong = np.int32, np.uint32, np.int64, np.uint64
half, float, double = np.float16, np.float32, np.float64

_SCALARS = {"char": char, "uchar": uchar, "short": short, "ushort": ushort, "int": int, "uint": uint,
            "long": long, "ulong": ulong, "float": float, "double": double}
_COUNTS = (2, 3, 4, 8, 16)
_TITLES = ("x", "y", "z", "w")

vec_types: dict = {}                     # (scalar dtype, count) -> vector dtype
vec_type_to_scalar_and_count: dict = {}  # vector dtype -> (scalar dtype, count)


def _vector_dtype(base, count: builtins.int) -> np.dtype:
    padded = 4 if count == 3 else count
    names = [f"s{i}" for i in range(count)] + [f"padding{i}" for i in range(padded - count)]
    titles = [(_TITLES[i] if count <= 4 and i < count else None) for i in range(padded)]
    return np.dtype({"names": names, "formats": [base] * padded, "titles": titles})


def _maker(dtype: np.dtype, count: builtins.int):
    padded = dtype.itemsize // dtype.fields["s0"][0].itemsize

    def make(*values, **fields):
        if len(values) > count:
            raise TypeError(f"at most {count} values, got {len(values)}")
        array = np.array(tuple(values) + (0,) * (padded - len(values)), dtype=dtype)
        for key, value in fields.items():
            array[key] = value
        return array
    return make


def _define() -> None:
    scope = globals()
    for base_name, base in _SCALARS.items():
        for count in _COUNTS:
            name = f"{base_name}{count}"
            dtype = _vector_dtype(base, count)
            make = _maker(dtype, count)
            scope[name] = dtype
            scope[f"make_{name}"] = make
            scope[f"filled_{name}"] = (lambda m, n: lambda value: m(*[value] * n))(make, count)
            scope[f"zeros_{name}"] = (lambda m, n: lambda: m(*[0] * n))(make, count)
            scope[f"ones_{name}"] = (lambda m, n: lambda: m(*[1] * n))(make, count)
            vec_types[np.dtype(base), count] = dtype
            vec_type_to_scalar_and_count[dtype] = (np.dtype(base), count)


_define()
