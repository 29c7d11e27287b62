"""Accounts: sign-up, log-in, profile and password, the signed tokens of e-mail links, and the checks
of a user's sanctions in force (kept on the user row).
"""
