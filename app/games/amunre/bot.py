"""A greedy Amun-Re player: it bids on the province that pays most for its price, buys farmers while
they pay back within the kingdom and blocks when pyramids still score, offers a share of its gold, and
plays every power card when it pays.

Every decision picks among the seat's own `legal_for` choices (the offering, whose fields are free,
within its limits), scored by what they bring the seat, so that a new order type is simply a choice the
bot scores at zero. It reads only what its seat may know: the public board, its own gold and cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.amunre import cards
from app.games.amunre.board import BOARD, GOLD_VALUES
from app.games.amunre.cards import cards_for, value
from app.games.amunre.model import SCORING_ROUNDS, State
from app.games.amunre.orders import (
    AdjustOrder,
    BidOrder,
    BonusOrder,
    BuyBlockOrder,
    BuyCardOrder,
    BuyFarmerOrder,
    FreeFarmerOrder,
    IncomeCardOrder,
    Legal,
    MasterBuilderOrder,
    OfferOrder,
    OrderModel,
    RewardOrder,
)
from app.games.amunre.phases import check_offering, legal_for, price
from app.games.amunre.tx import farmers_in, free_farm_spaces
from app.games.kit.legal import awaited

POINT = 3.0  # a point, in gold
CARD = 2.0  # a power card, in gold
EIGHT_GOLD = 8
RESERVE = 8  # gold kept through the buying for the next auction


def bot_order(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = awaited(legal_for(state, seat))
    if legal.phase == "pay":  # a bid beyond its gold: it sells the cards worth least to it, as the default
        return legal.default.model_dump(mode="json")
    if legal.limits is not None:
        return _offer(state, seat, legal)
    worth = WORTH.get(legal.phase, _nothing)
    scored = [
        (worth(state, seat, choice.order) + rng.random() * 1e-3, index)
        for index, choice in enumerate(legal.choices)
    ]
    _, best = max(scored)
    return legal.choices[best].order.model_dump(mode="json")


# --- what things are worth to the seat ------------------------------------------------------------------


def rounds_left(state: State) -> int:
    """Income phases left in this kingdom, this round's included (farmers leave between the kingdoms)."""
    end = next(r for r in SCORING_ROUNDS if r >= state.round)
    return end - state.round + 1


def scorings_left(state: State) -> int:
    return sum(1 for r in SCORING_ROUNDS if r >= state.round)


def farmer_gold(state: State) -> int:
    """What a farmer yields at the temple marker now (the first space before any offering)."""
    return BOARD.gold_per_farmer[max(state.temple, 1) - 1]


def province_worth(state: State, index: int) -> float:
    data, province = BOARD.provinces[index], state.provinces[index]
    income = data.income + farmers_in(state, index) * farmer_gold(state)
    growth = min(free_farm_spaces(state, index), 3) * 0.5 * rounds_left(state)
    pieces = (province.pyramid_count + province.blocks / 3) * POINT * scorings_left(state)
    temples = data.temples * BOARD.temple_points[max(state.temple, 1) - 1] * POINT * 0.5
    gifts = len(province.free_cards) * CARD + value(province.free_gold)
    return rounds_left(state) * income + growth + pieces + temples + gifts + data.card_limit * 0.3


def _gold(state: State, seat: int) -> int:
    return value(state.players[seat].gold)


def _nothing(state: State, seat: int, order: OrderModel) -> float:
    return 0.0


