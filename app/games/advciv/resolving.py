"""Phase 11 on the state: the calamity being resolved (the head of `State.calamities`) as `calamities.py`
sees it, the question it asks now and of whom, and its changes carried out on the board.

Nothing changes on the board until a calamity has no question left, so every answer is read against the
board as it stood when the calamity began. The answers given so far are `State.steps`, flat ints so that
the state stays plain JSON:

    (PICK, i, j, ...)                       the options picked, by index in the `Pending`'s options
    (LOSE, grain, area, tokens, city, ...)  units taken: Grain cards shown, then one `Change` per area
    (ASSIGN, seat, amount, seat, amount...) a primary victim's hand-out to secondary victims

`progress(state)` replays them through the calamity's function (which checks each one) and returns the
next `Question`, or `Settled` once nothing is left to ask. Monotheism's conversions (§32.94) go through
the same queue, as the card `monotheism`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.games.advciv import calamities as cal
from app.games.advciv.board import BOARD
from app.games.advciv.model import NOBODY, State, public_score
from app.games.advciv.orders import AssignOrder, Choice, Legal, LoseOrder, PickOrder, UnitModel
from app.games.advciv.tables import AST_RANK, INDEX, KEYS
from app.games.advciv.tx import Tx
from app.games.contract import RuleError
from app.games.kit.model import memo, replaced

PICK, LOSE, ASSIGN = 0, 1, 2


@dataclass(frozen=True)
class Question:
    """What the calamity asks of `seat` now: a `pick` among the options of `pending`, the units of a
    `loss` to `lose`, or the amounts of an `assignment` to `assign`."""

    kind: str
    seat: int
    resolution: cal.Resolution
    pending: cal.Pending | None = None
    loss: cal.UnitLoss | None = None
    assignment: cal.Assignment | None = None


@dataclass(frozen=True)
class Settled:
    resolution: cal.Resolution
    changes: tuple[cal.Change, ...]


def held(state: State) -> cal.Held:
    card, holder, trader = state.calamities[0]
    return cal.Held(card, holder, None if trader == NOBODY else trader)


def situation(state: State) -> cal.Situation:
    """The board as the calamity module reads it; barbarians and pirate cities are no seat's."""
    return memo(state, "situation", lambda: _situation(state))


def _situation(state: State) -> cal.Situation:
    realms = []
    for seat, nation in enumerate(state.players):
        realms.append(
            cal.Realm(
                seat,
                nation.nation,
                tuple((area, nation.tokens[area]) for area in nation.occupied()),
                frozenset(area for area, owner in enumerate(state.cities) if owner == seat),
                nation.cards,
                nation.stock,
                nation.treasury,
                grain=state.hands[seat].count("grain"),
                score=public_score(state, seat),
                ast_rank=AST_RANK[nation.nation],
            )
        )
    return cal.Situation(
        tuple(realms),
        in_play=frozenset(area for area, used in enumerate(state.in_play) if used),
        barbarians=state.barbarians,
        pirate_cities=frozenset(state.pirates),
    )


def progress(state: State) -> Question | Settled:
    """The question the calamity being resolved asks now, or its settled outcome."""
    return memo(state, "calamity", lambda: replay(state, state.steps))


def _defaults(state: State, call: int, seat: int = NOBODY) -> cal.RandBelow:
    """Draws for the defaults only, fixed by the state (the game's generator is not touched); each call of
    the calamity module and each victim's loss draws apart, so that no default depends on another seat's
    hand (a Grain count)."""
    return random.Random(f"{state.rng}:{len(state.calamities)}:{call}:{seat}").randrange


def _resolve(
    now: cal.Held, sit: cal.Situation, randbelow: cal.RandBelow, answers: dict[str, Any]
) -> cal.Resolution:
    if now.card == cal.MONOTHEISM:
        return cal.monotheism(sit, now.holder, randbelow, **answers)
    return cal.resolve_calamity(now, sit, randbelow, **answers)


