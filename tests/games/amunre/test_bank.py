"""The bank's gold is its cards: a bank that runs dry pays what it has."""

from __future__ import annotations

from app.games.amunre.cards import NO_GOLD, minus, plus, value
from app.games.amunre.tx import Tx
from tests.games.amunre.helpers import game, gold

RED = 0


def test_a_bank_worth_less_than_the_income_gives_all_it_has() -> None:
    state = game(3)
    left = gold(1, 2)
    tx = Tx(state)
    tx.update_player(RED, gold=plus(tx.player(RED).gold, minus(state.bank, left)))
    tx.set(bank=left)
    before = value(tx.player(RED).gold)
    tx.receive(RED, 10, "income")
    assert tx.state.bank == NO_GOLD
    assert value(tx.player(RED).gold) == before + 3
    assert [event.data["amount"] for event in tx.events if event.kind == "gold_received"] == [3]
