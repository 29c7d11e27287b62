"""The helpers every game shares: the seeded generator, the transaction, frozen-state tools, `Legal`."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from app.games.contract import FormOrder
from app.games.kit import rng
from app.games.kit.legal import Choice, Legal
from app.games.kit.model import evolve, from_json, memo, to_json
from app.games.kit.tx import SeatedTx, Tx


@dataclass(frozen=True)
class Piece:
    name: str
    count: int = 0


@dataclass(frozen=True)
class Table:
    players: tuple[Piece, ...]
    rng: int
    pair: tuple[int, str] = (0, "")
    best: Piece | None = None
    added: tuple[int, ...] = ()  # a field added later: absent from older dumps


class Pick(FormOrder):
    type: Literal["pick"]
    value: int = 0


def test_splitmix64_follows_the_reference_sequence() -> None:
    word, first = rng.splitmix64(0)
    _, second = rng.splitmix64(word)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)
    assert rng.seeded(1234) == rng.splitmix64(1234)[0] and rng.seeded(-1) == rng.seeded(rng.MASK64)


def test_below_is_in_range_reproducible_and_covers_the_range() -> None:
    word, seen = rng.seeded(5), set()
    for _ in range(200):
        word, value = rng.below(word, 7)
        assert 0 <= value < 7
        seen.add(value)
    assert seen == set(range(7))
    assert rng.below(rng.seeded(5), 7) == rng.below(rng.seeded(5), 7)


def test_below_draws_again_past_the_last_whole_multiple() -> None:
    outputs = iter([(1, (1 << 64) - 1), (2, 10)])  # the first output lies past the last multiple of 3
    assert rng.below(0, 3, lambda word: next(outputs)) == (2, 1)


def test_the_transaction_draws_moves_the_word_and_never_touches_the_first_state() -> None:
    first = Table(players=(Piece("a"), Piece("b")), rng=rng.seeded(3))
    tx = SeatedTx[Table, Piece](first)
    cards = tx.shuffle(range(10))
    assert sorted(cards) == list(range(10)) and tx.state.rng != first.rng
    assert tx.choice("xyz") in "xyz" and tx.weighted([0, 5, 0]) == 1
    tx.update_player(1, count=4)
    tx.emit("counted", to=[1], count=4)
    assert tx.player(1) == Piece("b", 4) and first.players[1] == Piece("b")
    assert tx.events[0].to == frozenset({1}) and tx.events[0].data == {"count": 4}

    again = Tx(first)
    assert again.shuffle(range(10)) == cards  # the same word draws the same


def test_evolve_drops_the_memo_and_dumps_load_back_with_defaults() -> None:
    table = Table(players=(Piece("a", 2),), rng=7, pair=(1, "x"), best=Piece("b"))
    assert memo(table, "k", lambda: 5) == 5 and memo(table, "k", lambda: 6) == 5
    changed = evolve(table, rng=8)
    assert memo(changed, "k", lambda: 6) == 6 and changed == Table(table.players, 8, (1, "x"), Piece("b"))
    assert from_json(Table, to_json(table)) == table
    older = to_json(table)
    del older["added"]
    assert from_json(Table, older) == table


def test_legal_offers_only_its_choices() -> None:
    choices = (Choice(Pick(type="pick", value=1), "One"), Choice(Pick(type="pick", value=2), "Two"))
    legal = Legal("pick", "pick", ("pick",), choices[0].order, choices, context={"why": "test"})
    assert legal.offers(Pick(type="pick", value=2)) and not legal.offers(Pick(type="pick", value=3))
    picked = {legal.random_choice(random.Random(seed))["value"] for seed in range(20)}
    assert picked == {1, 2}
    assert legal.to_json()["choices"][1] == {"order": {"type": "pick", "value": 2}, "label": "Two"}
