"""Tools for a game's frozen state: cheap copies, per-value memos, and dumps to and from JSON.

A game's state is a tree of frozen dataclasses (no `__post_init__`, no slots) whose fields are scalars,
tuples, `X | None` and other such dataclasses. Then:

    evolve(state, phase="over")          # a copy with fields changed (drops any memo)
    memo(state, "regions", compute)      # compute() once per value and key
    to_json(state), from_json(State, data)

`from_json` is driven by the type hints; a field missing from `data` takes its default, so a field added
with a default keeps older dumps loadable.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")
R = TypeVar("R")
_MEMO = "_memo"


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


def to_json(value: Any) -> Any:
    """Dataclasses to dicts and tuples to lists, recursively."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    return value


def from_json(kind: Any, data: Any) -> Any:
    """The inverse of `to_json` for a value of type `kind`."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        if data is None:
            return None
        (inner,) = [arg for arg in get_args(kind) if arg is not type(None)]
        return from_json(inner, data)
    if origin is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], item) for item in data)
        return tuple(from_json(arg, item) for arg, item in zip(args, data, strict=True))
    if isinstance(kind, type) and is_dataclass(kind):
        hints = _hints(kind)
        return kind(
            **{name: from_json(hints[name], data[name]) for name in _field_names(kind) if name in data}
        )
    return data


@cache
def _hints(kind: type) -> dict[str, Any]:
    return get_type_hints(kind)


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(kind))
