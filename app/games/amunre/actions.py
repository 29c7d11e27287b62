"""What each order does, once `phases.check` has found it legal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.amunre import cards
from app.games.amunre.board import BOARD, GOLD_VALUES
from app.games.amunre.cards import minus
from app.games.amunre.flow import collect_income, score_bonus
from app.games.amunre.model import Bid, Offering
from app.games.amunre.orders import (
    AdjustOrder,
    BidOrder,
    BonusOrder,
    BuyBlockOrder,
    BuyCardOrder,
    BuyFarmerOrder,
    DoneOrder,
    FreeFarmerOrder,
    IncomeCardOrder,
    MasterBuilderOrder,
    OfferOrder,
    OrderModel,
    PayBidOrder,
    RewardOrder,
    SellOrder,
)
from app.games.amunre.phases import TRACK, price
from app.games.amunre.scoring import BONUS_POINTS
from app.games.amunre.tx import Tx

ADJUSTMENT = 3


def _next(tx: Tx, seat: int) -> None:
    """The seat's turn is over: its first place in the queue goes."""
    queue = list(tx.state.queue)
    queue.remove(seat)
    tx.set(queue=tuple(queue))


def bid(tx: Tx, seat: int, order: BidOrder) -> None:
    index = BOARD.index(order.province)
    position = tx.state.revealed.index(index)
    if order.same_province:
        tx.play_power(seat, cards.SAME_PROVINCE)
    if order.blockade:
        tx.play_power(seat, cards.BID_BLOCKADE)
        tx.update_player(seat, blockade=True)
    previous = tx.state.bids[position]
    if previous is not None:
        tx.update_player(previous.seat, outbid_from=index)
        tx.emit("outbid", seat=previous.seat, by=seat, province=order.province)
    bids = list(tx.state.bids)
    bids[position] = Bid(seat, TRACK.index(order.amount))
    tx.set(bids=tuple(bids))
    tx.update_player(seat, outbid_from=None)
    tx.emit("bid", seat=seat, province=order.province, amount=order.amount, blockade=order.blockade)
    _next(tx, seat)


def _bought(tx: Tx, seat: int, kind: str) -> int:
    cost = price(tx.state, seat, kind)
    tx.pay(seat, cost, kind)
    player = tx.player(seat)
    count = player.bought_count + 1 if player.bought == kind else 1
    tx.update_player(seat, bought=kind, bought_count=count)
    return cost


def buy_card(tx: Tx, seat: int, order: BuyCardOrder) -> None:
    cost = _bought(tx, seat, "cards")
    card = tx.draw_power()
    assert card is not None
    tx.emit("bought", seat=seat, item="card", price=cost)
    tx.give_powers(seat, (card,), "bought")


def buy_farmer(tx: Tx, seat: int, order: BuyFarmerOrder) -> None:
    cost = _bought(tx, seat, "farmers")
    tx.emit("bought", seat=seat, item="farmer", price=cost, province=order.province)
    tx.add_farmer(BOARD.index(order.province))


def buy_block(tx: Tx, seat: int, order: BuyBlockOrder) -> None:
    cost = _bought(tx, seat, "blocks")
    tx.emit("bought", seat=seat, item="block", price=cost, province=order.province)
    tx.add_blocks(BOARD.index(order.province), 1)


def free_farmer(tx: Tx, seat: int, order: FreeFarmerOrder) -> None:
    tx.play_power(seat, cards.FREE_FARMER)
    tx.add_farmer(BOARD.index(order.province), flat=True)


def master_builder(tx: Tx, seat: int, order: MasterBuilderOrder) -> None:
    tx.play_power(seat, cards.MASTER_BUILDER)
    tx.build(BOARD.index(order.province), 2)


def sell(tx: Tx, seat: int, order: SellOrder) -> None:
    tx.sell(seat, order.card)


def pay_bid(tx: Tx, seat: int, order: PayBidOrder) -> None:
    for card, count in order.powers.items():
        for _ in range(count):
            tx.sell(seat, card)


def done(tx: Tx, seat: int, order: DoneOrder) -> None:
    if tx.state.phase == "buy":
        tx.update_player(seat, bought="", bought_count=0)
    elif tx.state.phase == "income":
        collect_income(tx, seat)
    _next(tx, seat)


def offer(tx: Tx, seat: int, order: OfferOrder) -> None:
    gold = tuple(order.gold.get(str(worth), 0) for worth in GOLD_VALUES)  # type: ignore[call-overload]
    played = [card for card, count in order.powers.items() for _ in range(count)]
    player = tx.player(seat)
    powers = list(player.powers)
    for card in [*played, *([cards.OFFERING_ADJUSTMENT] if order.adjust else [])]:
        powers.remove(card)
    offering = Offering(
        gold=gold, minus_three=order.minus_three, powers=tuple(sorted(played)), adjust=order.adjust
    )
    tx.update_player(
        seat,
        gold=minus(player.gold, gold),
        powers=tuple(powers),
        minus_three=player.minus_three and not order.minus_three,
        offering=offering,
    )
    tx.emit("offered", seat=seat)


def adjust(tx: Tx, seat: int, order: AdjustOrder) -> None:
    total = tx.state.total
    assert total is not None
    if order.up is not None:
        tx.set(total=total + (ADJUSTMENT if order.up else -ADJUSTMENT))
    tx.emit("offering_adjusted", seat=seat, up=order.up, total=tx.state.total)
    _next(tx, seat)


def reward(tx: Tx, seat: int, order: RewardOrder) -> None:
    tx.emit("reward", seat=seat, item=order.item, province=order.province)
    if order.item == "card":
        card = tx.draw_power()
        assert card is not None
        tx.give_powers(seat, (card,), "reward")
    elif order.item == "farmer":
        tx.add_farmer(BOARD.index(order.province or ""))
    else:
        tx.add_blocks(BOARD.index(order.province or ""), 1)
    _next(tx, seat)


def income_card(tx: Tx, seat: int, order: IncomeCardOrder) -> None:
    tx.play_power(seat, order.card)
    index = BOARD.index(order.province)
    if order.card == cards.EIGHT_GOLD:
        tx.update_province(index, eight_gold=True)
    else:
        tx.update_province(index, harvest_increase=tx.province(index).harvest_increase + 1)


def bonus(tx: Tx, seat: int, order: BonusOrder) -> None:
    tx.play_power(seat, order.card)
    score_bonus(tx, seat, BONUS_POINTS)
    tx.emit("bonus_scored", seat=seat, card=order.card, points=BONUS_POINTS)


HANDLERS: dict[str, Callable[[Tx, int, Any], None]] = {
    "bid": bid,
    "buy_card": buy_card,
    "buy_farmer": buy_farmer,
    "buy_block": buy_block,
    "free_farmer": free_farmer,
    "master_builder": master_builder,
    "sell": sell,
    "pay_bid": pay_bid,
    "done": done,
    "offer": offer,
    "adjust": adjust,
    "reward": reward,
    "income_card": income_card,
    "bonus": bonus,
}


def handle(tx: Tx, seat: int, order: OrderModel) -> None:
    HANDLERS[order.type](tx, seat, order)
