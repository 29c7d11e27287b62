"""The characters' powers, as a table: for each card, what the winner may choose and how it resolves.

`options(state, seat)` returns None when the power needs no decision, else the `Legal` choices. The
flow applies a power at once when it has no decision or a single legal choice, and waits otherwise.
Copied powers (Ghost, Goblin, Imp, Doppelganger) push the copied card onto `state.todo`, so it resolves
"as if he had just won the auction": the current auction's bids are the ones the Thief and the
Necromancer look at.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from app.games.contract import RuleError
from app.games.dragonstones.auction import SHORT_OF
from app.games.dragonstones.characters import canonical, name
from app.games.dragonstones.model import COLOURS, NO_COINS, NO_STONES, Coins, Rainbow, State, Stones
from app.games.dragonstones.orders import (
    BuyOrder,
    ColourOrder,
    CopyOrder,
    DrawOrder,
    Legal,
    NecromancerOrder,
    OrderModel,
    PayOrder,
    RobOrder,
    StealOrder,
    StopOrder,
    TakeOrder,
)
from app.games.dragonstones.tx import Tx, gain, no_effect, pay_stones, score
from app.games.kit.legal import Choice

Options = Callable[[State, int], Legal | None]
Resolve = Callable[[Tx, int, OrderModel | None], None]


@dataclass(frozen=True)
class Power:
    options: Options
    resolve: Resolve


def _none(state: State, seat: int) -> Legal | None:
    return None


def _legal(
    card: str, choices: Sequence[Choice[OrderModel]], default: OrderModel, prompt: str | None = None
) -> Legal:
    types = tuple(dict.fromkeys(choice.order.type for choice in choices))
    return Legal(f"power:{card}", prompt or card, types, default, tuple(choices), card=card)


def _stones_text(stones: Stones) -> str:
    return ", ".join(f"{count} {colour}" for colour, count in stones.nonzero().items())


# --- simple gifts from the bank -----------------------------------------------------------------------


def _gift(card: str, coins: Coins = NO_COINS, stones: Stones = NO_STONES) -> Power:
    def resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
        gain(tx, seat, card, coins, stones)

    return Power(_none, resolve)


# --- pay stones for points, or take coins (Sorcerer, Enchanter, Magician, Enchantress) ---------------


def _same_colour(count: int) -> Callable[[Stones], list[Stones]]:
    return lambda held: [Stones.of(c, count) for c in COLOURS if held.get(c) >= count]


def _one_each(held: Stones) -> list[Stones]:
    return [Stones(1, 1, 1)] if all(held.get(c) for c in COLOURS) else []


def _any_colours(count: int) -> Callable[[Stones], list[Stones]]:
    def payments(held: Stones) -> list[Stones]:
        found = []
        for red, blue in product(range(min(count, held.red) + 1), range(min(count, held.blue) + 1)):
            yellow = count - red - blue
            if 0 <= yellow <= held.yellow:
                found.append(Stones(red, blue, yellow))
        return found

    return payments


def _pay_or_take(card: str, payments: Callable[[Stones], list[Stones]], points: int, coins: Coins) -> Power:
    coin_text = ", ".join(f"{n} {'common gold' if c == 'gold' else c}" for c, n in coins.nonzero().items())

    def options(state: State, seat: int) -> Legal | None:
        take = TakeOrder(type="take")
        choices = [
            Choice(
                PayOrder.model_validate({"type": "pay", "stones": stones.as_dict()}),
                f"Pay {_stones_text(stones)} stones for {points} point{'s' if points > 1 else ''}",
            )
            for stones in payments(state.players[seat].stones)
        ]
        return _legal(card, [*choices, Choice(take, f"Take {coin_text}")], take)

    def resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
        if isinstance(order, PayOrder):
            pay_stones(tx, seat, card, Stones.from_dict(order.stones))
            score(tx, seat, card, points)
        else:
            gain(tx, seat, card, coins)

    return Power(options, resolve)


# --- Thief and Brigand --------------------------------------------------------------------------------


def second_bidders(state: State, winner: int) -> list[int]:
    """The seats the Thief robs from; after a tie-break, the seconds of the tie-break."""
    auction = state.auction
    if auction.tied:
        values = {s: t.value for s in auction.tied if s != winner and (t := auction.tiebids[s])}
    else:
        values = {s: b.value for s, b in enumerate(auction.bids) if s != winner and b}
    best = max(values.values(), default=0)
    return [seat for seat, value in values.items() if value == best]


def _thief_options(state: State, seat: int) -> Legal:
    seconds = second_bidders(state, seat)
    with_stones = [v for v in seconds if state.players[v].stones.total()]
    choices = [
        Choice(StealOrder.model_validate({"type": "steal", "victim": v, "colour": c}), f"Steal a {c} stone")
        for v in with_stones
        for c in COLOURS
        if state.players[v].stones.get(c)
    ]
    for v in [] if with_stones else seconds:
        choices.append(
            Choice(StealOrder(type="steal", victim=v), "Steal a coin (common gold, else fairy gold)")
        )
        choices.append(Choice(StealOrder(type="steal", victim=v, take_coin=False), "Take nothing"))
    return _legal("thief", choices, choices[0].order)


def _thief_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    assert isinstance(order, StealOrder)
    victim = order.victim
    if order.colour:
        stone = Stones.of(order.colour)
        tx.update_player(victim, stones=tx.player(victim).stones.minus(stone))
        tx.update_player(seat, stones=tx.player(seat).stones.plus(stone))
        tx.emit("stole_stone", seat=seat, victim=victim, colour=order.colour)
    elif order.take_coin:
        screen = tx.player(victim).screen
        coin = "gold" if screen.gold else "fairy" if screen.fairy else None
        if coin:
            tx.update_player(victim, screen=screen.minus(Coins.of(coin)))
            tx.update_player(seat, screen=tx.player(seat).screen.plus(Coins.of(coin)))
        tx.emit("stole_coin", seat=seat, victim=victim)
        tx.emit("stole_coin_detail", to={seat, victim}, seat=seat, victim=victim, coin=coin)
    else:
        tx.emit("theft_declined", seat=seat, victim=victim)


def _brigand_options(state: State, seat: int) -> Legal:
    others = [(seat + k) % len(state.players) for k in range(1, len(state.players))]
    choices = [
        Choice(RobOrder(type="rob", victim=v), "Rob this player of his common gold and silver")
        for v in others
    ]
    return _legal("brigand", choices, choices[0].order)


def _brigand_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    assert isinstance(order, RobOrder)
    loot = Coins(gold=tx.player(order.victim).screen.gold, silver=tx.player(order.victim).screen.silver)
    tx.update_player(order.victim, screen=tx.player(order.victim).screen.minus(loot))
    tx.update_player(seat, screen=tx.player(seat).screen.plus(loot))
    tx.emit("robbed", seat=seat, victim=order.victim)
    tx.emit(
        "robbed_detail",
        to={seat, order.victim},
        seat=seat,
        victim=order.victim,
        gold=loot.gold,
        silver=loot.silver,
    )


# --- powers naming a colour ---------------------------------------------------------------------------


def _colour_choices(colours: list[str], text: str) -> list[Choice[OrderModel]]:
    return [
        Choice(ColourOrder.model_validate({"type": "colour", "colour": c}), text.format(c)) for c in colours
    ]


def _ancient_options(state: State, seat: int) -> Legal | None:
    colours = [c for c in COLOURS if state.bank_stones.get(c)]
    choices = _colour_choices(colours, "Take a {} stone")
    return _legal("ancient_dragon", choices, choices[0].order) if choices else None


def _ancient_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if isinstance(order, ColourOrder):
        gain(tx, seat, "ancient_dragon", stones=Stones.of(order.colour))
    else:
        no_effect(tx, seat, "ancient_dragon", "bank_empty")


def _apprentice_options(state: State, seat: int) -> Legal | None:
    held = state.players[seat].stones
    colours = [c for c in COLOURS if held.get(c) >= 2]
    if not colours:
        return None
    choices = _colour_choices(colours, "Pay 2 {} stones for 1 point")
    most = max(colours, key=held.get)  # paying is compulsory: the default keeps the most variety
    return _legal("apprentice", choices, choices[colours.index(most)].order)


def _apprentice_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if isinstance(order, ColourOrder):
        pay_stones(tx, seat, "apprentice", Stones.of(order.colour, 2))
        score(tx, seat, "apprentice", 1)
    else:
        no_effect(tx, seat, "apprentice", "no_pair")


def _troll_options(state: State, seat: int) -> Legal:
    choices = _colour_choices(list(COLOURS), "Everybody returns his {} stones")
    held = state.players[seat].stones
    fewest = min(COLOURS, key=held.get)
    return _legal("troll", choices, choices[COLOURS.index(fewest)].order)


def _troll_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    assert isinstance(order, ColourOrder)
    lost = []
    for victim, player in enumerate(tx.state.players):
        stones = Stones.of(order.colour, player.stones.get(order.colour))
        tx.update_player(victim, stones=player.stones.minus(stones))
        tx.set(bank_stones=tx.state.bank_stones.plus(stones))
        lost.append({"seat": victim, "count": stones.total()})
    tx.emit("troll", seat=seat, colour=order.colour, lost=lost)


# --- Rainbow Dragon: name a colour, then draw until you stop or draw it -------------------------------


def _rainbow_options(state: State, seat: int) -> Legal | None:
    rainbow = state.rainbow
    if rainbow is None:
        colours = [c for c in COLOURS if state.bank_stones.get(c)]
        if not colours:
            return None
        choices = _colour_choices(colours, "Name {}")
        rarest = min(colours, key=state.bank_stones.get)
        return _legal("rainbow_dragon", choices, choices[colours.index(rarest)].order, "rainbow_colour")
    stop = StopOrder(type="stop")
    choices = [Choice(DrawOrder(type="draw"), "Draw another stone"), Choice(stop, "Stop and keep the stones")]
    return _legal("rainbow_dragon", choices, stop, "rainbow_draw")


def _rainbow_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if order is None:
        no_effect(tx, seat, "rainbow_dragon", "bank_empty")
    elif isinstance(order, ColourOrder):
        bag = tx.state.bank_stones
        tx.set(bank_stones=Stones(), rainbow=Rainbow(order.colour, bag))
        tx.emit("rainbow_named", seat=seat, colour=order.colour, bag_size=bag.total())
        _rainbow_draw(tx, seat)  # at least one stone is drawn
    elif isinstance(order, DrawOrder):
        _rainbow_draw(tx, seat)
    else:
        _rainbow_end(tx, seat, keep=True)


def _rainbow_draw(tx: Tx, seat: int) -> None:
    rainbow = tx.state.rainbow
    assert rainbow is not None
    colour = tx.draw_stone(rainbow.bag)
    rainbow = replace(
        rainbow, bag=rainbow.bag.minus(Stones.of(colour)), drawn=rainbow.drawn.plus(Stones.of(colour))
    )
    tx.set(rainbow=rainbow)
    tx.emit("rainbow_drew", seat=seat, colour=colour)
    if colour == rainbow.colour:
        _rainbow_end(tx, seat, keep=False)
    elif not rainbow.bag.total():
        _rainbow_end(tx, seat, keep=True)
    else:
        tx.set(todo=("rainbow_dragon", *tx.state.todo))


def _rainbow_end(tx: Tx, seat: int, keep: bool) -> None:
    rainbow = tx.state.rainbow
    assert rainbow is not None
    back = rainbow.bag if keep else rainbow.bag.plus(rainbow.drawn)
    tx.set(rainbow=None, bank_stones=tx.state.bank_stones.plus(back))
    if keep:
        tx.update_player(seat, stones=tx.player(seat).stones.plus(rainbow.drawn))
        tx.emit("rainbow_kept", seat=seat, stones=rainbow.drawn.nonzero())
    else:
        tx.emit("rainbow_lost", seat=seat, stones=rainbow.drawn.nonzero())


# --- other specials -----------------------------------------------------------------------------------


def _charlatan(tx: Tx, seat: int, order: OrderModel | None) -> None:
    stones = tx.player(seat).stones
    if stones.total():
        pay_stones(tx, seat, "charlatan", stones)
    score(tx, seat, "charlatan", 1)


def _doppelganger(tx: Tx, seat: int, order: OrderModel | None) -> None:
    state = tx.state
    if state.doppelganger is None and "doppelganger" not in state.used:
        tx.set(doppelganger=seat)
        tx.emit("doppelganger_kept", seat=seat)
    else:
        no_effect(tx, seat, "doppelganger", "card_gone")


def _two_headed(tx: Tx, seat: int, order: OrderModel | None) -> None:
    bag = tx.state.bank_stones.capped(Stones(2, 2, 2))
    drawn = Stones()
    for _ in range(min(2, bag.total())):
        stone = Stones.of(tx.draw_stone(bag))
        bag, drawn = bag.minus(stone), drawn.plus(stone)
    gain(tx, seat, "two_headed_dragon", stones=drawn)


def _copy(tx: Tx, seat: int, card: str, character: str, how: str) -> None:
    tx.set(todo=(character, *tx.state.todo))
    tx.emit("copied", seat=seat, card=card, character=character, how=how)


def _ghost_options(state: State, seat: int) -> Legal:
    cards = canonical(c for c in state.played if c != "ghost")
    choices = [Choice(CopyOrder(type="copy", character=c), f"Use the {name(c)}'s power") for c in cards]
    return _legal("ghost", choices, choices[0].order)


def _ghost_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    assert isinstance(order, CopyOrder)
    _copy(tx, seat, "ghost", order.character, "choice")


def _take_from_pile(tx: Tx, index: int) -> str:
    pile = tx.state.pile
    card = pile[index]
    tx.set(pile=pile[:index] + pile[index + 1 :], played=(*tx.state.played, card))
    return card


def _goblin(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if not tx.state.pile:
        no_effect(tx, seat, "goblin", "last_card")
        return
    card = _take_from_pile(tx, tx.randbelow(len(tx.state.pile)))
    _copy(tx, seat, "goblin", card, "random")


def _imp_options(state: State, seat: int) -> Legal | None:
    cards = canonical(state.pile)
    choices = [Choice(CopyOrder(type="copy", character=c), f"Use the {name(c)}'s power") for c in cards]
    return _legal("imp", choices, choices[0].order) if choices else None


def _imp_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if not isinstance(order, CopyOrder):
        no_effect(tx, seat, "imp", "last_card")
        return
    card = _take_from_pile(tx, tx.state.pile.index(order.character))
    tx.set(pile=tx.shuffle(tx.state.pile))
    _copy(tx, seat, "imp", card, "choice")
    tx.emit("pile_reshuffled", remaining=len(tx.state.pile))


def _necromancer_options(state: State, seat: int) -> Legal | None:
    if state.auction.necromancer_used:
        return None
    bid = state.auction.bids[seat]
    fairy = bid.fairy if bid else 0
    decline = NecromancerOrder(type="necromancer", use=False)
    choices = [
        Choice(
            NecromancerOrder(type="necromancer", use=True),
            f"Give the bank the {fairy} fairy gold you bid for 1 point",
        ),
        Choice(decline, "Decline"),
    ]
    return _legal("necromancer", choices, decline)


def _necromancer_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if order is None:
        no_effect(tx, seat, "necromancer", "already_used")
    elif isinstance(order, NecromancerOrder) and order.use:
        bid = tx.state.auction.bids[seat]
        fairy = bid.fairy if bid else 0
        tx.update_player(seat, front_fairy=tx.player(seat).front_fairy - fairy)
        tx.set(bank=tx.state.bank.plus(Coins(fairy=fairy)))
        tx.set(auction=replace(tx.state.auction, necromancer_used=True))
        tx.emit("paid", seat=seat, card="necromancer", coins=Coins(fairy=fairy).nonzero(), stones={})
        score(tx, seat, "necromancer", 1)
    else:
        tx.emit("declined", seat=seat, card="necromancer")


# --- Merchant: buy stones at 1 gold (common or fairy) or 3 silver each -------------------------------

SILVER_PER_STONE = 3


def _merchant_options(state: State, seat: int) -> Legal | None:
    """A question even for a winner who cannot pay, who may only buy nothing: resolving at once would tell
    everyone that the screen is nearly empty. Only an empty bank, which everyone sees, skips it."""
    if not state.bank_stones.total():
        return None
    screen = state.players[seat].screen
    limits = {
        "stones": state.bank_stones.as_dict(),
        "pay": {"gold": screen.gold, "fairy": screen.fairy, "silver": screen.silver},
        "silver_per_stone": SILVER_PER_STONE,
    }
    nothing = Choice(BuyOrder(type="buy"), "Buy nothing")
    return Legal(
        "power:merchant", "merchant", ("buy",), nothing.order, (nothing,), card="merchant", limits=limits
    )


def check_buy(limits: dict[str, Any], order: OrderModel) -> None:
    assert isinstance(order, BuyOrder)
    for colour, count in order.stones.items():
        if count > limits["stones"][colour]:
            raise RuleError(
                "not_in_bank",
                "The bank has only %(count)s %(colour)s stones.",
                f"stones.{colour}",
                params={"count": limits["stones"][colour], "colour": colour},
            )
    for coin, count in order.pay.items():
        if count > limits["pay"][coin]:
            raise RuleError(
                "not_enough_coins", SHORT_OF[coin], f"pay.{coin}", params={"count": limits["pay"][coin]}
            )
    silver = order.pay.get("silver", 0)
    paid = order.pay.get("gold", 0) + order.pay.get("fairy", 0) + silver // SILVER_PER_STONE
    if silver % SILVER_PER_STONE or paid != sum(order.stones.values()):
        raise RuleError("invalid_payment", "Pay exactly 1 gold or 3 silver for each stone.", "pay")


def sample_buy(limits: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    purse = dict(limits["pay"])
    bank = dict(limits["stones"])
    stones = dict.fromkeys(COLOURS, 0)
    pay = dict.fromkeys(purse, 0)
    for _ in range(rng.randint(0, 3)):
        means = [c for c in ("gold", "fairy") if purse[c] > pay[c]]
        means += ["silver"] if purse["silver"] - pay["silver"] >= SILVER_PER_STONE else []
        colours = [c for c in COLOURS if bank[c] > stones[c]]
        if not means or not colours:
            break
        coin = rng.choice(means)
        pay[coin] += SILVER_PER_STONE if coin == "silver" else 1
        stones[rng.choice(colours)] += 1
    return {"type": "buy", "stones": stones, "pay": pay}


def _merchant_resolve(tx: Tx, seat: int, order: OrderModel | None) -> None:
    if not isinstance(order, BuyOrder):
        no_effect(tx, seat, "merchant", "bank_empty")
        return
    stones = Stones.from_dict(order.stones)
    coins = Coins.from_dict(order.pay)
    tx.update_player(
        seat, screen=tx.player(seat).screen.minus(coins), stones=tx.player(seat).stones.plus(stones)
    )
    tx.set(bank=tx.state.bank.plus(coins), bank_stones=tx.state.bank_stones.minus(stones))
    tx.emit("bought", seat=seat, stones=stones.nonzero(), paid=coins.nonzero())


POWERS: dict[str, Power] = {
    "witch": _gift("witch", coins=Coins(cursed=1)),
    "red_dragon": _gift("red_dragon", stones=Stones(red=1)),
    "blue_dragon": _gift("blue_dragon", stones=Stones(blue=1)),
    "yellow_dragon": _gift("yellow_dragon", stones=Stones(yellow=1)),
    "sorcerer": _pay_or_take("sorcerer", _same_colour(4), 2, Coins(gold=1)),
    "thief": Power(_thief_options, _thief_resolve),
    "enchanter": _pay_or_take("enchanter", _one_each, 1, Coins(silver=3)),
    "magician": _pay_or_take("magician", _any_colours(4), 1, Coins(silver=3)),
    "alchemist": _gift("alchemist", coins=Coins(gold=3)),
    "ancient_dragon": Power(_ancient_options, _ancient_resolve),
    "apprentice": Power(_apprentice_options, _apprentice_resolve),
    "brigand": Power(_brigand_options, _brigand_resolve),
    "charlatan": Power(_none, _charlatan),
    "doppelganger": Power(_none, _doppelganger),
    "two_headed_dragon": Power(_none, _two_headed),
    "rainbow_dragon": Power(_rainbow_options, _rainbow_resolve),
    "enchantress": _pay_or_take("enchantress", _any_colours(5), 2, Coins(fairy=1)),
    "ghost": Power(_ghost_options, _ghost_resolve),
    "fairy": _gift("fairy", coins=Coins(fairy=1)),
    "gnome": _gift("gnome", coins=Coins(gold=2, silver=2)),
    "goblin": Power(_none, _goblin),
    "imp": Power(_imp_options, _imp_resolve),
    "merchant": Power(_merchant_options, _merchant_resolve),
    "dwarf_4": _gift("dwarf_4", coins=Coins(silver=4)),
    "dwarf_5": _gift("dwarf_5", coins=Coins(silver=5)),
    "necromancer": Power(_necromancer_options, _necromancer_resolve),
    "goldsmith": _gift("goldsmith", coins=Coins(amulet=1)),
    "troll": Power(_troll_options, _troll_resolve),
}


def run_power(tx: Tx, seat: int, order: OrderModel | None) -> None:
    """Use the next power in the queue (a copying power queues the copied one in front)."""
    card, *rest = tx.state.todo
    tx.set(todo=tuple(rest))
    POWERS[card].resolve(tx, seat, order)
