"""One part of a page that fails to render does not take the page down, in production.

A template wraps a part that could fail on some stored data (a log entry written by older rules, a board
panel in a state no test drew) in

    {% guarded "event", event.kind, game.id, _("This entry could not be shown.") %}...{% endguarded %}

In production the part that raises becomes that neutral line; the error is logged with the game, the part
and the exception, and counted in `/metrics` (`ostraca_render_failures_total`). In development and in the
tests (`strict_rendering`, the default) the exception goes through, so that a broken template fails loudly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup

from app.services.ops import metrics

log = logging.getLogger(__name__)
NEUTRAL = Markup('<span class="render-failed muted" data-part="{part}">{text}</span>')


class GuardExtension(Extension):
    tags = {"guarded"}  # noqa: RUF012 - the attribute Jinja reads

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        environment.extend(strict_rendering=True)

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        arguments = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            arguments.append(parser.parse_expression())
        body = parser.parse_statements(("name:endguarded",), drop_needle=True)
        return nodes.CallBlock(self.call_method("_guard", arguments), [], [], body).set_lineno(lineno)

    def _guard(self, part: str, kind: Any, game_id: Any, neutral: str, caller: Callable[[], str]) -> str:
        try:
            return caller()
        except Exception as error:
            if self.environment.strict_rendering:  # type: ignore[attr-defined]
                raise
            log.error(
                "could not render the %s %r of game %s: %r",
                part,
                kind,
                game_id,
                error,
                exc_info=error,
                extra={"game_id": game_id, "part": part, "kind": str(kind)},
            )
            metrics.RENDER_FAILURES.labels(part, str(kind)).inc()
            return NEUTRAL.format(part=part, text=neutral)


def set_strict(environment: Any, strict: bool) -> None:
    """Strict (the default): a part that fails raises. Not strict: it becomes a neutral line (production)."""
    environment.strict_rendering = strict
