"""Phases 10 and 12 of Advanced Civilization laid out for the map page: the trade market as one seat may see
it (its hand, its partners, its offers out and in, its trades waiting for the embargo), the civilization
cards shop with its cart and payment, and the points table with the final score.

An offer's form gives one row per card that may be promised (`give[i].card` ticked, `give[i].said` what it
is said to be, left empty for the truth); `order_from_form` turns those rows into the order's `cards` and
`said` lists, which an HTML form cannot pair by itself."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.advciv import cards as civ
from app.games.advciv import trade_cards as tc
from app.games.advciv.market import DONT_CARE, MIN_CARDS, TRUE_CARDS, UNSPECIFIED

OFFER_SLOTS = 5  # rows of "what you want back"; three are filled in
RECOMMENDED_SLOTS = (DONT_CARE, DONT_CARE, UNSPECIFIED)  # F-R5: two named (to choose) and one unspecified
TRADE_TYPES = frozenset({"offer", "accept", "counter"})


def order_from_form(fields: dict[str, Any]) -> dict[str, Any]:
    """A trade form's rows (`give`: [{"card", "said"}]) as the order's `cards` and `said`; a row without a
    card was not ticked. Any other form is left as it is."""
    rows = fields.get("give")
    if fields.get("type") not in TRADE_TYPES or not isinstance(rows, list):
        return fields
    given = [row for row in rows if isinstance(row, dict) and isinstance(row.get("card"), str)]
    order = {key: value for key, value in fields.items() if key != "give"}
    order["cards"] = [row["card"] for row in given]
    order["said"] = [str(row.get("said") or row["card"]) for row in given]
    return order


def said_choices() -> list[str]:
    """What a card may be said to be (F-R4, F-R5): any commodity, a tradable calamity, or "unspecified"."""
    tradable = [c.key for c in tc.CALAMITY_LIST if c.tradable]
    return [*(c.key for c in tc.COMMODITY_LIST), *tradable, UNSPECIFIED]


def slot_choices() -> list[str]:
    """What a slot of "what you want back" may ask for: a card by name, "don't care" or "unspecified"."""
    tradable = [c.key for c in tc.CALAMITY_LIST if c.tradable]
    return [DONT_CARE, UNSPECIFIED, *(c.key for c in tc.COMMODITY_LIST), *tradable]


def market_panel(board: Mapping[str, Any], seat: int | None) -> dict[str, Any] | None:
    """Phase 10 for the viewer (None outside it). A spectator and a seat see the same public part: the
    embargo, who trades and who is still in; a seat also its own offers and the ones made to it."""
    market = board.get("market")
    if not market:
        return None
    sizes = list((board.get("trade") or {}).get("hand_sizes", ()))
    in_market = list(market.get("in_market", ()))
    panel: dict[str, Any] = {
        "embargo": bool(market.get("embargo")),
        "traders": [
            {"seat": other, "cards": sizes[other] if other < len(sizes) else 0, "in": other in in_market}
            for other in market.get("traders", ())
        ],
        "in_market": in_market,
        "mine": "available" in market,
    }
    if "available" not in market or seat is None:
        return panel
    free = [card for card in market["available"] if _tradable(card)]
    panel |= {
        "can_trade": bool(market.get("can_trade")),
        "done": bool(market.get("done")),
        "partners": [
            {"seat": other, "cards": count, "in": other in in_market}
            for other, count in enumerate(sizes)
            if other != seat and count >= MIN_CARDS
        ],
        "give": [{"card": card, "calamity": card in tc.CALAMITIES} for card in free],
        "said_choices": said_choices(),
        "slot_choices": slot_choices(),
        "slots": [*RECOMMENDED_SLOTS, *([""] * (OFFER_SLOTS - len(RECOMMENDED_SLOTS)))],
        "outgoing": [_outgoing(offer) for offer in market.get("outgoing", ())],
        "incoming": [_incoming(offer, free) for offer in market.get("incoming", ())],
        "agreed": [_agreed(trade) for trade in market.get("agreed", ())],
        "enough": len(free) >= MIN_CARDS,
    }
    return panel


def _tradable(card: str) -> bool:
    found = tc.CALAMITIES.get(card)
    return found is None or found.tradable


def _outgoing(offer: Mapping[str, Any]) -> dict[str, Any]:
    rows = [
        {"card": card, "said": said, "lie": card != said}
        for card, said in zip(offer.get("cards", ()), offer.get("said", ()), strict=False)
    ]
    return {"id": offer["id"], "to": offer["to"], "rows": rows, "expects": list(offer.get("expects", ()))}


def _incoming(offer: Mapping[str, Any], free: Sequence[str]) -> dict[str, Any]:
    """An offer made to the viewer, with the answer pre-filled: for each slot a card of the hand, the truth
    where the hand holds the card named, "unspecified" where asked (a lie by definition)."""
    slots = list(offer.get("expects", ()))
    left = Counter(free)
    answer: list[dict[str, str]] = [{} for _ in slots]
    order = sorted(range(len(slots)), key=lambda index: slots[index] in (DONT_CARE, UNSPECIFIED))
    for index in order:
        slot = slots[index]
        if slot not in (DONT_CARE, UNSPECIFIED) and left[slot]:
            card = slot
        else:
            card = next((key for key in sorted(left.elements(), key=_card_order) if left[key]), "")
        if card:
            left[card] -= 1
        said = "" if slot == DONT_CARE else slot
        answer[index] = {"slot": slot, "card": card, "said": said}
    return {
        "id": offer["id"],
        "from": offer["from"],
        "said": list(offer.get("said", ())),
        "expects": slots,
        "answer": answer,
        "choices": sorted(set(free), key=_card_order),
        "enough": len(free) >= len(slots),
    }


def _agreed(trade: Mapping[str, Any]) -> dict[str, Any]:
    rows = [
        {"card": card, "said": said, "lie": card != said}
        for card, said in zip(trade.get("cards", ()), trade.get("said", ()), strict=False)
    ]
    return {
        "id": trade["id"],
        "partner": trade["partner"],
        "rows": rows,
        "partner_said": trade["partner_said"],
    }


def _card_order(card: str) -> tuple[int, str]:
    return (tc.stack_of(card), card)


# --- phase 12: civilization cards -----------------------------------------------------------------------


def card_facts() -> dict[str, dict[str, Any]]:
    """What each civilization card does, as the shop and the rules page show it: its one line (translated
    where it is shown), its groups and price, the card it needs, and the credits it gives: so much off every
    other card of a group, then so much off named cards (§32)."""
    return {
        card.key: {
            "card": card.key,
            "summary": civ.SUMMARIES[card.key],
            "groups": list(card.groups),
            "cost": card.cost,
            "requires": card.requires,
            "group_credits": [
                {"group": group, "value": value} for group, value in civ.GROUP_CREDITS.get(card.key, ())
            ],
            "card_credits": [
                {"card": target, "value": value}
                for target, value in sorted(
                    civ.CARD_CREDITS.get(card.key, ()), key=lambda pair: (-pair[1], pair[0])
                )
            ],
        }
        for card in civ.CIV_CARDS.values()
    }


def advances_panel(board: Mapping[str, Any], seat: int | None) -> dict[str, Any] | None:
    """Phase 12 for the viewer: the shop with credits, the cart and the cards to spend and discard pre-filled
    with the default at the time limit, what the treasury pays; every player's civilization cards."""
    if board.get("phase") != "advances":
        return None
    owners = [
        {"seat": row["seat"], "nation": row["nation"], "cards": _by_group(row.get("cards", ()))}
        for row in board.get("nations", ())
    ]
    panel: dict[str, Any] = {"owners": owners, "asked": False, "facts": card_facts()}
    legal = board.get("legal") or {}
    if legal.get("phase") != "advances" or seat is None:
        return panel
    context = legal.get("context") or {}
    default = legal.get("default") or {}
    cart = set(default.get("cart", ()))
    shop = [
        {**line, "cost_group": line["groups"][0], "in_cart": line["card"] in cart}
        for line in context.get("shop", ())
    ]
    hand = list(context.get("hand", ()))
    mining = bool(context.get("mining"))
    rows = _hand_rows(hand, list(context.get("frozen", ())), default)
    spend = [row["card"] for row in rows if row["spend"]]
    due = sum(line["due"] for line in shop if line["in_cart"])
    value = tc.hand_value(spend, mining=mining)
    limit = int(context.get("hand_limit", 8))
    panel |= {
        "asked": True,
        "shop": shop,
        "hand": rows,
        "treasury": context.get("treasury", 0),
        "hand_limit": limit,
        "excess": max(0, len(hand) - limit),
        "mining": mining,
        "hand_value": context.get("hand_value", 0),
        "due": due,
        "cards_value": value,
        "treasury_paid": max(0, due - value),
        "lost": max(0, value - due),
        "default": default,
        "faces": {c.key: {"face": c.stack, "most": c.count} for c in tc.COMMODITY_LIST},
        "mineable": sorted(tc.MINEABLE),
    }
    return panel


