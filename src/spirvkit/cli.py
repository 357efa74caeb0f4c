"""The ``spirvkit`` command line. Thin: parses flags, calls the API, prints diagnostics.

Bad input never produces a traceback: every :class:`SpirvkitError` is printed as a located
message and the exit status is 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ._version import __version__
from .errors import AssemblyError, CompileError, KernelCheckError, SpirvkitError
from .spirv.target_env import DEFAULT_TARGET_ENV, TARGET_ENV_VERSIONS


def _read_bytes(path: str) -> bytes:
    return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()


def _read_text(path: str) -> str:
    data = _read_bytes(path)
    return data.decode("utf-8", "surrogateescape")


def _write(path: str | None, data: bytes | str) -> None:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if path is None or path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(path).write_bytes(data)


def _cmd_as(args) -> int:
    from .spirv.text.assembler import assemble

    text = _read_text(args.input)
    binary = assemble(
        text,
        args.target_env,
        preserve_numeric_ids=args.preserve_numeric_ids,
        filename="<stdin>" if args.input == "-" else args.input,
    )
    _write(args.output, binary)
    return 0


def _cmd_dis(args) -> int:
    from .spirv.module import Module
    from .spirv.text.disassembler import disassemble

    module = Module.from_bytes(_read_bytes(args.input))
    text = disassemble(
        module,
        raw_id=args.raw_id,
        indent=not args.no_indent,
        header=not args.no_header,
        offsets=args.offsets,
        comment=args.comment,
    )
    _write(args.output, text)
    return 0


def _cmd_info(args) -> int:
    from .spirv.module import Module

    module = Module.from_bytes(_read_bytes(args.input))
    _write(None, module.summary() + "\n")
    return 0


def _cmd_run(args) -> int:
    import numpy as np

    from .api import Program
    from .run_args import output_path, parse_arg, parse_sizes, summarize
    from .runtime.args import DeclaredAccess
    from .runtime.images import Image
    from .runtime.pipes import Pipe

    program = Program(args.input)
    names = program.kernel_names
    name = args.kernel
    if name is None:
        if len(names) != 1:
            raise SpirvkitError(f"the module has {len(names)} kernels ({', '.join(names) or 'none'}): "
                                f"choose one with --kernel")
        name = names[0]
    kernel = program.kernel(name)
    specs = args.arg or []
    if len(specs) != len(kernel.args):
        listed = ", ".join(f"{a.type} {a.name}" for a in kernel.args)
        raise SpirvkitError(f"kernel {name}({listed}) takes {len(kernel.args)} argument(s); "
                            f"{len(specs)} --arg given")
    values = [parse_arg(spec, program, kernel, i) for i, spec in enumerate(specs)]
    checks = args.check   # findings are printed clang-style, after the outputs
    if checks is None and not args.unchecked and any(isinstance(v, DeclaredAccess) for v in values):
        checks = "access"   # ro:/wo: declarations are the access check's business
    findings = kernel(parse_sizes(args.global_size, "--global"), parse_sizes(args.local_size, "--local"), *values,
                      global_offset=parse_sizes(args.offset, "--offset"), unchecked=args.unchecked,
                      timeout=args.timeout, checks=checks, report=checks is not None,
                      **({} if args.sub_group_size is None else {"sub_group_size": args.sub_group_size}))
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    for info, value in zip(kernel.args, values):
        value = value.array if isinstance(value, DeclaredAccess) else value
        image = isinstance(value, (Image, Pipe))
        if image:
            # An image's texels, as the kernel left them; a pipe's readable packets.
            value = value.data if isinstance(value, Image) else value.packets()
        if isinstance(value, np.ndarray) and (image or info.address_space in ("global", "generic")):
            print(summarize(f"{info.name} ({info.type})", value))
            if args.out:
                path = output_path(args.out, info.index, info.name)
                np.save(path, value)
                print(f"  written to {path}")
    if findings:
        for finding in findings:
            print(finding.render(), file=sys.stderr)
        print(f"{len(findings)} finding{'s' if len(findings) != 1 else ''} of the dynamic checks.", file=sys.stderr)
        return 1
    return 0


# ValidatorOptions fields the CLI exposes as --[no-]FEATURE flags for opencl3.0.
_VAL_FEATURES = ("generic_address_space", "pipes", "device_enqueue", "subgroups", "work_group_collective_functions",
                 "int64_atomics", "fp16", "fp64", "images", "read_write_images", "program_scope_global_variables")


def _cmd_amber(args) -> int:
    from .vk.amber import main as amber_main

    return amber_main(args.files)


def _cmd_val(args) -> int:
    from .validate import ValidatorOptions, validate

    options = ValidatorOptions()
    for name in _VAL_FEATURES:
        value = getattr(args, name)
        if value is not None:
            setattr(options, name, value)
    if args.address_bits is not None:
        options.address_bits = args.address_bits
    if args.extension:
        options.extensions = frozenset(args.extension)
    data = _read_bytes(args.input)
    diagnostics = validate(data, args.target_env, options=options, max_errors=args.max_errors or None)
    name = "<stdin>" if args.input == "-" else args.input
    for d in diagnostics:
        print(f"{name}: {d}", file=sys.stderr)
    return 1 if diagnostics else 0


# The arguments of the commands a build system runs over and over (as, dis, info, and val:
# _val_command), in argparse's vocabulary: name -> (description, arguments), an argument being
# (flags, add_argument's keywords, plus "group": the title of an argument group). One table for
# both parsers: argparse's, built from it, and the quick one (_parse_quickly), which reads plain
# command lines without importing argparse.
_ARGUMENT_TABLES = {
    "as": (
        "Assemble SPIR-V assembly text (SPIRV-Tools' format) to a binary module. "
        "Output matches spirv-as word for word except the generator word.",
        (
            (("input",), dict(help="assembly file ('-' for standard input)")),
            (("-o",), dict(dest="output", default="out.spv",
                           help="output file ('-' for standard output; default out.spv)")),
            (("--target-env",), dict(
                default=DEFAULT_TARGET_ENV, choices=list(TARGET_ENV_VERSIONS), metavar="ENV",
                help=f"target environment; picks the SPIR-V version in the header (default {DEFAULT_TARGET_ENV}): "
                + ", ".join(TARGET_ENV_VERSIONS))),
            (("--preserve-numeric-ids",), dict(
                action="store_true", help="numeric ids (%%12) keep their values; named ids fill the gaps from 1")),
            (("--version",), dict(action="version", version=f"spirvkit as {__version__}")),
        ),
    ),
    "dis": (
        "Disassemble a SPIR-V binary (either endianness). Output matches spirv-dis.",
        (
            (("input",), dict(help="binary module ('-' for standard input)")),
            (("-o",), dict(dest="output", default=None, help="output file (default standard output)")),
            (("--raw-id",), dict(action="store_true", help="show raw id numbers instead of friendly names")),
            (("--no-header",), dict(action="store_true", help="omit the header comment")),
            (("--no-indent",), dict(action="store_true", help="do not indent instructions")),
            (("--offsets",), dict(action="store_true", help="show each instruction's byte offset in a comment")),
            (("--comment",), dict(action="store_true", help="add section headings and decoration comments")),
            (("--version",), dict(action="version", version=f"spirvkit dis {__version__}")),
        ),
    ),
    "info": (
        "Print a summary of a SPIR-V binary: version, generator, capabilities, entry points.",
        (
            (("input",), dict(help="binary module ('-' for standard input)")),
            (("--version",), dict(action="version", version=f"spirvkit info {__version__}")),
        ),
    ),
}
_HIDDEN = object()  # a help that is argparse.SUPPRESS (the quick parser has no help to print)


def _val_command() -> tuple:
    """val's table entry; built when needed, since its target environments come from the
    validator's package."""
    from .validate.env import TARGET_ENVS

    envs = [e for e in TARGET_ENVS if not e.startswith("universal")]
    features = "OpenCL 3.0 device features (opencl3.0 and opencl3.0embedded only)"
    arguments = [
        (("input",), dict(help="binary module ('-' for standard input)")),
        (("--target-env",), dict(default="spv1.6", choices=list(TARGET_ENVS), metavar="ENV",
                                 help="target environment (default spv1.6): " + ", ".join(envs)
                                 + " (universal1.x = spv1.x)")),
        (("--max-errors",), dict(type=int, default=1, metavar="N", help="report up to N errors (default 1; 0 = all)")),
    ]
    for name in _VAL_FEATURES:
        flag = name.replace("_", "-")
        arguments += [
            ((f"--{flag}",), dict(dest=name, action="store_true", default=None, help=_HIDDEN, group=features)),
            ((f"--no-{flag}",), dict(dest=name, action="store_false", group=features,
                                     help=f"--{flag} / --no-{flag}: the device has / lacks this feature")),
        ]
    arguments += [
        (("--address-bits",), dict(type=int, choices=(32, 64), help="require Physical32 or Physical64",
                                   group=features)),
        (("--extension",), dict(action="append", metavar="cl_khr_NAME", group=features,
                                help="a device extension that enables capabilities (repeatable)")),
        (("--version",), dict(action="version", version=f"spirvkit val {__version__}")),
    ]
    return ("Validate a SPIR-V binary: the universal SPIR-V rules, and the OpenCL or Vulkan environment rules of "
            "--target-env. Prints nothing and exits 0 when the module is valid; otherwise prints one diagnostic "
            "per error (rule id, spec section, instruction, word offset) and exits 1.", tuple(arguments))


