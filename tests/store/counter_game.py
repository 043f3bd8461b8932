"""A tiny game for store tests: a shared purse that players add to or take from (never below 0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shipmate.rules import Event, RuleViolation, State, Viewer, register, text


class CounterGame:
    """Actions: ``{"type": "add", "n": int}``; the purse may never go below zero."""

    name = "test-counter"

    def created(self, code: str, options: Mapping[str, Any], seed_hex: str) -> Event:
        return {"type": "GameCreated", "game": self.name, "code": code, "seed": seed_hex}

    def decide(self, state: State, action: Mapping[str, Any], actor: Viewer) -> list[Event]:
        if action.get("type") == "join":
            return [{"type": "PlayerJoined", "player_id": f"p{len(state['players']) + 1}"}]
        if state["purse"] + action["n"] < 0:
            raise RuleViolation("X1", text("Te weinig in de beurs", "Not enough in the purse"))
        return [{"type": "Added", "n": action["n"], "by": actor.player}]

    def evolve(self, state: State, event: Event) -> State:
        if event["type"] == "GameCreated":
            return {"game": self.name, "code": event["code"], "version": 0, "seed": event["seed"],
                    "counters": {"dice": 0, "draws": 0}, "purse": 0, "players": []}
        if event["type"] == "PlayerJoined":
            return {**state, "players": [*state["players"], event["player_id"]]}
        return {**state, "purse": state["purse"] + event["n"]}

    def view_for(self, state: State, viewer: Viewer) -> State:
        return {"version": state["version"], "purse": state["purse"]}

    def event_view_for(self, event: Event, viewer: Viewer) -> Event:
        return event

    def ruleset(self, state: State) -> dict[str, Any]:
        return {}


register(CounterGame())
