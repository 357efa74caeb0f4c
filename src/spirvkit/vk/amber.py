"""``spirvkit amber``: runs the compute subset of AmberScript (google/amber's docs/amber_script.md)
on spirvkit's Vulkan-style executor.

A script is parsed whole first (a syntax error or an unsupported command stops it before
anything runs), then its commands run in order. Supported: ``SHADER compute`` (SPIRV-ASM,
SPIRV-HEX, GLSL through glslangValidator; inline or from a ``VIRTUAL_FILE``), ``BUFFER``
(DATA_TYPE with DATA / SIZE + FILL / SERIES_FROM / FILE, STD140 / STD430; FORMATs of equal-width
channels), ``IMAGE`` and ``SAMPLER`` (amber_images.py), ``PIPELINE compute`` (ATTACH with
ENTRY_POINT and SPECIALIZE; BIND BUFFER / BUFFER_ARRAY AS storage / uniform (and their _dynamic
forms) with DESCRIPTOR_OFFSET / DESCRIPTOR_RANGE, AS storage_image / sampled_image /
combined_image_sampler / uniform_texel_buffer / storage_texel_buffer, AS push_constant; BIND
SAMPLER / SAMPLER_ARRAY; SHADER_OPTIMIZATION accepted: its passes preserve meaning, apart from
--graphics-robust-access), ``RUN [TIMED_EXECUTION] p x y z``, ``EXPECT`` (IDX with EQ NE LT LE
GT GE and TOLERANCE, EQ_BUFFER, RMSE_BUFFER, EQ_HISTOGRAM_EMD_BUFFER), ``COPY``, ``REPEAT``,
``SET ENGINE_DATA fence_timeout_ms``, ``DEVICE_FEATURE`` / ``DEVICE_EXTENSION`` for what the
executor has. A line ending in a backslash continues on the next. Everything else is a located
"not supported yet" error. DEVICE_EXTENSION VK_KHR_spirv_1_4 makes SPIR-V 1.4 the default of
SPIRV-ASM shaders; float16 DATA is stored as Amber stores it (amber_data.amber_half). A script
not starting with ``#!amber`` is a VkScript (vkscript.py).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import AssemblyError, SpirvkitError
from ..jit.shader_interface import KIND_NAMES
from . import amber_images
from .amber_data import Buffer, DataType, data_type, format_type
from .amber_expect import PROBES, ExpectFailed, check
from .glslang import compile_glsl

COMPARATORS = ("EQ", "NE", "LT", "LE", "GT", "GE")
BUFFER_KINDS = {"storage": "storage", "uniform": "uniform", "storage_dynamic": "storage",
                "uniform_dynamic": "uniform"}
IMAGE_KINDS = ("storage_image", "sampled_image", "combined_image_sampler", "uniform_texel_buffer",
               "storage_texel_buffer")
# What the executor always has: accepted when a script asks for them.
SUPPORTED_FEATURES = {"shaderInt64", "shaderFloat64", "shaderInt16", "robustBufferAccess",
                      "Storage16BitFeatures.storageBuffer16BitAccess",
                      "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
                      "Storage8BitFeatures.storageBuffer8BitAccess",
                      "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
                      "Float16Int8Features.shaderFloat16", "Float16Int8Features.shaderInt8",
                      "VulkanMemoryModelFeatures.vulkanMemoryModel",
                      "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
                      "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
                      "VariablePointerFeatures.variablePointers",
                      "VariablePointerFeatures.variablePointersStorageBuffer",
                      "BufferDeviceAddressFeatures.bufferDeviceAddress"}
SUPPORTED_EXTENSIONS = {"VK_KHR_storage_buffer_storage_class", "VK_KHR_16bit_storage", "VK_KHR_8bit_storage",
                        "VK_KHR_shader_non_semantic_info", "VK_KHR_get_physical_device_properties2",
                        "VK_KHR_shader_float16_int8", "VK_KHR_vulkan_memory_model",
                        "VK_KHR_zero_initialize_workgroup_memory", "VK_KHR_variable_pointers",
                        "VK_KHR_buffer_device_address", "VK_EXT_shader_atomic_float", "VK_EXT_shader_atomic_float2",
                        "VK_KHR_spirv_1_4", "VK_KHR_workgroup_memory_explicit_layout"}


class AmberError(SpirvkitError):
    """A script that cannot run: located at its line."""


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
    bindings: dict = field(default_factory=dict)     # (set, binding) -> Binding
    push_constant: str | None = None
    compiled: object = None   # ComputePipeline, made at its first RUN


@dataclass
class Binding:
    """One BIND of a descriptor (or an array of them: BUFFER_ARRAY / SAMPLER_ARRAY)."""

    kind: str                 # a Vulkan descriptor kind, as ComputePipeline.bindings names them
    names: list               # buffer (or sampler) names, one per descriptor
    array: bool
    line: int
    offsets: list = field(default_factory=list)   # DESCRIPTOR_OFFSET (+ OFFSET of dynamic buffers) per name
    ranges: list = field(default_factory=list)    # DESCRIPTOR_RANGE per name (None: the rest)
    sampler: str | None = None                    # combined_image_sampler's SAMPLER


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
        """The next line with tokens; one ending in a backslash continues on the next line."""
        tokens, first = [], None
        while True:
            got = self.next_raw()
            if got is None:
                return Line(first, tokens) if tokens else None
            number, text = got
            text = text.split("#", 1)[0].rstrip()
            more = text.endswith("\\")
            words = text[:-1].split() if more else text.split()
            if words and first is None:
                first = number
            tokens += words
            if not more and tokens:
                return Line(first, tokens)


class Script:
    def __init__(self, text: str, path: str = "<script>"):
        self._setup(path)
        lines = _Lines(text)
        first = next((line for line in lines.raw if line.strip()), "")
        if not first.strip().startswith("#!amber"):
            raise AmberError(f"{path}:1: a VkScript (a script not starting with #!amber): run it with "
                             f"vkscript.VkScript")
        self.commands = self._block(lines, top=True)

    def _setup(self, path: str) -> None:
        self.path = path
        self.shaders: dict[str, Shader] = {}
        self.buffers: dict[str, Buffer] = {}
        self.pipelines: dict[str, PipelineDecl] = {}
        self.samplers: dict = {}          # name -> spirvkit.vk.Sampler
        self.virtual_files: dict[str, tuple] = {}   # path -> (line of VIRTUAL_FILE, text)
        self.timeout: float | None = None
        self.expects = 0
        self.spirv_1_4 = False    # DEVICE_EXTENSION VK_KHR_spirv_1_4 seen

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
                elif word == "IMAGE" and top:
                    self._image(line, lines)
                elif word == "SAMPLER" and top:
                    self._sampler(line)
                elif word == "VIRTUAL_FILE" and top:
                    self._virtual_file(line, lines)
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
        target_env = virtual = None
        while options:
            if options[0] == "TARGET_ENV" and len(options) > 1:
                target_env, options = options[1], options[2:]
            elif options[0] == "VIRTUAL_FILE" and len(options) > 1:
                virtual, options = options[1], options[2:]
            else:
                raise self.error(line.number, f"unexpected {options[0]!r} after the shader format")
        if name in self.shaders:
            raise self.error(line.number, f"a shader named {name} already exists")
        if virtual is not None:
            if virtual not in self.virtual_files:
                raise self.error(line.number, f"SHADER {name}: no VIRTUAL_FILE {virtual!r}")
            number, source = self.virtual_files[virtual]
            self.shaders[name] = Shader(name, line.number, self._shader_module(number, fmt, source, target_env))
            return
        source = self._text_block(line, lines, f"SHADER {name}")
        self.shaders[name] = Shader(name, line.number, self._shader_module(line.number, fmt, source, target_env))

    def _text_block(self, line: Line, lines: _Lines, what: str) -> str:
        """The raw lines after ``line`` up to a line that is END (a shader's source, a virtual file)."""
        body = []
        while True:
            got = lines.next_raw()
            if got is None:
                raise self.error(line.number, f"{what} has no END")
            if got[1].split("#", 1)[0].split() == ["END"]:
                return "\n".join(body) + "\n"
            body.append(got[1])

    def _shader_module(self, number: int, fmt: str, source: str, target_env: str | None):
        from ..spirv.module import Module
        from ..spirv.text.assembler import assemble

        # The shader's text starts on the line after SHADER: blank lines before it make the
        # assembler's and glslang's line numbers the script's own.
        padded = "\n" * number + source
        if fmt == "SPIRV-ASM":
            # A script requiring VK_KHR_spirv_1_4 has its assembly shaders assembled as SPIR-V
            # 1.4 (as the Vulkan CTS does for them: their entry points list every global).
            default = "spv1.4" if self.spirv_1_4 else "spv1.0"
            try:
                return Module.from_bytes(assemble(padded, target_env or default, filename=self.path))
            except AssemblyError as e:   # already 'script:line:col: error: ...'
                raise AmberError(str(e)) from None
        if fmt == "SPIRV-HEX":
            try:
                data = bytes(int(tok, 16) for tok in source.split())
            except ValueError:
                raise self.error(number, "SPIRV-HEX: not a list of hex bytes") from None
            return Module.from_bytes(data)
        if fmt == "GLSL":
            # Not padded: an ES shader's #version must be its first line. Its messages' line
            # numbers are moved to the script's instead.
            return Module.from_bytes(compile_glsl(source, target_env or "vulkan1.0", self.path, number))
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
            size = self._int(Line(line.number, rest), 1, "the SIZE") * dtype.columns   # matrices: columns
            buffer = Buffer(name, dtype, size)
            self._initialize(line, lines, buffer, size, rest[2:])
        elif rest[0] == "FILE":
            raise self.error(line.number, "BUFFER ... FILE needs a SIZE before it")
        else:
            raise self.unsupported(line.number, f"BUFFER ... {rest[0]}")
        self.buffers[name] = buffer

    def _initialize(self, line: Line, lines: _Lines, buffer: Buffer, size: int, init: list,
                    what: str = "buffer") -> None:
        """A sized buffer's initializer: FILL v, SERIES_FROM a INC_BY b, DATA ... END, FILE
        [BINARY|TEXT] path, or none (zeros)."""
        dtype = buffer.type
        if init[:1] == ["FILL"] and len(init) == 2:
            buffer.write(0, [dtype.parse(init[1])] * (size * dtype.components))
        elif init[:1] == ["SERIES_FROM"] and len(init) == 4 and init[2] == "INC_BY":
            if dtype.components != 1:
                raise self.unsupported(line.number, f"SERIES_FROM for the vector type {dtype.name}")
            start, inc = dtype.parse(init[1]), dtype.parse(init[3])
            buffer.write(0, [start + inc * i for i in range(size)])
        elif init[:1] == ["DATA"] and what == "image":
            values = self._data_values(line, lines, dtype, init[1:])
            if len(values) != size * dtype.components:
                raise self.error(line.number, f"Elements provided in data does not match size specified: "
                                              f"{size * dtype.components} specified vs {len(values)} provided")
            buffer.write(0, values)
        elif init[:1] == ["FILE"]:
            self._file_data(line, buffer, size, init[1:])
        elif init:
            raise self.error(line.number, f"unknown {what} initializer {' '.join(init)!r} (FILL v, "
                                          f"SERIES_FROM a INC_BY b{', DATA' if what == 'image' else ''}, FILE)")

    def _file_data(self, line: Line, buffer: Buffer, size: int, words: list) -> None:
        """FILE [BINARY | TEXT] path: the bytes, or whitespace-separated values, of a
        VIRTUAL_FILE of that path or a file beside the script."""
        kind = "TEXT"
        if words and words[0] in ("BINARY", "TEXT", "PNG"):
            kind, words = words[0], words[1:]
        if len(words) != 1:
            raise self.error(line.number, "FILE [BINARY | TEXT] file_name")
        if kind == "PNG":
            raise self.unsupported(line.number, "FILE PNG (image files)")
        name = words[0]
        if name in self.virtual_files:
            raw = self.virtual_files[name][1].encode("utf-8", "surrogateescape")
        else:
            path = Path(self.path).parent / name
            try:
                raw = path.read_bytes()
            except OSError as e:
                raise self.error(line.number, f"FILE {name}: cannot read {path}: {e.strerror}") from None
        dtype = buffer.type
        if kind == "BINARY":
            if len(raw) < buffer.data.nbytes:
                raise self.error(line.number, f"FILE {name} has {len(raw)} bytes; the buffer needs "
                                              f"{buffer.data.nbytes}")
            buffer.data[:] = np.frombuffer(raw[: buffer.data.nbytes], np.uint8)
            return
        try:
            values = [dtype.parse(tok) for tok in raw.decode("utf-8", "surrogateescape").split()]
        except SpirvkitError as e:
            raise self.error(line.number, f"FILE {name}: {e}") from None
        if len(values) < size * dtype.components:
            raise self.error(line.number, f"FILE {name} has {len(values)} values; the buffer needs "
                                          f"{size * dtype.components}")
        buffer.write(0, values[: size * dtype.components])

    def _image(self, line: Line, lines: _Lines) -> None:
        t = line.tokens
        if len(t) < 2 or t[1] in ("DATA_TYPE", "FORMAT"):
            raise self.error(line.number, "missing IMAGE name")
        name = t[1]
        if name in self.buffers:
            raise self.error(line.number, f"a buffer named {name} already exists")
        texel, shape, init = amber_images.parse_image(t[2:])
        size = shape.width * shape.height * shape.depth
        buffer = Buffer(name, texel, size)
        buffer.image = shape
        self._initialize(line, lines, buffer, size, init, "image")
        self.buffers[name] = buffer

    def _sampler(self, line: Line) -> None:
        t = line.tokens
        if len(t) < 2:
            raise self.error(line.number, "SAMPLER needs a name")
        if t[1] in self.samplers:
            raise self.error(line.number, f"a sampler named {t[1]} already exists")
        self.samplers[t[1]] = amber_images.parse_sampler(t[2:])

    def _virtual_file(self, line: Line, lines: _Lines) -> None:
        t = line.tokens
        if len(t) != 2:
            raise self.error(line.number, "VIRTUAL_FILE path")
        if t[1] in self.virtual_files:
            raise self.error(line.number, f"a VIRTUAL_FILE {t[1]!r} already exists")
        self.virtual_files[t[1]] = (line.number, self._text_block(line, lines, f"VIRTUAL_FILE {t[1]}"))

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
            elif w[0] == "BIND" and w[1:2] in (["BUFFER"], ["BUFFER_ARRAY"]):
                self._bind(inner, p)
            elif w[0] == "BIND" and w[1:2] in (["SAMPLER"], ["SAMPLER_ARRAY"]):
                self._bind_sampler(inner, p)
            elif w[0] == "SHADER_OPTIMIZATION":
                # SPIRV-Tools optimisation passes keep a shader's meaning: running it as written
                # gives the results the optimised one would. Not --graphics-robust-access: it
                # clamps out-of-bounds accesses, which spirvkit reports as errors instead.
                while (opt := lines.next()) is not None and opt.tokens != ["END"]:
                    if "--graphics-robust-access" in opt.tokens:
                        raise self.unsupported(opt.number, "SHADER_OPTIMIZATION --graphics-robust-access "
                                                           "(robust buffer access: out-of-bounds accesses clamped)")
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
        array = w[1] == "BUFFER_ARRAY"
        if "AS" not in w[3:]:
            raise self.error(line.number, f"BIND {w[1]} name{'s' if array else ''} AS type ...")
        at = w.index("AS", 2)
        names, kind, rest = w[2:at], (w[at + 1] if at + 1 < len(w) else ""), w[at + 2:]
        if not names or (len(names) > 1 and not array):
            raise self.error(line.number, f"BIND {w[1]}: {'no buffer names' if not names else 'one buffer name'}")
        for name in names:
            if name not in self.buffers:
                raise self.error(line.number, f"BIND: unknown buffer {name!r}")
        if kind == "push_constant":
            if rest or array:
                raise self.error(line.number, "BIND BUFFER name AS push_constant takes nothing more")
            p.push_constant = names[0]
            return
        if kind not in BUFFER_KINDS and kind not in IMAGE_KINDS:
            raise self.unsupported(line.number, f"BIND BUFFER ... AS {kind}")
        opts: dict[str, list] = {}
        sampler = None
        while rest:
            word = rest.pop(0)
            if word == "SAMPLER" and kind == "combined_image_sampler" and rest:
                sampler = rest.pop(0)
                if sampler not in self.samplers:
                    raise self.error(line.number, f"BIND: unknown sampler {sampler!r}")
                continue
            many = array and word in ("DESCRIPTOR_OFFSET", "DESCRIPTOR_RANGE", "OFFSET")
            if word not in ("DESCRIPTOR_SET", "BINDING", "DESCRIPTOR_OFFSET", "DESCRIPTOR_RANGE", "OFFSET",
                            "BASE_MIP_LEVEL"):
                raise self.unsupported(line.number, f"BIND {w[1]} ... {word}")
            if not rest:
                raise self.error(line.number, f"{word} needs a value")
            values = []
            while rest and (not values or many) and _integer(rest[0]) is not None:
                values.append(_integer(rest.pop(0)))
            if not values:
                raise self.error(line.number, f"{word} must be an integer, got {rest[0]!r}")
            opts[word] = values
        if "BINDING" not in opts:
            raise self.error(line.number, f"BIND {w[1]}: BINDING is missing")
        if kind == "combined_image_sampler" and sampler is None:
            raise self.error(line.number, "BIND ... AS combined_image_sampler needs SAMPLER name")
        if opts.get("BASE_MIP_LEVEL", [0]) != [0]:
            raise self.unsupported(line.number, "BASE_MIP_LEVEL other than 0 (images have one level)")
        if kind in IMAGE_KINDS and ({"DESCRIPTOR_OFFSET", "DESCRIPTOR_RANGE", "OFFSET"} & opts.keys()):
            raise self.error(line.number, f"DESCRIPTOR_OFFSET / DESCRIPTOR_RANGE / OFFSET bind buffers, not AS {kind}")
        if "OFFSET" in opts and not kind.endswith("_dynamic"):
            raise self.error(line.number, f"OFFSET goes with uniform_dynamic and storage_dynamic, not {kind}")
        if kind.endswith("_dynamic") and "OFFSET" not in opts:
            raise self.error(line.number, f"BIND ... AS {kind} needs OFFSET")
        count = len(names)

        def per_name(word, default):
            got = opts.get(word, [default] * count)
            if len(got) != count:
                raise self.error(line.number, f"{word}: {count} value(s) expected, one per buffer")
            return got

        offsets = [a + b for a, b in zip(per_name("DESCRIPTOR_OFFSET", 0), per_name("OFFSET", 0))]
        ranges = [None if r == -1 else r for r in per_name("DESCRIPTOR_RANGE", -1)]
        key = (opts.get("DESCRIPTOR_SET", [0])[0], opts["BINDING"][0])
        p.bindings[key] = Binding(BUFFER_KINDS.get(kind, kind), names, array, line.number, offsets, ranges, sampler)

    def _bind_sampler(self, line: Line, p: PipelineDecl) -> None:
        w = line.tokens
        array = w[1] == "SAMPLER_ARRAY"
        at = w.index("DESCRIPTOR_SET") if "DESCRIPTOR_SET" in w else w.index("BINDING") if "BINDING" in w else len(w)
        names, rest = w[2:at], w[at:]
        if not names or (len(names) > 1 and not array):
            raise self.error(line.number, f"BIND {w[1]} name{'s' if array else ''} DESCRIPTOR_SET s BINDING b")
        for name in names:
            if name not in self.samplers:
                raise self.error(line.number, f"BIND: unknown sampler {name!r}")
        opts = {}
        while rest:
            if rest[0] in ("DESCRIPTOR_SET", "BINDING") and len(rest) > 1:
                opts[rest[0]] = self._int(Line(line.number, rest[:2]), 1, rest[0])
                rest = rest[2:]
            elif rest[0] == "KERNEL":
                raise self.unsupported(line.number, "BIND SAMPLER ... KERNEL (OpenCL kernels)")
            else:
                raise self.error(line.number, f"BIND {w[1]}: unexpected {rest[0]!r}")
        if "BINDING" not in opts:
            raise self.error(line.number, f"BIND {w[1]}: BINDING is missing")
        p.bindings[(opts.get("DESCRIPTOR_SET", 0), opts["BINDING"])] = Binding("sampler", names, array, line.number)

    def _run(self, line: Line) -> Command:
        w = line.tokens
        if w[1:2] == ["TIMED_EXECUTION"]:   # Amber times the dispatch; its results are a RUN's
            line = Line(line.number, w[:1] + w[2:])
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
            if w[2] in ("RMSE_BUFFER", "EQ_HISTOGRAM_EMD_BUFFER"):
                if len(w) != 6 or w[4] != "TOLERANCE":
                    raise self.error(line.number, f"EXPECT a {w[2]} b TOLERANCE t")
                args["tolerance"] = self._float(line, w[5])
            elif len(w) != 4:
                raise self.error(line.number, f"unexpected {w[4]!r} after EQ_BUFFER b")
            return Command("expect", line.number, args)
        if w[2] != "IDX":
            raise self.unsupported(line.number, f"EXPECT ... {w[2]}")
        rest = w[3:]
        coords = []
        while rest and rest[0] not in COMPARATORS + PROBES and rest[0] != "TOLERANCE":
            coords.append(rest.pop(0))
        if len(coords) != 1:
            return self._probe(line, name, coords, rest)
        try:
            offset = int(coords[0], 0)
        except ValueError:
            raise self.error(line.number, f"EXPECT: IDX must be an integer byte offset, got {coords[0]!r}") from None
        tolerance = self._tolerance(line, rest)
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

    def _tolerance(self, line: Line, rest: list) -> list:
        """TOLERANCE t[%]... (1 to 4 values), taken from the front of ``rest`` if there."""
        tolerance = []
        if rest and rest[0] == "TOLERANCE":
            rest.pop(0)
            while rest and rest[0] not in COMPARATORS + PROBES:
                tok = rest.pop(0)
                tolerance.append((self._float(line, tok.rstrip("%")), tok.endswith("%")))
            if not 1 <= len(tolerance) <= 4:
                raise self.error(line.number, "TOLERANCE takes 1 to 4 values")
        return tolerance

    def _probe(self, line: Line, name: str, coords: list, rest: list) -> Command:
        """EXPECT image IDX x y [SIZE w h] [TOLERANCE t...] EQ_RGB r g b | EQ_RGBA r g b a."""
        if len(coords) not in (2, 5) or (len(coords) == 5 and coords[2] != "SIZE"):
            raise self.error(line.number, "EXPECT name IDX x y [SIZE w h] EQ_RGB r g b | EQ_RGBA r g b a (an image "
                                          "probe), or IDX byte_offset")
        numbers = [_integer(tok) for tok in coords[:2] + coords[3:]]
        if None in numbers or min(numbers) < 0:
            raise self.error(line.number, "EXPECT: the probe's position and size must be non-negative integers")
        x, y, w, h = numbers + [1, 1] if len(numbers) == 2 else numbers
        tolerance = self._tolerance(line, rest)
        op = rest.pop(0) if rest else ""
        if op not in PROBES:
            raise self.error(line.number, "EXPECT: an image probe compares with EQ_RGB r g b or EQ_RGBA r g b a")
        channels = 4 if op == "EQ_RGBA" else 3
        expected = [self._float(line, tok) for tok in rest]
        if len(expected) != channels:
            raise self.error(line.number, f"{op} takes {channels} values (0 to 255), got {len(expected)}")
        return Command("expect", line.number, {"buffer": name, "op": op, "rect": (x, y, w, h),
                                               "rgba": [v / 255 for v in expected], "tolerance": tolerance})

    def _float(self, line: Line, token: str) -> float:
        try:
            return float(token)
        except ValueError:
            raise self.error(line.number, f"{token!r} is not a number") from None

    def _requirement(self, line: Line) -> None:
        w = line.tokens
        if len(w) != 2:
            raise self.error(line.number, f"{w[0]} takes one name")
        known = (SUPPORTED_FEATURES | amber_images.FEATURES if w[0] == "DEVICE_FEATURE"
                 else SUPPORTED_EXTENSIONS | amber_images.EXTENSIONS)
        if w[1] not in known:
            raise self.unsupported(line.number, f"{w[0]} {w[1]}")
        if w[1] == "VK_KHR_spirv_1_4":
            self.spirv_1_4 = True

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
                    target.type, target.image = source.type, source.image
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
        declared = {(r.set, r.binding): r for r in pipe.interface.resources if r.kind != "push_constant"}
        for (s, b), bind in p.bindings.items():
            r = declared.get((s, b))
            if r is None:
                continue   # Amber binds it; a shader that does not use it never reads it
            if r.kind != bind.kind:
                what = ("sampler" if bind.kind == "sampler" else "buffer") + ("s" if len(bind.names) > 1 else "")
                raise SpirvkitError(f"{what} {' '.join(bind.names)} is bound AS {bind.kind} at set {s} binding {b}, "
                                    f"where the shader declares a {KIND_NAMES[r.kind]}")
            elements = [self._descriptor(bind, i, r) for i in range(len(bind.names))]
            pipe.bind(set=s, binding=b, resource=elements if bind.array else elements[0])
        if p.push_constant is not None:
            pipe.push_constants(self.buffers[p.push_constant].data)
        pipe.dispatch(*c.args["groups"], timeout=self.timeout)

    def _descriptor(self, bind: Binding, i: int, r):
        """What ComputePipeline.bind takes for descriptor ``i`` of a BIND."""
        name = bind.names[i]
        if bind.kind == "sampler":
            return self.samplers[name]
        buffer = self.buffers[name]
        if r.is_buffer:
            data, offset, size = buffer.data, bind.offsets[i], bind.ranges[i]
            end = data.nbytes if size is None else offset + size
            if not 0 <= offset <= end <= data.nbytes:
                raise SpirvkitError(f"DESCRIPTOR_OFFSET {offset} / DESCRIPTOR_RANGE {size} lie outside buffer {name} "
                                    f"({data.nbytes} bytes)")
            return data[offset:end]   # a view: zero-copy
        image = amber_images.image_of(buffer, r.element.image["dim"], r.describe(i if bind.array else None))
        return (image, self.samplers[bind.sampler]) if bind.kind == "combined_image_sampler" else image

    def _check(self, c: Command) -> None:
        check(c, self.buffers)


def _integer(token: str) -> int | None:
    try:
        return int(token, 0)
    except ValueError:
        return None


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
    from .vkscript import VkScript, is_vkscript

    try:
        script = VkScript(text, path) if is_vkscript(text) else Script(text, path)
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