def _bid_worth(state: State, seat: int, order: OrderModel) -> float:
    if not isinstance(order, BidOrder) or order.blockade or order.same_province:
        return -100.0  # the bot keeps its Bid Blockade and Outbid cards for the offering
    index = BOARD.index(order.province)
    budget = _gold(state, seat) + len(state.players[seat].powers)
    over = max(0, order.amount - budget // 2) * 2  # more than half of everything it has: dearer still
    return province_worth(state, index) - order.amount - over


def _reserve(state: State) -> int:
    return 0 if state.round == SCORING_ROUNDS[-1] else RESERVE


def _buy_worth(state: State, seat: int, order: OrderModel) -> float:
    if isinstance(order, MasterBuilderOrder):
        return 10.0 + state.provinces[BOARD.index(order.province)].blocks
    if isinstance(order, FreeFarmerOrder):
        return 5.0 + farmers_in(state, BOARD.index(order.province)) * 0.01
    spare = _gold(state, seat) - _reserve(state)
    if isinstance(order, BuyCardOrder):
        cost = price(state, seat, "cards")
        return CARD - cost if cost <= spare and state.round < SCORING_ROUNDS[-1] else -1.0
    if isinstance(order, BuyFarmerOrder):
        cost = price(state, seat, "farmers")
        gain: float = rounds_left(state) * farmer_gold(state)
        return gain - cost if cost <= spare else -1.0
    if isinstance(order, BuyBlockOrder):
        cost = price(state, seat, "blocks")
        blocks = state.provinces[BOARD.index(order.province)].blocks
        gain = POINT * scorings_left(state) / 3 + (POINT if blocks % 3 == 2 else 0.0)
        return gain - cost if cost <= spare else -1.0
    return 0.0  # done


def _reward_worth(state: State, seat: int, order: OrderModel) -> float:
    if not isinstance(order, RewardOrder):
        return 0.0
    if order.item == "card":
        return CARD
    index = BOARD.index(order.province or "")
    if order.item == "farmer":
        return rounds_left(state) * farmer_gold(state) * 0.8
    blocks = state.provinces[index].blocks
    return POINT * scorings_left(state) / 3 + (POINT if blocks % 3 == 2 else 0.0)


def _income_worth(state: State, seat: int, order: OrderModel) -> float:
    if not isinstance(order, IncomeCardOrder):
        return 0.0
    index = BOARD.index(order.province)
    data = BOARD.provinces[index]
    if order.card == cards.EIGHT_GOLD:
        gain = EIGHT_GOLD - (data.income + farmers_in(state, index) * farmer_gold(state))
    else:
        gain = farmers_in(state, index)
    last = state.round == SCORING_ROUNDS[-1]
    return gain - (0 if last else 3)  # a card kept may pay more later, but not after the last round


def _bonus_worth(state: State, seat: int, order: OrderModel) -> float:
    return 1.0 if isinstance(order, BonusOrder) else 0.0


def _adjust_worth(state: State, seat: int, order: OrderModel) -> float:
    """Up when the seat's farmers and temples gain more from the marker than the others' do."""
    if not isinstance(order, AdjustOrder):
        return 0.0
    stakes = [
        sum(farmers_in(state, index) + 2 * BOARD.provinces[index].temples for index in state.owned(other))
        for other in range(len(state.players))
    ]
    ahead = stakes[seat] * len(stakes) >= sum(stakes)
    return 1.0 if order.up == ahead else 0.0


Worth = Callable[[State, int, OrderModel], float]
WORTH: dict[str, Worth] = {
    "auction": _bid_worth,
    "buy": _buy_worth,
    "reward": _reward_worth,
    "income": _income_worth,
    "bonus": _bonus_worth,
    "adjust": _adjust_worth,
}


# --- the offering ---------------------------------------------------------------------------------------


def _offer(state: State, seat: int, legal: Legal) -> dict[str, Any]:
    """A quarter of its gold (more with many farmers), in the cards that make it, with an Offering
    Adjustment card if it holds one (to move the total its way); the "-3" card when poor."""
    limits = legal.limits or {}
    hand = tuple(limits["gold"].get(str(worth), 0) for worth in GOLD_VALUES)
    gold = value(hand)
    farmers = sum(farmers_in(state, index) for index in state.owned(seat))
    target = min(gold // 4 + farmers // 2, 15)
    if (target < 2 or gold < 6) and limits["minus_three"]:
        order = OfferOrder(type="offer", minus_three=True)
    else:
        given = cards_for(max(target, 1), hand)
        if not value(given):
            smallest = next(index for index, count in enumerate(hand) if count)
            given = tuple(1 if index == smallest else 0 for index in range(len(hand)))
        counts = {str(worth): count for worth, count in zip(GOLD_VALUES, given, strict=True) if count}
        order = OfferOrder.model_validate({"type": "offer", "gold": counts, "adjust": limits["adjust"]})
    check_offering(limits, order)
    return order.model_dump(mode="json")
