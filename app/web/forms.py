"""HTML forms to plain mappings: `a.b=1` becomes {"a": {"b": "1"}}, and the values of a name ending in `[]`
(checkboxes sharing a name) a list: `a[]=x&a[]=y` becomes {"a": ["x", "y"]}, and `a[0].b=1` a list of
mappings: {"a": [{"b": "1"}]}. Empty fields are left out.

Values stay strings: the pydantic models behind the services and the rules read "3" as 3 and "on" as true.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.datastructures import FormData

INDEXED = re.compile(r"(\w+)\[(\d+)\]")
MAX_INDEX = 31  # a form's list is short: a larger index lands on the last item


def nested_fields(form: FormData, skip: Iterable[str] = ()) -> dict[str, Any]:
    skipped = set(skip)
    result: dict[str, Any] = {}
    for key, value in form.multi_items():
        if key in skipped or not isinstance(value, str) or value == "":
            continue
        target = result
        *parents, leaf = key.split(".")
        for part in parents:
            target = _child(target, part)
        if leaf.endswith("[]"):
            values = target.setdefault(leaf[:-2], [])
            if not isinstance(values, list):
                values = target[leaf[:-2]] = []
            values.append(value)
        else:
            target[leaf] = value
    return result


def _child(target: dict[str, Any], part: str) -> dict[str, Any]:
    """The mapping a dotted name goes on into: `a` a nested mapping, `a[2]` the third item of a list."""
    indexed = INDEXED.fullmatch(part)
    if indexed is None:
        child = target.setdefault(part, {})
        if not isinstance(child, dict):
            child = target[part] = {}
        return child
    name, index = indexed.group(1), min(int(indexed.group(2)), MAX_INDEX)
    items = target.setdefault(name, [])
    if not isinstance(items, list):
        items = target[name] = []
    while len(items) <= index:
        items.append({})
    if not isinstance(items[index], dict):
        items[index] = {}
    item: dict[str, Any] = items[index]
    return item


async def read_form_fields(request: Request) -> dict[str, Any]:
    """A dependency, so that sync endpoints (which run in a thread) get the parsed form."""
    return nested_fields(await request.form(), skip=("csrf_token",))


FormFields = Annotated[dict[str, Any], Depends(read_form_fields)]
