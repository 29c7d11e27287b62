"""The pure time arithmetic of Ostraca: deadlines, availability, pauses, market windows, absences.

Times are tz-aware UTC datetimes (results are always in UTC); durations are timedelta; user zones are
IANA names. Nothing here reads the clock: the current time is always a parameter. The decisions on the
points the site's help leaves vague are in docs/time.md, each with the test that pins it.
"""

from app.clock.absence import (
    DEFAULT_LADDER,
    AbsenceLadder,
    eviction_threshold,
    game_stage,
    is_evicted,
    may_vote_to_evict,
    missed_in_row_after,
    warning_at,
)
from app.clock.availability import (
    ALWAYS,
    Availability,
    Window,
    daily,
    is_available,
    next_window_start,
    push_into_window,
)
from app.clock.deadline import adjust_deadline, effective_deadline
from app.clock.limits import FIRST_IN_PHASE_FACTOR, raw_deadline, wait_limit
from app.clock.market import (
    Market,
    availability_pass,
    is_closed,
    leave_market,
    market_opening,
    open_market,
    recompute_close,
    reenter_market,
    trade_takes_effect_at,
)
from app.clock.outage import compensate_outage, outage_gap, passed_during_gap
from app.clock.pauses import (
    REMOVAL_NOTICE,
    Pause,
    is_paused,
    pause_span,
    pause_spans,
    push_out_of_pauses,
    remove_pause,
    requested_span,
)
from app.clock.span import Span

__all__ = [
    "ALWAYS",
    "DEFAULT_LADDER",
    "FIRST_IN_PHASE_FACTOR",
    "REMOVAL_NOTICE",
    "AbsenceLadder",
    "Availability",
    "Market",
    "Pause",
    "Span",
    "Window",
    "adjust_deadline",
    "availability_pass",
    "compensate_outage",
    "daily",
    "effective_deadline",
    "eviction_threshold",
    "game_stage",
    "is_available",
    "is_closed",
    "is_evicted",
    "is_paused",
    "leave_market",
    "market_opening",
    "may_vote_to_evict",
    "missed_in_row_after",
    "next_window_start",
    "open_market",
    "outage_gap",
    "passed_during_gap",
    "pause_span",
    "pause_spans",
    "push_into_window",
    "push_out_of_pauses",
    "raw_deadline",
    "recompute_close",
    "reenter_market",
    "remove_pause",
    "requested_span",
    "trade_takes_effect_at",
    "wait_limit",
    "warning_at",
]
