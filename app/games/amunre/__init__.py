"""Amun-Re (R. Knizia, Hans im Glück / Rio Grande 2003), for 3 to 5 players.

Modules: `board` (the province and temple data, from `data/board.json`), `cards` (power and gold cards),
`model` (the frozen state), `orders` (what players send), `phases` (the one source of legality), `actions`
(what orders do), `flow` (setup, rounds and automatic steps), `scoring`, `sample` (random play), `view`
(what a seat may see), `rules` (the contract).
"""

from app.games.amunre.rules import RULES, AmunReOptions, AmunReRules

__all__ = ["RULES", "AmunReOptions", "AmunReRules"]
