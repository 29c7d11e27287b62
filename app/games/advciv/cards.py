"""Civilization cards: the catalogue, the credit matrix, and what the cards a nation holds change in
phases 1–8 and 13.

Every function takes the frozenset of card keys a nation holds and answers one question; its docstring
cites the rulebook paragraph. `EFFECTS` lists the same modifiers as data (for the docs, the page's card
help and the tests), one row per card and phase. Phase 13 (A.S.T.) reads no single card: it counts the
colours and the face value of all held (`groups_held`, `face_value`). Cards whose effects lie only in
phases 9–12 (Pottery, Mining, Medicine, the calamity modifiers…) have no row here: `calamities.py` and
`advances.py` list theirs.

Credits (§31.5, §32) are data: `GROUP_CREDITS` (X off every *other* card of a group; a two-group card
receives both groups' credits, §31.55) and `CARD_CREDITS` (X off one named card). `credit(giver, target)`
reads the 24×24 matrix they make; `credits_toward(held, target)` adds up what a holder gets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CRAFTS: Final = "crafts"
SCIENCES: Final = "sciences"
ARTS: Final = "arts"
CIVICS: Final = "civics"
RELIGION: Final = "religion"
GROUPS: Final = (CRAFTS, SCIENCES, ARTS, CIVICS, RELIGION)

POTTERY: Final = "pottery"
CLOTH_MAKING: Final = "cloth_making"
METALWORKING: Final = "metalworking"
AGRICULTURE: Final = "agriculture"
ROADBUILDING: Final = "roadbuilding"
MINING: Final = "mining"
ENGINEERING: Final = "engineering"
ASTRONOMY: Final = "astronomy"
COINAGE: Final = "coinage"
MEDICINE: Final = "medicine"
MATHEMATICS: Final = "mathematics"
DRAMA_POETRY: Final = "drama_poetry"
MUSIC: Final = "music"
ARCHITECTURE: Final = "architecture"
LITERACY: Final = "literacy"
LAW: Final = "law"
DEMOCRACY: Final = "democracy"
MILITARY: Final = "military"
PHILOSOPHY: Final = "philosophy"
MYSTICISM: Final = "mysticism"
DEISM: Final = "deism"
ENLIGHTENMENT: Final = "enlightenment"
MONOTHEISM: Final = "monotheism"
THEOLOGY: Final = "theology"


@dataclass(frozen=True, slots=True)
class CivCard:
    key: str
    name: str
    groups: tuple[str, ...]  # a two-group card supplies both colours (§31.551, §33.23)
    cost: int  # face value: what the A.S.T.'s Late Iron spaces and the score count (§33.25, §35)
    requires: str | None = None  # the card a buyer must already hold (§32.253, §32.812, §32.932)


CIV_CARDS: Final[dict[str, CivCard]] = {
    card.key: card
    for card in (
        CivCard(POTTERY, "Pottery", (CRAFTS,), 45),
        CivCard(CLOTH_MAKING, "Cloth Making", (CRAFTS,), 45),
        CivCard(METALWORKING, "Metalworking", (CRAFTS,), 80),
        CivCard(AGRICULTURE, "Agriculture", (CRAFTS,), 110),
        CivCard(ROADBUILDING, "Roadbuilding", (CRAFTS,), 140, ENGINEERING),
        CivCard(MINING, "Mining", (CRAFTS,), 180, ENGINEERING),
        CivCard(ENGINEERING, "Engineering", (CRAFTS, SCIENCES), 140),
        CivCard(ASTRONOMY, "Astronomy", (SCIENCES,), 80),
        CivCard(COINAGE, "Coinage", (SCIENCES,), 110),
        CivCard(MEDICINE, "Medicine", (SCIENCES,), 140),
        CivCard(MATHEMATICS, "Mathematics", (SCIENCES, ARTS), 230),
        CivCard(DRAMA_POETRY, "Drama and Poetry", (ARTS,), 60),
        CivCard(MUSIC, "Music", (ARTS,), 60),
        CivCard(ARCHITECTURE, "Architecture", (ARTS,), 120),
        CivCard(LITERACY, "Literacy", (ARTS, CIVICS), 110),
        CivCard(LAW, "Law", (CIVICS,), 170),
        CivCard(DEMOCRACY, "Democracy", (CIVICS,), 200, LAW),
        CivCard(MILITARY, "Military", (CIVICS,), 180),
        CivCard(PHILOSOPHY, "Philosophy", (CIVICS,), 240, LAW),
        CivCard(MYSTICISM, "Mysticism", (RELIGION, ARTS), 50),
        CivCard(DEISM, "Deism", (RELIGION,), 80),
        CivCard(ENLIGHTENMENT, "Enlightenment", (RELIGION,), 150),
        CivCard(MONOTHEISM, "Monotheism", (RELIGION,), 220, ENLIGHTENMENT),
        CivCard(THEOLOGY, "Theology", (RELIGION,), 250, ENLIGHTENMENT),
    )
}

Cards = frozenset[str]


@dataclass(frozen=True, slots=True)
class Effect:
    card: str
    phase: int  # 1–13, as in the turn sequence (§18.1)
    section: str  # the rulebook paragraph
    effect: str  # one English line, for the docs and the card help


EFFECTS: Final[tuple[Effect, ...]] = (
    Effect(COINAGE, 1, "19.2", "Tax may be 1 or 3 tokens per city instead of 2, the same for every city."),
    Effect(DEMOCRACY, 1, "19.34", "The holder's cities never revolt for unpaid tax."),
    Effect(MILITARY, 4, "22.11", "Builds and maintains ships after every non-holder."),
    Effect(MILITARY, 5, "23.21", "Moves after every non-holder."),
    Effect(ROADBUILDING, 5, "23.31", "Tokens may cross a first land area free of others into a second."),
    Effect(CLOTH_MAKING, 5, "23.53", "Ships move 5 areas instead of 4."),
    Effect(ASTRONOMY, 5, "23.54", "Ships may enter open sea."),
    Effect(METALWORKING, 6, "24.24", "Removes its tokens after every non-holder in a conflict."),
    Effect(ENGINEERING, 6, "24.35", "Attacks a city with 6 tokens (the city becomes 5 tokens)."),
    Effect(ENGINEERING, 6, "24.35", "Its cities need 8 attackers (and become 7 tokens)."),
    Effect(ARCHITECTURE, 7, "25.3", "Treasury may pay up to half of one city a turn, where no others stand."),
    Effect(AGRICULTURE, 8, "26.11", "Population limit +1 where only the holder's tokens stand."),
    Effect(AGRICULTURE, 8, "32.241", "A reduced city becomes one token more."),
)

# One line per card for the shop and the rules page: its special ability and the calamities it softens
# or worsens (§30, §32), gathered from `EFFECTS` above, `advances.EFFECTS` and the calamity functions.
SUMMARIES: Final[dict[str, str]] = {
    POTTERY: "Famine: each Grain card shown saves 4 unit points.",
    CLOTH_MAKING: "Ships move 5 areas instead of 4.",
    METALWORKING: "In a conflict, removes its tokens after every non-holder.",
    AGRICULTURE: "Population limit +1 where only its tokens stand; a reduced city leaves one token more.",
    ROADBUILDING: "Tokens may cross a first land area into a second. Worse Epidemic (+5), Civil Disorder and "
    "Iconoclasm and Heresy (+1 city).",
    MINING: "One more card in a set of Iron, Bronze, Silver, Gems or Gold when paying. Slave Revolt: "
    "5 tokens more.",
    ENGINEERING: "Attacks a city with 6 tokens; its own cities need 8. Earthquake and Flood only reduce its "
    "city; Flood: 7 unit points at most.",
    ASTRONOMY: "Ships may enter open sea.",
    COINAGE: "Tax may be 1 or 3 tokens per city instead of 2.",
    MEDICINE: "Epidemic: 8 unit points fewer (5 for a secondary victim).",
    MATHEMATICS: "No special ability: its credits.",
    DRAMA_POETRY: "Civil Disorder: one city fewer reduced. Civil War: a first faction 5 unit points larger.",
    MUSIC: "Civil Disorder: one city fewer reduced. Civil War: a first faction 5 unit points larger.",
    ARCHITECTURE: "The treasury may pay up to half of one city a turn.",
    LITERACY: "No special ability: its credits.",
    LAW: "Civil Disorder and Iconoclasm and Heresy: one city fewer. Needed for Democracy and Philosophy.",
    DEMOCRACY: "Cities never revolt for unpaid tax. Civil Disorder: one city fewer. Civil War: a first "
    "faction 10 unit points larger.",
    MILITARY: "Builds ships and moves after every non-holder. Civil Disorder: one city more; Civil War: "
    "5 unit points lost by each faction.",
    PHILOSOPHY: "Iconoclasm and Heresy: one city fewer, at most one named by others. Civil War: a smaller "
    "first faction.",
    MYSTICISM: "Superstition: 2 cities reduced instead of 3.",
    DEISM: "Superstition: 1 city reduced instead of 3.",
    ENLIGHTENMENT: "Superstition: no city reduced. Slave Revolt: 5 tokens fewer. Needed for Monotheism and "
    "Theology.",
    MONOTHEISM: "Once a turn, converts one neighbouring area to its own units. Iconoclasm and Heresy: one "
    "city more.",
    THEOLOGY: "Immune to Monotheism. Iconoclasm and Heresy: 3 cities fewer, none named by others.",
}

COPIES: Final = 8  # §3.1: eight of each card; §31.12: no limit on owners, so 8 players never run out

# §32: credits toward every other card of a group (a two-group giver credits both of its groups).
GROUP_CREDITS: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    POTTERY: ((CRAFTS, 10),),  # §32.212
    CLOTH_MAKING: ((CRAFTS, 10),),  # §32.222
    METALWORKING: ((CRAFTS, 10),),  # §32.232
    AGRICULTURE: ((CRAFTS, 10),),  # §32.242
    ROADBUILDING: ((CRAFTS, 10),),  # §32.254
    MINING: ((CRAFTS, 10),),  # §32.264
    ENGINEERING: ((CRAFTS, 10), (SCIENCES, 20)),  # §32.314
    ASTRONOMY: ((SCIENCES, 20),),  # §32.412
    COINAGE: ((SCIENCES, 20),),  # §32.422
    MEDICINE: ((SCIENCES, 20),),  # §32.432
    MATHEMATICS: ((SCIENCES, 20), (ARTS, 5)),  # §32.541
    ARCHITECTURE: ((ARTS, 5),),  # §32.632
    LITERACY: ((ARTS, 5),),  # §32.711
    MYSTICISM: ((ARTS, 5), (RELIGION, 15)),  # §32.912
}

_CRAFTS_EXTRA: Final = ((DEMOCRACY, 10), (MONOTHEISM, 10))
_SCIENCES_EXTRA: Final = ((PHILOSOPHY, 20), (THEOLOGY, 20))

# §32: credits toward one named card. Law, Democracy, Military, Philosophy, Monotheism and Theology give
# none (§32 is silent, E7 of the check file). Music → Democracy 10 is missing from §32.622 but printed on
# the credit table (the strategy guide, and both transcriptions of the table, give it).
CARD_CREDITS: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    POTTERY: _CRAFTS_EXTRA,
    CLOTH_MAKING: _CRAFTS_EXTRA,
    METALWORKING: (*_CRAFTS_EXTRA, (MILITARY, 20)),
    AGRICULTURE: _CRAFTS_EXTRA,
    ROADBUILDING: _CRAFTS_EXTRA,
    MINING: _CRAFTS_EXTRA,
    ENGINEERING: (*_CRAFTS_EXTRA, *_SCIENCES_EXTRA),
    ASTRONOMY: _SCIENCES_EXTRA,
    COINAGE: _SCIENCES_EXTRA,
    MEDICINE: _SCIENCES_EXTRA,
    MATHEMATICS: ((LAW, 5), (ENLIGHTENMENT, 10), (PHILOSOPHY, 25), (THEOLOGY, 25)),
    DRAMA_POETRY: (
        (MATHEMATICS, 5),
        (MUSIC, 5),
        (ARCHITECTURE, 5),
        (LAW, 5),
        (MYSTICISM, 5),
        (DEMOCRACY, 10),
        (ENLIGHTENMENT, 10),
        (LITERACY, 20),
    ),  # §32.612
    MUSIC: (
        (DRAMA_POETRY, 5),
        (ARCHITECTURE, 5),
        (LITERACY, 5),
        (LAW, 5),
        (MYSTICISM, 5),
        (ENLIGHTENMENT, 10),
        (DEMOCRACY, 10),
        (MATHEMATICS, 20),
        (PHILOSOPHY, 20),
    ),  # §32.622 and the credit table
    ARCHITECTURE: ((DEMOCRACY, 10), (ENLIGHTENMENT, 10), (LAW, 15)),  # §32.632
    LITERACY: ((ENLIGHTENMENT, 10), (LAW, 25), (DEMOCRACY, 25), (PHILOSOPHY, 25)),  # §32.711
    DEISM: ((ENLIGHTENMENT, 15), (MONOTHEISM, 15), (THEOLOGY, 15)),  # §32.922
    ENLIGHTENMENT: ((MONOTHEISM, 15), (THEOLOGY, 15)),  # §32.933
}


def _credit(giver: str, target: str) -> int:
    if giver == target:
        return 0
    groups = CIV_CARDS[target].groups
    by_group = sum(value for group, value in GROUP_CREDITS.get(giver, ()) if group in groups)
    return by_group + sum(value for card, value in CARD_CREDITS.get(giver, ()) if card == target)


CREDIT_MATRIX: Final[dict[tuple[str, str], int]] = {
    (giver, target): _credit(giver, target) for giver in CIV_CARDS for target in CIV_CARDS
}


def credit(giver: str, target: str) -> int:
    """§31.51, §32: what holding `giver` takes off the price of `target` (0 toward itself)."""
    return CREDIT_MATRIX[giver, target]


def credits_toward(held: Cards, target: str) -> int:
    """§31.53–31.56: every held card's credit toward `target`, each once, all of them compulsory. `held`
    must be the cards owned before this phase: cards bought this turn give no credit yet (§31.53)."""
    return sum(CREDIT_MATRIX[giver, target] for giver in held)


TAX_RATE: Final = 2  # tokens per city (§19.1)
SHIP_COST: Final = 2  # units per ship built (§22.1)
CITY_ATTACK_TOKENS: Final = 7  # tokens of one nation needed to attack a city (§24.31)
CITY_REPLACEMENT_TOKENS: Final = 6  # tokens that replace an attacked city (§24.32)


def tax_rates(cards: Cards) -> tuple[int, ...]:
    """§19.1, §19.2: 2 tokens per city; a Coinage holder chooses 1, 2 or 3, the same for every city."""
    return (1, 2, 3) if COINAGE in cards else (TAX_RATE,)


def immune_to_tax_revolt(cards: Cards) -> bool:
    """§19.34, §32.821: a Democracy holder's cities never revolt for unpaid tax."""
    return DEMOCRACY in cards


