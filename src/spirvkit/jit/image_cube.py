"""Sampling cube and cube-array images (Vulkan's "Cube Map Face Selection" and "Cube Map Edge
Handling"), on the image-array sampler of image_sampling.py: a cube image is a 2D array of six
layers per cube (layer = 6 * cube + face, faces +X, -X, +Y, -Y, +Z, -Z).

The coordinate is a direction (rx, ry, rz) and, for cube arrays, the cube index (rounded and
clamped to the cubes there are, as an array layer is). The face is the major axis's, with the
spec's table:

    face  major  sc    tc         s_face = 0.5 * sc / |ma| + 0.5
    +X    rx     -rz   -ry        t_face = 0.5 * tc / |ma| + 0.5
    -X    rx     +rz   -ry
    +Y    ry     +rx   +rz
    -Y    ry     +rx   -rz
    +Z    rz     +rx   -ry
    -Z    rz     -rx   -ry

Ties (|rx| = |ry| and so on), which the spec leaves to the implementation, go to X, then Y,
then Z. Cube images ignore the sampler's address modes: nearest filtering clamps to the face's
edge; linear filtering is seamless, as Vulkan requires of every cube sampler: a texel of the
2x2 footprint that falls off the face (one coordinate outside) is the texel of the adjacent
face in the direction of its centre (computed, not tabulated: the centre's direction,
re-projected by the face selection above, lands on the adjacent face's edge texel), and the
footprint texel off both edges (a cube corner, where three faces meet and the spec gives no
texel) reads as the average of the footprint's three others.
"""

from __future__ import annotations

from llvmlite import ir

from .image_formats import F32, I64, V4F
from .image_sampling import _Sampler


class CubeFace:
    """The face a direction selects, and the face's linear map: ``apply(v)`` gives (sc, tc,
    ma) of any vector v through the same axes and signs (of the direction itself: ma = |major
    component|), so derivatives of the direction map onto the face as the direction does."""

    def __init__(self, b: ir.IRBuilder, fabs, r):
        self.b = b
        rx, ry, rz = r
        ax, ay, az = fabs(rx), fabs(ry), fabs(rz)
        self.x_major = b.and_(b.fcmp_ordered(">=", ax, ay), b.fcmp_ordered(">=", ax, az))
        self.y_major = b.and_(b.not_(self.x_major), b.fcmp_ordered(">=", ay, az))
        self.negative = [b.fcmp_ordered("<", v, ir.Constant(F32, 0.0)) for v in r]
        x_neg, y_neg, z_neg = self.negative
        self.face = self._pick(b.select(x_neg, ir.Constant(I64, 1), ir.Constant(I64, 0)),
                               b.select(y_neg, ir.Constant(I64, 3), ir.Constant(I64, 2)),
                               b.select(z_neg, ir.Constant(I64, 5), ir.Constant(I64, 4)))
        self.sc, self.tc, self.ma = self.apply(r)

    def _pick(self, x_value, y_value, z_value):
        b = self.b
        return b.select(self.x_major, x_value, b.select(self.y_major, y_value, z_value))

    def apply(self, v):
        b = self.b
        vx, vy, vz = v
        x_neg, y_neg, z_neg = self.negative
        sc = self._pick(b.select(x_neg, vz, b.fneg(vz)), vx, b.select(z_neg, b.fneg(vx), vx))
        tc = self._pick(b.fneg(vy), b.select(y_neg, b.fneg(vz), vz), b.fneg(vy))
        ma = self._pick(b.select(x_neg, b.fneg(vx), vx), b.select(y_neg, b.fneg(vy), vy),
                        b.select(z_neg, b.fneg(vz), vz))
        return sc, tc, ma

    def derivative(self, dv):
        """(ds_face, dt_face) of a derivative dv of the direction: d(0.5 sc / ma + 0.5) =
        0.5 (dsc ma - sc dma) / ma^2 (Vulkan's "Cube Map Derivative Transformation")."""
        b = self.b
        dsc, dtc, dma = self.apply(dv)
        half = ir.Constant(F32, 0.5)
        ma2 = b.fmul(self.ma, self.ma)
        return tuple(b.fdiv(b.fmul(half, b.fsub(b.fmul(dc, self.ma), b.fmul(c, dma))), ma2)
                     for c, dc in ((self.sc, dsc), (self.tc, dtc)))


