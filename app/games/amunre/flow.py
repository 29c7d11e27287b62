"""Setup, the rounds, and every step that needs no decision: revealing provinces, settling the auction,
revealing offerings, income, scoring and the reset between the kingdoms.

`advance` runs after every order: it moves the game on until some seat must decide (`phases.legal_for`).
"""

from __future__ import annotations

from app.games.amunre import cards
from app.games.amunre.board import BOARD
from app.games.amunre.cards import MINUS_THREE_CARDS, NO_GOLD, cards_for, exact, minus, plus, value
from app.games.amunre.model import ROUNDS, SCORING_ROUNDS, Offering, Player, Province, ScoreLine, State
from app.games.amunre.phases import SIMULTANEOUS, TRACK, legal_for
from app.games.amunre.scoring import automatic_lines, gold_points
from app.games.amunre.tx import Tx, clockwise, farmers_in
from app.games.kit import rng
from app.games.kit.model import evolve, replaced, to_json

OLD_KINGDOM_ROUNDS = 3
REWARD_ITEMS = (3, 2)  # then 1 for every other seat that did not offer "-3"
MINUS_THREE_GOLD = 3
EIGHT_GOLD = 8


def new_game(players: int, seed: int, rules_version: int) -> State:
    bank = tuple(cards.GOLD_COUNTS)
    start = BOARD.start_gold
    hands = []
    for _ in range(players):
        hands.append(Player(gold=start, powers=(cards.MASTER_BUILDER,)))
        bank = minus(bank, start)
    deck = [card for card, count in cards.POWER_COUNTS.items() for _ in range(count)]
    for _ in range(players):
        deck.remove(cards.MASTER_BUILDER)
    tx = Tx(
        State(
            players=tuple(hands),
            provinces=tuple(Province() for _ in BOARD.provinces),
            bank=bank,
            minus_three_out=MINUS_THREE_CARDS - players,
            deck=(),
            discard=(),
            province_deck=(),
            used=(),
            rng=rng.seeded(seed),
            round=0,
            pharaoh=0,
            phase="auction",
            rules_version=rules_version,
        )
    )
    tx.set(deck=tx.shuffle(deck), province_deck=tx.shuffle(range(len(BOARD.provinces))))
    start_round(tx)
    advance(tx)
    return tx.state


def start_round(tx: Tx) -> None:
    """Phase 1: the Pharaoh draws a province card per player; their free items are put on them."""
    round_number = tx.state.round + 1
    if round_number == OLD_KINGDOM_ROUNDS + 1:
        _new_kingdom(tx)
    count = len(tx.state.players)
    drawn, rest = tx.state.province_deck[:count], tx.state.province_deck[count:]
    tx.set(
        round=round_number,
        province_deck=rest,
        used=(*tx.state.used, *drawn),
        revealed=drawn,
        bids=(None,) * count,
        phase="auction",
        queue=clockwise(tx.state),
        offerings=(),
    )
    tx.emit("round_started", round=round_number, provinces=[BOARD.provinces[i].name for i in drawn])
    for index in drawn:
        _free_items(tx, index)


def _free_items(tx: Tx, index: int) -> None:
    data = BOARD.provinces[index]
    free_cards = [card for card in (tx.draw_power() for _ in range(data.free_cards)) if card]
    gold = exact(data.free_gold, tx.state.bank) if tx.state.rules_version >= 1 else None
    if gold is None:
        gold = cards_for(data.free_gold, tx.state.bank)
    # What the bank's cards cannot make is owed to the buyer, who is paid it with change (`Tx.receive`).
    due = data.free_gold - value(gold) if tx.state.rules_version >= 1 else 0
    tx.set(bank=minus(tx.state.bank, gold))
    tx.update_province(index, free_cards=tuple(free_cards), free_gold=gold, free_gold_due=due)
    tx.add_blocks(index, data.free_blocks)


def _new_kingdom(tx: Tx) -> None:
    """Between the kingdoms: markers and bought farmers go; blocks and pyramids stay; the provinces not
    taken in the Old Kingdom are out of the game."""
    used = set(tx.state.used)
    freed = sum(province.farmers + province.flat_farmers for province in tx.state.provinces)
    provinces = tuple(
        evolve(province, owner=None, farmers=0, flat_farmers=0, in_play=index in used)
        for index, province in enumerate(tx.state.provinces)
    )
    tx.set(
        provinces=provinces, farmers=tx.state.farmers + freed, province_deck=tx.shuffle(sorted(used)), used=()
    )
    tx.emit("new_kingdom", provinces=[BOARD.provinces[i].name for i in sorted(used)])


