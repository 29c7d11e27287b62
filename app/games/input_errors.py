"""Validation errors as sentences: the one place that turns pydantic's error types into words for people.

Forms, the JSON API and the games' orders all go through pydantic; what it reports ("Field required",
"String should have at most 256 characters") speaks the framework's language. `sentence` gives, for one
error, an English template whose `%(what)s` is the field's name as a person says it ("The bid"), both
translated where the refusal is shown (the web layer translates `what` as it does the template).
Pure: no I/O, no web imports, so the rules' `parse_order` uses it as well as the web's error handler.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def N_(message: str) -> str:
    """Marks a string for the catalog; it is translated where it is shown."""
    return message


# The names of the fields as people say them, at the start of a sentence. A key "order.field" names a
# field of one order type, where the same field means something more precise ("amount" of a bid).
FIELD_NAMES: dict[str, str] = {
    "bid.amount": N_("The bid"),
    "amount": N_("The amount"),
    "email": N_("The e-mail address"),
    "password": N_("The password"),
    "current_password": N_("The current password"),
    "new_password": N_("The new password"),
    "display_name": N_("The name"),
    "name": N_("The name"),
    "replacement": N_("The replacement's name"),
    "player": N_("The player's name"),
    "reason": N_("The reason"),
    "details": N_("The description"),
    "note": N_("The note"),
    "kind": N_("The kind"),
    "body": N_("The message"),
    "text": N_("The message"),
    "subject": N_("The subject"),
    "players": N_("The number of players"),
    "game_type": N_("The game to play"),
    "province": N_("The province"),
    "card": N_("The card"),
    "colour": N_("The colour"),
    "square": N_("The square"),
    "count": N_("The number"),
    "rate": N_("The rate"),
    "first_day": N_("The first day"),
    "last_day": N_("The last day"),
    "duration": N_("The duration"),
    "language": N_("The language"),
    "time_zone": N_("The time zone"),
    "type": N_("The kind of order"),
}
ANY_FIELD = N_("This value")

SENTENCES: dict[str, str] = {
    "missing": N_("%(what)s is required."),
    "string_too_short": N_("%(what)s must have at least %(min_length)s characters."),
    "string_too_long": N_("%(what)s must have at most %(max_length)s characters."),
    "too_short": N_("%(what)s must have at least %(min_length)s items."),
    "too_long": N_("%(what)s must have at most %(max_length)s items."),
    "greater_than_equal": N_("%(what)s must be %(ge)s or more."),
    "greater_than": N_("%(what)s must be more than %(gt)s."),
    "less_than_equal": N_("%(what)s must be %(le)s or less."),
    "less_than": N_("%(what)s must be less than %(lt)s."),
    "int_parsing": N_("%(what)s must be a whole number."),
    "int_type": N_("%(what)s must be a whole number."),
    "int_from_float": N_("%(what)s must be a whole number."),
    "float_parsing": N_("%(what)s must be a number."),
    "float_type": N_("%(what)s must be a number."),
    "bool_parsing": N_("%(what)s must be yes or no."),
    "bool_type": N_("%(what)s must be yes or no."),
    "string_type": N_("%(what)s must be text."),
    "literal_error": N_("%(what)s is not one of the choices."),
    "enum": N_("%(what)s is not one of the choices."),
    "union_tag_invalid": N_("%(what)s is not one of the choices."),
    "union_tag_not_found": N_("%(what)s is required."),
    "extra_forbidden": N_("%(what)s is not expected here."),
    "dict_type": N_("%(what)s is not in the expected form."),
    "list_type": N_("%(what)s is not in the expected form."),
    "model_type": N_("%(what)s is not in the expected form."),
    "json_invalid": N_("The request is not valid JSON."),
    "date_parsing": N_("%(what)s must be a date."),
    "date_from_datetime_parsing": N_("%(what)s must be a date."),
    "datetime_parsing": N_("%(what)s must be a date and time."),
    "datetime_from_date_parsing": N_("%(what)s must be a date and time."),
}
ANY_PROBLEM = N_("%(what)s is not valid.")
LIMITS = ("min_length", "max_length", "ge", "gt", "le", "lt")


def field_path(
    location: Sequence[int | str], skip: Sequence[str] = ("body", "query", "path", "form")
) -> str | None:
    """The field an error is about, as the API names it ("limits.gold"), or None for the whole request."""
    parts = [str(part) for part in location if part not in skip and part != "[key]"]
    return ".".join(parts) or None


def field_name(path: str | None, order_type: str | None = None) -> str:
    """The field as a person says it: the most precise known name along the dotted path."""
    if path is None:
        return ANY_FIELD
    parts = [part for part in path.split(".") if not part.isdigit()]
    for part in reversed(parts):
        if order_type is not None and f"{order_type}.{part}" in FIELD_NAMES:
            return FIELD_NAMES[f"{order_type}.{part}"]
        if part in FIELD_NAMES:
            return FIELD_NAMES[part]
    return ANY_FIELD


def sentence(
    error: Mapping[str, Any], path: str | None, order_type: str | None = None
) -> tuple[str, dict[str, str | int]]:
    """The template and its values for one pydantic error (`error["type"]`, `error["ctx"]`)."""
    template = SENTENCES.get(str(error.get("type")), ANY_PROBLEM)
    context = error.get("ctx") or {}
    params: dict[str, str | int] = {"what": field_name(path, order_type)}
    for limit in LIMITS:
        if limit in context:
            value = context[limit]
            params[limit] = value if isinstance(value, int) else str(value)
    if "%(" in template and any(f"%({limit})s" in template and limit not in params for limit in LIMITS):
        return ANY_PROBLEM, {"what": params["what"]}
    return template, params
