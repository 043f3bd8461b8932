"""Voyagers' Venture's ruleset data: the file beside this module, the options and the house defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from shipmate.rules import State
from shipmate.rules.table import house_options, settings, whole_rule

from ..rulebook import load

BASE: dict[str, Any] = json.loads(
    files("shipmate.games.voyagers").joinpath("ruleset.json").read_text("utf-8")
)
COLOURS: dict[str, dict[str, Any]] = {c["id"]: c for c in BASE["colours"]}
KINDS: list[str] = [k["id"] for k in BASE["card_kinds"]]
RULEBOOK = load("shipmate.games.voyagers")
"""Every rule's ID, chapter, title and text in Dutch and English (rules.json; RULES.md explains them)."""


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the options ({"house_rules": {…}}) strictly and return them with every default filled in."""
    checked = house_options(options, BASE["house_defaults"], {
        "min_players": whole_rule(2),  # VV20
        "max_players": whole_rule(2),  # VV20
        "starting_gold": whole_rule(0),  # VV20
        "min_bid_cards": whole_rule(0),  # VV3, VV8
    })
    house = checked["house_rules"]
    house["max_players"] = min(house["max_players"], len(COLOURS))
    house["min_players"] = min(house["min_players"], house["max_players"])
    return checked


def ruleset(state: State) -> dict[str, Any]:
    """Return the ruleset data with this game's house rules in place of the defaults, and its rules' texts."""
    # every game's ruleset names its seats `characters` (here the colours): the lobby's join names one
    data = {**BASE, "characters": BASE["colours"], "house_rules": settings(state)}
    return {**data, "rules": RULEBOOK.served(data)}