def replay(state: State, steps: Sequence[tuple[int, ...]]) -> Question | Settled:
    """Every answer in `steps` given in turn (RuleError if one is not allowed); then what is left."""
    now, sit = held(state), situation(state)
    given = list(steps)
    answers: dict[str, Any] = {}
    military: list[list[cal.Change]] = []
    while True:
        result = _resolve(now, sit, _defaults(state, len(steps) - len(given)), answers)
        if result.pending:
            pending = result.pending[0]
            if not given:
                return Question("pick", pending.seat, result, pending=pending)
            answers = cal.with_answer(answers, pending, _picked(pending, given.pop(0)))
            continue
        asking = [loss for loss in result.losses if loss.answer]
        if not asking:
            break
        loss = asking[len(military)] if asking[0].answer == "military" else asking[0]
        if not given:
            return Question("lose", loss.chooser, result, loss=loss)
        taken, _ = _taken(loss, given.pop(0))
        if loss.answer != "military":
            answers[loss.answer] = taken
            continue
        military.append(taken)
        if len(military) == len(asking):
            answers["military"] = military
    changes = list(result.changes)
    losses = list(result.losses)
    for assignment in result.assignments:
        answer = forced(assignment)
        if answer is None:
            if not given:
                return Question("assign", assignment.seat, result, assignment=assignment)
            answer = _amounts(assignment, given.pop(0))
        for seat, amount in sorted(answer.items()):
            randbelow = _defaults(state, len(steps) - len(given), seat)
            losses += cal.secondary_losses(
                result.calamity, sit, {seat: amount}, randbelow, plain=assignment.plain
            )
    for loss in losses:
        if loss.target() == 0:
            continue
        if not given:
            return Question("lose", loss.chooser, result, loss=loss)
        taken, _ = _taken(loss, given.pop(0))
        changes += taken
    if given:
        raise RuleError("calamity_settled", "This calamity asks nothing more.")
    return Settled(result, tuple(changes))


def forced(assignment: cal.Assignment) -> dict[int, int] | None:
    """The hand-out when there is nothing to choose: every cap given in full (or nothing to give)."""
    if assignment.due == sum(most for _, most in assignment.caps):
        return dict(assignment.caps)
    return None


def _picked(pending: cal.Pending, step: tuple[int, ...]) -> list[cal.Key]:
    if not step or step[0] != PICK or any(not 0 <= i < len(pending.options) for i in step[1:]):
        raise RuleError("wrong_order", "That kind of order is not possible now.", "type")
    return [pending.options[i] for i in step[1:]]


def _taken(loss: cal.UnitLoss, step: tuple[int, ...]) -> tuple[list[cal.Change], int]:
    if len(step) < 2 or step[0] != LOSE or (len(step) - 2) % 3:
        raise RuleError("wrong_order", "That kind of order is not possible now.", "type")
    grain = step[1]
    changes = [cal.Change(loss.victim, *step[i : i + 3]) for i in range(2, len(step), 3)]
    cal.check_loss(loss, changes, grain)
    return changes, grain


def _amounts(assignment: cal.Assignment, step: tuple[int, ...]) -> dict[int, int]:
    if not step or step[0] != ASSIGN or len(step) % 2 == 0:
        raise RuleError("wrong_order", "That kind of order is not possible now.", "type")
    answer = {step[i]: step[i + 1] for i in range(1, len(step), 2) if step[i + 1]}
    cal.check_assignment(assignment, answer)
    return answer


# --- encoding answers ---------------------------------------------------------------------------------


def pick_step(indices: Iterable[int]) -> tuple[int, ...]:
    return (PICK, *indices)


def loss_step(changes: Iterable[cal.Change], grain: int = 0) -> tuple[int, ...]:
    return (LOSE, grain, *(value for c in changes for value in (c.area, c.tokens, c.city)))


def assign_step(amounts: dict[int, int]) -> tuple[int, ...]:
    return (ASSIGN, *(value for seat, amount in sorted(amounts.items()) for value in (seat, amount)))


def default_step(question: Question) -> tuple[int, ...]:
    """The site's answer at timeout (F-S3): the calamity module's default."""
    if question.pending is not None:
        return pick_step(question.pending.options.index(key) for key in question.pending.default)
    if question.loss is not None:
        return loss_step(question.loss.default, question.loss.default_grain)
    assert question.assignment is not None
    return assign_step(dict(question.assignment.default))


# --- carrying out -------------------------------------------------------------------------------------


def carry_out(tx: Tx, changes: Iterable[cal.Change]) -> None:
    """The settled changes on the board: cities lost first, then tokens, then cities gained (a city that
    changes hands leaves before it arrives); barbarians and pirate cities come and go."""
    ordered = sorted(changes, key=lambda c: (c.city >= 0, c.city > 0))
    barbarians = dict(tx.state.barbarians)
    pirates = set(tx.state.pirates)
    for change in ordered:
        if change.seat == cal.BARBARIANS:
            barbarians[change.area] = barbarians.get(change.area, 0) + change.tokens
            continue
        if change.seat == cal.PIRATES:
            (pirates.add if change.city > 0 else pirates.discard)(change.area)
            continue
        if change.city < 0:
            tx.set_city(change.area, NOBODY)
        tx.place(change.seat, change.area, change.tokens)
        if change.city > 0:
            tx.set_city(change.area, change.seat)
    tx.set(
        barbarians=tuple(sorted((area, count) for area, count in barbarians.items() if count > 0)),
        pirates=tuple(sorted(pirates)),
    )


