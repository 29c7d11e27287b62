"""The one place legality comes from: `legal_for(state, seat)`.

`waits`, `apply` (through `check`), `default_order`, `sample_order`, `flow.advance` and the view all read
the `Legal` it returns, so they cannot disagree.

Phases (`state.phase`), all sequential in `state.queue` order but the offering:
  auction   the first queued seat bids (a pass: the seats without a block, from the Pharaoh)
  pay       every seat whose bid its gold cannot pay chooses the power cards it sells (simultaneous;
            rules version 1: before it, the hand's first cards were sold)
  buy       the first queued seat buys cards, then farmers, then blocks, and plays phase-3 cards
  offering  every seat that has not offered (sealed, simultaneous)
  adjust    the first queued seat that played Offering Adjustment moves the total by 3
  reward    the first queued seat takes one item (the highest offering is queued 3 times, the next 2)
  income    every queued seat may play 8 Gold or Harvest Increase, then collects (simultaneous)
  bonus     every queued seat may play bonus cards whose condition holds (simultaneous)
  over      the game has ended

Besides, a power card may be sold at any time (rules, phase 3): `anytime_for(state, seat)` lists the sales
open to a seat whether or not the game waits on it. A sale only ever adds to the other seats' choices (its
card lands on the discard pile, which can then be bought or taken as a reward) and changes no wait.
"""

from __future__ import annotations

from collections.abc import Callable

from app.games.amunre import cards
from app.games.amunre.board import BOARD
from app.games.amunre.cards import GOLD_VALUES, value
from app.games.amunre.model import State
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
    Legal,
    MasterBuilderOrder,
    OfferOrder,
    OrderModel,
    PayBidOrder,
    RewardOrder,
    SellOrder,
)
from app.games.amunre.scoring import bonus_holds
from app.games.amunre.tx import free_farm_spaces
from app.games.contract import RuleError
from app.games.kit.legal import Choice
from app.games.kit.model import memo

TRACK: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21, 28, 36)
# Every seat is awaited at once in these phases, card or no card: waiting only on the holders of 8 Gold,
# Harvest Increase or a bonus card would tell everyone who holds one.
# The bidders short of gold choose their sales at once too.
SIMULTANEOUS = ("offering", "pay", "income", "bonus")
BUY_STAGES = ("", "cards", "farmers", "blocks")


def legal_for(state: State, seat: int) -> Legal | None:
    """What `seat` may do now, or None when the game does not wait on it (worked out once per state)."""
    return memo(state, ("legal", seat), lambda: _legal_for(state, seat))


def _legal_for(state: State, seat: int) -> Legal | None:
    if state.phase == "over" or not 0 <= seat < len(state.players):
        return None
    if state.phase == "offering":
        return offering_legal(state, seat) if state.players[seat].offering is None else None
    if state.phase == "pay":
        return pay_legal(state, seat)
    if state.phase in SIMULTANEOUS:
        return SEQUENTIAL[state.phase](state, seat) if seat in state.queue else None
    if not state.queue or state.queue[0] != seat:
        return None
    return SEQUENTIAL[state.phase](state, seat)


def _name(index: int) -> str:
    return BOARD.provinces[index].name


def _legal(phase: str, prompt: str, choices: list[Choice[OrderModel]], default: OrderModel) -> Legal | None:
    if not choices:
        return None
    types = tuple(dict.fromkeys(choice.order.type for choice in choices))
    return Legal(phase, prompt, types, default, tuple(choices))


# the auction


def bid_budget(state: State, seat: int) -> int:
    """What a seat may bid: its gold and the power cards it could sell for 1 gold each."""
    player = state.players[seat]
    return value(player.gold) + len(player.powers)


def lowest_step(state: State, position: int) -> int:
    """The lowest step a new bid on this revealed province may take."""
    bid = state.bids[position]
    if bid is None:
        return 0
    return bid.step + (2 if state.players[bid.seat].blockade else 1)


def auction_legal(state: State, seat: int) -> Legal | None:
    player = state.players[seat]
    can_block = cards.BID_BLOCKADE in player.powers and not player.blockade
    can_return = cards.SAME_PROVINCE in player.powers
    choices: list[Choice[OrderModel]] = []
    default: OrderModel | None = None
    for position, index in enumerate(state.revealed):
        returning = index == player.outbid_from
        if returning and not can_return:
            continue
        for blockade in (False, True) if can_block else (False,):
            budget = bid_budget(state, seat) - blockade - returning
            for step in range(lowest_step(state, position), len(TRACK)):
                amount = TRACK[step]
                if amount > budget:
                    break
                order = BidOrder(
                    type="bid",
                    province=_name(index),
                    amount=amount,
                    blockade=blockade,
                    same_province=returning,
                )
                label = f"Bid {amount} on {_name(index)}" + (" with Bid Blockade" if blockade else "")
                choices.append(Choice(order, label))
                if default is None and state.bids[position] is None and not blockade:
                    default = order
    if not choices:
        return None
    return _legal("auction", "bid", choices, default or choices[0].order)


