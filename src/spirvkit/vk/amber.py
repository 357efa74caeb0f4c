"""``spirvkit amber``: runs the compute subset of AmberScript (google/amber's docs/amber_script.md)
on spirvkit's Vulkan-style executor.

A script is parsed whole first (a syntax error or an unsupported command stops it before
anything runs), then its commands run in order. Supported: ``SHADER compute`` (SPIRV-ASM,
SPIRV-HEX, GLSL through glslangValidator), ``BUFFER`` (DATA_TYPE with DATA / SIZE + FILL /
SERIES_FROM, STD140 / STD430; simple FORMATs), ``PIPELINE compute`` (ATTACH with ENTRY_POINT and
SPECIALIZE, BIND BUFFER AS storage / uniform with DESCRIPTOR_OFFSET / DESCRIPTOR_RANGE, AS
push_constant, SHADER_OPTIMIZATION accepted: its passes preserve meaning), ``RUN p x y z``, ``EXPECT`` (IDX with EQ NE LT LE GT GE and TOLERANCE,
EQ_BUFFER, RMSE_BUFFER), ``COPY``, ``REPEAT``, ``SET ENGINE_DATA fence_timeout_ms``,
``DEVICE_FEATURE`` / ``DEVICE_EXTENSION`` for what the executor has. Everything else is a
located "not supported yet" error.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import AssemblyError, NotSupportedError, SpirvkitError
from .amber_data import Buffer, DataType, data_type, format_type

COMPARATORS = ("EQ", "NE", "LT", "LE", "GT", "GE")
# What the executor always has: accepted when a script asks for them.
SUPPORTED_FEATURES = {"shaderInt64", "shaderFloat64", "shaderInt16", "robustBufferAccess",
                      "Storage16BitFeatures.storageBuffer16BitAccess",
                      "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
                      "Storage8BitFeatures.storageBuffer8BitAccess",
                      "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
                      "Float16Int8Features.shaderFloat16", "Float16Int8Features.shaderInt8",
                      "VulkanMemoryModelFeatures.vulkanMemoryModel",
                      "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
                      "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory"}
SUPPORTED_EXTENSIONS = {"VK_KHR_storage_buffer_storage_class", "VK_KHR_16bit_storage", "VK_KHR_8bit_storage",
                        "VK_KHR_shader_non_semantic_info", "VK_KHR_get_physical_device_properties2",
                        "VK_KHR_shader_float16_int8", "VK_KHR_vulkan_memory_model",
                        "VK_KHR_zero_initialize_workgroup_memory"}
FLOAT_EPSILON = 1e-6     # EQ on floats without a TOLERANCE, as Amber compares them


class AmberError(SpirvkitError):
    """A script that cannot run: located at its line."""


class ExpectFailed(Exception):
    def __init__(self, line: int, message: str):
        self.line, self.message = line, message
        super().__init__(message)


@dataclass
class Line:
    number: int
    tokens: list[str]


@dataclass
class Shader:
    name: str
    line: int
    module: object = None     # spirvkit Module


@dataclass
class PipelineDecl:
    name: str
    line: int
    shader: Shader | None = None
    entry: str = "main"
    specialization: dict = field(default_factory=dict)
    bindings: dict = field(default_factory=dict)     # (set, binding) -> buffer name
    push_constant: str | None = None
    compiled: object = None   # ComputePipeline, made at its first RUN


@dataclass
class Command:
    kind: str                 # 'run', 'expect', 'copy', 'repeat'
    line: int
    args: dict


class _Lines:
    """The script's lines, with comments stripped where AmberScript has them."""

    def __init__(self, text: str):
        self.raw = text.splitlines()
        self.at = 0

    def next_raw(self) -> tuple[int, str] | None:
        if self.at >= len(self.raw):
            return None
        self.at += 1
        return self.at, self.raw[self.at - 1]

    def next(self) -> Line | None:
        while True:
            got = self.next_raw()
            if got is None:
                return None
            number, text = got
            tokens = text.split("#", 1)[0].split()
            if tokens:
                return Line(number, tokens)


