"""Rule modules: pure game logic, with no I/O, no ORM and no web.

Nothing here imports the rest of the application; only the standard library and pydantic.
"""
