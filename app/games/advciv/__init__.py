"""Advanced Civilization."""
