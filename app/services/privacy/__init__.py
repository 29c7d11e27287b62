"""A player's rights over their data: the export of everything held about them, and the account's deletion."""
