"""Quest 1607, the sea-trading board game: every rule of RULES.md (S1–V1) on the pure core."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from shipmate.rules import Event, InvalidAction, State, Viewer, commitment, register, text

from . import decide as _decide
from . import evolve as _evolve
from . import views
from .ruleset import rules_for, validate_options


class Quest1607:
    """The game object the core calls: created, decide, evolve, views and ruleset."""

    name = "quest1607"

    def created(self, code: str, options: Mapping[str, Any], seed_hex: str) -> Event:
        """Return GameCreated with the validated options (S6, house rules) and the seed's hash."""
        try:
            commitment(seed_hex)
        except ValueError:
            raise InvalidAction(text("Het zaad is geen hex.", "The seed is not hex."),
                                field="seed") from None
        return {"type": "GameCreated", "game": self.name, "code": code, "seed": seed_hex,
                "seed_hash": commitment(seed_hex), "options": validate_options(options)}

    def decide(self, state: State, action: Mapping[str, Any], actor: Viewer) -> list[Event]:
        """Check the rules and return the action's events."""
        return _decide.decide(state, action, actor)

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into a new state."""
        return _evolve.evolve(state, event)

    def view_for(self, state: State, viewer: Viewer) -> State:
        """Return the state view for `viewer`."""
        return views.view_for(state, viewer)

    def event_view_for(self, event: Event, viewer: Viewer) -> Event:
        """Return the event as `viewer` may see it."""
        return views.event_view_for(event, viewer)

    def ruleset(self, state: State) -> dict[str, Any]:
        """Return a copy of the merged ruleset data, with the game's options."""
        data: dict[str, Any] = json.loads(json.dumps(rules_for(state["rules_key"]).data))
        data["options"] = state["options"]
        return data


GAME = register(Quest1607())
