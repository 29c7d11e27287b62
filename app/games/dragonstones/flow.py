"""Setup and the automatic steps between decisions: powers without choices, next card, rounds.

A round: draw two specials, shuffle them with the seven base cards into a hidden pile, auction the Witch,
then each card of the pile in turn. The round ends when the pile is empty (the Goblin and the Imp use
cards up, so a round may have fewer than ten auctions).
"""

from __future__ import annotations

from dataclasses import replace

from app.games.contract import RuleError
from app.games.dragonstones.characters import BASE_PILE, SPECIAL_DECK, WITCH
from app.games.dragonstones.model import (
    COIN_SUPPLY,
    START_COINS,
    STONE_SUPPLY,
    Auction,
    Coins,
    Player,
    State,
    Stones,
)
from app.games.dragonstones.powers import POWERS, run_power
from app.games.dragonstones.tx import Tx
from app.games.kit.rng import seeded

STARTING_STONES = 4


def new_game(players: int, seed: int, points_to_win: int) -> State:
    if not 3 <= players <= 6:
        raise RuleError("invalid_players", "Dragonstones is for 3 to 6 players.")
    tx = Tx(
        State(
            players=tuple(Player(screen=START_COINS) for _ in range(players)),
            bank=COIN_SUPPLY.minus(Coins(*(n * players for n in START_COINS.as_dict().values()))),
            bank_stones=STONE_SUPPLY,
            points_to_win=points_to_win,
            rng=seeded(seed),
            round=0,
            specials=(),
            pile=(),
            played=(),
            deck=(),
            used=(),
            doppelganger=None,
            phase="bid",
            auction=Auction(WITCH, 0, ()),
        )
    )
    for seat in range(players):
        for _ in range(STARTING_STONES):
            stone = Stones.of(tx.draw_stone(tx.state.bank_stones))
            tx.set(bank_stones=tx.state.bank_stones.minus(stone))
            tx.update_player(seat, stones=tx.player(seat).stones.plus(stone))
    tx.set(deck=tx.shuffle(SPECIAL_DECK))
    start_round(tx)
    return tx.state


def advance(tx: Tx) -> None:
    """Run every step that needs nobody's decision, until a seat must act or the game is over."""
    while tx.state.winner is None and tx.state.phase == "power":
        state = tx.state
        if not state.todo:
            next_card(tx)
            continue
        seat = state.auction.winner
        assert seat is not None
        legal = POWERS[state.todo[0]].options(state, seat)
        if legal is None:
            run_power(tx, seat, None)
        elif legal.limits is None and len(legal.choices) == 1:
            run_power(tx, seat, legal.choices[0].order)
        else:
            return


def next_card(tx: Tx) -> None:
    state = tx.state
    if not state.pile:
        end_round(tx)
        start_round(tx)
        return
    card = state.pile[0]
    tx.set(pile=state.pile[1:], played=(*state.played, card))
    _open_auction(tx, card, state.auction.number + 1)


def _open_auction(tx: Tx, card: str, number: int) -> None:
    bids = (None,) * len(tx.state.players)
    tx.set(auction=Auction(card, number, bids), phase="bid", todo=())
    tx.emit("auction_opened", card=card, number=number)


def end_round(tx: Tx) -> None:
    state = tx.state
    returned = [seat for seat, player in enumerate(state.players) if player.screen.cursed]
    for seat, player in enumerate(state.players):
        screen = replace(player.screen, fairy=player.screen.fairy + player.front_fairy, cursed=0)
        tx.update_player(seat, screen=screen, front_fairy=0)
    cursed = sum(player.screen.cursed for player in state.players)
    discarded = tuple(
        card
        for card in state.specials
        if card != "doppelganger" or (state.doppelganger is None and "doppelganger" not in state.used)
    )
    tx.set(bank=tx.state.bank.plus(Coins(cursed=cursed)), used=state.used + discarded)
    tx.emit("round_ended", round=state.round, cursed_returned=returned)


def start_round(tx: Tx) -> None:
    rebuilt = False
    specials: list[str] = []
    for _ in range(2):
        if not tx.state.deck:
            tx.set(deck=tx.shuffle(tx.state.used), used=())
            rebuilt = True
        if tx.state.deck:
            specials.append(tx.state.deck[0])
            tx.set(deck=tx.state.deck[1:])
    pile = tx.shuffle(BASE_PILE + tuple(specials))
    tx.set(round=tx.state.round + 1, specials=tuple(specials), pile=pile, played=(WITCH,))
    tx.emit("round_started", round=tx.state.round, specials=specials, deck_rebuilt=rebuilt)
    _open_auction(tx, WITCH, 1)
