"""Hostile input: the preprocessor answers with CompileError (or succeeds), never a Python
traceback, a RecursionError or a hang."""

from __future__ import annotations

import random

import pytest

from spirvkit.clc import PreprocessorOptions, preprocess, preprocess_to_text
from spirvkit.errors import CompileError

FRAGMENTS = [
    "#define ", "#undef ", "#if ", "#ifdef ", "#ifndef ", "#elif ", "#else", "#endif", "#include ",
    "#line ", "#error ", "#warning ", "#pragma ", "#pragma OPENCL EXTENSION ", "#pragma unroll ",
    "# ", "#", "##", "%:", "%:%:", "(", ")", ",", "...", "__VA_ARGS__", "defined", "_Pragma",
    "__LINE__", "__FILE__", "__COUNTER__", "F", "G", "x", "y", "F(", "G(x)", "1", "0x1p3f", "'a'",
    "'", '"', '"s"', "<", ">", "\\\n", "\n", "\n", " ", "/*", "*/", "//", "??=", "??/", "+", "-",
    "/", "%", "?", ":", "!", "~", "&&", "||", "<<", ">>", "cl_khr_fp64", ": enable", "\t", "\x00",
    "é", "L'", "u8", "1/0", "9223372036854775807", "18446744073709551615u",
]


def run(text: str, **options) -> None:
    try:
        preprocess(text, "fuzz.cl", options=PreprocessorOptions(predefined=False, **options))
        preprocess_to_text(text, "fuzz.cl", options=PreprocessorOptions(predefined=False, **options))
    except CompileError as e:
        assert str(e)  # renders without raising


def test_random_bytes():
    rng = random.Random(6)
    for _ in range(300):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
        run(data.decode("latin-1"))
        run(data.decode("utf-8", errors="replace"))


def test_random_fragments():
    rng = random.Random(42)
    for _ in range(1500):
        run("".join(rng.choice(FRAGMENTS) for _ in range(rng.randrange(1, 60))))


def test_random_fragments_with_macros_defined():
    rng = random.Random(7)
    prelude = ("#define F(a, ...) a ## __VA_ARGS__ #a F\n#define G(x) F(x, x) G\n#define x y\n"
               "#define y x\n#define E\n")
    for _ in range(800):
        run(prelude + "".join(rng.choice(FRAGMENTS) for _ in range(rng.randrange(1, 40))))


@pytest.mark.parametrize("text", [
    "#define f(x) x\n" + "f(" * 3000 + ")" * 3000,
    "#define f(x) x\n" + "f(" * 3000,
    "#if " + "(" * 100000 + "\n#endif",
    "#if " + "-" * 100000 + "1\n#endif",
    "#if " + "!" * 5000 + "1\n#endif",
    "#if 1" + " ? 1" * 5000 + "\n#endif",
    "\n".join(f"#define A{i} A{i + 1}" for i in range(3000)) + "\nA0",
    "#if 1\n" * 5000,
    "#endif\n" * 100,
    "/*" + "x" * 10000,
    "\\\n" * 1000 + "x",
    "'" * 1000 + '"' * 1000,
    "#define F(...) F(__VA_ARGS__ __VA_ARGS__)\nF(F(F(F(1))))",
])
def test_pathological_inputs(text):
    run(text)


def test_deep_argument_nesting_is_a_located_error():
    with pytest.raises(CompileError) as info:
        preprocess("#define f(x) x\n" + "f(" * 500 + "1" + ")" * 500)
    assert info.value.message == "macro arguments nested too deeply"
    assert info.value.line == 2


def test_macro_bomb_is_stopped():
    defs = "#define B0 x x\n" + "\n".join(f"#define B{i} B{i - 1} B{i - 1}" for i in range(1, 40))
    with pytest.raises(CompileError, match="too many tokens"):
        preprocess(defs + "\nB39", options=PreprocessorOptions(max_expansion_tokens=100_000))


def test_mutual_include_loop(tmp_path):
    (tmp_path / "a.h").write_text('#include "b.h"\n')
    (tmp_path / "b.h").write_text('#include "a.h"\n')
    main = tmp_path / "m.cl"
    main.write_text('#include "a.h"\n')
    with pytest.raises(CompileError, match="#include nested too deeply"):
        preprocess(main.read_text(), str(main))


def test_include_of_a_directory_or_binary_file(tmp_path):
    (tmp_path / "d.h").mkdir()
    (tmp_path / "bin.h").write_bytes(bytes(range(256)) * 4)
    main = tmp_path / "m.cl"
    for text in ('#include "d.h"\n', '#include "bin.h"\n'):
        main.write_text(text)
        try:
            preprocess(text, str(main))
        except CompileError:
            pass
