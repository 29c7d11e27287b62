"""The absence ladder: a warning before the deadline, missed turns in a row, eviction and the vote.

Times are tz-aware UTC datetimes; durations are timedelta; counts are plain ints.

A missed turn is a timeout: the site played the default order because the deadline passed. An order
entered before the deadline resets the count. A player is evicted after X missed turns in a row, where
X = max(2, preset + stage - crowd - votes):
- preset: chosen at game creation (4 unless the creator changes it);
- stage: 0 in the first third of the game's expected length, 1 in the second, 2 in the last (and beyond);
- crowd: 1 with 6 players or more, else 0 (an absent player there keeps more people waiting);
- votes: once a player has missed 2 turns in a row, each other player may vote to evict them sooner,
  and each vote lowers X by one; X never goes below 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.clock._local import as_utc
from app.clock.limits import scale

EVICTION_FLOOR = 2  # nobody is evicted for fewer missed turns in a row, votes or not


@dataclass(frozen=True)
class AbsenceLadder:
    """The per-game settings of the ladder, chosen at creation and shown to the players."""

    warning_percent: int = 80  # the warning goes out when this share of the wait has passed
    eviction_preset: int = 4  # X before the game's stage, its size and the votes move it
    vote_after: int = 2  # missed turns in a row before the others may vote to evict sooner
    crowd_size: int = 6  # from this many players on, X is one lower

    def __post_init__(self) -> None:
        if not 0 < self.warning_percent < 100:
            raise ValueError(f"warning_percent must be between 0 and 100, got {self.warning_percent}")
        if self.eviction_preset < EVICTION_FLOOR:
            raise ValueError(f"eviction_preset must be at least {EVICTION_FLOOR}")
        if self.vote_after < 1:
            raise ValueError("vote_after must be at least 1")


DEFAULT_LADDER = AbsenceLadder()


def warning_at(
    started_at: datetime, deadline: datetime | None, ladder: AbsenceLadder = DEFAULT_LADDER
) -> datetime | None:
    """When to warn the awaited player: 80% of the way from the wait's start to its effective deadline."""
    if deadline is None:
        return None
    start = as_utc(started_at, "started_at")
    return start + scale(as_utc(deadline, "deadline") - start, ladder.warning_percent, 100)


def missed_in_row_after(previous: int, timed_out: bool) -> int:
    """The count of missed turns in a row after a wait ends, by a timeout or by the player's order."""
    return previous + 1 if timed_out else 0


def game_stage(turn: int, game_length: int) -> int:
    """0, 1 or 2: which third of its expected length (in game turns) the game's current turn is in."""
    if turn < 1 or game_length < 1:
        raise ValueError(f"turn and game length start at 1, got turn {turn} of {game_length}")
    return min(2, 3 * (turn - 1) // game_length)


def eviction_threshold(
    players: int, turn: int, game_length: int, votes: int = 0, ladder: AbsenceLadder = DEFAULT_LADDER
) -> int:
    """X: the number of missed turns in a row that evicts a player (see the module's docstring)."""
    if players < 1 or votes < 0:
        raise ValueError(f"need at least one player and no negative votes, got {players}, {votes}")
    crowd = 1 if players >= ladder.crowd_size else 0
    return max(EVICTION_FLOOR, ladder.eviction_preset + game_stage(turn, game_length) - crowd - votes)


def may_vote_to_evict(missed_in_row: int, ladder: AbsenceLadder = DEFAULT_LADDER) -> bool:
    """Whether the other players may vote to evict a player who has missed this many turns in a row."""
    return missed_in_row >= ladder.vote_after


def is_evicted(missed_in_row: int, threshold: int) -> bool:
    """Whether a player with this many missed turns in a row is evicted at threshold X."""
    return missed_in_row >= threshold