def _command_table(name: str) -> tuple:
    """(description, arguments, the function that runs it) of as, dis, info or val."""
    funcs = {"as": _cmd_as, "dis": _cmd_dis, "info": _cmd_info, "val": _cmd_val}
    return (_val_command() if name == "val" else _ARGUMENT_TABLES[name]) + (funcs[name],)


def _add_table_parser(sub, name: str, help: str) -> None:
    import argparse

    description, arguments, func = _command_table(name)
    p = sub.add_parser(name, help=help, description=description)
    groups = {}
    for flags, keywords in arguments:
        keywords = dict(keywords)
        title = keywords.pop("group", None)
        if keywords.get("help") is _HIDDEN:
            keywords["help"] = argparse.SUPPRESS
        if title is not None and title not in groups:
            groups[title] = p.add_argument_group(title)
        (p if title is None else groups[title]).add_argument(*flags, **keywords)
    p.set_defaults(func=func)


def _parse_quickly(argv: list[str]):
    """``argv`` parsed as argparse would parse it, without argparse (whose import and parser
    building cost a small ``dis`` or ``as`` a third of its time), for as/dis/info/val command
    lines in the plain forms: exact option names, a value as the next argument, each positional
    once. Anything else (help, --version, an abbreviated option, ``-oFILE``, ``--opt=value``,
    ``--``, an argument that starts with '-', a value that is not of the option's type or among
    its choices, a missing or extra argument) gives None: argparse then parses it, and prints
    its help or errors."""
    from types import SimpleNamespace

    if not argv or argv[0] not in ("as", "dis", "info", "val"):
        return None
    _, arguments, func = _command_table(argv[0])
    values = {"command": argv[0]}
    positionals, options = [], {}
    for flags, keywords in arguments:
        if not flags[0].startswith("-"):
            positionals.append(flags[0])
            continue
        # argparse's dest: the first long flag (else the first flag) without its dashes
        dest = keywords.get("dest") or next((f for f in flags if f.startswith("--")), flags[0]).lstrip("-").replace("-", "_")
        action = keywords.get("action", "store")
        for flag in flags:
            options[flag] = dest, action, keywords
        if action != "version":  # (whose dest argparse leaves unset)
            default = keywords.get("default", {"store_true": False, "store_false": True}.get(action))
            if isinstance(default, str) and "type" in keywords:
                default = keywords["type"](default)  # argparse converts a string default
            values.setdefault(dest, default)  # the first default wins, as in argparse
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("-") and arg != "-":
            dest, action, keywords = options.get(arg, (None, None, None))
            if action in ("store_true", "store_false"):
                values[dest] = action == "store_true"
            elif action in ("store", "append") and i + 1 < len(argv):
                value = argv[i + 1]
                if value.startswith("-") and value != "-":
                    return None
                if "type" in keywords:
                    try:
                        value = keywords["type"](value)
                    except (TypeError, ValueError):
                        return None
                if "choices" in keywords and value not in keywords["choices"]:
                    return None
                values[dest] = value if action == "store" else list(values[dest] or ()) + [value]
                i += 1
            else:  # unknown, abbreviated, --version, or a value missing
                return None
        elif positionals:
            values[positionals.pop(0)] = arg
        else:
            return None
        i += 1
    if positionals:
        return None
    values["func"] = func
    return SimpleNamespace(**values)