def default_tax_rate(cards: Cards, *, cities: int, stock: int) -> int:
    """The site's rate for a Coinage holder who does not choose: 2, or 1 when 2 would make cities revolt
    (the site sets 1 at once). Without Coinage the rate is always 2."""
    if COINAGE not in cards or immune_to_tax_revolt(cards) or TAX_RATE * cities <= stock:
        return TAX_RATE
    return 1


def acts_last(cards: Cards) -> bool:
    """§22.11, §23.21, §32.831: a Military holder builds ships and moves after every non-holder (in
    census order among holders). Military changes nothing in the conflict phase."""
    return MILITARY in cards


def ship_cost_options(cards: Cards) -> tuple[tuple[int, int], ...]:
    """§22.1: a ship costs 2 units, as (tokens from its area, treasury): 2+0, 1+1 or 0+2. No card of
    Advanced Civilization changes the price; the parameter keeps the question in one place."""
    return tuple((SHIP_COST - treasury, treasury) for treasury in range(SHIP_COST + 1))


def ship_steps(cards: Cards) -> int:
    """§23.52, §23.53: a ship crosses up to 4 areas a phase, 5 with Cloth Making."""
    return 5 if CLOTH_MAKING in cards else 4


def may_enter_open_sea(cards: Cards) -> bool:
    """§23.52, §23.54: only an Astronomy holder's ships enter open sea."""
    return ASTRONOMY in cards


