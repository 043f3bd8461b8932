"""Quest 1607's ruleset data: the file beside this module, the game options, and the house rules."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Any

from shipmate.rules import State
from shipmate.rules.table import bad_option

from ..rulebook import load

BASE: dict[str, Any] = json.loads(
    files("shipmate.games.quest1607").joinpath("ruleset.json").read_text("utf-8")
)
LEVELS: tuple[str, ...] = tuple(BASE["levels"])
HOME: str = BASE["home"]
"""The home port: ships start there (S3), are launched there (U2) and go back there when sunk (C7)."""
RULEBOOK = load("shipmate.games.quest1607")
"""Every rule's ID, chapter, title and text in Dutch and English (rules.json beside this module)."""


@dataclass(frozen=True, slots=True)
class Effects:
    """The rules as the active event (E1) bends them: every number an action needs at this moment."""

    white_die: Mapping[str, str]
    costs: Mapping[str, Mapping[str, Any]]
    market_rate: int
    bank_rate: int
    movement: int = 0
    extra_white: int = 0
    hit_shift: int = 0
    no_combat: bool = False
    no_trade: bool = False
    gift: Mapping[str, int] = field(default_factory=dict)
    loss: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Rules:
    """The merged ruleset of one game, with look-up tables built once."""

    data: dict[str, Any]
    resources: tuple[str, ...]
    characters: Mapping[str, Mapping[str, Any]]
    quests: Mapping[str, Mapping[str, Any]]
    decks: Mapping[str, tuple[str, ...]]
    events: Mapping[str, Mapping[str, Any]]
    effects: Mapping[str | None, Effects]

    def names(self, counts: Mapping[str, int], language: str) -> str:
        """Spell resource counts out for a message: "3 katoen + 1 hout"."""
        if not counts:
            return "niets" if language == "nl" else "nothing"
        label = {r["id"]: r["name"][language].lower() for r in self.data["resources"]}
        return " + ".join(f"{n} {label[r]}" for r, n in counts.items())


Accumulator = dict[str, Any]


