"""Helpers shared by every game's rules: legal choices, the order transaction, the seeded generator and
frozen-state tools (`legal`, `tx`, `rng`, `model`). Games build on them; they know nothing of any game."""
