"""Bots at the table: which seats a bot plays (their waits are due at once), and what they are called.

A game may be created with bot seats (`Game.bot_seats`, status "bot", no holder): a practice game, unrated
and counted in no one's statistics. A game may also be created with `bots_keep_seats`: a seat that opens
(a quit without a named replacement taking it, an eviction, a ban) is played by a bot until a replacement
takes it, who finds the nation as the bot left it. A bot never plays a seat that has a holder, however late.

A bot's waits are due at once (`app.services.deadlines.deadlines.set_timers`); the `bots` job
(`app.services.jobs.bots`) plays them through the order path, with origin "bot".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.models.records import GameFacts, SeatFacts

BOT_MARK = "🤖"  # never part of a player's name (a display name is letters, digits, spaces and . ' -)


def plays_seat(game: GameFacts, seat: SeatFacts) -> bool:
    """Whether a bot plays this seat now: a bot seat, or an open seat of a game whose bots keep them."""
    return seat.status == "bot" or (seat.status == "open" and game.bots_keep_seats)


def bot_played(game: GameFacts) -> frozenset[int]:
    """The numbers of the seats a bot plays now."""
    return frozenset(s.number for s in game.seats if s.number is not None and plays_seat(game, s))


def bot_name(ordinal: int) -> str:
    """The name of the game's `ordinal`-th bot seat (from 1), with the bot mark."""
    return f"Bot {ordinal} {BOT_MARK}"


def is_bot_name(name: str) -> bool:
    return name.endswith(BOT_MARK)


def bot_names(game: GameFacts) -> dict[int, str]:
    """Each bot seat's name, by the seat's id: numbered in the order the seats were made."""
    bots = [seat for seat in game.seats if seat.status == "bot"]
    return {seat.id: bot_name(ordinal) for ordinal, seat in enumerate(bots, start=1)}


def seat_name(game: GameFacts, seat: SeatFacts, names: Mapping[Any, str]) -> str | None:
    """The name shown for a seat: its holder's, a bot's, or None for an open seat."""
    if seat.status == "bot":
        return bot_names(game).get(seat.id)
    return names.get(seat.user_id) if seat.user_id is not None else None


def rated(game: GameFacts) -> bool:
    """A game with bot seats is neither rated nor counted in anyone's statistics."""
    return game.bot_seats == 0
