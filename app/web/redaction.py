"""Tokens never reach the logs: the links of reset, check, calendar and unsubscribe mails carry a secret in
their path, and whoever reads the access or error log must not be able to follow them.

`LOGGERS_WITH_PATHS` get a filter that rewrites each record's message before any handler sees it, so every
handler (the console, a file, a log shipper) gets the redacted text; the handler that `ostraca serve` and
`ostraca worker` install carries the same filter, for every other logger.
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
    """Redacts the formatted message: a template may hold the route and its argument the token, or the
    reverse, so neither alone can be rewritten safely."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed record: leave it to the handler's error report
            return True
        redacted = redact_path(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def install() -> None:
    """Put the filter on the loggers that write paths (once, however many apps are made)."""
    for name in LOGGERS_WITH_PATHS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactTokens) for existing in logger.filters):
            logger.addFilter(RedactTokens())
