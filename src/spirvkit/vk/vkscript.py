"""VkScript (google/amber's docs/vk_script.md, VkRunner's format): the compute subset, run by the
AmberScript machinery of amber.py.

A VkScript is a script not starting with ``#!amber``: sections ``[comment]``, ``[require]``, ``[compute
shader]`` (GLSL), ``[compute shader spirv]`` (SPIR-V assembly), ``[compute shader spirv hex]``
and ``[test]``, whose commands are ``ssbo B SIZE``, ``ssbo B subdata TYPE OFFSET values``,
``uniform ubo B TYPE OFFSET values``, ``uniform TYPE OFFSET values`` (push constants), ``compute
X Y Z``, ``compute entrypoint NAME``, ``tolerance t [t t t]`` and ``probe ssbo TYPE B OFFSET OP
values`` (``== != < <= > >= ~=``). A binding ``B`` is ``set:binding`` or ``binding`` (set 0).

Each binding is one buffer of bytes: a command writes or reads it through its own data type, as
Amber does (storage buffers and push constants laid out std430, uniform buffers std140).
Graphics sections and commands are "not supported yet".
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import SpirvkitError
from .amber import (SUPPORTED_EXTENSIONS, SUPPORTED_FEATURES, AmberError, Binding, Command, PipelineDecl, Script,
                    Shader)
from . import amber_images
from .amber_data import Buffer, DataType, data_type

PIPELINE = "vkscript"       # the one pipeline a VkScript has
SHADER_FORMATS = {"": "GLSL", "spirv": "SPIRV-ASM", "spirv hex": "SPIRV-HEX"}
GRAPHICS_STAGES = ("vertex", "fragment", "geometry", "tessellation control", "tessellation evaluation")
COMPARATORS = {"==": "EQ", "!=": "NE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE", "~=": "EQ"}
_SCALARS = {"int": "int32", "uint": "uint32", "float": "float", "double": "double",
            "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16",
            "int64_t": "int64", "uint64_t": "uint64"}
_VECTOR_SCALARS = {"": "float", "d": "double", "i": "int32", "u": "uint32", "i8": "int8", "u8": "uint8",
                   "i16": "int16", "u16": "uint16", "i64": "int64", "u64": "uint64"}
# Requirements of the graphics environment: a compute-only script names them without using them.
GRAPHICS_REQUIREMENTS = {"framebuffer": 1, "depthstencil": 1, "fbsize": 2}


def is_vkscript(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return not first.strip().startswith("#!amber")


def vk_type(name: str, layout: str) -> DataType:
    """A VkScript data type (``int``, ``uvec3``, ``i16vec2``, ``mat2x3``, ``dmat4`` ...) as an
    AmberScript one, in ``layout``: only matrices differ between std140 and std430 here (a
    column is 16 bytes apart in std140); other types are written one after another."""
    if name in _SCALARS:
        return data_type(_SCALARS[name])
    m = re.fullmatch(r"(d|i|u|i8|u8|i16|u16|i64|u64)?vec([234]?)", name)
    if m:
        return data_type(f"vec{m.group(2) or 4}<{_VECTOR_SCALARS[m.group(1) or '']}>")
    m = re.fullmatch(r"(d?)mat([234])(?:x([234]))?", name)
    if m:
        scalar = "double" if m.group(1) else "float"
        columns, rows = m.group(2), m.group(3) or m.group(2)
        return data_type(f"mat{columns}x{rows}<{scalar}>", layout)
    raise SpirvkitError(f"unknown VkScript data type {name!r}")


class VkScript(Script):
    """A parsed VkScript, run as a Script with one compute pipeline."""

    def __init__(self, text: str, path: str = "<script>"):
        self._setup(path)
        self.tolerance: list = []
        self.kinds: dict[tuple, str] = {}     # (set, binding) -> 'storage' | 'uniform'
        self.commands = []
        for header, number, body in _sections(text):
            try:
                self._section(header, number, body)
            except AmberError:
                raise
            except SpirvkitError as e:     # a shader that does not compile, glslang missing ...
                raise self.error(number, str(e)) from None
        if PIPELINE not in self.pipelines:
            raise self.unsupported(1, "a VkScript without a [compute shader] section (graphics pipelines)")

    # ----- parsing ------------------------------------------------------------------------
    def _section(self, header: str, number: int, body: list) -> None:
        words = header.split()
        if header == "comment":
            return
        if header == "require":
            self._require(body)
        elif header == "test":
            for line_number, tokens in _logical_lines(body):
                try:
                    self._command(line_number, tokens)
                except AmberError:
                    raise
                except SpirvkitError as e:
                    raise self.error(line_number, str(e)) from None
        elif len(words) >= 2 and words[0] == "compute" and words[1] == "shader":
            fmt = SHADER_FORMATS.get(" ".join(words[2:]))
            if fmt is None:
                raise self.unsupported(number, f"the shader format [{header}]")
            if PIPELINE in self.pipelines:
                raise self.unsupported(number, "a VkScript with several compute shaders")
            source = "\n".join(text for _, text in body) + "\n"
            shader = Shader("compute", number, self._shader_module(number, fmt, source, None))
            self.shaders[shader.name] = shader
            self.pipelines[PIPELINE] = PipelineDecl(PIPELINE, number, shader)
        elif any(header.startswith(stage + " shader") for stage in GRAPHICS_STAGES) \
                or header in ("vertex data", "indices"):
            raise self.unsupported(number, f"[{header}] (graphics pipelines)")
        else:
            raise self.error(number, f"unknown VkScript section [{header}]")

    def _require(self, body: list) -> None:
        for number, tokens in _logical_lines(body):
            name, rest = tokens[0], tokens[1:]
            if name == "fence_timeout" and len(rest) == 1:
                self.timeout = self._int_token(number, rest[0], "fence_timeout") / 1000.0
            elif name in GRAPHICS_REQUIREMENTS and len(rest) == GRAPHICS_REQUIREMENTS[name]:
                pass      # the framebuffer of a graphics pipeline, which a compute one never has
            elif rest:
                raise self.error(number, f"[require]: unexpected {rest[0]!r} after {name}")
            elif name in SUPPORTED_FEATURES | SUPPORTED_EXTENSIONS | amber_images.FEATURES | amber_images.EXTENSIONS:
                if name == "VK_KHR_spirv_1_4":
                    self.spirv_1_4 = True
            else:
                raise self.unsupported(number, f"the requirement {name}")

    def _int_token(self, number: int, token: str, what: str) -> int:
        try:
            return int(token, 0)
        except ValueError:
            raise self.error(number, f"{what}: {token!r} is not an integer") from None

    def _binding(self, number: int, tokens: list, kind: str) -> tuple:
        """``set:binding`` or ``binding`` from the front of ``tokens``; the buffer made for it."""
        if not tokens:
            raise self.error(number, "a binding (set:binding) is missing")
        m = re.fullmatch(r"(\d+)(?::(\d+))?", tokens.pop(0))
        if not m:
            raise self.error(number, "a binding is set:binding or binding")
        key = (int(m.group(1)), int(m.group(2))) if m.group(2) else (0, int(m.group(1)))
        known = self.kinds.setdefault(key, kind)
        if known != kind:
            raise self.error(number, f"binding {key[0]}:{key[1]} is used both as a {known} and a {kind} buffer")
        name = f"{'ubo' if kind == 'uniform' else 'ssbo'} {key[0]}:{key[1]}"
        if name not in self.buffers:
            self.buffers[name] = Buffer(name, data_type("uint8"))
            self.pipelines[PIPELINE].bindings[key] = Binding(kind, [name], False, number, [0], [None])
        return name

    def _values(self, number: int, t: DataType, tokens: list) -> list:
        per = t.components * t.columns
        if not tokens or len(tokens) % per:
            raise self.error(number, f"{len(tokens)} value(s) given: a non-zero multiple of {per} expected "
                                     f"for {t.name}")
        return [t.parse(tok) for tok in tokens]

    def _command(self, number: int, t: list) -> None:
        if PIPELINE not in self.pipelines:
            raise self.error(number, "a [test] command before the [compute shader] section")
        word = t[0]
        if word == "ssbo":
            name = self._binding(number, t[1:2], "storage")
            rest = t[2:]
            if rest[:1] == ["subdata"] and len(rest) >= 4:
                dtype = vk_type(rest[1], "std430")
                offset = self._int_token(number, rest[2], "the offset")
                self.commands.append(Command("write", number, {"buffer": name, "type": dtype, "offset": offset,
                                                              "values": self._values(number, dtype, rest[3:])}))
            elif len(rest) == 1:
                self.commands.append(Command("size", number, {"buffer": name,
                                                             "size": self._int_token(number, rest[0], "the size")}))
            else:
                raise self.error(number, "ssbo B SIZE, or ssbo B subdata TYPE OFFSET values")
        elif word == "uniform" and t[1:2] == ["ubo"]:
            name = self._binding(number, t[2:3], "uniform")
            if len(t) < 6:
                raise self.error(number, "uniform ubo B TYPE OFFSET values")
            dtype = vk_type(t[3], "std140")
            offset = self._int_token(number, t[4], "the offset")
            self.commands.append(Command("write", number, {"buffer": name, "type": dtype, "offset": offset,
                                                          "values": self._values(number, dtype, t[5:])}))
        elif word == "uniform":
            if len(t) < 4:
                raise self.error(number, "uniform TYPE OFFSET values (push constants)")
            name = "push constants"
            if name not in self.buffers:
                self.buffers[name] = Buffer(name, data_type("uint8"))
                self.pipelines[PIPELINE].push_constant = name
            dtype = vk_type(t[1], "std430")
            offset = self._int_token(number, t[2], "the offset")
            self.commands.append(Command("write", number, {"buffer": name, "type": dtype, "offset": offset,
                                                          "values": self._values(number, dtype, t[3:])}))
        elif word == "compute" and t[1:2] == ["entrypoint"] and len(t) == 3:
            self.commands.append(Command("entry", number, {"entry": t[2]}))
        elif word == "compute":
            if len(t) != 4:
                raise self.error(number, "compute X Y Z")
            groups = tuple(self._int_token(number, tok, "a work-group count") for tok in t[1:])
            self.commands.append(Command("run", number, {"pipeline": PIPELINE, "groups": groups}))
        elif word == "tolerance":
            self.tolerance = self._tolerances(number, t[1:])
        elif word == "probe" and t[1:2] == ["ssbo"]:
            self._probe(number, t[2:])
        elif word in ("probe", "relative", "draw", "clear", "patch", "vertex", "fragment", "geometry",
                      "tessellation") or word.endswith("Enable") or word.startswith(("front.", "back.")):
            raise self.unsupported(number, f"the VkScript command {word} (graphics pipelines)")
        else:
            raise self.unsupported(number, f"the VkScript command {word}")

    def _tolerances(self, number: int, tokens: list) -> list:
        """``tolerance t[%] [t t t]``: one value, or four (framebuffer channels)."""
        text = " ".join(tokens).replace(",", " ")
        found = re.findall(r"(\S+?)\s*(%?)(?=\s|$)", text)
        values = []
        for value, percent in found:
            if value == "%":
                continue
            try:
                values.append((float(value.rstrip("%")), bool(percent) or value.endswith("%")))
            except ValueError:
                raise self.error(number, f"tolerance: {value!r} is not a number") from None
        if len(values) not in (1, 4):
            raise self.error(number, "tolerance takes 1 or 4 values")
        return values

    def _probe(self, number: int, t: list) -> None:
        """probe ssbo TYPE B OFFSET OP values"""
        if len(t) < 5:
            raise self.error(number, "probe ssbo TYPE B OFFSET OP values")
        dtype = vk_type(t[0], "std430")
        rest = t[1:]
        name = self._binding(number, rest, "storage")
        offset = self._int_token(number, rest[0], "the offset")
        if rest[1] not in COMPARATORS:
            raise self.error(number, f"probe ssbo: unknown comparison {rest[1]!r} (== != < <= > >= ~=)")
        # Amber's verifier compares every value of a probe ssbo with the first tolerance (four
        # tolerances are for framebuffer probes' channels); ~= without one: EQ's own epsilon.
        tolerance = self.tolerance[:1] if rest[1] == "~=" else []
        self.expects += 1
        self.commands.append(Command("expect", number, {"buffer": name, "op": COMPARATORS[rest[1]], "offset": offset,
                                                       "values": self._values(number, dtype, rest[2:]),
                                                       "tolerance": tolerance, "type": dtype}))

    # ----- running ------------------------------------------------------------------------
    def _commands(self, commands: list) -> None:
        for c in commands:
            try:
                if c.kind == "write":
                    self._write(self.buffers[c.args["buffer"]], c.args["type"], c.args["offset"], c.args["values"])
                    continue
                if c.kind == "size":
                    _grow(self.buffers[c.args["buffer"]], c.args["size"])
                    continue
                if c.kind == "entry":
                    p = self.pipelines[PIPELINE]
                    if p.entry != c.args["entry"]:
                        p.entry, p.compiled = c.args["entry"], None
                    continue
            except SpirvkitError as e:
                raise self.error(c.line, str(e)) from None
            super()._commands([c])

    def _dispatch(self, c: Command) -> None:
        """Amber sizes a VkScript buffer by the data written to it, and a Vulkan allocation is
        rounded up: a block the shader declares larger (a std140 block's tail padding) gets
        zeros past the data."""
        from .pipeline import ComputePipeline

        p = self.pipelines[PIPELINE]
        if p.compiled is None:
            p.compiled = ComputePipeline(p.shader.module, p.entry, p.specialization)
        for r in p.compiled.interface.resources:
            if r.kind == "push_constant" and p.push_constant is not None:
                _grow(self.buffers[p.push_constant], r.static_size)
            elif r.is_buffer and r.count is None and (r.set, r.binding) in p.bindings:
                _grow(self.buffers[p.bindings[(r.set, r.binding)].names[0]], r.static_size)
        super()._dispatch(c)

    def _write(self, buffer: Buffer, t: DataType, offset: int, values: list) -> None:
        """``values`` of type ``t`` into the buffer's bytes from ``offset`` on (the buffer grows
        to hold them; the bytes between components stay as they were)."""
        elements = len(values) // t.components
        end = offset + elements * t.stride
        _grow(buffer, end)
        window = Buffer(buffer.name, t)
        window.data = buffer.data[offset:end].copy()
        window.write(0, values)
        buffer.data[offset:end] = window.data

    def _check(self, c: Command) -> None:
        """A probe reads the buffer through the probe's own data type."""
        if "type" not in c.args:
            return super()._check(c)
        name, t = c.args["buffer"], c.args["type"]
        buffer = self.buffers[name]
        typed = Buffer(name, t)
        size = -(-buffer.data.nbytes // t.stride) * t.stride
        typed.data = np.zeros(size, np.uint8)
        typed.data[: buffer.data.nbytes] = buffer.data
        self.buffers[name] = typed
        try:
            super()._check(c)
        finally:
            self.buffers[name] = buffer


def _grow(buffer: Buffer, size: int) -> None:
    """At least ``size`` bytes (new ones zero); a bound buffer's data is rebound at each dispatch."""
    if buffer.data.nbytes < size:
        grown = np.zeros(size, np.uint8)
        grown[: buffer.data.nbytes] = buffer.data
        buffer.data = grown


def _sections(text: str) -> list:
    """(header, line number, [(line number, text)]) of each ``[section]``; lines before the
    first are comments."""
    sections = []
    for number, line in enumerate(text.splitlines(), 1):
        m = re.fullmatch(r"\[([^\]]+)\]\s*", line)
        if m:
            sections.append((" ".join(m.group(1).split()), number, []))
        elif sections:
            sections[-1][2].append((number, line))
    return sections


def _logical_lines(body: list):
    """(line number, tokens) of a section's lines: comments stripped, a trailing backslash
    continuing a line."""
    tokens, first = [], None
    for number, text in body:
        text = text.split("#", 1)[0].rstrip()
        more = text.endswith("\\")
        words = (text[:-1] if more else text).split()
        if words and first is None:
            first = number
        tokens += words
        if not more and tokens:
            yield first, tokens
            tokens, first = [], None
    if tokens:
        yield first, tokens