class Script:
    def __init__(self, text: str, path: str = "<script>"):
        self.path = path
        self.shaders: dict[str, Shader] = {}
        self.buffers: dict[str, Buffer] = {}
        self.pipelines: dict[str, PipelineDecl] = {}
        self.timeout: float | None = None
        self.expects = 0
        lines = _Lines(text)
        first = next((line for line in lines.raw if line.strip()), "")
        if not first.strip().startswith("#!amber"):
            raise AmberError(f"{path}:1: not supported yet: VkScript (a script not starting with #!amber)")
        self.commands = self._block(lines, top=True)

    def error(self, line: int, message: str) -> AmberError:
        return AmberError(f"{self.path}:{line}: {message}")

    def unsupported(self, line: int, what: str) -> AmberError:
        return AmberError(f"{self.path}:{line}: not supported yet: {what}")

    # ----- parsing ------------------------------------------------------------------------
    def _block(self, lines: _Lines, top: bool) -> list[Command]:
        commands = []
        while True:
            line = lines.next()
            if line is None:
                if not top:
                    raise self.error(len(lines.raw), "REPEAT without END")
                return commands
            word = line.tokens[0]
            try:
                if word == "END":
                    if top:
                        raise self.error(line.number, "END without a SHADER, BUFFER, PIPELINE or REPEAT to end")
                    return commands
                if word == "SHADER" and top:
                    self._shader(line, lines)
                elif word == "BUFFER" and top:
                    self._buffer(line, lines)
                elif word == "PIPELINE" and top:
                    self._pipeline(line, lines)
                elif word == "RUN":
                    commands.append(self._run(line))
                elif word == "EXPECT":
                    commands.append(self._expect(line))
                elif word == "COPY":
                    commands.append(self._copy(line))
                elif word == "REPEAT":
                    count = self._int(line, 1, "a repeat count")
                    commands.append(Command("repeat", line.number, {"count": count,
                                                                    "body": self._block(lines, top=False)}))
                elif word in ("DEVICE_FEATURE", "DEVICE_EXTENSION", "INSTANCE_EXTENSION") and top:
                    self._requirement(line)
                elif word == "SET" and top:
                    self._set(line)
                elif word in ("CLEAR", "CLEAR_COLOR", "CLEAR_DEPTH", "CLEAR_STENCIL"):
                    raise self.unsupported(line.number, f"{word} (graphics pipelines)")
                else:
                    raise self.unsupported(line.number, f"the AmberScript command {word}")
            except SpirvkitError as e:
                if isinstance(e, AmberError):
                    raise
                raise self.error(line.number, str(e)) from None

    def _int(self, line: Line, index: int, what: str) -> int:
        if index >= len(line.tokens):
            raise self.error(line.number, f"{line.tokens[0]}: {what} is missing")
        try:
            return int(line.tokens[index], 0)
        except ValueError:
            raise self.error(line.number, f"{line.tokens[0]}: {what} must be an integer, got "
                                          f"{line.tokens[index]!r}") from None

    def _shader(self, line: Line, lines: _Lines) -> None:
        t = line.tokens
        if len(t) < 4:
            raise self.error(line.number, "SHADER needs a type, a name and a format")
        kind, name, fmt = t[1], t[2], t[3]
        if kind != "compute":
            raise self.unsupported(line.number, f"{kind} shaders (graphics pipelines)")
        options = t[4:]
        target_env = None
        while options:
            if options[0] == "TARGET_ENV" and len(options) > 1:
                target_env, options = options[1], options[2:]
            elif options[0] == "VIRTUAL_FILE":
                raise self.unsupported(line.number, "VIRTUAL_FILE")
            else:
                raise self.error(line.number, f"unexpected {options[0]!r} after the shader format")
        if name in self.shaders:
            raise self.error(line.number, f"a shader named {name} already exists")
        body = []
        while True:
            got = lines.next_raw()
            if got is None:
                raise self.error(line.number, f"SHADER {name} has no END")
            if got[1].split("#", 1)[0].split() == ["END"]:
                break
            body.append(got[1])
        source = "\n".join(body) + "\n"
        self.shaders[name] = Shader(name, line.number, self._shader_module(line.number, fmt, source, target_env))

    def _shader_module(self, number: int, fmt: str, source: str, target_env: str | None):
        from ..spirv.module import Module
        from ..spirv.text.assembler import assemble

        # The shader's text starts on the line after SHADER: blank lines before it make the
        # assembler's and glslang's line numbers the script's own.
        padded = "\n" * number + source
        if fmt == "SPIRV-ASM":
            try:
                return Module.from_bytes(assemble(padded, target_env or "spv1.0", filename=self.path))
            except AssemblyError as e:   # already 'script:line:col: error: ...'
                raise AmberError(str(e)) from None
        if fmt == "SPIRV-HEX":
            try:
                data = bytes(int(tok, 16) for tok in source.split())
            except ValueError:
                raise self.error(number, "SPIRV-HEX: not a list of hex bytes") from None
            return Module.from_bytes(data)
        if fmt == "GLSL":
            return Module.from_bytes(compile_glsl(padded, target_env or "vulkan1.0", self.path))
        raise self.unsupported(number, f"shader format {fmt}")

    def _buffer(self, line: Line, lines: _Lines) -> None:
        t = line.tokens
        if len(t) < 4:
            raise self.error(line.number, "BUFFER needs a name and a DATA_TYPE or FORMAT")
        name = t[1]
        if name in self.buffers:
            raise self.error(line.number, f"a buffer named {name} already exists")
        rest = t[4:]
        if t[2] == "DATA_TYPE":
            layout = "std430"
            if rest and rest[0] in ("STD140", "STD430"):
                layout, rest = rest[0].lower(), rest[1:]
            dtype = data_type(t[3], layout)
        elif t[2] == "FORMAT":
            dtype = format_type(t[3])
        else:
            raise self.unsupported(line.number, f"BUFFER {t[2]}")
        buffer = Buffer(name, dtype)
        if not rest:
            raise self.unsupported(line.number, "a BUFFER without DATA or SIZE (image buffers)")
        if rest[0] == "DATA":
            buffer.set_values(self._data_values(line, lines, dtype, rest[1:]))
        elif rest[0] == "SIZE":
            size = self._int(Line(line.number, rest), 1, "the SIZE")
            buffer = Buffer(name, dtype, size)
            init = rest[2:]
            if init[:1] == ["FILL"] and len(init) == 2:
                buffer.write(0, [dtype.parse(init[1])] * (size * dtype.components))
            elif init[:1] == ["SERIES_FROM"] and len(init) == 4 and init[2] == "INC_BY":
                if dtype.components != 1:
                    raise self.unsupported(line.number, f"SERIES_FROM for the vector type {dtype.name}")
                start, inc = dtype.parse(init[1]), dtype.parse(init[3])
                buffer.write(0, [start + inc * i for i in range(size)])
            elif init[:1] == ["FILE"]:
                raise self.unsupported(line.number, "BUFFER ... FILE")
            elif init:
                raise self.error(line.number, f"unknown buffer initializer {' '.join(init)!r} (FILL v, "
                                              f"SERIES_FROM a INC_BY b)")
        else:
            raise self.unsupported(line.number, f"BUFFER ... {rest[0]}")
        self.buffers[name] = buffer

    def _data_values(self, line: Line, lines: _Lines, dtype: DataType, inline: list) -> list:
        """Values up to END, from the rest of the DATA line on."""
        values = []
        more = Line(line.number, inline)
        while True:
            for tok in more.tokens:
                if tok == "END":
                    return values
                try:
                    values.append(dtype.parse(tok))
                except SpirvkitError as e:
                    raise self.error(more.number, str(e)) from None
            more = lines.next()
            if more is None:
                raise self.error(line.number, "DATA has no END")

    def _pipeline(self, line: Line, lines: _Lines) -> None:
        t = line.tokens
        if len(t) != 3:
            raise self.error(line.number, "PIPELINE needs a type and a name")
        if t[1] != "compute":
            raise self.unsupported(line.number, f"{t[1]} pipelines")
        p = PipelineDecl(t[2], line.number)
        if p.name in self.pipelines:
            raise self.error(line.number, f"a pipeline named {p.name} already exists")
        while True:
            inner = lines.next()
            if inner is None:
                raise self.error(line.number, f"PIPELINE {p.name} has no END")
            w = inner.tokens
            if w[0] == "END":
                break
            if w[0] == "ATTACH":
                self._attach(inner, p)
            elif w[0] == "SPECIALIZE":
                self._specialize(inner, w, p)
            elif w[0] == "BIND" and w[1:2] == ["BUFFER"]:
                self._bind(inner, p)
            elif w[0] == "SHADER_OPTIMIZATION":
                # SPIRV-Tools optimisation passes keep a shader's meaning: running it as written
                # gives the results the optimised one would.
                while (opt := lines.next()) is not None and opt.tokens != ["END"]:
                    pass
            else:
                raise self.unsupported(inner.number, f"{' '.join(w[:2])} in a compute pipeline")
        if p.shader is None:
            raise self.error(line.number, f"PIPELINE {p.name} has no ATTACHed shader")
        self.pipelines[p.name] = p

    def _attach(self, line: Line, p: PipelineDecl) -> None:
        w = line.tokens
        if len(w) < 2 or w[1] not in self.shaders:
            raise self.error(line.number, f"ATTACH: unknown shader {w[1] if len(w) > 1 else ''!r}")
        if p.shader is not None:
            raise self.unsupported(line.number, "a compute pipeline with several shaders")
        p.shader = self.shaders[w[1]]
        rest = w[2:]
        while rest:
            if rest[0] == "ENTRY_POINT" and len(rest) > 1:
                p.entry, rest = rest[1], rest[2:]
            elif rest[0] == "TYPE" and len(rest) > 1:
                if rest[1] != "compute":
                    raise self.unsupported(line.number, f"ATTACH ... TYPE {rest[1]}")
                rest = rest[2:]
            elif rest[0] == "SPECIALIZE":
                rest = self._specialize(line, rest, p)
            else:
                raise self.error(line.number, f"ATTACH: unexpected {rest[0]!r}")

    def _specialize(self, line: Line, w: list, p: PipelineDecl) -> list:
        """SPECIALIZE id AS type value; returns the tokens after it."""
        if len(w) < 5 or w[2] != "AS":
            raise self.error(line.number, "SPECIALIZE id AS type value")
        try:
            spec_id = int(w[1], 0)
        except ValueError:
            raise self.error(line.number, f"SPECIALIZE: the id must be an integer, got {w[1]!r}") from None
        dtype = data_type(w[3])
        if dtype.components != 1:
            raise self.unsupported(line.number, f"SPECIALIZE ... AS {w[3]}")
        try:
            p.specialization[spec_id] = dtype.parse(w[4])
        except SpirvkitError as e:
            raise self.error(line.number, f"SPECIALIZE: {e}") from None
        return w[5:]

    def _bind(self, line: Line, p: PipelineDecl) -> None:
        w = line.tokens
        if len(w) < 5 or w[3] != "AS":
            raise self.error(line.number, "BIND BUFFER name AS type ...")
        name, kind = w[2], w[4]
        if name not in self.buffers:
            raise self.error(line.number, f"BIND: unknown buffer {name!r}")
        if kind == "push_constant":
            if len(w) != 5:
                raise self.error(line.number, f"unexpected {w[5]!r} after push_constant")
            p.push_constant = name
            return
        if kind not in ("storage", "uniform"):
            raise self.unsupported(line.number, f"BIND BUFFER ... AS {kind}")
        rest = w[5:]
        opts = {}
        while rest:
            if rest[0] in ("DESCRIPTOR_SET", "BINDING", "DESCRIPTOR_OFFSET", "DESCRIPTOR_RANGE") and len(rest) > 1:
                try:
                    opts[rest[0]] = int(rest[1], 0)
                except ValueError:
                    raise self.error(line.number, f"{rest[0]} must be an integer, got {rest[1]!r}") from None
                rest = rest[2:]
            else:
                raise self.unsupported(line.number, f"BIND BUFFER ... {rest[0]}")
        if "BINDING" not in opts:
            raise self.error(line.number, "BIND BUFFER: BINDING is missing")
        p.bindings[(opts.get("DESCRIPTOR_SET", 0), opts["BINDING"])] = (name, opts.get("DESCRIPTOR_OFFSET", 0),
                                                                         opts.get("DESCRIPTOR_RANGE"), kind)

    def _run(self, line: Line) -> Command:
        w = line.tokens
        if len(w) < 2 or w[1] not in self.pipelines:
            raise self.error(line.number, f"RUN: unknown pipeline {w[1] if len(w) > 1 else ''!r}")
        if len(w) != 5:
            if len(w) > 2 and w[2].startswith("DRAW"):
                raise self.unsupported(line.number, f"RUN ... {w[2]} (graphics pipelines)")
            raise self.error(line.number, "RUN pipeline x y z")
        groups = tuple(self._int(line, i, "a work-group count") for i in (2, 3, 4))
        return Command("run", line.number, {"pipeline": w[1], "groups": groups})

    def _copy(self, line: Line) -> Command:
        w = line.tokens
        if len(w) != 4 or w[2] != "TO":
            raise self.error(line.number, "COPY from TO to")
        for name in (w[1], w[3]):
            if name not in self.buffers:
                raise self.error(line.number, f"COPY: unknown buffer {name!r}")
        return Command("copy", line.number, {"from": w[1], "to": w[3]})

    def _expect(self, line: Line) -> Command:
        w = line.tokens
        if len(w) < 4 or w[1] not in self.buffers:
            raise self.error(line.number, f"EXPECT: unknown buffer {w[1] if len(w) > 1 else ''!r}")
        self.expects += 1
        name = w[1]
        if w[2] in ("EQ_BUFFER", "RMSE_BUFFER", "EQ_HISTOGRAM_EMD_BUFFER"):
            other = w[3]
            if other not in self.buffers:
                raise self.error(line.number, f"EXPECT: unknown buffer {other!r}")
            args = {"buffer": name, "other": other, "op": w[2]}
            if w[2] == "EQ_HISTOGRAM_EMD_BUFFER":
                raise self.unsupported(line.number, "EXPECT ... EQ_HISTOGRAM_EMD_BUFFER")
            if w[2] == "RMSE_BUFFER":
                if len(w) != 6 or w[4] != "TOLERANCE":
                    raise self.error(line.number, "EXPECT a RMSE_BUFFER b TOLERANCE t")
                args["tolerance"] = self._float(line, w[5])
            elif len(w) != 4:
                raise self.error(line.number, f"unexpected {w[4]!r} after EQ_BUFFER b")
            return Command("expect", line.number, args)
        if w[2] != "IDX":
            raise self.unsupported(line.number, f"EXPECT ... {w[2]}")
        rest = w[3:]
        coords = []
        while rest and rest[0] not in COMPARATORS and rest[0] != "TOLERANCE":
            coords.append(rest.pop(0))
        if len(coords) != 1:
            raise self.unsupported(line.number, "EXPECT with image coordinates or SIZE (image probes)")
        try:
            offset = int(coords[0], 0)
        except ValueError:
            raise self.error(line.number, f"EXPECT: IDX must be an integer byte offset, got {coords[0]!r}") from None
        tolerance = []
        if rest and rest[0] == "TOLERANCE":
            rest.pop(0)
            while rest and rest[0] not in COMPARATORS:
                tok = rest.pop(0)
                tolerance.append((self._float(line, tok.rstrip("%")), tok.endswith("%")))
            if not 1 <= len(tolerance) <= 4:
                raise self.error(line.number, "TOLERANCE takes 1 to 4 values")
        if not rest:
            raise self.error(line.number, "EXPECT: a comparator (EQ NE LT LE GT GE) is missing")
        op = rest.pop(0)
        if tolerance and op != "EQ":
            raise self.error(line.number, "TOLERANCE goes with EQ only")
        if not rest:
            raise self.error(line.number, f"EXPECT ... {op}: no values")
        dtype = self.buffers[name].type
        try:
            values = [dtype.parse(tok) for tok in rest]
        except SpirvkitError as e:
            raise self.error(line.number, f"EXPECT: {e}") from None
        return Command("expect", line.number, {"buffer": name, "op": op, "offset": offset, "values": values,
                                               "tolerance": tolerance})

    def _float(self, line: Line, token: str) -> float:
        try:
            return float(token)
        except ValueError:
            raise self.error(line.number, f"{token!r} is not a number") from None

    def _requirement(self, line: Line) -> None:
        w = line.tokens
        if len(w) != 2:
            raise self.error(line.number, f"{w[0]} takes one name")
        known = SUPPORTED_FEATURES if w[0] == "DEVICE_FEATURE" else SUPPORTED_EXTENSIONS
        if w[1] not in known:
            raise self.unsupported(line.number, f"{w[0]} {w[1]}")

    def _set(self, line: Line) -> None:
        w = line.tokens
        if len(w) == 4 and w[1] == "ENGINE_DATA" and w[2] == "fence_timeout_ms":
            self.timeout = self._int(line, 3, "the timeout") / 1000.0
            return
        raise self.unsupported(line.number, f"SET {' '.join(w[1:3])}")

    # ----- running ------------------------------------------------------------------------
    def run(self) -> None:
        """Runs every command; raises ExpectFailed at the first EXPECT that does not hold."""
        self._commands(self.commands)

    def _commands(self, commands: list[Command]) -> None:
        for c in commands:
            try:
                if c.kind == "repeat":
                    for _ in range(c.args["count"]):
                        self._commands(c.args["body"])
                elif c.kind == "run":
                    self._dispatch(c)
                elif c.kind == "copy":
                    source, target = self.buffers[c.args["from"]], self.buffers[c.args["to"]]
                    target.type = source.type
                    target.data = source.data.copy()
                elif c.kind == "expect":
                    self._check(c)
            except (ExpectFailed, AmberError):
                raise
            except SpirvkitError as e:
                raise self.error(c.line, str(e)) from None

    def _dispatch(self, c: Command) -> None:
        from .pipeline import ComputePipeline

        p = self.pipelines[c.args["pipeline"]]
        if p.compiled is None:
            p.compiled = ComputePipeline(p.shader.module, p.entry, p.specialization)
        pipe = p.compiled
        declared = {(s, b): kind for s, b, kind in pipe.bindings}
        for (s, b), (name, offset, size, kind) in p.bindings.items():
            if (s, b) not in declared:
                continue   # Amber binds it; a shader that does not use it never reads it
            if declared[(s, b)] != kind:
                raise SpirvkitError(f"buffer {name} is bound AS {kind} at set {s} binding {b}, where the shader "
                                    f"declares a {declared[(s, b)]} buffer")
            data = self.buffers[name].data
            end = data.nbytes if size is None else offset + size
            if not 0 <= offset <= end <= data.nbytes:
                raise SpirvkitError(f"DESCRIPTOR_OFFSET {offset} / DESCRIPTOR_RANGE {size} lie outside buffer {name} "
                                    f"({data.nbytes} bytes)")
            pipe.bind(set=s, binding=b, resource=data[offset:end])   # a view: zero-copy
        if p.push_constant is not None:
            pipe.push_constants(self.buffers[p.push_constant].data)
        pipe.dispatch(*c.args["groups"], timeout=self.timeout)

    def _check(self, c: Command) -> None:
        a = c.args
        buffer = self.buffers[a["buffer"]]
        if "other" in a:
            other = self.buffers[a["other"]]
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


