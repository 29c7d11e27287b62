"""The lobby's tests also use a game type with a seat draft."""

from tests.lobby import draftgame  # noqa: F401  (registers "fakedraft")
