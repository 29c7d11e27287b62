"""Moderation: roles, sanctions imposed and lifted, reports and their queue, interventions in a game,
and the audit log of every moderator and admin action.
"""