def road_movement(cards: Cards) -> bool:
    """§23.31, §32.251: a Roadbuilding holder's tokens may cross a first land area into a second."""
    return ROADBUILDING in cards


def removes_last(cards: Cards) -> bool:
    """§24.24, §32.231: in a conflict a Metalworking holder removes after every non-holder; between
    holders it cancels out."""
    return METALWORKING in cards


def city_attack_tokens(attacker: Cards, defender: Cards) -> int:
    """§24.31, §24.35: tokens of one nation needed to attack a city: 7; 6 for an Engineering attacker,
    8 against an Engineering defender; both holding it cancel out."""
    return CITY_ATTACK_TOKENS - _engineering_edge(attacker, defender)


def city_replacement_tokens(attacker: Cards, defender: Cards) -> int:
    """§24.32, §24.35: tokens (from the defender's stock) that replace an attacked city: 6; 5 against
    an Engineering attacker, 7 for an Engineering defender; both holding it cancel out."""
    return CITY_REPLACEMENT_TOKENS - _engineering_edge(attacker, defender)


def _engineering_edge(attacker: Cards, defender: Cards) -> int:
    return (ENGINEERING in attacker) - (ENGINEERING in defender)


def architecture_treasury(cards: Cards, *, cost: int, others_present: bool) -> int:
    """§25.3, §32.631: the treasury tokens an Architecture holder may put towards one city this turn: at
    most half of `cost` (at least half comes from the board), and none in an area holding another
    player's tokens or barbarians. The caller allows it for one city a turn."""
    if ARCHITECTURE not in cards or others_present:
        return 0
    return cost // 2


def agriculture_bonus(cards: Cards, *, alone: bool) -> int:
    """§26.11, §32.241: +1 to the population limit of an area holding only the holder's tokens; it also
    adds one token to a reduced city. Never in conflicts, never where others' tokens share the area."""
    return 1 if AGRICULTURE in cards and alone else 0


def population_limit(limit: int, cards: Cards, *, alone: bool) -> int:
    """§26.1, §26.11: the tokens a nation may keep in an area after surplus removal (not in a city's area)."""
    return limit + agriculture_bonus(cards, alone=alone)


def groups_held(cards: Cards) -> frozenset[str]:
    """§33.23, §33.24: the distinct colours present; a two-group card supplies both, no colour twice."""
    return frozenset(group for key in cards for group in CIV_CARDS[key].groups)


def face_value(cards: Cards) -> int:
    """§33.25: the printed value of the cards held (credits are not deducted; trade cards don't count)."""
    return sum(CIV_CARDS[key].cost for key in cards)
