"""A game's options read from its rules' `Options` model: the input each field needs, the refusals, the
options in force in words."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from app.games import options as game_options


class Speed(StrEnum):
    slow = "slow"
    fast = "fast"


class SampleOptions(BaseModel):
    rounds: int = Field(5, ge=1, le=9, title="Rounds", json_schema_extra={"summary": "%(value)s rounds"})
    last: int | None = Field(None, ge=1, le=20, title="Last", json_schema_extra={"shown": True})
    board: Literal["small", "large"] = Field("small", title="Board")
    speed: Speed = Speed.slow
    open_hands: bool = Field(False, title="Open hands", json_schema_extra={"summary": "hands open"})
    seats: SkipJsonSchema[dict[int, str]] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)


def test_each_field_gets_its_input_and_a_server_field_none() -> None:
    fields = {field.name: field for field in game_options.option_fields(SampleOptions)}
    assert set(fields) == {"rounds", "last", "board", "speed", "open_hands"}  # no list, no server field
    assert (fields["rounds"].kind, fields["rounds"].minimum, fields["rounds"].maximum) == ("int", 1, 9)
    assert fields["last"].optional and fields["last"].default is None
    assert (fields["board"].kind, fields["board"].choices) == ("choice", ("small", "large"))
    assert (fields["speed"].kind, fields["speed"].choices) == ("choice", ("slow", "fast"))
    assert fields["open_hands"].kind == "bool"
    assert "notes" in game_options.chosen_names(SampleOptions)  # sendable through the API all the same
    assert "seats" not in game_options.chosen_names(SampleOptions)


def test_refusals_say_what_the_field_takes() -> None:
    unknown = game_options.unknown_option(SampleOptions, {"rounds": 3, "seats": {}})
    assert unknown is not None and (unknown.code, unknown.field) == ("unknown_option", "seats")
    assert game_options.unknown_option(SampleOptions, {"rounds": 3}) is None
    out_of_bounds = game_options.invalid_value(SampleOptions, {"rounds": 12})
    assert out_of_bounds is not None and out_of_bounds.params == {"least": 1, "most": 9}
    wrong_choice = game_options.invalid_value(SampleOptions, {"board": "huge"})
    assert wrong_choice is not None and wrong_choice.params == {"choices": "small, large"}
    assert game_options.invalid_value(SampleOptions, {"rounds": "4", "open_hands": "true"}) is None


def test_the_options_in_force_are_the_changed_ones_and_those_always_shown() -> None:
    said = game_options.in_force(SampleOptions, {"rounds": 7, "open_hands": True, "last": 4})
    assert [(phrase.template, phrase.value) for phrase in said] == [
        ("%(value)s rounds", 7),
        ("%(option)s: %(value)s", 4),
        ("hands open", ""),
    ]
    assert game_options.in_force(SampleOptions, {}) == []  # `last` is shown when set only
    listed = game_options.in_force(SampleOptions, {"last": 4}, with_shown=False)
    assert [phrase.value for phrase in listed] == [4]  # it differs from the default (none)
