"""Playing a game: the seat draft, one order through one transaction, the waits, seats and their
holders, the absence ladder, and the live news that a game moved.
"""
