"""A game's creation options as people meet them: read from the rules' `Options` model, so that a new
option reaches the new-game form, the refusals, the game page and the lobby without page work.

Each field the players may choose is a property of the model's JSON schema (a field the server sets, such
as the nation draft, is marked `SkipJsonSchema` and is no choice). Its `title` and `description` are the
label and the help (marked `N_` where they are written, translated where they are shown); its
`json_schema_extra` may give:
- `summary`: how the game page and the lobby say the option in force, a phrase with `%(value)s`
  (a yes/no option's phrase says its value other than the default);
- `shown`: True when players need it even at its default (the game page names it always).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from app.games.contract import N_

Kind = Literal["bool", "int", "choice"]


@dataclass(frozen=True)
class OptionField:
    name: str
    kind: Kind
    title: str
    description: str
    default: Any
    optional: bool = False  # empty is allowed: the rules then decide (such as "no last turn")
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    summary: str = ""
    shown: bool = False


@dataclass(frozen=True)
class Phrase:
    """An option in force in words: `template` (English, translated where shown) filled with the value
    and the option's title (translated too)."""

    template: str
    value: Any
    title: str


@dataclass(frozen=True)
class OptionProblem:
    """Why options were refused: `code` is `unknown_option` or `invalid_option`, `field` the option."""

    code: str
    field: str
    template: str
    params: Mapping[str, Any]


@cache  # a model's schema is built anew at each call: the lobby's lists read it once a game
def option_fields(options_model: type[BaseModel]) -> tuple[OptionField, ...]:
    """The options a game's creator may choose, in the model's order; a field of a type no form can hold
    (neither yes/no, a whole number nor a choice) is left out."""
    schema = options_model.model_json_schema()
    definitions = schema.get("$defs", {})
    fields = (_field(name, prop, definitions) for name, prop in schema.get("properties", {}).items())
    return tuple(field for field in fields if field is not None)


@cache
def chosen_names(options_model: type[BaseModel]) -> frozenset[str]:
    """Every option a creator may send (each property of the schema, whatever its type)."""
    return frozenset(options_model.model_json_schema().get("properties", {}))


def unknown_option(options_model: type[BaseModel], raw: Mapping[str, Any]) -> OptionProblem | None:
    """The first option sent by a game's creator that the game does not offer, or None."""
    unknown = sorted(set(raw) - chosen_names(options_model))
    if not unknown:
        return None
    return OptionProblem(
        "unknown_option", unknown[0], N_("This game has no option “%(option)s”."), {"option": unknown[0]}
    )


def invalid_value(options_model: type[BaseModel], raw: Mapping[str, Any]) -> OptionProblem | None:
    """The first option whose value the model refuses, with what it takes, or None."""
    try:
        options_model.model_validate(dict(raw))
    except ValidationError as error:
        location = error.errors()[0]["loc"]
        name = str(location[0]) if location else ""
        fields = {field.name: field for field in option_fields(options_model)}
        template, params = _expected(fields.get(name))
        return OptionProblem("invalid_option", name, template, params)
    return None


def in_force(
    options_model: type[BaseModel], stored: Mapping[str, Any], *, with_shown: bool = True
) -> list[Phrase]:
    """The options of a game in words: those that differ from the default, and (`with_shown`) those
    players need at any value."""
    values = options_model.model_validate(dict(stored)).model_dump(mode="json")
    phrases = []
    for field in option_fields(options_model):
        value = values.get(field.name)
        if value is None:
            continue
        differs = value != field.default
        if not (differs or (with_shown and field.shown and field.kind != "bool")):
            continue
        if field.kind == "bool":
            phrases.append(Phrase(field.summary or N_("%(option)s"), "", field.title))
        else:
            phrases.append(Phrase(field.summary or N_("%(option)s: %(value)s"), value, field.title))
    return phrases


def _field(name: str, prop: Mapping[str, Any], definitions: Mapping[str, Any]) -> OptionField | None:
    variants = [_resolved(part, definitions) for part in prop.get("anyOf", [prop])]
    optional = any(part.get("type") == "null" for part in variants)
    concrete = [part for part in variants if part.get("type") != "null"]
    if len(concrete) != 1:
        return None
    body = {**concrete[0], **{key: value for key, value in prop.items() if key != "anyOf"}}
    kind = _kind(body)
    if kind is None:
        return None
    return OptionField(
        name=name,
        kind=kind,
        title=str(body.get("title", name)),
        description=str(body.get("description", "")),
        default=body.get("default"),
        optional=optional,
        minimum=body.get("minimum"),
        maximum=body.get("maximum"),
        choices=tuple(str(choice) for choice in body.get("enum", ())),
        summary=str(body.get("summary", "")),
        shown=bool(body.get("shown", False)),
    )


def _resolved(part: Mapping[str, Any], definitions: Mapping[str, Any]) -> Mapping[str, Any]:
    reference = part.get("$ref", "")
    if reference.startswith("#/$defs/"):
        return {**definitions.get(reference.removeprefix("#/$defs/"), {}), **part}
    return part


def _kind(body: Mapping[str, Any]) -> Kind | None:
    if "enum" in body or "const" in body:
        return "choice"
    if body.get("type") == "boolean":
        return "bool"
    if body.get("type") == "integer":
        return "int"
    return None


def _expected(field: OptionField | None) -> tuple[str, dict[str, Any]]:
    """What a field takes, said to the one who sent something else."""
    if field is None:
        return N_("This option does not take this value."), {}
    if field.kind == "bool":
        return N_("This option is yes or no."), {}
    if field.kind == "choice":
        return N_("Choose one of: %(choices)s."), {"choices": ", ".join(field.choices)}
    if field.minimum is not None and field.maximum is not None:
        if field.optional:
            return (
                N_("Give a whole number from %(least)s to %(most)s, or leave it empty."),
                {"least": field.minimum, "most": field.maximum},
            )
        return N_("Give a whole number from %(least)s to %(most)s."), {
            "least": field.minimum,
            "most": field.maximum,
        }
    return N_("Give a whole number."), {}
