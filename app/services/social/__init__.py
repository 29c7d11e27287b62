"""The ways into games and the talk at the table: creating and joining, the player queue, the Open
tab with its position summaries, generated game names, and in-game messages.
"""
