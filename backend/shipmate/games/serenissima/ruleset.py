"""Serenissima's ruleset data: the file beside this module, the game options and the house defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from shipmate.rules import State
from shipmate.rules.table import choice_rule, house_options, settings, whole_rule

from ..rulebook import load

BASE: dict[str, Any] = json.loads(
    files("shipmate.games.serenissima").joinpath("ruleset.json").read_text("utf-8")
)
POWERS: dict[str, dict[str, Any]] = {p["id"]: p for p in BASE["powers"]}
PORTS: dict[str, dict[str, Any]] = {p["id"]: p for p in BASE["ports"]}
SEA_AREAS: dict[str, dict[str, Any]] = {s["id"]: s for s in BASE["sea_areas"]}
GOODS: dict[str, dict[str, Any]] = {g["id"]: g for g in BASE["goods"]}
PHASES: list[dict[str, Any]] = BASE["phases"]
POSITIONS: list[str] = BASE["positions"]
RULEBOOK = load("shipmate.games.serenissima")
"""Every rule's ID, chapter, title and text in Dutch and English (rules.json; RULES.md explains them)."""


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the options ({"house_rules": {…}}) strictly and return them with every default filled in."""
    return house_options(options, BASE["house_defaults"], {
        "foreign_price": whole_rule(0),  # SE15
        "foreign_paid_to": choice_rule("bank", "controller"),  # SE15
        "rounds": whole_rule(1, optional=True),  # SE19
    })


def ruleset(state: State) -> dict[str, Any]:
    """Return the ruleset data with this game's house rules in place of the defaults, and its rules' texts."""
    # every game's ruleset names its seats `characters` (here the powers): the lobby's join names one
    data = {**BASE, "characters": BASE["powers"], "house_rules": settings(state)}
    return {**data, "rules": RULEBOOK.served(data)}