def _hand_rows(
    hand: Sequence[str], frozen: Sequence[str], default: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """One row per trade card: whether it may be spent (not a frozen Grain, not a calamity) and whether the
    default spends or discards it."""
    to_spend = Counter(default.get("spend", ()))
    to_discard = Counter(default.get("discard", ()))
    still_frozen = Counter(frozen)
    rows = []
    for card in hand:
        is_frozen = still_frozen[card] > 0
        if is_frozen:
            still_frozen[card] -= 1
        spend = not is_frozen and to_spend[card] > 0
        if spend:
            to_spend[card] -= 1
        discard = not spend and to_discard[card] > 0
        if discard:
            to_discard[card] -= 1
        rows.append(
            {
                "card": card,
                "calamity": card in tc.CALAMITIES,
                "frozen": is_frozen,
                "spend": spend,
                "discard": discard,
            }
        )
    return rows


def _by_group(held: Sequence[str]) -> list[dict[str, Any]]:
    found = [civ.CIV_CARDS[key] for key in held if key in civ.CIV_CARDS]
    return [
        {"card": card.key, "name": card.name, "groups": list(card.groups), "cost": card.cost}
        for card in sorted(found, key=lambda card: (civ.GROUPS.index(card.groups[0]), card.cost, card.key))
    ]


# --- the points table and the final score ---------------------------------------------------------------


def points_panel(board: Mapping[str, Any]) -> dict[str, Any]:
    """F-U2: the public points, as the rules sort them (highest first); once over, every part of the score
    (§35.1) by place."""
    final = board.get("final")
    return {
        "rows": list(board.get("points", ())),
        "final": sorted(final, key=lambda row: (row["place"], row["seat"])) if final else None,
        "end": board.get("end"),
        "true_cards": TRUE_CARDS,
    }
