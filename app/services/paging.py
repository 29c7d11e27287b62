"""One page of a long list: which page, how long a page is, and how many items the whole list has."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    size: int
    total: int  # items in the whole list

    @classmethod
    def at(cls, wanted: int, size: int, total: int) -> Page:
        """The wanted page, brought within the list (an empty list has one empty page)."""
        last = max(1, -(-total // size))
        return cls(min(max(1, wanted), last), size, total)

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size

    @property
    def count(self) -> int:
        """How many pages the list has."""
        return max(1, -(-self.total // self.size))

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.count