def _add_amber_parser(sub, name: str, help: str) -> None:
    p = sub.add_parser(
        "amber",
        help=help,
        description="Run AmberScript (and VkScript) files: their compute subset, on spirvkit.vk; a command "
        "outside it is refused by name ('not supported yet'). Exits 0 iff every script ran and all its EXPECTs "
        "held; a failing EXPECT is named by its line with the first differing value. Several files: one line "
        "each and a total.",
    )
    p.add_argument("files", nargs="+", metavar="FILE.amber", help="AmberScript file(s)")
    p.add_argument("--version", action="version", version=f"spirvkit amber {__version__}")
    p.set_defaults(func=_cmd_amber)


def _add_run_parser(sub, name: str, help: str) -> None:
    import argparse

    from .run_args import __doc__ as arg_forms

    p = sub.add_parser(
        "run",
        help=help,
        description="Run one kernel of a SPIR-V module on the CPU and print (and save) its outputs.",
        epilog=arg_forms.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", help="SPIR-V binary (.spv) or OpenCL C source (.cl, compiled on the fly)")
    p.add_argument("--kernel", "-k", help="kernel name (default: the module's only kernel)")
    p.add_argument("--global", dest="global_size", required=True, metavar="X[,Y[,Z]]", help="global size")
    p.add_argument("--local", dest="local_size", metavar="X[,Y[,Z]]", help="local size (default: runtime picks)")
    p.add_argument("--offset", metavar="X[,Y[,Z]]", help="global offset")
    p.add_argument("--arg", "-a", action="append", metavar="SPEC", help="one per kernel parameter, in order")
    p.add_argument("--out", "-o", metavar="DIR", help="write every __global buffer to DIR/<index>_<name>.npy")
    p.add_argument("--unchecked", action="store_true", help="no bounds checks (faster; unsafe on bad kernels)")
    p.add_argument("--check", metavar="all|LIST",
                   help="dynamic checks: all, or a comma-separated list of their names (an unknown name lists "
                        "them: bounds, races, barriers, events, ...); the findings are printed clang-style and the exit "
                        "status is 1 when there are any")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="stop the kernel after this long")
    p.add_argument("--sub-group-size", type=int, metavar="N",
                   help="sub-groups of N work-items (default: one sub-group per work-group)")
    p.add_argument("--version", action="version", version=f"spirvkit run {__version__}")
    p.set_defaults(func=_cmd_run)


