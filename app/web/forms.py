"""HTML forms to plain mappings: `a.b=1` becomes {"a": {"b": "1"}}, and the values of a name ending in `[]`
(checkboxes sharing a name) a list: `a[]=x&a[]=y` becomes {"a": ["x", "y"]}. Empty fields are left out.

Values stay strings: the pydantic models behind the services and the rules read "3" as 3 and "on" as true.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.datastructures import FormData


def nested_fields(form: FormData, skip: Iterable[str] = ()) -> dict[str, Any]:
    skipped = set(skip)
    result: dict[str, Any] = {}
    for key, value in form.multi_items():
        if key in skipped or not isinstance(value, str) or value == "":
            continue
        target = result
        *parents, leaf = key.split(".")
        for part in parents:
            child = target.setdefault(part, {})
            if not isinstance(child, dict):
                child = target[part] = {}
            target = child
        if leaf.endswith("[]"):
            values = target.setdefault(leaf[:-2], [])
            if not isinstance(values, list):
                values = target[leaf[:-2]] = []
            values.append(value)
        else:
            target[leaf] = value
    return result


async def read_form_fields(request: Request) -> dict[str, Any]:
    """A dependency, so that sync endpoints (which run in a thread) get the parsed form."""
    return nested_fields(await request.form(), skip=("csrf_token",))


FormFields = Annotated[dict[str, Any], Depends(read_form_fields)]
