"""The game-independent core: a registry of games, and decide → events → evolve → view.

State and events are plain JSON data (dicts). Every game keeps these keys in its state:
``game``, ``code``, ``version``, ``seed`` (hex, secret until the game ends) and ``counters``
(``{"dice": n, "draws": m}``: how many dice and card draws the seed has given so far). The core adds
``_undo``: the state before the most recent change, so that the host can take one step back.

``evolve`` never mutates its input: it returns a new state that may share unchanged parts with the
old one. A change (one action) raises ``version`` by exactly one; all its events carry that version.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .dice import dice_in
from .errors import Forbidden, InvalidAction, RuleViolation, text

State = dict[str, Any]
Event = dict[str, Any]
Action = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who acts or looks: a player (by id), the host, the table's dice device, or nobody in particular.

    The dice device sees the public view and may only roll for whoever's turn it is (T1).
    """

    player: str | None = None
    host: bool = False
    dice: bool = False

    @property
    def public(self) -> bool:
        """True for the views that hold no secret: the shared screen's and the dice device's."""
        return self.player is None and not self.host


PUBLIC = Viewer()
HOST = Viewer(host=True)
DICE = Viewer(dice=True)


class Game(Protocol):
    """What a game package provides to the core."""

    name: str
    dice_device: bool
    """Whether a table device may be linked that rolls the dice for whoever's turn it is."""

    def created(self, code: str, options: Mapping[str, Any], seed_hex: str) -> Event:
        """Return the game's first event, or raise InvalidAction for bad options."""

    def decide(self, state: State, action: Action, actor: Viewer) -> list[Event]:
        """Check the rules and return the events of the action, or raise a ShipmateError."""

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into a new state; never fails, never mutates `state`."""

    def view_for(self, state: State, viewer: Viewer) -> State:
        """Return the state as `viewer` may see it (DESIGN.md's state view)."""

    def event_view_for(self, event: Event, viewer: Viewer) -> Event:
        """Return the event as `viewer` may see it: private cards only for their owner."""

    def ruleset(self, state: State) -> dict[str, Any]:
        """Return the game's ruleset data with the game's house rules applied."""


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make a game available to the core under its name."""
    _GAMES[game.name] = game
    return game


def game_named(name: str) -> Game:
    """Return the registered game called `name`, or refuse."""
    try:
        return _GAMES[name]
    except KeyError:
        raise InvalidAction(
            text(f"Onbekend spel: {name!r}", f"Unknown game: {name!r}"), field="game"
        ) from None


def game_names() -> list[str]:
    """Return the names of every registered game."""
    return sorted(_GAMES)


def _game_of(state: State) -> Game:
    return _GAMES[state["game"]]


def create(game: str, code: str, options: Mapping[str, Any], seed_hex: str) -> tuple[State, Event]:
    """Start a new game: return its state at version 0 and its first event."""
    event = {**game_named(game).created(code, options, seed_hex), "version": 0}
    return evolve({}, event), event


def decide(state: State, action: Action, actor: Viewer) -> list[Event]:
    """Return the events of `action` stamped with the next version, or raise a ShipmateError."""
    if action.get("type") == "undo":
        events = _decide_undo(state, actor)
    else:
        events = _game_of(state).decide(state, action, actor)
    version = state["version"] + 1
    return [{**event, "version": version} for event in events]


def _decide_undo(state: State, actor: Viewer) -> list[Event]:
    if not actor.host:
        raise Forbidden(
            text("Alleen de gastheer kan een actie terugdraaien.", "Only the host can undo."),
        )
    last = state.get("_undo")
    if not last:
        raise RuleViolation(
            "undo",
            text(
                "Er is niets om terug te draaien (één stap terug, en niet twee keer achter elkaar).",
                "There is nothing to undo (one step back, and not twice in a row).",
            ),
        )
    if last["rolled"]:
        raise RuleViolation(
            "undo",
            text(
                "Deze actie gooide een dobbelsteen of trok een kaart: een worp blijft staan.",
                "That action rolled a die or drew a card: a roll stays rolled.",
            ),
        )
    return [{"type": "ActionUndone", "undone_version": last["version"], "state": last["state"]}]


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (the game's evolve, plus versions and the undo slot)."""
    if event["type"] == "ActionUndone":
        restored: State = json.loads(json.dumps(event["state"]))
        restored["counters"] = state["counters"]  # a die once rolled stays rolled
        restored["version"] = event["version"]
        restored["_undo"] = None
        return restored
    game = _GAMES[state["game"] if state else event["game"]]
    new = game.evolve(state, event)
    if state and event["version"] != state["version"]:
        previous = {k: v for k, v in state.items() if k != "_undo"}
        new["_undo"] = {"version": event["version"], "state": previous, "rolled": False}
    elif not state:
        new["_undo"] = None
    if new.get("_undo") and (any(True for _ in dice_in(event)) or "draw" in event):
        new["_undo"] = {**new["_undo"], "rolled": True}
    new["version"] = event["version"]
    return new


def apply(state: State, action: Action, actor: Viewer) -> tuple[State, list[Event]]:
    """Decide an action and fold its events: the new state and the events, or a ShipmateError."""
    events = decide(state, action, actor)
    for event in events:
        state = evolve(state, event)
    return state, events


def replay(events: Iterable[Event]) -> State:
    """Rebuild a game's state from its whole event stream."""
    state: State = {}
    for event in events:
        state = evolve(state, event)
    return state


def view_for(state: State, viewer: Viewer) -> State:
    """Return the state view of DESIGN.md for this viewer."""
    return _game_of(state).view_for(state, viewer)


def event_view_for(state: State, event: Event, viewer: Viewer) -> Event:
    """Return an event as this viewer may see it (a restored state is never sent)."""
    if event["type"] == "ActionUndone":
        return {k: v for k, v in event.items() if k != "state"}
    return _game_of(state).event_view_for(event, viewer)


def has_dice_device(state: State) -> bool:
    """Return whether the game's table may link a dice device (a token that only rolls)."""
    return _game_of(state).dice_device


def ruleset(state: State) -> dict[str, Any]:
    """Return the ruleset data the game is played with."""
    return _game_of(state).ruleset(state)