def _bend_cost(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    cost = acc["costs"][effect["item"]]
    pay = dict(cost["pay"])
    for resource, add in effect["add"].items():
        pay[resource] = max(0, pay.get(resource, 0) + add)
    acc["costs"][effect["item"]] = {**cost, "pay": {r: n for r, n in pay.items() if n}}


def _turn_face(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    acc["white_die"][effect["face"]] = effect["resource"]


def _set_rate(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    acc[effect["kind"]] = effect["rate"]


def _shift(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    acc[effect["kind"]] += effect["add"]


def _more_dice(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    acc[effect["kind"]] += effect["count"]


def _for_everyone(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    acc[effect["kind"]] = dict(effect["resources"])


def _ban(acc: Accumulator, effect: Mapping[str, Any]) -> None:
    acc[effect["kind"]] = True


EFFECT_KINDS: dict[str, Callable[[Accumulator, Mapping[str, Any]], None]] = {
    "cost": _bend_cost, "white_face": _turn_face,
    "market_rate": _set_rate, "bank_rate": _set_rate,
    "movement": _shift, "hit_shift": _shift, "extra_white": _more_dice,
    "gift": _for_everyone, "loss": _for_everyone,
    "no_combat": _ban, "no_trade": _ban,
}
"""Every kind of event effect (E1) and how it bends the rules; DECKS.md describes each."""


def _effects(data: Mapping[str, Any], effects: list[dict[str, Any]]) -> Effects:
    """Fold an event's effect data into the numbers the actions use (E1)."""
    acc: Accumulator = {
        "costs": dict(data["costs"]), "white_die": dict(data["white_die"]),
        "market_rate": data["market"]["rate"], "bank_rate": data["bank"]["rate"],
        "movement": 0, "extra_white": 0, "hit_shift": 0, "gift": {}, "loss": {},
        "no_combat": False, "no_trade": False,
    }
    for effect in effects:
        EFFECT_KINDS[effect["kind"]](acc, effect)
    return Effects(**acc)


def _int_in(low: int, high: int) -> Callable[[Any, str], Any]:
    def check(value: Any, where: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise bad_option(where, f"een geheel getal van {low} tot {high}",
                             f"a whole number from {low} to {high}")
        return value
    return check


def _one_of(*allowed: Any) -> Callable[[Any, str], Any]:
    def check(value: Any, where: str) -> Any:
        if value not in allowed or type(value) is not type(allowed[0]):
            shown = ", ".join(map(json.dumps, allowed))
            raise bad_option(where, f"een van {shown}", f"one of {shown}")
        return value
    return check


def _table(keys: list[str], cell: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def check(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise bad_option(where, "een object", "an object")
        for key, item in value.items():
            if key not in keys:
                raise bad_option(f"{where}.{key}", f"een van {', '.join(keys)}",
                                 f"one of {', '.join(keys)}")
            cell(item, f"{where}.{key}")
        return value
    return check


_SIDES = [str(n) for n in range(1, 8)]
_HOUSE_RULES: dict[str, Callable[[Any, str], Any]] = {
    "caps": _table(["cannons", "sails", "ships"], _int_in(1, 7)),
    "hit_table": _table(_SIDES, _table(_SIDES, _int_in(1, 6))),
    "hit_bounds": _table(["min", "max"], _int_in(1, 6)),
    "sunk_crew": _int_in(1, 6),
    "offers_lapse": _one_of(True, False),
    "trade_with_active_player": _one_of(True, False),
    "surrender_by": _one_of("either", "defender"),
    "keep_divisor": _int_in(1, 4),
}
assert set(_HOUSE_RULES) == set(BASE["house_defaults"]), "every house default is overridable"


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the game options strictly and fill in the defaults (S6 and the house defaults)."""
    if not isinstance(options, Mapping):
        raise bad_option("options", "een object", "an object")
    for key in options:
        if key not in ("quests_per_level", "house_rules"):
            raise bad_option(f"options.{key}", "weggelaten (onbekende optie)", "left out (unknown option)")
    spec = BASE["quests_per_level"]
    per_level = options.get("quests_per_level", spec["default"])
    _one_of(*spec["allowed"])(per_level, "quests_per_level")
    house = options.get("house_rules", {})
    _table(list(_HOUSE_RULES), lambda value, where: _HOUSE_RULES[where.split(".")[1]](value, where))(
        house, "house_rules"
    )
    bounds = {**BASE["hit_bounds"], **house.get("hit_bounds", {})}
    if bounds["min"] > bounds["max"]:
        raise bad_option("house_rules.hit_bounds", "min ≤ max", "min ≤ max")
    return {"quests_per_level": per_level, "house_rules": json.loads(json.dumps(house))}


def rules_key(options: Mapping[str, Any]) -> str:
    """Return the canonical text of a game's house rules: the cache key of its merged ruleset."""
    return json.dumps(options["house_rules"], sort_keys=True)


@lru_cache(maxsize=256)
def rules_for(key: str) -> Rules:
    """Merge the house rules (in canonical text) into the ruleset file and index the result."""
    house: dict[str, Any] = json.loads(key)
    data = {**BASE, **house}
    data["caps"] = {**BASE["caps"], **house.get("caps", {})}
    data["hit_bounds"] = {**BASE["hit_bounds"], **house.get("hit_bounds", {})}
    data["hit_table"] = {
        k: {**row, **house.get("hit_table", {}).get(k, {})} for k, row in BASE["hit_table"].items()
    }
    events = {e["id"]: e for e in data["events"]}
    effects: dict[str | None, Effects] = {None: _effects(data, [])}
    effects.update({i: _effects(data, e["effects"]) for i, e in events.items()})
    return Rules(
        data=data,
        resources=tuple(r["id"] for r in data["resources"]),
        characters={c["id"]: c for c in data["characters"]},
        quests={q["id"]: q for q in data["quests"]},
        decks={lv: tuple(q["id"] for q in data["quests"] if q["level"] == lv) for lv in LEVELS},
        events=events,
        effects=effects,
    )


def ruleset(state: State) -> dict[str, Any]:
    """Return a copy of the merged ruleset data, with the game's options and its rules' texts."""
    data: dict[str, Any] = json.loads(json.dumps(rules_for(state["rules_key"]).data))
    data["options"] = state["options"]
    data["rules"] = RULEBOOK.served(data)
    return data