class CubeSampler(_Sampler):
    """Builds one cube sample function: ``(desc, bits, rx, ry, rz, cube[, dref])``."""

    kind_name = "sample_cube"
    coord_count = 4

    # ----- faces ----------------------------------------------------------------------------
    def _face(self, rx, ry, rz):
        """(face index, sc, tc, |ma|) of a direction."""
        face = CubeFace(self.b, lambda v: self.call("llvm.fabs", F32, [v]), (rx, ry, rz))
        return face.face, face.sc, face.tc, face.ma

    def _direction(self, face, sc, tc):
        """The direction of face coordinates (sc, tc) in [-1, 1] (|ma| = 1): the table read
        backwards."""
        b = self.b
        one, minus = ir.Constant(F32, 1.0), ir.Constant(F32, -1.0)
        zero = ir.Constant(F32, 0.0)
        nsc, ntc = b.fneg(sc), b.fneg(tc)
        # (rx, ry, rz) per face
        table = [(one, ntc, nsc), (minus, ntc, sc), (sc, one, tc), (sc, minus, ntc), (sc, ntc, one),
                 (nsc, ntc, minus)]
        out = []
        for axis in range(3):
            value = zero
            for f in range(6):
                value = b.select(b.icmp_unsigned("==", face, ir.Constant(I64, f)), table[f][axis], value)
            out.append(value)
        return out

    def _face_coords(self, sc, tc, ma):
        b = self.b
        half = ir.Constant(F32, 0.5)
        s = b.fadd(b.fmul(half, b.fdiv(sc, ma)), half)
        t = b.fadd(b.fmul(half, b.fdiv(tc, ma)), half)
        return s, t

    def _base_layer(self, cube):
        """6 * clamp(rint(cube), 0, cubes - 1)."""
        b = self.b
        cubes = b.udiv(self.sizes[2], ir.Constant(I64, 6))
        index = self._to_index(self.call("llvm.rint", F32, [cube]))
        index = self._clamp(index, ir.Constant(I64, 0), b.sub(cubes, ir.Constant(I64, 1)))
        return b.mul(index, ir.Constant(I64, 6))

    def _edge_clamped(self, f):
        """clamp((int)f, 0, size - 1) of a face's texel coordinate."""
        size = self.sizes[0]
        return self._clamp(self._to_index(self.call("llvm.floor", F32, [f])), ir.Constant(I64, 0),
                           self.b.sub(size, ir.Constant(I64, 1)))

    # ----- filtering ------------------------------------------------------------------------
    def _nearest(self, coords) -> ir.Value:
        b = self.b
        face, sc, tc, ma = self._face(*coords[:3])
        s, t = self._face_coords(sc, tc, ma)
        fsize = b.sitofp(self.sizes[0], F32)
        i, j = self._edge_clamped(b.fmul(s, fsize)), self._edge_clamped(b.fmul(t, fsize))
        return self._texel(i, j, b.add(self._base_layer(coords[3]), face))

    def _footprint(self, coords) -> list[tuple[ir.Value, ir.Value]]:
        b = self.b
        face, sc, tc, ma = self._face(*coords[:3])
        s, t = self._face_coords(sc, tc, ma)
        size = self.sizes[0]
        fsize = b.sitofp(size, F32)
        base = self._base_layer(coords[3])
        half, one = ir.Constant(F32, 0.5), ir.Constant(F32, 1.0)
        axes = []
        for c in (s, t):
            u = b.fsub(b.fmul(c, fsize), half)
            f = self.call("llvm.floor", F32, [u])
            i = self._to_index(f)
            axes.append((i, b.add(i, ir.Constant(I64, 1)), b.fsub(u, f)))
        out, corners = [], []
        for corner in range(4):
            bi, bj = corner & 1, corner >> 1
            i, j = axes[0][bi], axes[1][bj]
            wi = axes[0][2] if bi else b.fsub(one, axes[0][2])
            wj = axes[1][2] if bj else b.fsub(one, axes[1][2])
            i_in = b.icmp_unsigned("<", i, size)
            j_in = b.icmp_unsigned("<", j, size)
            # Off one edge: the adjacent face's texel in the direction of this texel's centre.
            two = ir.Constant(F32, 2.0)
            centre = [b.fsub(b.fdiv(b.fmul(two, b.fadd(b.sitofp(v, F32), half)), fsize), one) for v in (i, j)]
            face2, sc2, tc2, ma2 = self._face(*self._direction(face, *centre))
            s2, t2 = self._face_coords(sc2, tc2, ma2)
            i2, j2 = self._edge_clamped(b.fmul(s2, fsize)), self._edge_clamped(b.fmul(t2, fsize))
            inside = b.and_(i_in, j_in)
            last = b.sub(size, ir.Constant(I64, 1))
            x = b.select(inside, i, i2)
            y = b.select(inside, j, j2)
            layer_face = b.select(inside, face, face2)
            x, y = self._clamp(x, ir.Constant(I64, 0), last), self._clamp(y, ir.Constant(I64, 0), last)
            texel = self._texel(x, y, b.add(base, layer_face))
            corners.append(b.and_(b.not_(i_in), b.not_(j_in)))
            out.append((b.fmul(wi, wj), texel))
        # A corner of the cube: the average of the other three.
        third = ir.Constant(V4F, [ir.Constant(F32, 1.0 / 3.0)] * 4)
        fixed = []
        for k, (weight, texel) in enumerate(out):
            others = [out[m][1] for m in range(4) if m != k]
            average = b.fmul(b.fadd(b.fadd(others[0], others[1]), others[2]), third) if not self.integer else others[0]
            fixed.append((weight, b.select(corners[k], average, texel)))
        return fixed
