"""Serenissima's ruleset data: the file beside this module, the game options and the house defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from shipmate.rules import InvalidAction, State, text

BASE: dict[str, Any] = json.loads(
    files("shipmate.games.serenissima").joinpath("ruleset.json").read_text("utf-8")
)
POWERS: dict[str, dict[str, Any]] = {p["id"]: p for p in BASE["powers"]}
PORTS: dict[str, dict[str, Any]] = {p["id"]: p for p in BASE["ports"]}
SEA_AREAS: dict[str, dict[str, Any]] = {s["id"]: s for s in BASE["sea_areas"]}
GOODS: dict[str, dict[str, Any]] = {g["id"]: g for g in BASE["goods"]}
PHASES: list[dict[str, Any]] = BASE["phases"]
POSITIONS: list[str] = BASE["positions"]


def _bad(where: str, nl: str, en: str) -> InvalidAction:
    return InvalidAction(text(f"{where} moet {nl} zijn.", f"{where} must be {en}."), field=where)


def _whole_or_none(value: Any, where: str, low: int) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
        raise _bad(where, f"een geheel getal vanaf {low}", f"a whole number from {low}")


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the options ({"house_rules": {…}}) strictly and return them with every default filled in."""
    if not isinstance(options, Mapping):
        raise _bad("options", "een object", "an object")
    for key in options:
        if key != "house_rules":
            raise _bad(f"options.{key}", "weggelaten (onbekende optie)", "left out (unknown option)")
    house = options.get("house_rules", {})
    if not isinstance(house, Mapping):
        raise _bad("house_rules", "een object", "an object")
    for key in house:
        if key not in BASE["house_defaults"]:
            raise _bad(f"house_rules.{key}", f"een van {', '.join(BASE['house_defaults'])}",
                       f"one of {', '.join(BASE['house_defaults'])}")
    merged = {**BASE["house_defaults"], **house}
    _whole_or_none(merged["foreign_price"], "house_rules.foreign_price", 0)
    if merged["foreign_price"] is None:
        raise _bad("house_rules.foreign_price", "een geheel getal", "a whole number")
    if merged["foreign_paid_to"] not in ("bank", "controller"):
        raise _bad("house_rules.foreign_paid_to", '"bank" of "controller"', '"bank" or "controller"')
    _whole_or_none(merged["rounds"], "house_rules.rounds", 1)
    return {"house_rules": merged}


def settings(state: State) -> dict[str, Any]:
    """Return the house rules this game is played with."""
    house: dict[str, Any] = state["options"]["house_rules"]
    return house


def ruleset(state: State) -> dict[str, Any]:
    """Return the ruleset data with this game's house rules in place of the defaults."""
    return {**BASE, "house_rules": settings(state)}