def glslang_path() -> str | None:
    """glslangValidator on PATH, or beside this Python (a virtual environment not activated)."""
    found = shutil.which("glslangValidator")
    if found:
        return found
    beside = Path(sys.executable).parent / "glslangValidator"
    return str(beside) if beside.exists() else None


def compile_glsl(source: str, target_env: str, name: str = "shader.comp") -> bytes:
    """A GLSL compute shader compiled to SPIR-V with glslangValidator; its messages name the
    source ``name``."""
    tool = glslang_path()
    if tool is None:
        raise NotSupportedError("a GLSL shader needs glslangValidator: install spirvkit[glsl]")
    with tempfile.TemporaryDirectory(prefix="spirvkit-glsl-") as tmp:
        src = os.path.join(tmp, "shader.comp")
        out = os.path.join(tmp, "shader.spv")
        Path(src).write_text(source)
        # glslang spells SPIR-V versions spirv1.X (AmberScript: spv1.X), Vulkan ones as Amber does.
        env_flag = "spirv" + target_env[3:] if target_env.startswith("spv1.") else target_env
        done = subprocess.run([tool, "-V", "--target-env", env_flag, "-S", "comp", "-o", out, src],
                              capture_output=True, text=True)
        if done.returncode != 0 or not os.path.exists(out):
            messages = [line.replace(src, name) for line in (done.stdout + done.stderr).splitlines()
                        if line.strip() and line.strip() != src]
            raise SpirvkitError("the GLSL shader does not compile:\n  " + "\n  ".join(messages[:20]))
        return Path(out).read_bytes()


