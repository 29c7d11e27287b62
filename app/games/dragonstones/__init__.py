"""Dragonstones ("Aux Pierres du Dragon", B. Faidutti & M. Schacht), for 3 to 6 players.

Modules: `model` (the frozen state), `characters` (the cards), `orders` (what players send), `auction`
(sealed bids and tie-breaks), `powers` (the characters' powers), `flow` (setup, rounds and automatic
steps), `phases` (the one source of legality), `view` (what a seat may see), `rules` (the contract).

Phases: bid, tiebreak, doppelganger, power, over (see `phases`).
"""

from app.games.dragonstones.rules import RULES, DragonstonesOptions, DragonstonesRules

__all__ = ["RULES", "DragonstonesOptions", "DragonstonesRules"]
