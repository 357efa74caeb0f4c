"""The ``clc`` target: token-level mutants of the OpenCL C sources of tests/data, compiled with
one of a few option sets. A module the compiler returns must pass spirvkit's validator (an
invalid module is an ``invalid-output`` finding)."""

from __future__ import annotations

import re
from pathlib import Path

from .text_mutants import pick

DATA = Path(__file__).resolve().parents[1] / "data"
TIMEOUT = 30.0
SUFFIX = ".cl"

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|//[^\n]*|/\*.*?\*/|'
                    r'(?:0[xX][0-9a-fA-F.pP+-]+|[0-9][0-9a-zA-Z.]*(?:[eE][+-][0-9]+)?[a-zA-Z]*)|[A-Za-z_]\w*|'
                    r'<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||##|[-+*/%&|^!=<>]=|\s+|.', re.S)
INTERESTING = ("(", ")", "{", "}", "[", "]", ";", ",", "*", "&", "#", "##", "#define", "#if", "#endif", "#include",
               "\\", "'", '"', "...", "->", ".", "?", ":", "=", "==", "<<", ">>", "~", "sizeof", "typedef", "struct",
               "union", "enum", "__local", "__global", "__constant", "__private", "local", "global", "kernel",
               "__kernel", "void", "int", "uint", "long", "char", "short", "half", "float", "double", "bool",
               "float4", "int8", "uchar16", "double3", "size_t", "event_t", "image2d_t", "sampler_t", "const",
               "volatile", "restrict", "static", "extern", "inline", "return", "if", "else", "for", "while",
               "do", "switch", "case", "default", "break", "continue", "goto", "barrier", "get_global_id",
               "get_local_id", "get_local_size", "atomic_add", "atomic_inc", "vload4", "vstore4", "convert_int",
               "as_float", "printf", "async_work_group_copy", "wait_group_events", "CLK_LOCAL_MEM_FENCE",
               "0", "1", "-1", "0x7FFFFFFF", "0xFFFFFFFF", "0xFFFFFFFFFFFFFFFF", "18446744073709551616",
               "1e309", "1e-400", "0x1p999", "3.4e38f", "1.0h", "'\\777'", "2147483648", "INT_MIN", "NAN",
               "__attribute__((reqd_work_group_size(0,0,0)))", "__attribute__", "#pragma unroll",
               "#pragma OPENCL EXTENSION cl_khr_fp64 : enable", "__FILE__", "__LINE__", "defined")
OPTIONS = ("", "", "", "-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-std=CL1.2", "-cl-single-precision-constant",
           "-cl-fast-relaxed-math", "-Werror", "-g", "-DN=4 -DT=float", "-cl-opt-disable", "-w")


def corpus() -> list[str]:
    return [p.read_text() for p in sorted((DATA / "kernels").glob("*.cl")) + sorted((DATA / "clc").glob("*.cl"))]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def mutate(rng, corpus: list[str]) -> str:
    toks, words = pick(rng, corpus, _TOKEN)
    if not words:
        return None
    for _ in range(rng.choice((1, 1, 2, 2, 3, 5))):
        i = rng.choice(words)
        op = rng.randrange(8)
        if op == 0:
            toks[i] = rng.choice(INTERESTING)
        elif op == 1:
            toks[i] = ""
        elif op == 2:
            toks[i] = toks[i] + " " + rng.choice(INTERESTING)
        elif op == 3:   # a token of the same text elsewhere
            toks[i] = toks[rng.choice(words)]
        elif op == 4:   # swap with the next token
            j = min(i + 2, len(toks) - 1)
            toks[i], toks[j] = toks[j], toks[i]
        elif op == 5:   # a span of another source
            other = tokens(rng.choice(corpus))
            a = rng.randrange(len(other))
            toks[i] = "".join(other[a: a + rng.randrange(1, 40)])
        elif op == 6:   # a span of this source repeated
            j = min(len(toks), i + rng.randrange(1, 30))
            toks[i] = "".join(toks[i:j]) * rng.choice((2, 3, 20))
        elif op == 7:   # a number of any size
            toks[i] = str(rng.randrange(1 << rng.choice((3, 8, 16, 31, 32, 33, 63, 64, 65, 128))))
    options = rng.choice(OPTIONS)
    return f"//OPTIONS {options}\n" + "".join(toks)


def validation_env(options: str) -> dict:
    """The environment cc's output must be valid in: a device with the extensions cc enables by
    default (64-bit atomics, sub-groups, ...: the module's capabilities and scopes need them). An
    OpenCL 2.0 program may use every 2.0 feature (pipes, device-side enqueue), which an OpenCL 3.0
    device has only as optional features (off in the validator's 3.0 defaults); OpenCL 3.0 builds
    enable them as clang does for SPIR targets. Other builds are checked against the 3.0 env."""
    import spirvkit
    from spirvkit.clc.predefined import DEFAULT_EXTENSIONS

    extensions = frozenset(DEFAULT_EXTENSIONS)
    if "-cl-std=CL2.0" in options:
        return {"target_env": "opencl2.0", "options": spirvkit.ValidatorOptions(extensions=extensions)}
    if "-cl-std=CL3.0" in options:
        return {"target_env": "opencl3.0",
                "options": spirvkit.ValidatorOptions(pipes=True, device_enqueue=True, extensions=extensions)}
    return {"target_env": "opencl3.0", "options": spirvkit.ValidatorOptions(extensions=extensions)}


def execute(text: str) -> tuple[str, str]:
    import spirvkit

    first, _, source = text.partition("\n")
    options = first[len("//OPTIONS "):] if first.startswith("//OPTIONS ") else ""
    if not first.startswith("//OPTIONS "):
        source = text
    binary = spirvkit.compile_cl(source, options)
    problems = spirvkit.validate(binary, **validation_env(options))
    if problems:
        return "invalid-output", f"{problems[0]}"[:300]
    return "ok", ""


def split(text: str) -> list[str]:
    first, nl, source = text.partition("\n")
    return [first + nl] + tokens(source)


def join(parts: list[str]) -> str:
    return "".join(parts)
