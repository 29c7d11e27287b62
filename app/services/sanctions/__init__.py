"""Sanctions in force: whether a user may log in, join or write to players now, and barred addresses,
read from the user row and the bans; below every other package, since each of them asks.
"""
