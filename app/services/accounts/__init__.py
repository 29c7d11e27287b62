"""Accounts: sign-up, log-in and the sessions it opens, profile and password, and the signed tokens of
the e-mail links (address checks, resets, calendars, unsubscribes).
"""
