"""Phase 9 on the state (§27): who may buy stack-9 cards, and the draws, bought cards first.

The number of cards a seat asks for is secret to it until the draw (`State.done` holds it plus one); the
cards drawn are secret to their seat, how many each seat drew and bought is public."""

from __future__ import annotations

from app.games.advciv import trade_cards
from app.games.advciv.model import State
from app.games.advciv.tables import AST_RANK
from app.games.advciv.tx import Tx
from app.games.kit.model import replaced

GOLD_CARDS = sum(c.count for c in trade_cards.COMMODITY_LIST if c.stack == trade_cards.GOLD_STACK) + 1


def draw_order(state: State) -> tuple[int, ...]:
    """§27.1: fewest cities first, ties in A.S.T. order."""
    return trade_cards.draw_order(_cities(state), _ranks(state))


def _cities(state: State) -> list[int]:
    return [state.city_count(seat) for seat in range(len(state.players))]


def _ranks(state: State) -> list[int]:
    return [AST_RANK[nation.nation] for nation in state.players]


def most_gold(state: State, seat: int) -> int:
    """The most stack-9 cards a seat may ask for: what its treasury pays (no more than the stack's cards in
    the game, so that the answer says nothing of the stack's height when counts are hidden)."""
    return min(state.players[seat].treasury // trade_cards.GOLD_PRICE, GOLD_CARDS)


def buyers(state: State) -> tuple[int, ...]:
    """The seats that can pay for one stack-9 card (the site asks only them), in the draw order."""
    return tuple(seat for seat in draw_order(state) if most_gold(state, seat))


def choose_gold(tx: Tx, seat: int, cards: int) -> None:
    tx.set(done=replaced(tx.state.done, seat, cards + 1))
    tx.emit("gold_chosen", to=(seat,), seat=seat, cards=cards)


def draw_all(tx: Tx) -> None:
    """§27.51 then §27.1–27.21: the stack-9 cards bought are drawn first, 18 treasury each to stock; then
    every seat draws by its cities, fewest first."""
    state = tx.state
    order = draw_order(state)
    wanted = [max(0, done - 1) for done in state.done] if state.phase == "gold" else [0] * len(state.players)
    treasury = [nation.treasury for nation in state.players]
    bought = trade_cards.buy_gold(state.deck, state.hands, wanted, treasury, order)
    for seat, spent in enumerate(bought.spent):
        if spent:
            nation = tx.player(seat)
            tx.update_player(seat, treasury=nation.treasury - spent, stock=nation.stock + spent)
    drawn = trade_cards.draw(bought.deck, bought.hands, _cities(state), _ranks(state))
    tx.set(deck=drawn.deck, hands=drawn.hands, done=())
    received: dict[int, list[str]] = {}
    for seat, _, card in (*bought.draws, *drawn.draws):
        received.setdefault(seat, []).append(card)
    for seat, cards in sorted(received.items()):
        tx.emit("cards_drawn", to=(seat,), seat=seat, cards=cards)
    counts = [len(received.get(seat, ())) for seat in range(len(state.players))]
    gold = [spent // trade_cards.GOLD_PRICE for spent in bought.spent]
    tx.emit("trade_cards_drawn", order=list(order), cards=counts, bought=gold)
