"""Names a package exports but imports at first use (PEP 562), so that importing the package
stays cheap: ``__getattr__, __dir__ = lazy_exports(__name__, {"Name": ".module", ...}, __all__)``."""

from __future__ import annotations

import importlib
import sys


def lazy_exports(package: str, sources: dict[str, str], names: list[str]):
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``: ``sources`` maps an
    exported name to the (relative) module defining it; a name, once imported, becomes a plain
    attribute of the package."""

    def __getattr__(name: str):
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source, package), name)
        setattr(sys.modules[package], name, value)  # the next look-up is a plain attribute
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
