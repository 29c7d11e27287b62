"""What one seat (or a spectator, `seat=None`) may see.

Public: the whole board (tiles, leaders, catastrophes, monuments, treasures, the junction), kingdoms and
strengths, each player's leaders and catastrophes in front of the screen, hand sizes, the bag's size, the
number of tiles out of the game, a conflict and every support once committed.
Private to its owner: the hand, and the victory points and treasures behind the screen (public with the
"open scoring" option, and for everybody once the game is over). Never shown: the bag's contents and the
generator state.
"""

from __future__ import annotations

from typing import Any

from app.games.tigris.board import (
    BLACK,
    COLOURS,
    CORNERS,
    DYNASTIES,
    HEIGHT,
    LEADERS,
    MONUMENT_IDS,
    MONUMENTS,
    NAMES,
    RIVERS,
    SIZE,
    TILE_CODES,
    WIDTH,
)
from app.games.tigris.conflicts import war_attacker
from app.games.tigris.kingdoms import Regions, regions, regions_without_leader, temples_next_to
from app.games.tigris.model import OFF, Counts, State
from app.games.tigris.orders import Legal
from app.games.tigris.phases import legal_for
from app.games.tigris.scoring import final_results

PROMPTS: dict[str, str] = {
    "action": "Your turn: take two actions (or pass).",
    "action_last": "Your turn: take your second action (or pass).",
    "support_attacker": "You attack: add {colour} tiles from your hand as support?",
    "support_defender": "You are attacked: add {colour} tiles from your hand as support? A tie wins for you.",
    "war_order": "Your tile started several wars: choose the one resolved first.",
    "monument": "You completed a square of four tiles: build a monument on it?",
    "treasure": "Your trader collects treasures: choose the one left on the board.",
    "wait": "Waiting for other players.",
    "game_over": "The game is over.",
    "spectator": "You are watching.",
}


def view(state: State, seat: int | None) -> dict[str, Any]:
    me = seat if seat is not None and 0 <= seat < len(state.players) else None
    over = state.phase == "over"
    found = regions(state)
    numbers = _kingdom_numbers(found)
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "turn": state.turn,
        "active": state.active,
        "actions_left": state.actions_left,
        "phase": state.phase,
        "over": over,
        "end": state.end or None,
        "english_variant": state.english,
        "open_scoring": state.open_scoring,
        "squares": _squares(state, found, numbers),
        "monuments": _monuments(state),
        "kingdoms": _kingdoms(state, found, numbers),
        "players": [_public_player(state, s, me) for s in range(len(state.players))],
        "me": _private(state, me) if me is not None else None,
        "bag": sum(state.bag),
        "discarded": state.discarded,
        "treasures_left": len(state.treasures),
        "conflict": _conflict(state),
        "junction": NAMES[state.junction] if state.junction != OFF else None,
        "wars": [COLOURS[colour] for colour in state.wars],
        "waiting_for": [s for s in range(len(state.players)) if legal_for(state, s) is not None],
        "legal": _legal(state, me),
        "results": final_results(state) if over else None,
    }


def _kingdom_numbers(found: Regions) -> dict[int, int]:
    """Kingdoms numbered 1, 2... in reading order of their first square."""
    numbers: dict[int, int] = {}
    for group in range(found.groups):
        if found.leaders[group]:
            numbers[group] = len(numbers) + 1
    return numbers


def _squares(state: State, found: Regions, numbers: dict[int, int]) -> list[dict[str, Any]]:
    board, leader_at, treasures = state.board, state.leader_at(), set(state.treasures)
    label = found.label
    squares = []
    for sq in range(SIZE):
        code = board[sq]
        kingdom = numbers.get(label[sq])
        leader = leader_at.get(sq)
        squares.append(
            {
                "name": NAMES[sq],
                "x": sq % WIDTH,
                "y": sq // WIDTH,
                "river": sq in RIVERS,
                "tile": COLOURS[TILE_CODES.index(code)] if code in TILE_CODES else None,
                "down": code == "d",
                "catastrophe": code == "x",
                "treasure": sq in treasures,
                "corner": sq in CORNERS,
                "junction": sq == state.junction,
                "leader": _leader(leader) if leader is not None else None,
                "kingdom": kingdom,
                "edges": _edges(sq, label) if kingdom is not None else "",
            }
        )
    return squares


