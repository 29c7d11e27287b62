"""Rules 3.1, setup and phase 1: the hands dealt, the decks, the province reveal with its free items, and
the power-card deck reshuffled when it runs out."""

from __future__ import annotations

import pytest

from app.games.amunre import RULES, cards
from app.games.amunre.board import BOARD
from app.games.amunre.cards import plus, value
from app.games.amunre.flow import start_round
from app.games.amunre.tx import Tx
from app.games.kit.model import evolve
from tests.games.amunre.helpers import game, index, play, with_player


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_starts_with_20_gold_the_minus_three_and_a_master_builder(players: int) -> None:
    state = game(players)
    for player in state.players:
        assert value(player.gold) == 20 and player.minus_three and player.powers == (cards.MASTER_BUILDER,)
    assert state.minus_three_out == 5 - players  # unused "-3" cards leave the game
    assert len(state.deck) + sum(len(p.free_cards) for p in state.provinces) == 39 - players
    assert state.round == 1 and state.pharaoh == 0 and state.temple == 0
    assert len(state.revealed) == players and state.phase == "auction"


def test_free_items_are_put_on_the_revealed_provinces() -> None:
    state = game(3)
    order = (index("Dakhla"), index("Memphis"), index("Thebes"), *range(3, 15))
    tx = Tx(evolve(state, round=0, province_deck=order, used=()))
    start_round(tx)
    dakhla, memphis, thebes = (tx.state.provinces[index(n)] for n in ("Dakhla", "Memphis", "Thebes"))
    assert value(dakhla.free_gold) == 12 and len(dakhla.free_cards) == 1
    assert memphis.blocks == 2 and len(thebes.free_cards) == 2
    view = RULES.view(tx.state, 1)["provinces"][index("Thebes")]
    assert view["free_cards"] == 2 and "free_card_names" not in view  # face down: only how many


def test_dakhla_gives_12_gold_whatever_the_bank_holds() -> None:
    """The text: "Dakhla: 1 carte de pouvoir et 12 or". With no 1- or 2-gold card in the bank, the 10
    it can lay out is on the province and its buyer is paid the other 2 with change, as every payment is."""
    state = game(3)
    small = (*state.bank[:2], 0, 0, 0)  # every 1- and 2-gold card of the bank, into a hand
    state = with_player(state, 2, gold=plus(state.players[2].gold, small))
    state = evolve(state, bank=(0, 0, *state.bank[2:]))
    order = (index("Dakhla"), index("Memphis"), index("Thebes"), *range(3, 15))
    tx = Tx(evolve(state, round=0, province_deck=order, used=()))
    start_round(tx)
    state = tx.state
    assert RULES.view(state, None)["provinces"][index("Dakhla")]["free_gold"] == 12
    for seat, province in enumerate(("Dakhla", "Memphis", "Thebes")):
        state, events = play(state, seat, {"type": "bid", "province": province, "amount": 0})
    assert state.phase == "buy" and state.provinces[index("Dakhla")].owner == 0
    assert value(state.players[0].gold) == 20 + 12
    assert {"seat": 0, "amount": 12} in [event.data for event in events if event.kind == "province_gold"]
    assert state.gold_total() == tuple(cards.GOLD_COUNTS)


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    state = evolve(game(3), deck=(), discard=(cards.EIGHT_GOLD, cards.FREE_FARMER))
    tx = Tx(state)
    card = tx.draw_power()
    assert card in (cards.EIGHT_GOLD, cards.FREE_FARMER) and len(tx.state.deck) == 1 and not tx.state.discard
    assert "deck_reshuffled" in [event.kind for event in tx.events]
    assert BOARD.provinces[index("Dakhla")].free_gold == 12
