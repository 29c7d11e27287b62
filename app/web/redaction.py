"""Tokens never reach the logs: the links of reset, check, calendar and unsubscribe mails carry a secret in
their path, and whoever reads the access or error log must not be able to follow them.

`LOGGERS_WITH_PATHS` get a filter that rewrites each record's message and arguments before any handler
sees it, so every handler (the console, a file, a log shipper) gets the redacted text.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
# The routes whose last segment is a secret (app.web.pages.mail_links, app.web.pages.notifications).
_TOKEN_IN_PATH = re.compile(r"(/(?:password/reset|account/verify|unsubscribe|calendar)/)[^/?#\s\"']+")
LOGGERS_WITH_PATHS = ("uvicorn.access", "uvicorn.error", "app.web.errors")


def redact_path(text: str) -> str:
    """`text` with the token of every secret link replaced by a marker."""
    return _TOKEN_IN_PATH.sub(rf"\g<1>{REDACTED}", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact_path(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact_path(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def install() -> None:
    """Put the filter on the loggers that write paths (once, however many apps are made)."""
    for name in LOGGERS_WITH_PATHS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactTokens) for existing in logger.filters):
            logger.addFilter(RedactTokens())
