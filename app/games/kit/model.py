"""Tools for a game's frozen state: cheap copies, per-value memos, and dumps to and from JSON.

A game's state is a tree of frozen dataclasses (no `__post_init__`, no slots) whose fields are scalars,
tuples, `X | None` and other such dataclasses. Then:

    evolve(state, phase="over")          # a copy with fields changed (drops any memo)
    memo(state, "regions", compute)      # compute() once per value and key
    to_json(state), from_json(State, data)

`from_json` is driven by the type hints; a field missing from `data` takes its default. A field added
once games were stored is declared `name: int = added(0)`: dumped only when it differs from its default,
so the dumps of older games stay as they were (and a replay of one still matches its stored state).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import field, fields, is_dataclass
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")
R = TypeVar("R")
_MEMO = "_memo"
_ADDED = "added"


def evolve(value: T, **changes: Any) -> T:
    """A copy with some fields changed, cheaper than `dataclasses.replace`, dropping any memo."""
    data = value.__dict__
    assert changes.keys() <= data.keys(), changes
    copy = object.__new__(type(value))
    copied = copy.__dict__
    copied.update(data)
    copied.pop(_MEMO, None)
    copied.update(changes)
    return copy


def memo(value: object, key: Any, compute: Callable[[], R]) -> R:
    """`compute()` once per frozen value and key. The memo is not a field: equality and dumps ignore it."""
    cached: dict[Any, Any] = value.__dict__.setdefault(_MEMO, {})
    if key not in cached:
        cached[key] = compute()
    result: R = cached[key]
    return result


def replaced(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """`items` with the one at `index` replaced by `item`."""
    return (*items[:index], item, *items[index + 1 :])


def added(default: T) -> T:
    """The default of a field added once games were stored (see the module's docstring)."""
    made: T = field(default=default, metadata={_ADDED: True})
    return made


def to_json(value: Any) -> Any:
    """Dataclasses to dicts and tuples to lists, recursively; an `added` field only if not its default."""
    kind: type = type(value)
    if kind in _SCALARS:
        return value
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    plan = _dump_plan(kind)
    if plan is None:
        return value
    items = ((name, getattr(value, name), skip) for name, skip in plan)  # a dataclass may have slots
    return {name: to_json(item) for name, item, skip in items if skip is _ALWAYS or item != skip}


_SCALARS = frozenset({int, str, bool, float, type(None)})
_ALWAYS = object()  # in a dump plan: a field dumped whatever its value


@cache
def _dump_plan(kind: type) -> tuple[tuple[str, Any], ...] | None:
    """A dataclass's fields, each with the default at which it is left out of the dump (an `added` field)
    or `_ALWAYS`; None for a kind that is not a dataclass (dumped as it is)."""
    if not is_dataclass(kind):
        return None
    return tuple((f.name, f.default if f.metadata.get(_ADDED) else _ALWAYS) for f in fields(kind))


def from_json(kind: Any, data: Any) -> Any:
    """The inverse of `to_json` for a value of type `kind`."""
    return _decoder(kind)(data)


def _same(data: Any) -> Any:
    return data


@cache
def _decoder(kind: Any) -> Callable[[Any], Any]:
    """The function that reads a dumped value of type `kind`, made once per type from its hints."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        (inner,) = [arg for arg in get_args(kind) if arg is not type(None)]
        read = _decoder(inner)
        return lambda data: None if data is None else read(data)
    if origin is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return tuple if item is _same else lambda data: tuple([item(each) for each in data])
        items = tuple(_decoder(arg) for arg in args)
        return lambda data: tuple([read(each) for read, each in zip(items, data, strict=True)])
    if isinstance(kind, type) and is_dataclass(kind):
        return _record(kind)
    return _same


def _record(kind: type) -> Callable[[Any], Any]:
    def decode(data: Any) -> Any:
        return kind(**{name: read(data[name]) for name, read in _field_decoders(kind) if name in data})

    return decode


@cache
def _field_decoders(kind: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Each field of a dataclass with its decoder, made on first use (so that a type may refer to itself)."""
    hints = get_type_hints(kind)
    return tuple((f.name, _decoder(hints[f.name])) for f in fields(kind))