def _leader(code: int) -> dict[str, Any]:
    seat, colour = divmod(code, 4)
    return {"seat": seat, "colour": COLOURS[colour], "leader": LEADERS[colour], "dynasty": DYNASTIES[seat]}


def _edges(sq: int, label: list[int]) -> str:
    """The sides of `sq` on its kingdom's outline: t(op), l(eft), r(ight), b(ottom)."""
    x, y = sq % WIDTH, sq // WIDTH
    sides = (
        ("t", y > 0, sq - WIDTH),
        ("l", x > 0, sq - 1),
        ("r", x < WIDTH - 1, sq + 1),
        ("b", y < HEIGHT - 1, sq + WIDTH),
    )
    return "".join(side for side, inside, near in sides if not inside or label[near] != label[sq])


def _monuments(state: State) -> list[dict[str, Any]]:
    return [
        {
            "id": MONUMENT_IDS[index],
            "colours": [COLOURS[colour] for colour in MONUMENTS[index]],
            "square": NAMES[top_left] if top_left != OFF else None,
            "x": top_left % WIDTH if top_left != OFF else None,
            "y": top_left // WIDTH if top_left != OFF else None,
        }
        for index, top_left in enumerate(state.monuments)
    ]


def _kingdoms(state: State, found: Regions, numbers: dict[int, int]) -> list[dict[str, Any]]:
    board, treasures = state.board, set(state.treasures)
    kingdoms = []
    for group, number in numbers.items():
        members = found.members[group]
        strengths = [found.count(board, group, TILE_CODES[colour]) for colour in range(4)]
        leaders = []
        for code in sorted(found.leaders[group], key=lambda code: code % 4):
            seat, colour = divmod(code, 4)
            sq = state.players[seat].leaders[colour]
            leaders.append(
                {
                    **_leader(code),
                    "square": NAMES[sq],
                    "temples": temples_next_to(board, sq),  # its strength in a revolt
                    "supporters": strengths[colour],  # its strength in a war
                }
            )
        kingdoms.append(
            {
                "id": number,
                "size": len(members),
                "tiles": dict(zip(COLOURS, strengths, strict=True)),
                "treasures": sum(1 for sq in members if sq in treasures),
                "monuments": [
                    MONUMENT_IDS[index]
                    for index, top_left in enumerate(state.monuments)
                    if top_left != OFF and found.label[top_left] == group
                ],
                "leaders": leaders,
            }
        )
    return kingdoms


def _scores_visible(state: State, seat: int, viewer: int | None) -> bool:
    return state.open_scoring or state.phase == "over" or seat == viewer


def _public_player(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state.players[seat]
    visible = _scores_visible(state, seat, viewer)
    return {
        "seat": seat,
        "dynasty": DYNASTIES[seat],
        "leaders": {
            COLOURS[colour]: NAMES[sq] if sq != OFF else None for colour, sq in enumerate(player.leaders)
        },
        "catastrophes": player.catastrophes,
        "hand_size": sum(player.hand),
        "points": _counts(player.points) if visible else None,
        "treasures": player.treasures if visible else None,
    }


def _private(state: State, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "dynasty": DYNASTIES[seat],
        "hand": _counts(player.hand),
        "points": _counts(player.points),
        "treasures": player.treasures,
    }


def _counts(counts: Counts) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))


def _conflict(state: State) -> dict[str, Any] | None:
    conflict = state.conflict
    if conflict is None:
        return None
    return {
        "kind": conflict.kind,
        "colour": COLOURS[conflict.colour],
        "leader": LEADERS[conflict.colour],
        "attacker": conflict.attacker,
        "defender": conflict.defender,
        "attacker_square": NAMES[conflict.attacker_square],
        "defender_square": NAMES[conflict.defender_square],
        "attacker_strength": conflict.attacker_base,
        "defender_strength": conflict.defender_base,
        # a support is public once committed, and only then
        "attacker_support": conflict.attacker_support if conflict.attacker_support != OFF else None,
        "defender_support": conflict.defender_support if conflict.defender_support != OFF else None,
        "waiting_on": conflict.waiting_on(),
    }