def change_json(change: cal.Change) -> dict[str, object]:
    seat: object = change.seat
    if change.seat == cal.BARBARIANS:
        seat = "barbarians"
    elif change.seat == cal.PIRATES:
        seat = "pirates"
    return {"seat": seat, "area": KEYS[change.area], "tokens": change.tokens, "city": change.city}


# --- what the awaited seat may send -------------------------------------------------------------------

AREA_PICKS = frozenset({"reduce", "treachery", "coastal_city", "piracy_own", "barbarian_step", "monotheism"})
CITY_PICKS = frozenset({"secondary_cities", "piracy_others"})
PICK_PROMPTS = {
    "reduce": "Choose the cities reduced",
    "treachery": "Choose the city taken by treachery",
    "coastal_city": "Choose the coastal city lost",
    "piracy_own": "Choose the coastal cities that turn pirate",
    "piracy_others": "Choose the coastal cities of other players that turn pirate",
    "secondary_cities": "Choose the cities of other players reduced",
    "barbarian_step": "Choose where the barbarians go",
    "monotheism": "Choose the area converted",
    "faction": "Choose the faction you keep",
    "site": "Choose where the calamity strikes",
}


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    areas: tuple[int, ...]
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "areas": [KEYS[a] for a in self.areas],
            "seat": self.seat,
        }


def options(state: State, pending: cal.Pending) -> tuple[Option, ...]:
    """Each option of `pending` with the name a `pick` order gives it: an area key where one area says it,
    else its place in the list."""
    return memo(
        state,
        ("options", pending),
        lambda: tuple(_option(state, pending, i) for i in range(len(pending.options))),
    )


def _option(state: State, pending: cal.Pending, index: int) -> Option:
    key = pending.options[index]
    kind = pending.kind
    if kind in AREA_PICKS:
        if key[0] == cal.NO_TARGET:
            return Option("none", "No conversion", ())
        return Option(KEYS[key[0]], BOARD.areas[key[0]].name, (key[0],), state.cities[key[0]])
    if kind in CITY_PICKS:
        seat, area = key
        return Option(KEYS[area], BOARD.areas[area].name, (area,), seat)
    if kind == "faction":
        return Option(str(key[0]), f"Faction {key[0]}", ())
    areas = _site_areas(state, pending, key)
    return Option(str(index), " + ".join(BOARD.areas[a].name for a in areas), areas)


def _site_areas(state: State, pending: cal.Pending, key: cal.Key) -> tuple[int, ...]:
    if pending.calamity == cal.FLOOD:
        return tuple(sorted(BOARD.flood_plains[key[0]]))
    primary = state.calamities[0][1]
    groups = cal.volcanoes(BOARD)
    if any(group & frozenset(a for a, s in enumerate(state.cities) if s == primary) for group in groups):
        return tuple(sorted(groups[key[0]]))
    return (key[0], key[2]) if len(key) == 3 else (key[0],)


def legal(state: State, seat: int) -> Legal | None:
    """What `seat` may send about the calamity being resolved, or None when it is not asked."""
    found = progress(state)
    if not isinstance(found, Question) or found.seat != seat:
        return None
    context = _context(state, found)
    if found.pending is not None:
        listed = options(state, found.pending)
        default = PickOrder(
            type="pick",
            picks=tuple(listed[found.pending.options.index(k)].name for k in found.pending.default),
        )
        choices: tuple[Choice, ...] = ()
        if found.pending.count == 1:
            choices = tuple(Choice(PickOrder(type="pick", picks=(o.name,)), o.label) for o in listed)
        context |= {
            "question": found.pending.kind,
            "prompt": PICK_PROMPTS.get(found.pending.kind, "Choose"),
            "count": min(found.pending.count, len(listed)),
            "options": [o.to_json() for o in listed],
        }
        return Legal("calamity", "calamity_pick", ("pick",), default, choices, context)
    if found.loss is not None:
        loss = found.loss
        context |= {
            "question": loss.answer or "loss",
            "victim": loss.victim,
            "points": loss.points,
            "due": loss.target(loss.default_grain),
            "units": [
                {"area": KEYS[u.area], "tokens": u.tokens, "city": u.city, "reduced": u.reduced}
                for u in loss.units
            ],
            "keep_token": loss.keep_token,
            "whole_cities": loss.whole_cities,
            "grain": loss.grain,
        }
        default_loss = lose_order(loss.default, loss.default_grain)
        return Legal("calamity", "calamity_lose", ("lose",), default_loss, (), context)
    assert found.assignment is not None
    assignment = found.assignment
    context |= {
        "question": "assign",
        "total": assignment.total,
        "due": assignment.due,
        "caps": {str(s): most for s, most in assignment.caps},
    }
    default_assign = AssignOrder(type="assign", amounts=dict(assignment.default))
    return Legal("calamity", "calamity_assign", ("assign",), default_assign, (), context)


