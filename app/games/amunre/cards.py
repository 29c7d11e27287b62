"""The 39 power cards and the 66 gold cards."""

from __future__ import annotations

from app.games.amunre.board import GOLD_VALUES

BID_BLOCKADE = "bid_blockade"
SAME_PROVINCE = "same_province"
FREE_FARMER = "free_farmer"
MASTER_BUILDER = "master_builder"
OFFERING_ADJUSTMENT = "offering_adjustment"
EIGHT_GOLD = "eight_gold"
HARVEST_INCREASE = "harvest_increase"
CARD_BONUS = "bonus_cards"
FARMER_BONUS = "bonus_farmers"
EGYPT_BONUS = "bonus_egypt"
SIDE_BONUS = "bonus_side"
NILE_BONUS = "bonus_nile"

POWER_COUNTS: dict[str, int] = {
    BID_BLOCKADE: 2,
    SAME_PROVINCE: 2,
    FREE_FARMER: 5,
    MASTER_BUILDER: 8,
    OFFERING_ADJUSTMENT: 4,
    EIGHT_GOLD: 3,
    HARVEST_INCREASE: 5,
    CARD_BONUS: 2,
    FARMER_BONUS: 2,
    EGYPT_BONUS: 2,
    SIDE_BONUS: 2,
    NILE_BONUS: 2,
}
POWER_CARDS: tuple[str, ...] = tuple(POWER_COUNTS)
BONUS_CARDS: tuple[str, ...] = (CARD_BONUS, FARMER_BONUS, EGYPT_BONUS, SIDE_BONUS, NILE_BONUS)
INCOME_CARDS: tuple[str, ...] = (EIGHT_GOLD, HARVEST_INCREASE)
# Power cards from the least to the most valuable, for a bidder short of gold who lets the time run out:
# the auction cards first (the auction is over until the next round), then those worth a few gold or a
# farmer, Master Builder (a pyramid for one block less), and the bonus cards, 3 points each, last.
SALE_ORDER: tuple[str, ...] = (
    SAME_PROVINCE,
    BID_BLOCKADE,
    OFFERING_ADJUSTMENT,
    HARVEST_INCREASE,
    FREE_FARMER,
    EIGHT_GOLD,
    MASTER_BUILDER,
    *BONUS_CARDS,
)
CARD_NAMES: dict[str, str] = {
    BID_BLOCKADE: "Bid Blockade",
    SAME_PROVINCE: "Outbid in the Same Province",
    FREE_FARMER: "Free Farmer",
    MASTER_BUILDER: "Master Builder",
    OFFERING_ADJUSTMENT: "Offering Adjustment",
    EIGHT_GOLD: "8 Gold",
    HARVEST_INCREASE: "Harvest Increase",
    CARD_BONUS: "Power-card bonus",
    FARMER_BONUS: "Farmer bonus",
    EGYPT_BONUS: "Upper/Lower Egypt bonus",
    SIDE_BONUS: "East/West of the Nile bonus",
    NILE_BONUS: "Nile-bank bonus",
}

GOLD_COUNTS: tuple[int, ...] = (18, 12, 12, 9, 10)  # by GOLD_VALUES
MINUS_THREE_CARDS = 5
assert sum(POWER_COUNTS.values()) == 39 and sum(GOLD_COUNTS) + MINUS_THREE_CARDS == 66
assert len(GOLD_COUNTS) == len(GOLD_VALUES)
assert sorted(SALE_ORDER) == sorted(POWER_CARDS)

Gold = tuple[int, ...]  # counts of gold cards by GOLD_VALUES
NO_GOLD: Gold = (0,) * len(GOLD_VALUES)


def value(gold: Gold) -> int:
    return sum(count * worth for count, worth in zip(gold, GOLD_VALUES, strict=True))


def plus(a: Gold, b: Gold) -> Gold:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def minus(a: Gold, b: Gold) -> Gold:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def cards_for(amount: int, supply: Gold) -> Gold:
    """Cards of `supply` worth `amount` or, when it cannot make the sum exactly, as close below as
    largest-first allows."""
    taken = []
    for count, worth in reversed(list(zip(supply, GOLD_VALUES, strict=True))):
        used = min(count, amount // worth)
        amount -= used * worth
        taken.append(used)
    return tuple(reversed(taken))


def exact(amount: int, supply: Gold) -> Gold | None:
    """Cards of `supply` worth exactly `amount`, as few as possible (largest first), or None."""

    def search(amount: int, level: int) -> tuple[int, ...] | None:
        if amount == 0:
            return (0,) * (level + 1)
        if level < 0:
            return None
        worth = GOLD_VALUES[level]
        for used in range(min(supply[level], amount // worth), -1, -1):
            rest = search(amount - used * worth, level - 1)
            if rest is not None:
                return (*rest, used)
        return None

    found = search(amount, len(GOLD_VALUES) - 1)
    return None if found is None else found + (0,) * (len(GOLD_VALUES) - len(found))


def payment(hand: Gold, amount: int) -> Gold:
    """The hand's cards that pay `amount` (which the hand is worth at least): largest cards first, then
    the smallest cards left until the sum is reached; the bank gives change for any overpayment."""
    given = cards_for(amount, hand)
    left = amount - value(given)
    for index, worth in enumerate(GOLD_VALUES):
        while left > 0 and hand[index] > given[index]:
            given = (*given[:index], given[index] + 1, *given[index + 1 :])
            left -= worth
    return given