def advance(tx: Tx) -> None:
    """Play every step that needs no decision, until some seat must decide or the game is over."""
    while tx.state.phase != "over":
        state = tx.state
        if state.phase == "offering":
            if any(player.offering is None for player in state.players):
                return
            _reveal_offerings(tx)
            continue
        if state.phase == "pay":
            if any(legal_for(state, seat) for seat in range(len(state.players))):
                return
            _end_phase(tx)
            continue
        if state.phase in SIMULTANEOUS:
            if state.queue:
                return
            _end_phase(tx)
            continue
        if state.queue:
            seat = state.queue[0]
            if legal_for(state, seat) is not None:
                return
            _pass(tx, seat)
            continue
        _end_phase(tx)


def _pass(tx: Tx, seat: int) -> None:
    """The first queued seat has no decision to make: a reward nothing can be taken for is lost."""
    if tx.state.phase == "reward":
        tx.emit("reward_lost", seat=seat)
    tx.set(queue=tx.state.queue[1:])


def _end_phase(tx: Tx) -> None:
    state = tx.state
    if state.phase == "auction":
        placed = {bid.seat for bid in state.bids if bid is not None}
        waiting = set(range(len(state.players))) - placed
        if waiting:
            tx.set(queue=clockwise(state, waiting))
        elif state.rules_version >= 1:
            tx.set(phase="pay", queue=())  # the bidders short of gold choose what they sell
        else:
            _settle_auction(tx)
            tx.set(phase="buy", queue=clockwise(tx.state))
    elif state.phase == "pay":
        _settle_auction(tx)
        tx.set(phase="buy", queue=clockwise(tx.state))
    elif state.phase == "buy":
        tx.set(phase="offering")
    elif state.phase == "adjust":
        _reward_offerings(tx)
    elif state.phase == "reward":
        tx.set(phase="income", queue=clockwise(state))
    elif state.phase == "income":
        tx.set(provinces=tuple(evolve(p, eight_gold=False, harvest_increase=0) for p in state.provinces))
        if state.round in SCORING_ROUNDS:
            _start_scoring(tx)
        else:
            start_round(tx)
    elif state.phase == "bonus":
        if state.round == ROUNDS:
            _end_game(tx)
        else:
            start_round(tx)


def _settle_auction(tx: Tx) -> None:
    """Each bidder pays his bid and takes the province with its free cards and gold. From rules version
    1 every bidder has chosen the power cards he sold to pay (the phase "pay"); before it, a bidder short
    of gold sold the hand's first cards, 1 gold each."""
    for position, index in enumerate(tx.state.revealed):
        bid = tx.state.bids[position]
        assert bid is not None
        price = TRACK[bid.step]
        while value(tx.player(bid.seat).gold) < price and tx.player(bid.seat).powers:
            tx.sell(bid.seat, tx.player(bid.seat).powers[0])
        tx.pay(bid.seat, price, "province")
        province = tx.province(index)
        tx.update_province(index, owner=bid.seat, free_cards=(), free_gold=NO_GOLD, free_gold_due=0)
        tx.move_gold_to(bid.seat, province.free_gold)
        tx.emit("province_won", seat=bid.seat, province=BOARD.provinces[index].name, price=price)
        tx.give_powers(bid.seat, province.free_cards, "province")
        if province.free_gold_due:
            tx.receive(bid.seat, province.free_gold_due, "province")
        free_gold = value(province.free_gold) + province.free_gold_due
        if free_gold:
            tx.emit("province_gold", seat=bid.seat, amount=free_gold)
    players = tuple(evolve(p, outbid_from=None, blockade=False) for p in tx.state.players)
    tx.set(players=players)


def _reveal_offerings(tx: Tx) -> None:
    offerings: list[Offering] = []
    adjusters = set()
    for seat, player in enumerate(tx.state.players):
        offering = player.offering
        assert offering is not None
        offerings.append(offering)
        tx.update_player(seat, offering=None, minus_three=player.minus_three or offering.minus_three)
        tx.set(bank=plus(tx.state.bank, offering.gold), discard=(*tx.state.discard, *offering.powers))
        if offering.adjust:
            tx.set(discard=(*tx.state.discard, cards.OFFERING_ADJUSTMENT))
            adjusters.add(seat)
    total = sum(offering.amount for offering in offerings)
    tx.set(offerings=tuple(offerings), total=total, phase="adjust", queue=clockwise(tx.state, adjusters))
    tx.emit(
        "offerings_revealed",
        total=total,
        offerings=[
            {
                "seat": seat,
                "amount": offering.amount,
                "minus_three": offering.minus_three,
                "gold": value(offering.gold),
                "powers": list(offering.powers),
                "adjust": offering.adjust,
            }
            for seat, offering in enumerate(offerings)
        ],
    )


