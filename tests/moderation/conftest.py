"""Moderation tests: fast password hashing (every test signs several people up)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.moderation.helpers import fast_passwords


@pytest.fixture(autouse=True)
def _fast_passwords() -> Iterator[None]:
    with fast_passwords():
        yield
