"""pyopencl's error classes: ``Error`` (with ``code``, ``routine``, ``what``), and its
``LogicError`` (a mistake in the calling program), ``RuntimeError`` (a failure while running) and
``MemoryError`` subclasses."""

from __future__ import annotations

import builtins

from .constants import status_code


class _ErrorRecord:
    """What pyopencl's ``Error.args[0]`` holds: ``routine()``, ``code()``, ``what()``."""

    def __init__(self, what: str, routine: str, code: int):
        self._what, self._routine, self._code = what, routine, code

    def routine(self) -> str:
        return self._routine

    def code(self) -> int:
        return self._code

    def what(self) -> str:
        return self._what

    def is_out_of_memory(self) -> bool:
        return self._code in (status_code.MEM_OBJECT_ALLOCATION_FAILURE, status_code.OUT_OF_RESOURCES,
                              status_code.OUT_OF_HOST_MEMORY)

    def __str__(self):
        name = status_code.to_string(self._code, "<unknown error {}>")
        return f"{self._routine} failed: {name}" + (f" - {self._what}" if self._what else "")


class Error(builtins.Exception):
    """An OpenCL error: ``code`` (a ``status_code``), ``routine`` (the OpenCL call), ``what``."""

    def __init__(self, what: str, routine: str = "", code: int = status_code.INVALID_VALUE):
        record = _ErrorRecord(what, routine, code)
        super().__init__(record)

    @property
    def code(self) -> int:
        return self.args[0].code()

    @property
    def routine(self) -> str:
        return self.args[0].routine()

    @property
    def what(self) -> str:
        return self.args[0].what()

    def __str__(self):
        return str(self.args[0])


class MemoryError(Error, builtins.MemoryError):
    pass


class LogicError(Error):
    pass


class RuntimeError(Error):
    pass


def info_attribute(consts, obj, param, routine: str):
    """``obj.get_info(param)``: the attribute that ``param`` (a constant of ``consts``) names."""
    name = consts.to_string(param, "") if isinstance(param, int) else ""
    if not name or not hasattr(obj, name.lower()):
        raise LogicError(f"unknown or unsupported parameter {param!r}", routine, status_code.INVALID_VALUE)
    return getattr(obj, name.lower())