@dataclass
class FileResult:
    path: str
    ok: bool
    message: str          # why not, or the count of expectations
    expects: int = 0


def run_file(path: str) -> FileResult:
    """One script: parsed, run, its expectations checked; never raises for the script's faults."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as e:
        return FileResult(path, False, f"{path}: cannot read: {e.strerror}")
    try:
        script = Script(text, path)
        script.run()
    except ExpectFailed as e:
        return FileResult(path, False, f"{path}:{e.line}: EXPECT failed: {e.message}")
    except SpirvkitError as e:
        message = str(e)
        return FileResult(path, False, message if message.startswith(path) else f"{path}: {message}")
    except Exception as e:  # a bug in spirvkit: say so plainly, never a traceback
        return FileResult(path, False, f"{path}: internal error: {type(e).__name__}: {e} (please report this)")
    return FileResult(path, True, f"{script.expects} EXPECT(s) held", script.expects)


def main(paths: list[str]) -> int:
    """``spirvkit amber FILE...``: 0 iff every script ran and all its EXPECTs held."""
    results = []
    for path in paths:
        r = run_file(path)
        results.append(r)
        if len(paths) == 1:
            print(("PASS " if r.ok else "FAIL ") + (f"{path}: {r.message}" if r.ok else r.message),
                  file=sys.stdout if r.ok else sys.stderr)
        else:
            print(("PASS " if r.ok else "FAIL ") + (f"{path}: {r.message}" if r.ok else r.message))
    if len(paths) > 1:
        passed = sum(r.ok for r in results)
        print(f"total: {passed} of {len(results)} script(s) passed")
    return 0 if all(r.ok for r in results) else 1