def _context(state: State, question: Question) -> dict[str, Any]:
    card, primary, trader = state.calamities[0]
    return {
        "calamity": card,
        "primary": primary,
        "traded_by": None if trader == NOBODY else trader,
        "secondary": list(question.resolution.secondary),
    }


def lose_order(changes: Iterable[cal.Change], grain: int = 0) -> LoseOrder:
    units = tuple(
        UnitModel(
            area=KEYS[c.area],
            tokens=max(0, -c.tokens),
            city=c.city < 0,
            left=max(0, c.tokens) if c.city < 0 else 0,
        )
        for c in changes
    )
    return LoseOrder(type="lose", units=units, grain=grain)


def step_of(state: State, order: PickOrder | LoseOrder | AssignOrder) -> tuple[int, ...]:
    """The order as a step of `State.steps` (its names read against the question asked)."""
    found = progress(state)
    assert isinstance(found, Question)
    if isinstance(order, PickOrder):
        assert found.pending is not None
        names = [o.name for o in options(state, found.pending)]
        if any(name not in names for name in order.picks):
            raise RuleError("calamity_pick", "Choose among the options offered.", "picks")
        return pick_step(names.index(name) for name in order.picks)
    if isinstance(order, LoseOrder):
        changes = []
        for unit in order.units:
            area = INDEX.get(unit.area)
            if area is None:
                raise RuleError("unknown_area", "There is no area %(key)s.", "units", {"key": unit.area})
            changes.append(cal.Change(seat_of(found), area, unit.left - unit.tokens, -1 if unit.city else 0))
        return loss_step(changes, order.grain)
    return assign_step(dict(order.amounts))


def seat_of(question: Question) -> int:
    return question.loss.victim if question.loss is not None else question.seat


def answer(tx: Tx, seat: int, order: PickOrder | LoseOrder | AssignOrder) -> None:
    """Checks the answer by replaying the calamity with it, then records it."""
    state = tx.state
    picked = _picked_options(state, order) if isinstance(order, PickOrder) else None
    steps = (*state.steps, step_of(state, order))
    replay(state, steps)
    tx.set(steps=steps, asked=True)
    if isinstance(order, LoseOrder) and order.grain:  # Pottery's Grain may not pay this turn (§30.312)
        question = progress(state)
        assert isinstance(question, Question)
        victim = seat_of(question)
        shown = state.grain_shown or (0,) * len(state.players)
        tx.set(grain_shown=replaced(shown, victim, shown[victim] + order.grain))
    data: dict[str, Any] = {"seat": seat, "calamity": state.calamities[0][0]}
    data["order"] = order.model_dump(mode="json")
    if picked is not None:
        data["picked"] = picked
    tx.emit("calamity_answered", **data)


def _picked_options(state: State, order: PickOrder) -> list[dict[str, Any]]:
    """The options a pick chose, as the log names them (a pick's own names may be mere places in a list)."""
    question = progress(state)
    if not isinstance(question, Question) or question.pending is None:
        return []
    return [option.to_json() for option in options(state, question.pending) if option.name in order.picks]


def sample(state: State, legal_now: Legal, rng: random.Random) -> dict[str, Any]:
    """A random legal answer (the fuzzers' policy): random picks, units or amounts, else the default."""
    found = progress(state)
    assert isinstance(found, Question)
    order: PickOrder | LoseOrder | AssignOrder
    if found.pending is not None:
        names = [o.name for o in options(state, found.pending)]
        order = PickOrder(type="pick", picks=tuple(rng.sample(names, min(found.pending.count, len(names)))))
    elif found.loss is not None:
        loss = found.loss
        grain = rng.randint(0, loss.grain)
        due = loss.due(grain)
        changes = cal.random_loss(
            loss.victim,
            loss.units,
            due,
            rng.randrange,
            keep_token=loss.keep_token,
            whole_cities=loss.whole_cities,
        )
        order = lose_order(changes, grain)
    else:
        assert found.assignment is not None
        order = AssignOrder(type="assign", amounts=_random_amounts(found.assignment, rng))
    try:
        replay(state, (*state.steps, step_of(state, order)))
    except RuleError:
        return legal_now.default.model_dump(mode="json")
    return order.model_dump(mode="json")


def _random_amounts(assignment: cal.Assignment, rng: random.Random) -> dict[int, int]:
    caps = dict(assignment.caps)
    given = dict.fromkeys(caps, 0)
    left = assignment.due
    while left:
        seat = rng.choice([s for s in caps if given[s] < caps[s]])
        given[seat] += 1
        left -= 1
    return {seat: n for seat, n in given.items() if n}
