"""Tigris & Euphrates ("Le Tigre et l'Euphrate", R. Knizia), for 2 to 4 players.

Modules: `board` (the fixed data, with its provenance), `model` (the frozen state), `kingdoms`
(territories and kingdoms), `orders` (what players send, and `Legal`), `actions` (the actions of a turn),
`conflicts` (revolts and wars), `flow` (setup and everything automatic: monuments, treasures, turn ends,
refills, the end), `scoring` (the final ranking), `phases` (the one source of legality), `view` (what a
seat may see), `rules` (the contract).

Phases: action, support, war_order, monument, treasure, over (see `phases`).
"""

from app.games.tigris.rules import RULES, TigrisOptions, TigrisRules

__all__ = ["RULES", "TigrisOptions", "TigrisRules"]
