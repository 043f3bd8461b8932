"""Quest 1607 as each viewer may see it: docs/PROTOCOL.md's state view, and events without others' cards."""

from __future__ import annotations

from typing import Any

from shipmate.rules import PUBLIC, Event, State, Viewer
from shipmate.rules.core import Path
from shipmate.rules.table import view_header, viewer_fields, without_seed

from .decide import allowance
from .ruleset import Rules, rules_for


def _quests(rules: Rules, player: dict[str, Any]) -> list[dict[str, Any]]:
    views = []
    for quest in player["quests"]:
        card = rules.quests[quest["card"]]
        views.append({"id": quest["id"], "level": quest["level"], "card": quest["card"],
                      "title": card["title"], "text": card["text"],
                      "requirements": card["requirements"], "progress": quest["progress"]})
    return views


def _player(rules: Rules, player: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": player["id"], "name": player["name"], "character": player["character"],
        "colour": rules.characters[player["character"]]["colour"],
        "land_resource": player["land_resource"], "resources": player["resources"],
        "ships": player["ships"], "level": player["level"], "completed": player["completed"],
        "quest_count": len(player["quests"]),
        "quests": None,  # quest cards are private: view_for shows them to their owner only
        "skip_turns": player["skip_turns"],
        # why the next turn is skipped: {"rule": "C7" (sunk) or "C8" (surrendered), "by": player_id}
        "skip_reason": player.get("skip_reason"),
    }


def view_for(state: State, viewer: Viewer) -> State:
    """Return docs/PROTOCOL.md's Quest 1607 state view for `viewer`; the public one holds no secret."""
    return personal_view(shared_view(state), state, viewer)


def personal_view(shared: State, state: State, viewer: Viewer,
                  before: tuple[State, State] | None = None) -> State:
    """Return `viewer`'s view: the public view (`shared`), with `host`, `you`, `can_undo` and their own cards.

    Given (the state before a change, this viewer's view of it), the viewer's own entry is the very
    object of the view before while their player is the same object.
    """
    view = {**shared, **viewer_fields(state, viewer)}
    you = view["you"]
    if you is not None:
        own = _own_before(state, you, before)
        if own is None:
            entry = next(p for p in shared["players"] if p["id"] == you)
            own = {**entry, "quests": _quests(rules_for(state["rules_key"]), state["players"][you])}
        view["players"] = [own if p["id"] == you else p for p in shared["players"]]
    return view


def personal_parts(state: State, viewer: Viewer) -> tuple[Path, ...]:
    """Where `personal_view` departs from the shared view: the viewer's fields and their own entry."""
    parts: tuple[Path, ...] = (("host",), ("you",), ("can_undo",))
    if viewer.player in state["players"]:
        parts += (("players", state["order"].index(viewer.player)),)
    return parts


def _own_before(state: State, you: str, before: tuple[State, State] | None) -> dict[str, Any] | None:
    """Return the viewer's own entry of the view before, when the change left their player alone."""
    if before is None:
        return None
    old_state, old_view = before
    if old_state["players"].get(you) is not state["players"][you]:
        return None
    return next((p for p in old_view["players"] if p["id"] == you), None)


def shared_view(state: State, before: tuple[State, State] | None = None) -> State:
    """Return the public view, which every viewer's view is made from.

    Given (the state before a change, its public view), each part the change left alone is the very
    object of the view before: a player whose state is the same object, the event in play, the turn
    while neither it, its player nor the event changed.
    """
    old_state, old_view = before if before is not None else ({}, {})
    rules = rules_for(state["rules_key"])
    kept = {p["id"]: p for p in old_view.get("players", [])
            if old_state["players"].get(p["id"]) is state["players"][p["id"]]}
    turn, event = state["turn"], state["event"]
    same_event = before is not None and event == old_state["event"]
    same_turn = same_event and turn is old_state["turn"] and (turn is None or turn["player"] in kept)
    return {
        **view_header(state, PUBLIC),
        "round": state["round"], "options": state["options"],
        "turn": old_view["turn"] if same_turn else _turn(state),
        "players": [kept.get(pid) or _player(rules, state["players"][pid]) for pid in state["order"]],
        "offers": state["offers"],
        "combat": state["combat"],
        "attacked": state["attacked"],  # C3: "player/ship" → the round it was last attacked
        "event": old_view["event"] if same_event else _event(rules, event),
        "winner": state["winner"],
    }


def _turn(state: State) -> dict[str, Any] | None:
    turn = state["turn"]
    if turn is None:
        return None
    return {"player": turn["player"], "rolled": turn["rolled"], "dice": turn["dice"],
            "allowance": allowance(state, turn["player"]), "moved": turn["moved"]}


def _event(rules: Rules, event: str | None) -> dict[str, Any] | None:
    if event is None:
        return None
    card = rules.events[event]
    return {"id": event, "title": card["title"], "text": card["text"], "effects": card["effects"]}


def _hide_card(quest: dict[str, Any]) -> dict[str, Any]:
    return {"id": quest["id"], "level": quest["level"]}


def event_view_for(event: Event, viewer: Viewer) -> Event:
    """Return the event as `viewer` may see it: no seed, and drawn quest cards only for the owner."""
    if event["type"] == "GameCreated":
        return without_seed(event)
    if event["type"] == "GameStarted":
        quests = {pid: q if pid == viewer.player else _hide_card(q)
                  for pid, q in event["quests"].items()}
        return {**event, "quests": quests}
    if event["type"] == "QuestBought" and event["player"] != viewer.player:
        return {**event, "quest": _hide_card(event["quest"])}
    return event
