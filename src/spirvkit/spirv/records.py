"""Plain record classes for the grammar and the module model, without ``dataclasses``.

``import dataclasses`` pulls in ``inspect`` (and with it ``ast``, ``dis``, ``tokenize`` ...), and
each ``@dataclass`` compiles its methods when its class is defined: together more than a third of
what ``spirvkit dis`` on a small module used to cost. The classes that ``as``, ``dis`` and ``info``
need write their ``__init__`` by hand and take ``__repr__`` (and, where a dataclass compared by
value, ``__eq__``) from these bases, which read the field names from ``_fields``.
"""

from __future__ import annotations


class Record:
    """A class whose ``_fields`` (a tuple of attribute names, in ``__init__`` order) make its
    ``__repr__`` (``Name(field=value, ...)``, as a dataclass prints). Equality is identity."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({args})"


class ValueRecord(Record):
    """A :class:`Record` equal to another of the same class with equal fields (unhashable, as a
    dataclass with ``eq=True``)."""

    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        fields = self._fields
        return tuple(getattr(self, name) for name in fields) == tuple(getattr(other, name) for name in fields)

    __hash__ = None  # type: ignore[assignment]

    def replace(self, **changes):
        """A new record of this class with ``changes`` and the other fields of this one, as
        ``dataclasses.replace`` makes (``__init__`` takes every field by name)."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no field(s) {', '.join(sorted(unknown))}")
        return type(self)(**{name: changes.get(name, getattr(self, name)) for name in self._fields})
