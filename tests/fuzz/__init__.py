"""Fuzzing spirvkit as a standing test (issue 21): ``python -m tests.fuzz --target T --seconds N --seed S``.

Six targets, one module each, over the four layers that take untrusted input:

- ``binary`` (binary.py): word-level mutations of the valid SPIR-V binaries of tests/data,
  disassembled and validated;
- ``asm`` (asm.py): token and character mutations of the .spvasm texts of tests/data, assembled
  (and the result disassembled);
- ``clc`` (clc.py): token-level mutations of the OpenCL C sources of tests/data, compiled with a
  few option sets; a module the compiler returns must pass spirvkit's validator;
- ``exec`` (exec.py): mutants of the valid kernel modules that the validator still accepts,
  launched in checked mode with small arguments and a timeout; every buffer sits between guard
  bytes that must be intact afterwards;
- ``grammar`` (grammar.py): grammar-aware mutants of the same binaries (whole instructions
  inserted or replaced, with operands of the kinds the grammar names and ids of the right types),
  which reach the validator's deeper rules; those it accepts run as in ``exec``;
- ``programs`` (programs.py): random OpenCL C kernels without undefined behaviour, generated so
  that they compile and run, each run checked, unchecked and again (the outputs must agree).

The driver (driver.py) runs each input in a child process (a pool, restarted after a crash, with
a per-input timeout) and sorts outcomes into: ok, a clean spirvkit error, and the findings —
``traceback`` (an exception not derived from SpirvkitError, or an "internal compiler error"),
``crash`` (the child died of a signal), ``hang`` (past the timeout), ``invalid-output`` (the
compiler returned a module the validator rejects), ``guard`` (a write outside a buffer) and
``mismatch`` (``programs``: a checked and an unchecked run that disagree). Each
distinct finding is shrunk to a minimal reproducer (deleting words, tokens or characters while
the same finding persists), saved under ``--out`` and printed.

The mutators are plain seeded random mutators (``random.Random(seed)``): a run is reproducible
from its seed and input count, needs nothing beyond the standard library, and every input is a
separate process-isolated execution, which is what crash and hang detection need. Hypothesis
shrinks well but drives tests in-process and has no notion of a child that segfaults or hangs;
atheris gives coverage guidance but instruments in-process too (a crash ends the campaign) and
has no wheel for every Python the project supports. Neither clearly serves here.
"""
