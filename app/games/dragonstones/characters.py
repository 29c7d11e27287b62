"""The character cards: ids, names, card counts and the canonical display order.

Ids are English snake_case. The two Dwarf cards differ only by their text (4 or 5 silver), so each gets
its own id. The Enchanter/Magician powers follow the body text of the French rules, which names the card
in each sentence (see docs/dragonstones.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Character:
    name: str
    french: str
    text: str
    special: bool


WITCH = "witch"

CHARACTERS: dict[str, Character] = {
    "witch": Character("Witch", "Sorcière", "Take a cursed coin.", False),
    "red_dragon": Character("Red Dragon", "Dragon rouge", "Take a red stone.", False),
    "blue_dragon": Character("Blue Dragon", "Dragon bleu", "Take a blue stone.", False),
    "yellow_dragon": Character("Yellow Dragon", "Dragon jaune", "Take a yellow stone.", False),
    "sorcerer": Character(
        "Sorcerer", "Sorcier", "Pay 4 stones of one colour for 2 points, or take 1 common gold.", False
    ),
    "thief": Character(
        "Thief", "Voleur", "Take a stone from the second-highest bidder (else a coin).", False
    ),
    "enchanter": Character(
        "Enchanter", "Enchanteur", "Pay 3 stones, one of each colour, for 1 point, or take 3 silver.", False
    ),
    "magician": Character(
        "Magician", "Magicien", "Pay 4 stones of any colours for 1 point, or take 3 silver.", False
    ),
    "alchemist": Character("Alchemist", "Alchimiste", "Take 3 common gold.", True),
    "ancient_dragon": Character("Ancient Dragon", "Ancien Dragon", "Take a stone of your choice.", True),
    "apprentice": Character(
        "Apprentice", "Apprenti sorcier", "Pay 2 identical stones (if you have them) for 1 point.", True
    ),
    "brigand": Character(
        "Brigand", "Brigand", "Name a player, who gives you all his common gold and silver.", True
    ),
    "charlatan": Character(
        "Charlatan", "Charlatan", "Pay all your stones for 1 point (free if you have none).", True
    ),
    "doppelganger": Character(
        "Doppelganger", "Doppelganger", "Keep this card; later, play it to use a power twice.", True
    ),
    "two_headed_dragon": Character(
        "Two-headed Dragon", "Dragon à deux têtes", "Draw 2 of 2 stones of each colour put in the bag.", True
    ),
    "rainbow_dragon": Character(
        "Rainbow Dragon",
        "Dragon arc-en-ciel",
        "Name a colour and draw stones until you stop or draw it.",
        True,
    ),
    "enchantress": Character(
        "Enchantress", "Ensorceleuse", "Pay 5 stones of any colours for 2 points, or take 1 fairy gold.", True
    ),
    "ghost": Character(
        "Ghost", "Fantôme", "Use the power of a character already auctioned this round.", True
    ),
    "fairy": Character("Fairy", "Fée", "Take 1 fairy gold, yours for good.", True),
    "gnome": Character("Gnome", "Gnome", "Take 2 common gold and 2 silver.", True),
    "goblin": Character("Goblin", "Gobelin", "Use the power of a random character not yet auctioned.", True),
    "imp": Character("Imp", "Lutin", "Use the power of a character of your choice not yet auctioned.", True),
    "merchant": Character("Merchant", "Marchand", "Buy stones from the bank: 1 gold or 3 silver each.", True),
    "dwarf_4": Character("Dwarf", "Nain", "Take 4 silver.", True),
    "dwarf_5": Character("Dwarf", "Nain", "Take 5 silver.", True),
    "necromancer": Character(
        "Necromancer", "Nécromant", "You may give the bank all the coins you bid for 1 point.", True
    ),
    "goldsmith": Character("Goldsmith", "Orfèvre", "Take a magic amulet.", True),
    "troll": Character("Troll", "Troll", "Name a colour: everybody returns his stones of it.", True),
}

# The seven base cards shuffled each round with the two specials (the Witch is always auctioned first).
BASE_PILE: tuple[str, ...] = (
    "red_dragon",
    "blue_dragon",
    "yellow_dragon",
    "sorcerer",
    "thief",
    "enchanter",
    "magician",
)

SPECIAL_COUNTS: dict[str, int] = {
    "alchemist": 1,
    "ancient_dragon": 2,
    "apprentice": 2,
    "brigand": 1,
    "charlatan": 2,
    "doppelganger": 1,
    "two_headed_dragon": 2,
    "rainbow_dragon": 1,
    "enchantress": 1,
    "ghost": 1,
    "fairy": 2,
    "gnome": 1,
    "goblin": 1,
    "imp": 1,
    "merchant": 1,
    "dwarf_4": 1,
    "dwarf_5": 1,
    "necromancer": 1,
    "goldsmith": 1,
    "troll": 1,
}

SPECIAL_DECK: tuple[str, ...] = tuple(card for card, count in SPECIAL_COUNTS.items() for _ in range(count))

ORDER: dict[str, int] = {card: index for index, card in enumerate(CHARACTERS)}


def canonical(cards: Iterable[str]) -> list[str]:
    """Distinct cards in the fixed display order (Witch, base cards, then the specials)."""
    return sorted(set(cards), key=ORDER.__getitem__)


def name(card: str) -> str:
    return CHARACTERS[card].name
