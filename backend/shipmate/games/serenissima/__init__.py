"""Serenissima, trade and war of the sea powers: the rules of RULES.md (SE1–SE20) on the pure core."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shipmate.rules import Event, State, Viewer, register
from shipmate.rules.table import created_event

from . import decide as _decide
from . import evolve as _evolve
from . import views
from .ruleset import ruleset, validate_options


class Serenissima:
    """The game object the core calls: created, decide, evolve, views and ruleset."""

    name = "serenissima"

    def created(self, code: str, options: Mapping[str, Any], seed_hex: str) -> Event:
        """Return GameCreated with the validated options (house rules) and the seed's hash."""
        return created_event(self.name, code, validate_options(options), seed_hex)

    def decide(self, state: State, action: Mapping[str, Any], actor: Viewer) -> list[Event]:
        """Check the rules and return the action's events."""
        return _decide.decide(state, action, actor)

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into a new state."""
        return _evolve.evolve(state, event)

    def view_for(self, state: State, viewer: Viewer) -> State:
        """Return the state as `viewer` may see it."""
        return views.view_for(state, viewer)

    def event_view_for(self, event: Event, viewer: Viewer) -> Event:
        """Return the event as `viewer` may see it."""
        return views.event_view_for(event, viewer)

    def ruleset(self, state: State) -> dict[str, Any]:
        """Return the ruleset data with this game's house rules."""
        return ruleset(state)


GAME = register(Serenissima())
