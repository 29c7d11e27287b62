"""One order's work in progress (`kit.tx`, with the stones drawn from a bag) and the moves to and from
the bank."""

from __future__ import annotations

from app.games.dragonstones.model import COLOURS, NO_COINS, NO_STONES, Coins, Player, State, Stones
from app.games.kit.tx import SeatedTx


class Tx(SeatedTx[State, Player]):
    def draw_stone(self, bag: Stones) -> str:
        """The colour of one stone drawn at random from `bag` (which must not be empty)."""
        return COLOURS[self.weighted([bag.get(colour) for colour in COLOURS])]


def gain(tx: Tx, seat: int, card: str, coins: Coins = NO_COINS, stones: Stones = NO_STONES) -> None:
    """Give what the bank still has of `coins` and `stones` (a short bank gives less, or nothing)."""
    state = tx.state
    got_coins = coins.capped(state.bank)
    got_stones = stones.capped(state.bank_stones)
    tx.set(bank=state.bank.minus(got_coins), bank_stones=state.bank_stones.minus(got_stones))
    player = tx.player(seat)
    tx.update_player(seat, screen=player.screen.plus(got_coins), stones=player.stones.plus(got_stones))
    if got_coins.total() or got_stones.total():
        tx.emit("gained", seat=seat, card=card, coins=got_coins.nonzero(), stones=got_stones.nonzero())
    else:
        tx.emit("no_effect", seat=seat, card=card, reason="bank_empty")


def pay_stones(tx: Tx, seat: int, card: str, stones: Stones) -> None:
    player = tx.player(seat)
    tx.update_player(seat, stones=player.stones.minus(stones))
    tx.set(bank_stones=tx.state.bank_stones.plus(stones))
    tx.emit("paid", seat=seat, card=card, coins={}, stones=stones.nonzero())


def score(tx: Tx, seat: int, card: str, points: int) -> None:
    """Score, and end the game at once when the target is reached (even in the middle of a power)."""
    total = tx.player(seat).points + points
    tx.update_player(seat, points=total)
    tx.emit("scored", seat=seat, card=card, points=points, total=total)
    if total >= tx.state.points_to_win:
        tx.set(winner=seat, phase="over", todo=())
        tx.emit("game_won", seat=seat, points=total)


def no_effect(tx: Tx, seat: int, card: str, reason: str) -> None:
    tx.emit("no_effect", seat=seat, card=card, reason=reason)