def shortfall(state: State, seat: int) -> int:
    """The gold the seat's bid lacks, which its power cards make up when sold (1 gold each)."""
    price = next((TRACK[bid.step] for bid in state.bids if bid is not None and bid.seat == seat), 0)
    return max(0, price - value(state.players[seat].gold))


def _counts(powers: list[str] | tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in powers:
        counts[card] = counts.get(card, 0) + 1
    return counts


def pay_legal(state: State, seat: int) -> Legal | None:
    """A bid short of gold: the seat chooses which power cards to sell; the default sells the least
    valuable (`cards.SALE_ORDER`), keeping the most valuable."""
    lacking = shortfall(state, seat)
    if not lacking:
        return None
    powers = state.players[seat].powers
    cheapest = sorted(powers, key=cards.SALE_ORDER.index)[:lacking]
    default = PayBidOrder(type="pay_bid", powers=_counts(cheapest))
    limits = {"powers": _counts(powers), "count": lacking}
    return Legal("pay", "pay", ("pay_bid",), default, (), limits=limits)


def check_sale(limits: dict[str, object], order: PayBidOrder) -> None:
    """Raise RuleError unless the order sells cards held, exactly as many as the gold lacking."""
    powers: dict[str, int] = limits["powers"]  # type: ignore[assignment]
    lacking: int = limits["count"]  # type: ignore[assignment]
    if any(count > powers.get(card, 0) for card, count in order.powers.items()):
        raise RuleError("invalid_sale", "You do not hold these power cards.", "powers")
    if sum(order.powers.values()) != lacking:
        raise RuleError(
            "invalid_sale",
            "Sell exactly %(count)s power cards: your bid lacks that much gold.",
            "powers",
            params={"count": lacking},
        )


# buying


def card_limit(state: State, seat: int) -> int:
    return max((BOARD.provinces[index].card_limit for index in state.owned(seat)), default=0)


def price(state: State, seat: int, kind: str) -> int:
    """The next item's price: the n-th of a kind bought in one turn costs n, so n cost n(n+1)/2."""
    player = state.players[seat]
    return player.bought_count + 1 if player.bought == kind else 1


def _may_buy(state: State, seat: int, kind: str) -> bool:
    player = state.players[seat]
    in_order = BUY_STAGES.index(player.bought) <= BUY_STAGES.index(kind)
    return in_order and price(state, seat, kind) <= value(player.gold)


def buy_legal(state: State, seat: int) -> Legal | None:
    player = state.players[seat]
    owned = state.owned(seat)
    choices: list[Choice[OrderModel]] = []
    bought_cards = player.bought_count if player.bought == "cards" else 0
    has_cards = bool(state.deck or state.discard)
    if _may_buy(state, seat, "cards") and has_cards and bought_cards < card_limit(state, seat):
        choices.append(
            Choice(BuyCardOrder(type="buy_card"), f"Buy a power card ({price(state, seat, 'cards')})")
        )
    for index in owned:
        if _may_buy(state, seat, "farmers") and state.farmers and free_farm_spaces(state, index) > 0:
            cost = price(state, seat, "farmers")
            choices.append(
                Choice(BuyFarmerOrder(type="buy_farmer", province=_name(index)), f"Farmer ({cost})")
            )
    for index in owned:
        if _may_buy(state, seat, "blocks") and state.blocks:
            cost = price(state, seat, "blocks")
            choices.append(Choice(BuyBlockOrder(type="buy_block", province=_name(index)), f"Block ({cost})"))
    for index in owned:
        if cards.FREE_FARMER in player.powers and state.farmers:
            choices.append(Choice(FreeFarmerOrder(type="free_farmer", province=_name(index)), "Free Farmer"))
        if cards.MASTER_BUILDER in player.powers and state.provinces[index].blocks >= 2 and state.pyramids:
            order = MasterBuilderOrder(type="master_builder", province=_name(index))
            choices.append(Choice(order, "Master Builder"))
    done = DoneOrder(type="done")
    choices.append(Choice(done, "Done"))
    return _legal("buy", "buy", choices, done)


# at any time


ANYTIME = ("sell",)


def anytime_for(state: State, seat: int) -> Legal | None:
    """The sales a seat may make now, awaited or not: one per kind of power card in its hand."""
    return memo(state, ("anytime", seat), lambda: _anytime_for(state, seat))


def _anytime_for(state: State, seat: int) -> Legal | None:
    if state.phase == "over" or not 0 <= seat < len(state.players):
        return None
    choices: list[Choice[OrderModel]] = [
        Choice(SellOrder(type="sell", card=card), f"Sell {cards.CARD_NAMES[card]} for 1 gold")
        for card in dict.fromkeys(state.players[seat].powers)
    ]
    return _legal("anytime", "sell", choices, choices[0].order) if choices else None


# the offering


def offering_legal(state: State, seat: int) -> Legal:
    player = state.players[seat]
    gold = {str(worth): count for worth, count in zip(GOLD_VALUES, player.gold, strict=True) if count}
    limits = {
        "gold": gold,
        "powers": _counts(player.powers),
        "minus_three": player.minus_three,
        "adjust": cards.OFFERING_ADJUSTMENT in player.powers,
    }
    # the smallest legal offering; the "-3" card is back in every hand before each offering
    if player.gold[0]:
        default = OfferOrder(type="offer", gold={"1": 1})
    else:
        default = OfferOrder(type="offer", minus_three=True)
    return Legal("offering", "offer", ("offer",), default, (), limits=limits)


def check_offering(limits: dict[str, object], order: OfferOrder) -> None:
    """Raise RuleError unless `limits` allow the offering."""
    gold: dict[str, int] = limits["gold"]  # type: ignore[assignment]
    powers: dict[str, int] = dict(limits["powers"])  # type: ignore[call-overload]
    if any(count > gold.get(key, 0) for key, count in order.gold.items()):
        raise RuleError("invalid_offering", "You do not hold these gold cards.", "gold")
    if order.adjust:
        if not limits["adjust"]:
            raise RuleError("invalid_offering", "You hold no Offering Adjustment card.", "adjust")
        powers[cards.OFFERING_ADJUSTMENT] -= 1
    if any(count > powers.get(card, 0) for card, count in order.powers.items()):
        raise RuleError("invalid_offering", "You do not hold these power cards.", "powers")
    if order.minus_three:
        if not limits["minus_three"]:
            raise RuleError("invalid_offering", 'You do not hold the "-3" card.', "minus_three")
        if order.gold or order.powers:
            raise RuleError(
                "invalid_offering",
                'The "-3" card is offered alone (an Offering Adjustment card may go with it).',
                "minus_three",
            )
    elif not order.gold:
        raise RuleError("invalid_offering", 'Offer at least one gold card, or the "-3" card.', "gold")


# after the reveal


def adjust_legal(state: State, seat: int) -> Legal | None:
    """The text's "peut augmenter ou diminuer": the player may also leave the total as it is."""
    up = AdjustOrder(type="adjust", up=True)
    choices: list[Choice[OrderModel]] = [
        Choice(up, "Raise the total by 3"),
        Choice(AdjustOrder(type="adjust", up=False), "Lower the total by 3"),
        Choice(AdjustOrder(type="adjust"), "Leave the total as it is"),
    ]
    return _legal("adjust", "adjust", choices, up)


def reward_legal(state: State, seat: int) -> Legal | None:
    choices: list[Choice[OrderModel]] = []
    if state.deck or state.discard:
        choices.append(Choice(RewardOrder(type="reward", item="card"), "A power card"))
    for index in state.owned(seat):
        if state.farmers and free_farm_spaces(state, index) > 0:
            order = RewardOrder(type="reward", item="farmer", province=_name(index))
            choices.append(Choice(order, f"A farmer in {_name(index)}"))
    for index in state.owned(seat):
        if state.blocks:
            order = RewardOrder(type="reward", item="block", province=_name(index))
            choices.append(Choice(order, f"A block in {_name(index)}"))
    return _legal("reward", "reward", choices, choices[0].order if choices else DoneOrder(type="done"))


def income_legal(state: State, seat: int) -> Legal | None:
    player = state.players[seat]
    choices: list[Choice[OrderModel]] = []
    for card in (card for card in cards.INCOME_CARDS if card in player.powers):
        for index in state.owned(seat):
            province = state.provinces[index]
            if province.eight_gold or (card == cards.EIGHT_GOLD and province.harvest_increase):
                continue
            order = IncomeCardOrder(type="income_card", card=card, province=_name(index))
            choices.append(Choice(order, f"{cards.CARD_NAMES[card]} on {_name(index)}"))
    done = DoneOrder(type="done")
    return _legal("income", "income", [*choices, Choice(done, "Collect income")], done)


def bonus_legal(state: State, seat: int) -> Legal | None:
    """The default plays a bonus card whose condition holds (3 points now), else keeps the rest."""
    player = state.players[seat]
    held = [card for card in dict.fromkeys(player.powers) if card in cards.BONUS_CARDS]
    choices: list[Choice[OrderModel]] = [
        Choice(BonusOrder(type="bonus", card=card), f"Play {cards.CARD_NAMES[card]} (3 points)")
        for card in held
        if bonus_holds(state, seat, card)
    ]
    done = DoneOrder(type="done")
    default = choices[0].order if choices else done
    return _legal("bonus", "bonus", [*choices, Choice(done, "Done")], default)


SEQUENTIAL: dict[str, Callable[[State, int], Legal | None]] = {
    "auction": auction_legal,
    "buy": buy_legal,
    "adjust": adjust_legal,
    "reward": reward_legal,
    "income": income_legal,
    "bonus": bonus_legal,
}
