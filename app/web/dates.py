"""One date style for pages and mails: a moment in the reader's time zone and language, and how far off it
is ("in 23 hr", "dans 23 h") with the exact time kept beside it."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from babel.dates import format_datetime, format_timedelta

DATE_FORMAT = "EEE d MMM y, HH:mm"
BABEL_LOCALES = {"en": "en_GB", "fr": "fr_FR"}
DAYS_FROM_HOURS = 2  # "in 47 hr" up to two days, then "in 3 days": a deadline's hours count


def exact(moment: datetime, zone: str, language: str) -> str:
    """ "Thu 3 Dec 2026, 22:06 CET": the zone's abbreviation, or its offset (UTC-03) where it has none."""
    local = moment.astimezone(ZoneInfo(zone))
    written = format_datetime(local, DATE_FORMAT, tzinfo=local.tzinfo, locale=_locale(language))
    name = local.tzname() or zone
    return f"{written} {'UTC' + name if name[0] in '+-' else name}"


def relative(moment: datetime, now: datetime, language: str) -> str:
    """ "in 23 hr", "in 35 min", "3 days ago"; "dans 23 h" in French."""
    return format_timedelta(
        moment - now,
        granularity="minute",
        threshold=DAYS_FROM_HOURS,
        add_direction=True,
        format="short",
        locale=_locale(language),
    )


def duration(span: timedelta, language: str) -> str:
    """ "3 days", "2 hours": a length of time, as pauses and vacations are told."""
    return format_timedelta(span, threshold=1.5, locale=_locale(language))


def _locale(language: str) -> str:
    return BABEL_LOCALES.get(language, language)