def offering_ranking(state: State) -> list[int]:
    """Seats that did not offer "-3", highest offering first, ties in turn order from the Pharaoh."""
    turn = clockwise(state)
    ranked = [seat for seat in turn if not state.offerings[seat].minus_three]  # type: ignore[union-attr]
    return sorted(ranked, key=lambda seat: (-state.offerings[seat].amount, turn.index(seat)))  # type: ignore[union-attr]


def reward_picks(state: State) -> tuple[int, ...]:
    """The seats in the order they take their items: 3 for the highest offering, 2 for the second, then
    1 for every other seat that did not offer "-3", "dans le sens horaire en partant du premier joueur"
    (rules, phase 4). Games begun before `rules_version` 1 rank those others by their offering too."""
    ranking = offering_ranking(state)
    first = ranking[: len(REWARD_ITEMS)]
    others = [seat for seat in ranking if seat not in first]
    if state.rules_version >= 1:
        others = list(clockwise(state, set(others)))
    picks: list[int] = []
    for place, seat in enumerate(first):
        picks += [seat] * REWARD_ITEMS[place]
    return (*picks, *others)


def _reward_offerings(tx: Tx) -> None:
    state = tx.state
    assert state.total is not None
    space = BOARD.space_for(state.total)
    ranking = offering_ranking(state)
    picks = reward_picks(state)
    tx.set(temple=space, phase="reward", queue=picks)
    tx.emit("temple_moved", space=space, total=state.total)
    for seat, offering in enumerate(state.offerings):
        if offering is not None and offering.minus_three:
            tx.receive(seat, MINUS_THREE_GOLD, "minus_three")
    if ranking:  # nobody offered gold: the Pharaoh stays
        tx.set(pharaoh=ranking[0])
        tx.emit("pharaoh", seat=ranking[0])


def collect_income(tx: Tx, seat: int) -> None:
    """Phase 5: each farmer yields the temple space's gold (plus Harvest Increase), the provinces their
    fixed and camel income; a province under 8 Gold yields 8 instead."""
    space = tx.state.temple - 1
    total = 0
    for index in tx.state.owned(seat):
        province, data = tx.province(index), BOARD.provinces[index]
        if province.eight_gold:
            total += EIGHT_GOLD
            continue
        total += farmers_in(tx.state, index) * (BOARD.gold_per_farmer[space] + province.harvest_increase)
        total += data.income + (data.camel_income if BOARD.camel[space] else 0)
    tx.receive(seat, total, "income")


def _start_scoring(tx: Tx) -> None:
    lines = automatic_lines(tx.state)
    for line in lines:
        tx.update_player(line.seat, points=tx.player(line.seat).points + line.total)
    tx.set(scores=(*tx.state.scores, lines), phase="bonus", queue=clockwise(tx.state))
    tx.emit("scored", kingdom=len(tx.state.scores), lines=[_line_json(line) for line in lines])


def score_bonus(tx: Tx, seat: int, points: int) -> None:
    table = tx.state.scores[-1]
    line = table[seat]
    table = replaced(table, seat, evolve(line, bonus=line.bonus + points))
    tx.set(scores=(*tx.state.scores[:-1], table))
    tx.update_player(seat, points=tx.player(seat).points + points)


def _end_game(tx: Tx) -> None:
    gold = [value(player.gold) for player in tx.state.players]
    table = tuple(
        evolve(line, gold=points) for line, points in zip(tx.state.scores[-1], gold_points(gold), strict=True)
    )
    for line in table:
        tx.update_player(line.seat, points=tx.player(line.seat).points + line.gold)
    tx.set(scores=(*tx.state.scores[:-1], table), phase="over", queue=())
    tx.emit("game_over", gold=gold, points=[player.points for player in tx.state.players])


def _line_json(line: ScoreLine) -> dict[str, int]:
    data: dict[str, int] = to_json(line)
    return data
