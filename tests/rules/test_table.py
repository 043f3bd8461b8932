"""The parameters every game's deciders share (rules/table.py): what each takes, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from shipmate.rules import InvalidAction
from shipmate.rules.table import COUNT_MOST, counts, created_state, flag, numbered

NAMES = ("wood", "food")
SHIPS = [{"number": 1, "sails": 2}, {"number": 2, "sails": 1}]


def refusal(parse: Any, *args: Any) -> InvalidAction:
    """Return the refusal of a parameter, which names the parameter as its field."""
    with pytest.raises(InvalidAction) as caught:
        parse(*args)
    return caught.value


def test_counts_are_a_map_of_known_names_without_zeros_and_empty_when_left_out() -> None:
    assert counts({"give": {"wood": 2, "food": 0}}, "give", NAMES, "grondstof", "resource") == {"wood": 2}
    assert counts({}, "give", NAMES, "grondstof", "resource") == {}
    assert counts({"d": {"food": -3}}, "d", NAMES, "grondstof", "resource", low=-COUNT_MOST) == {"food": -3}
    for bad in ([], {"gold": 1}, {"wood": -1}, {"wood": True}, {"wood": 1.5}, {"wood": COUNT_MOST + 1}):
        assert refusal(counts, {"give": bad}, "give", NAMES, "grondstof", "resource").details == {
            "field": "give"}
    unknown = refusal(counts, {"give": {"gold": 1}}, "give", NAMES, "grondstof", "resource")
    assert unknown.message == {"nl": "Onbekende grondstof in 'give': 'gold'",
                               "en": "Unknown resource in 'give': 'gold'"}


def test_a_number_picks_the_item_with_that_number_and_nothing_else_does() -> None:
    assert numbered({"ship": 2}, "ship", SHIPS, "schip", "ship") is SHIPS[1]
    for bad in (3, 0, True, 1.0, "1", None):
        error = refusal(numbered, {"ship": bad}, "ship", SHIPS, "schip", "ship")
        assert error.message["en"] == f"There is no ship {bad!r}." and error.details == {"field": "ship"}


def test_a_flag_is_true_or_false_or_its_default_when_left_out() -> None:
    assert flag({"random_order": True}, "random_order", False) is True
    assert flag({}, "random_order", False) is False
    for action in ({}, {"fastest_fleet": None}, {"fastest_fleet": "yes"}, {"fastest_fleet": 1}):
        assert refusal(flag, action, "fastest_fleet").details == {"field": "fastest_fleet"}


def test_a_game_may_keep_a_field_of_its_own_called_event() -> None:
    created = {"game": "g", "code": "K7QX2M", "seed": "ab", "seed_hash": "cd", "options": {}}
    state = created_state(created, event=None, round=0)
    assert state["event"] is None and state["seats"] == [] and state["phase"] == "lobby"