def _add_cc_entry(sub, name: str, help: str) -> None:
    # Listed for --help only: main() hands "cc" to _cmd_cc before argparse sees it.
    sub.add_parser("cc", help=help, add_help=False)


# The subcommands, in --help order: name -> (one-line help, the function that adds its parser).
_SUBCOMMANDS = {
    "as": ("assemble SPIR-V assembly text (SPIRV-Tools format) to a binary", _add_table_parser),
    "dis": ("disassemble a SPIR-V binary to assembly text", _add_table_parser),
    "info": ("print a summary of a SPIR-V binary", _add_table_parser),
    "amber": ("run AmberScript compute tests (Vulkan compute shaders on the CPU)", _add_amber_parser),
    "val": ("validate a SPIR-V binary for a target environment", _add_table_parser),
    "run": ("run an OpenCL kernel from a SPIR-V module on the CPU", _add_run_parser),
    "cc": ("compile OpenCL C to SPIR-V (clang-style flags; spirvkit cc --help)", _add_cc_entry),
}


def build_parser(command: str | None = None):
    """The command line's parser. ``command`` (the first argument, when main() parses) builds
    only that subcommand in full: the others are listed, so that argparse knows them and
    ``spirvkit --help`` shows them, but without their arguments, which cost start-up time (and
    whose choices and help would import the validator for ``val``, numpy for ``run``) for
    nothing. None builds every subcommand."""
    import argparse  # not at the top: as, dis, info and val usually go without it (_parse_quickly)

    parser = argparse.ArgumentParser(
        prog="spirvkit",
        description="The SPIR-V compute stack: assemble, disassemble and inspect SPIR-V modules.",
    )
    parser.add_argument("--version", action="version", version=f"spirvkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help, add_parser) in _SUBCOMMANDS.items():
        if command is None or command == name or name == "cc":
            add_parser(sub, name, help)
        else:
            sub.add_parser(name, help=help)
    return parser


CC_USAGE = """usage: spirvkit cc INPUT.cl [-o OUTPUT] [-S] [-cl-std=CL1.2|CL2.0|CL3.0] [-D NAME[=VAL]] [-I DIR]
                   [-w] [-Werror] [-Wno-NAME] [--spirv-version 1.0..1.4] [-cl-fast-relaxed-math] [-cl-mad-enable]
                   [-cl-denorms-are-zero] [-cl-opt-disable] [-g] [-ferror-limit=N]

Compile OpenCL C to SPIR-V (binary, or SPIRV-Tools assembly with -S). Output defaults to INPUT
with .spv (.spvasm with -S); "-o -" writes to stdout. The numerics flags are accepted: they allow
less precise results, and spirvkit's precise ones conform (see spirvkit.clc.compiler).
-ferror-limit=N stops after N errors, as clang does (default 20, 0 for no limit).
"""


def _cmd_cc(argv: list[str]) -> int:
    """``spirvkit cc``: parsed by hand, since clang's single-dash long options (-cl-std=…)
    do not fit argparse."""
    inputs, options, output, assembly = [], [], None, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(CC_USAGE)
            return 0
        if a == "-o":
            if i + 1 >= len(argv):
                print("spirvkit cc: error: argument to '-o' is missing (expected 1 value)", file=sys.stderr)
                return 1
            output = argv[i + 1]
            i += 1
        elif a.startswith("-o") and len(a) > 2:
            output = a[2:]
        elif a == "-S":
            assembly = True
        elif a in ("-D", "-I", "-U", "--spirv-version"):
            options += argv[i:i + 2]
            i += 1
        elif a.startswith("-") and a != "-":
            options.append(a)
        else:
            inputs.append(a)
        i += 1
    if len(inputs) != 1:
        print("spirvkit cc: error: " + ("no input files" if not inputs else "exactly one input file is "
              "supported"), file=sys.stderr)
        print(CC_USAGE, file=sys.stderr)
        return 1
    name = inputs[0]
    try:
        source = _read_text(name)
    except OSError as e:
        print(f"spirvkit cc: error: no such file or directory: '{name}'" if isinstance(e, FileNotFoundError)
              else f"spirvkit cc: error: {e.strerror}: {name}", file=sys.stderr)
        return 1
    from .clc.compiler import compile_cl  # not before: --help and bad arguments need no compiler

    warnings: list = []
    try:
        binary = compile_cl(source, options, filename="<stdin>" if name == "-" else name, diagnostics=warnings)
    except CompileError as e:
        print(e, file=sys.stderr)
        return 1
    except SpirvkitError as e:
        print(f"spirvkit cc: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug in spirvkit: say so plainly, never a traceback
        print(f"spirvkit cc: internal error: {type(e).__name__}: {e} (please report this)", file=sys.stderr)
        return 2
    if warnings:
        print("\n".join(w.render(None) for w in warnings), file=sys.stderr)
        # clang's summary line (errors get theirs from CompileError)
        print(f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''} generated.", file=sys.stderr)
    if output is None:
        base = "out" if name == "-" else str(Path(name).with_suffix(""))
        output = base + (".spvasm" if assembly else ".spv")
    if assembly:
        from .spirv.text.disassembler import disassemble
        _write(output, disassemble(binary))
    else:
        _write(output, binary)
    return 0


def _version_fits_one_line() -> bool:
    """Whether argparse would print ``spirvkit --version`` on one line: it wraps the text to the
    terminal's width (COLUMNS, else the terminal's, else 80 columns) less 2, and never narrower
    than 11 characters."""
    import os

    if "COLUMNS" in os.environ:
        return False  # argparse decides
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return True  # not a terminal: 80 columns
    return columns == 0 or columns - 2 >= len(f"spirvkit {__version__}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "cc":
        return _cmd_cc(argv[1:])
    if argv == ["--version"] and _version_fits_one_line():
        print(f"spirvkit {__version__}")  # what argparse's version action prints, without argparse
        raise SystemExit(0)
    args = _parse_quickly(argv)
    if args is None:
        parser = build_parser(argv[0] if argv else "")
        args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    try:
        return args.func(args)
    except (AssemblyError, CompileError) as e:  # already 'file:line:col: error: ...' with the line and a caret
        print(e, file=sys.stderr)
        return 1
    except KernelCheckError as e:   # each finding clang-style, with its source line and a caret
        print(e.render(), file=sys.stderr)
        return 1
    except SpirvkitError as e:
        name = getattr(args, "input", None)   # (amber takes several files: its errors name theirs)
        name = "<stdin>" if name == "-" else name or "spirvkit"
        print(f"{name}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"spirvkit: error: {e.strerror or e}: {getattr(e, 'filename', '') or getattr(args, 'input', '')}",
              file=sys.stderr)
        return 1
    except ValueError as e:  # e.g. an unknown target environment given through the API's checks
        print(f"spirvkit: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug in spirvkit: say so plainly, never a traceback
        print(f"spirvkit: internal error: {type(e).__name__}: {e} (please report this)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("spirvkit: interrupted", file=sys.stderr)
        return 130
