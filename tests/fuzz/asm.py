"""The ``asm`` target: token and character mutants of the .spvasm texts of tests/data, assembled
(an assembled module is disassembled again: the round trip must not fail either)."""

from __future__ import annotations

import re
from pathlib import Path

from .text_mutants import pick

DATA = Path(__file__).resolve().parents[1] / "data"
TIMEOUT = 20.0
SUFFIX = ".spvasm"

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|%[\w.]+|[-+]?(?:0x[0-9a-fA-F.p+-]+|[0-9][0-9a-zA-Z.+-]*)|[A-Za-z_][\w.]*|\s+|.',
                    re.S)
INTERESTING = ("1e999999999", "-1e999999999", "0x1p99999999", "0x1.fffffffffffffp+1023", "-0", "-0.0", "nan", "inf",
               "0x" + "f" * 40, "9" * 5000, "-" + "9" * 30, "4294967296", "18446744073709551616", "0x", "1e", "1.",
               "%1", "%4294967295", "%0", "%", '"', '""', '"\\', '"' + "x" * 70000 + '"', "!4294967295", "!0",
               "OpConstant", "OpTypeInt", "OpTypeArray", "OpConstantComposite", "OpSpecConstantOp", "OpExtInst",
               "OpTypeFloat", "OpTypeVector", "OpTypeStruct", "OpDecorate", "OpSwitch", "OpPhi", "OpFunction",
               "OpLabel", "OpReturn", "None", "|", "=", ";", "\n", "Kernel", "GLCompute", "Addresses", "Int64",
               "OpTypePointer", "Function", "CrossWorkgroup", "0", "1", "32", "64", "65536")


def corpus() -> list[str]:
    return [p.read_text() for p in sorted(DATA.rglob("*.spvasm"))]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def mutate(rng, corpus: list[str]) -> str:
    toks, words = pick(rng, corpus, _TOKEN)
    if not words:
        return None
    for _ in range(rng.choice((1, 1, 2, 3))):
        i = rng.choice(words) if words else 0
        if i >= len(toks):
            continue
        op = rng.randrange(8)
        if op == 0:
            toks[i] = rng.choice(INTERESTING)
        elif op == 1:
            toks[i] = ""
        elif op == 2:
            toks[i] = toks[i] + " " + toks[rng.choice(words)]
        elif op == 3:   # a token of the same text elsewhere
            toks[i] = toks[rng.choice(words)]
        elif op == 4 and toks[i]:   # one character changed, dropped or doubled
            j = rng.randrange(len(toks[i]))
            c = rng.choice((chr(rng.randrange(32, 127)), "", toks[i][j] * 2))
            toks[i] = toks[i][:j] + c + toks[i][j + 1:]
        elif op == 5:   # a number of any size
            toks[i] = str(rng.choice((-1, 1)) * rng.randrange(1 << rng.choice((4, 16, 32, 33, 64, 65, 200))))
        elif op == 6:   # a whole line duplicated or dropped
            text = "".join(toks)
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            if rng.random() < 0.5:
                lines.insert(k, lines[rng.randrange(len(lines))])
            else:
                del lines[k]
            toks = tokens("\n".join(lines))
            words = [i for i, t in enumerate(toks) if not t.isspace()]
        elif op == 7:
            toks[i] = toks[i] * rng.choice((2, 3, 50))
    return "".join(toks)


def execute(text: str) -> tuple[str, str]:
    import spirvkit

    binary = spirvkit.assemble(text, target_env="spv1.6")
    spirvkit.disassemble(binary)
    return "ok", ""


def split(text: str) -> list[str]:
    return tokens(text)


def join(parts: list[str]) -> str:
    return "".join(parts)
