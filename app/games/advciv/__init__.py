"""Advanced Civilization (Avalon Hill, 1991): the map, the set-up, the thirteen phases and the end.

Modules: `board` (the map data and its loader), `tables` (what the rules read of the board, by area
index), `cards` (the civ cards and their effects), `movement` (legal moves by land and sea), `conflict`
(one area's conflict, §24), `model` (the frozen state), `setup` (a new game), `flow` (every phase's
automatic part, turn after turn), `fighting` (phase 6 on the state), `orders` (what players send),
`phases` (the one source of legality), `view` (what a seat may see), `rules` (the contract); trade
cards and calamities in `trade_cards`, `drawing`, `calamities` and `resolving`; the market in `market`
and `trading`; the advances in `advances` and `buying`; the end in `scoring`.

The census, surplus removal and the A.S.T. are automatic; every other phase waits on the seats it asks
(see `phases`).
"""

from app.games.advciv.rules import RULES, AdvcivOptions, AdvcivRules

__all__ = ["RULES", "AdvcivOptions", "AdvcivRules"]
