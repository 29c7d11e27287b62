"""One order's work in progress over an Advanced Civilization state, with the moves of pieces that keep
every count conserved: a token is always in stock, in treasury or on the board."""

from __future__ import annotations

from collections.abc import Mapping

from app.games.advciv.model import NOBODY, Nation, State
from app.games.advciv.tables import KEYS
from app.games.kit.model import replaced
from app.games.kit.tx import SeatedTx


class Tx(SeatedTx[State, Nation]):
    def place(self, seat: int, area: int, count: int) -> None:
        """`count` tokens from stock onto `area` (negative: back to stock)."""
        self.place_many(seat, {area: count})

    def place_many(self, seat: int, counts: Mapping[int, int]) -> None:
        """Tokens from stock onto each area, `counts[area]` of them (negative: back to stock)."""
        if not any(counts.values()):
            return
        nation = self.player(seat)
        tokens = list(nation.tokens)
        for area, count in counts.items():
            tokens[area] += count
        self.update_player(seat, stock=nation.stock - sum(counts.values()), tokens=tuple(tokens))

    def shift(self, seat: int, origin: int, to: int, count: int) -> None:
        """`count` tokens from `origin` to `to` on the board."""
        tokens = self.player(seat).tokens
        tokens = replaced(tokens, origin, tokens[origin] - count)
        self.update_player(seat, tokens=replaced(tokens, to, tokens[to] + count))

    def to_treasury(self, seat: int, count: int) -> None:
        nation = self.player(seat)
        self.update_player(seat, stock=nation.stock - count, treasury=nation.treasury + count)

    def set_city(self, area: int, seat: int) -> None:
        """A city of `seat` on `area` (NOBODY: the city there goes back to its owner's stock)."""
        self.set(cities=replaced(self.state.cities, area, seat))

    def clear_tokens(self, area: int) -> None:
        """Every token on `area` back to its owner's stock."""
        for seat, nation in enumerate(self.state.players):
            if nation.tokens[area]:
                self.place(seat, area, -nation.tokens[area])

    def reduce_city(self, area: int, tokens: int) -> int:
        """The city on `area` goes back to stock and up to `tokens` of its owner's stock take its place;
        returns how many were placed."""
        seat = self.state.cities[area]
        placed = min(tokens, self.player(seat).stock)
        self.set_city(area, NOBODY)
        self.place(seat, area, placed)
        return placed


def key(area: int) -> str:
    return KEYS[area]
