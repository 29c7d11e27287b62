"""Telling players: notification kinds and preferences, notification rows to mails, the outbox and
its delivery, account mails (verification, password reset) and the calendar feed.
"""
