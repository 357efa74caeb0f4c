"""Robustness: random token soups, truncated and mangled corpus files must either parse or
raise CompileError — never another exception, never a hang. Seeded, so failures reproduce."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spirvkit.clc import parse
from spirvkit.clc.ast_dump import dump
from spirvkit.clc.tokens import lex
from spirvkit.errors import CompileError

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(p for d in ("tests/data/kernels", "tests/data/clc", "benchmarks/kernels")
                for p in (ROOT / d).glob("*.cl"))

VOCABULARY = """
int float4 uint char const global local __kernel kernel void struct union enum typedef static
extern sizeof vec_step if else for while do switch case default break continue return goto
__attribute__ reqd_work_group_size packed restrict volatile ( ) [ ] { } ; , . -> ++ -- + - * /
% << >> < > <= >= == != & | ^ && || ! ~ ? : = += <<= ... x y T v.xyzw s0 hi 0 1 0x1f 1.0f 2u
'a' "s" ^ @ # \\ image2d_t half bool pipe __generic
""".split()


def attempt(src: str) -> None:
    try:
        unit = parse(src, "fuzz.cl", options="-cl-std=CL2.0")
    except CompileError as e:
        assert str(e)  # renders
        return
    assert dump(unit)


@pytest.mark.parametrize("seed", range(40))
def test_token_soup(seed):
    rng = random.Random(seed)
    for _ in range(10):
        n = rng.randrange(1, 60)
        attempt(" ".join(rng.choice(VOCABULARY) for _ in range(n)))


@pytest.mark.parametrize("seed", range(10))
def test_structured_soup(seed):
    """Soups inside a kernel body, where statements and expressions are tried."""
    rng = random.Random(1000 + seed)
    for _ in range(10):
        inner = " ".join(rng.choice(VOCABULARY) for _ in range(rng.randrange(1, 40)))
        attempt(f"kernel void k(global int *p) {{ {inner} }}")


def _corpus_sample(seed: int, k: int):
    rng = random.Random(seed)
    return rng, rng.sample(CORPUS, min(k, len(CORPUS)))


@pytest.mark.parametrize("seed", range(6))
def test_truncated_corpus_files(seed):
    rng, files = _corpus_sample(seed, 6)
    for path in files:
        text = path.read_text()
        for _ in range(4):
            attempt(text[:rng.randrange(len(text))])


@pytest.mark.parametrize("seed", range(6))
def test_mangled_corpus_files(seed):
    """One token deleted, duplicated or swapped with another."""
    rng, files = _corpus_sample(100 + seed, 6)
    for path in files:
        text = path.read_text()
        tokens, _ = lex(text)
        spans = [(t.offset, t.offset + len(t.text)) for t in tokens if t.offset >= 0]
        for _ in range(4):
            a, b = spans[rng.randrange(len(spans))]
            mode = rng.randrange(3)
            if mode == 0:
                mangled = text[:a] + text[b:]
            elif mode == 1:
                mangled = text[:b] + " " + text[a:b] + text[b:]
            else:
                mangled = text[:a] + " " + rng.choice(VOCABULARY) + " " + text[b:]
            attempt(mangled)
