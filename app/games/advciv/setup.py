"""A new game (§15–§16): the nations drafted (or the first ones available), each with its token total for
the number of players, 9 cities and 4 ships in stock and an empty treasury; then the start tokens, placed
in pick order (a nation with one start area in play gets it at once)."""

from __future__ import annotations

from collections.abc import Mapping

from app.games.advciv import flow
from app.games.advciv.model import NOBODY, Nation, State, options_set
from app.games.advciv.tables import AREAS, in_play, nations_for, tokens_for
from app.games.advciv.trade_cards import TradeCardOptions, build_deck
from app.games.advciv.tx import Tx
from app.games.kit.rng import RandBelow, below, seeded

DECK_SALT = 0x7EADCA4D  # the deck is shuffled from its own word, so that the game's draws stay as they were


def drafted_nations(players: int, draft: Mapping[int, str]) -> tuple[str, ...]:
    """Each seat's nation: the draft's when given, else the first available nations in A.S.T. order."""
    available = nations_for(players)
    if not draft:
        if len(available) < players:
            raise ValueError(f"only {len(available)} nations can be played by {players} players")
        return available[:players]
    chosen = tuple(draft[seat] for seat in range(players))
    if len(set(chosen)) != players or not set(chosen) <= set(available):
        raise ValueError(f"the draft {dict(draft)} is not {players} different nations of {available}")
    return chosen


def deck_randbelow(seed: int) -> RandBelow:
    """A generator for the deck's set-up (§15.2), drawn from the seed apart from the game's own word."""
    word = seeded(seed ^ DECK_SALT)

    def randbelow(n: int) -> int:
        nonlocal word
        word, value = below(word, n)
        return value

    return randbelow


def new_game(
    players: int,
    seed: int,
    draft: Mapping[int, str],
    tokens: int | None,
    trade: TradeCardOptions | None = None,
) -> State:
    total = tokens or tokens_for(players)
    options = trade or TradeCardOptions()
    empty = (0,) * AREAS
    nations = tuple(
        Nation(nation=name, stock=total, treasury=0, tokens=empty, token_total=total)
        for name in drafted_nations(players, draft)
    )
    state = State(
        players=nations,
        cities=(NOBODY,) * AREAS,
        rng=seeded(seed),
        in_play=in_play(players),
        order=tuple(range(players)),
        deck=build_deck(players, deck_randbelow(seed), options),
        hands=((),) * players,
        unsupporting=(0,) * players,
        grain_shown=(0,) * players,
        options=options_set(options),
    )
    tx = Tx(state)
    flow.advance(tx)
    return tx.state
