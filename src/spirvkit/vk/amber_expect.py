"""AmberScript EXPECT commands checked against buffers and images after a run: IDX with EQ NE LT
LE GT GE and TOLERANCE, EQ_BUFFER, RMSE_BUFFER, EQ_HISTOGRAM_EMD_BUFFER and image probes
(EQ_RGB, EQ_RGBA), with Amber's comparison rules (amber.py parses them into commands)."""

from __future__ import annotations

import math

import numpy as np

from . import amber_images
from .amber_data import DataType

PROBES = ("EQ_RGB", "EQ_RGBA")
FLOAT_EPSILON = 1e-6     # EQ on floats without a TOLERANCE, as Amber compares them


class ExpectFailed(Exception):
    def __init__(self, line: int, message: str):
        self.line, self.message = line, message
        super().__init__(message)


def check(c, buffers: dict) -> None:
    """Raises ExpectFailed, located at the command's line, if the EXPECT command ``c`` does not
    hold for ``buffers`` (name -> amber_data.Buffer or an image)."""
    a = c.args
    buffer = buffers[a["buffer"]]
    if a["op"] in PROBES:
        failure = amber_images.probe(buffer, a["rect"], a["rgba"], a["tolerance"])
        if failure:
            raise ExpectFailed(c.line, failure)
        return
    if a["op"] == "EQ_HISTOGRAM_EMD_BUFFER":
        other = buffers[a["other"]]
        emd = amber_images.histogram_emd(buffer, other)
        if not emd <= a["tolerance"]:
            raise ExpectFailed(c.line, f"the histogram EMD of {buffer.name} against {other.name} is {emd:g}, "
                                       f"above the tolerance {a['tolerance']:g}")
        return
    if "other" in a:
        other = buffers[a["other"]]
        got, want = buffer.values(), other.values()
        if got.size != want.size:
            raise ExpectFailed(c.line, f"{buffer.name} has {got.size} values, {other.name} {want.size}")
        if a["op"] == "RMSE_BUFFER":
            rmse = math.sqrt(float(np.mean((got.astype(np.float64) - want.astype(np.float64)) ** 2))) \
                if got.size else 0.0
            if not rmse <= a["tolerance"]:
                raise ExpectFailed(c.line, f"RMSE of {buffer.name} against {other.name} is {rmse:g}, above the "
                                           f"tolerance {a['tolerance']:g}")
            return
        differ = np.nonzero(got != want)[0]
        if differ.size:
            i = int(differ[0])
            raise ExpectFailed(c.line, f"{buffer.name} and {other.name} differ at value {i}: {got[i]} != {want[i]}")
        return
    values = a["values"]
    got = buffer.values_at(a["offset"], len(values))
    t = buffer.type
    for k, (g, e) in enumerate(zip(got.tolist(), values)):
        if not _compare(a["op"], g, e, t, a["tolerance"], k):
            element = a["offset"] // t.stride + k // t.components
            where = f"element {element}" + (f" component {k % t.components}" if t.components > 1 else "")
            tol = f" (tolerance {_tolerance_text(a['tolerance'], k)})" if a["tolerance"] else ""
            raise ExpectFailed(c.line, f"{buffer.name} {where} (value {k} from byte {a['offset']}) is {g}; "
                                       f"expected {a['op']} {e}{tol}")


def _compare(op: str, got, want, t: DataType, tolerance: list, k: int) -> bool:
    if op == "EQ":
        if tolerance:
            tol, percent = tolerance[k % len(tolerance)]
            limit = abs(want) * tol / 100.0 if percent else tol
            return abs(got - want) <= limit
        if t.is_float:
            return got == want or abs(got - want) < FLOAT_EPSILON
        return got == want
    return {"NE": got != want, "LT": got < want, "LE": got <= want, "GT": got > want, "GE": got >= want}[op]


def _tolerance_text(tolerance: list, k: int) -> str:
    tol, percent = tolerance[k % len(tolerance)]
    return f"{tol:g}%" if percent else f"{tol:g}"
