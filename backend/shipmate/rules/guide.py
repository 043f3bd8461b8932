"""A first evening, guided: the table's set-up and the parts of a turn, ticked off by the host.

Each game's rulebook lists its steps (`rules.json`'s ``guide``: the physical set-up, then the parts of
a turn). The host ticks a step when the table has done it, or skips the whole guide for a table that
knows the game. Every device sees how far the table is (the view's ``guide``), so the shared screen
shows the next step while the host ticks it off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import Forbidden, InvalidAction, text

State = dict[str, Any]
Event = dict[str, Any]

UNTOUCHED = {"done": [], "skipped": False}
"""How far a table is before the host ticks anything."""


def guide_of(state: State) -> dict[str, Any]:
    """Return the table's progress through the guide: ``{"done": [step ids], "skipped": bool}``."""
    progress: dict[str, Any] = state.get("guide") or UNTOUCHED
    return progress


def decide_guide(action: Mapping[str, Any], host: bool, steps: Sequence[Mapping[str, Any]]) -> list[Event]:
    """Tick a step (``{"step", "done"?}``), or skip the guide (``{"skip": true}``); the host only."""
    if not host:
        raise Forbidden(text("Alleen de gastheer vinkt de uitleg af.", "Only the host ticks the guide off."))
    if action.get("skip") is True:
        return [{"type": "GuideSkipped"}]
    step = action.get("step")
    known = [s["id"] for s in steps]
    if step not in known:
        raise InvalidAction(text(f"'step' is een van: {', '.join(known)}.",
                                 f"'step' is one of: {', '.join(known)}."), field="step")
    done = action.get("done", True)
    if not isinstance(done, bool):
        raise InvalidAction(text("'done' is waar of onwaar.", "'done' is true or false."), field="done")
    return [{"type": "GuideStepTicked", "step": step, "done": done}]


def evolve_guide(state: State, event: Event) -> State:
    """Fold a guide event into the state (it never fails)."""
    progress = guide_of(state)
    if event["type"] == "GuideSkipped":
        return {**state, "guide": {**progress, "skipped": True}}
    done = [s for s in progress["done"] if s != event["step"]]
    return {**state, "guide": {**progress, "done": [*done, event["step"]] if event["done"] else done}}
