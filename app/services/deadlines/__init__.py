"""Deadlines as rows: each wait's deadline, the market windows, availability windows and pauses,
outage compensation, and the public notices the platform writes in a game's log.
"""