# --- the legal part ---------------------------------------------------------------------------------------


def legal_json(state: State, legal: Legal) -> dict[str, Any]:
    context = legal.context
    return {
        **legal.to_json(),
        "text": PROMPTS[legal.prompt].format(colour=context.get("colour", "")),
        "targets": {piece: [NAMES[sq] for sq in sorted(squares)] for piece, squares in legal.targets.items()},
        "withdraw": [COLOURS[colour] for colour in legal.withdraw],
        "swap": _counts(legal.swap) if legal.swap else None,
        "context": context,
        "previews": _previews(state, legal) if legal.phase == "action" else {},
    }


def _legal(state: State, seat: int | None) -> dict[str, Any]:
    legal = legal_for(state, seat) if seat is not None else None
    if legal is not None:
        return legal_json(state, legal)
    prompt = "game_over" if state.phase == "over" else "spectator" if seat is None else "wait"
    return {
        "phase": None,
        "prompt": prompt,
        "text": PROMPTS[prompt],
        "orders": [],
        "choices": [],
        "targets": {},
        "withdraw": [],
        "swap": None,
        "context": {},
        "previews": {},
        "default": None,
    }


def _previews(state: State, legal: Legal) -> dict[str, dict[str, Any]]:
    """What each placement would start: a revolt, wars (with the strengths on the board), or a point."""
    seat = state.active
    previews: dict[str, dict[str, Any]] = {}
    for piece, squares in legal.targets.items():
        kind, _, colour_name = piece.partition(":")
        if kind == "leader":
            previews[piece] = _leader_previews(state, seat, COLOURS.index(colour_name), squares)
        elif kind == "tile":
            previews[piece] = _tile_previews(state, seat, COLOURS.index(colour_name), squares)
    return previews


def _leader_previews(state: State, seat: int, colour: int, squares: frozenset[int]) -> dict[str, Any]:
    at = state.players[seat].leaders[colour]
    found = regions(state) if at == OFF else regions_without_leader(state, at)
    board = state.board
    previews = {}
    for sq in squares:
        for group in found.kingdoms_near(sq):
            code = found.leader_of(group, colour)
            if code is not None and code // 4 != seat:
                other = state.players[code // 4].leaders[colour]
                previews[NAMES[sq]] = {
                    "kind": "revolt",
                    "colour": COLOURS[colour],
                    "defender": code // 4,
                    "attacker_strength": temples_next_to(board, sq),
                    "defender_strength": temples_next_to(board, other),
                }
    return previews


def _tile_previews(state: State, seat: int, colour: int, squares: frozenset[int]) -> dict[str, Any]:
    found = regions(state)
    previews: dict[str, Any] = {}
    for sq in squares:
        kingdoms = sorted(found.kingdoms_near(sq))
        if len(kingdoms) == 2:
            previews[NAMES[sq]] = {"kind": "join", "wars": _war_previews(state, found, seat, sq, kingdoms)}
        elif kingdoms:
            code = found.leader_of(kingdoms[0], colour)
            code = code if code is not None else found.leader_of(kingdoms[0], BLACK)
            if code is not None:
                previews[NAMES[sq]] = {"kind": "point", "seat": code // 4, "colour": COLOURS[colour]}
    return previews


def _war_previews(
    state: State, found: Regions, seat: int, sq: int, kingdoms: list[int]
) -> list[dict[str, Any]]:
    """The wars a joining tile would start, with each side's strength as the board stands now."""
    wars = []
    first, second = kingdoms
    board = state.board
    for colour in range(4):
        a, b = found.leader_of(first, colour), found.leader_of(second, colour)
        if a is None or b is None:
            continue
        sides = {a // 4: first, b // 4: second}
        attacker = war_attacker(seat, list(sides), len(state.players))
        defender = next(s for s in sides if s != attacker)
        wars.append(
            {
                "colour": COLOURS[colour],
                "attacker": attacker,
                "defender": defender,
                "attacker_strength": found.count(board, sides[attacker], TILE_CODES[colour]),
                "defender_strength": found.count(board, sides[defender], TILE_CODES[colour]),
            }
        )
    return wars
