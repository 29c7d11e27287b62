"""Advanced Civilization (Avalon Hill, 1991), part 1: the map, the set-up and the board phases.

Modules: `board` (the map data and its loader), `tables` (what the rules read of the board, by area
index), `cards` (the civ cards and their effects), `movement` (legal moves by land and sea), `conflict`
(one area's conflict, §24), `model` (the frozen state), `setup` (a new game), `flow` (every phase's
automatic part, turn after turn), `fighting` (phase 6 on the state), `orders` (what players send),
`phases` (the one source of legality), `view` (what a seat may see), `rules` (the contract).

Phases: start, tax, revolt, expand, ships, move, conflict, build, support, over (see `phases`); the
census, surplus removal and the A.S.T. are automatic; phases 9–12 are skipped in this part.
"""

from app.games.advciv.rules import RULES, AdvcivOptions, AdvcivRules

__all__ = ["RULES", "AdvcivOptions", "AdvcivRules"]
